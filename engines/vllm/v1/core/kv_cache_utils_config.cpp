// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_utils.py@6e448d0e, second part (grouping and
// sizing at start-up); see kv_cache_utils_config.h.
#include "v1/core/kv_cache_utils_config.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>

namespace blis::vllm {

namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

void require(bool ok, const std::string& message) {
  if (!ok) throw AssertionError(message);
}

bool all_uniform_type_groups(const std::vector<KVCacheGroupSpec>& groups) {
  return std::all_of(groups.begin(), groups.end(),
                     [](const KVCacheGroupSpec& g) { return isinstance<UniformTypeKVCacheSpecs>(g.kv_cache_spec); });
}

const UniformTypeKVCacheSpecs* single_uniform_type_group(const std::vector<KVCacheGroupSpec>& groups) {
  if (groups.size() != 1) return nullptr;
  return dynamic_cast<const UniformTypeKVCacheSpecs*>(groups[0].kv_cache_spec.get());
}

std::vector<KVCacheSpecPtr> group_specs(const std::vector<KVCacheGroupSpec>& groups) {
  std::vector<KVCacheSpecPtr> out;
  for (const auto& g : groups) out.push_back(g.kv_cache_spec);
  return out;
}

std::int64_t max_group_size(const std::vector<KVCacheGroupSpec>& groups) {
  std::int64_t m = 0;
  for (const auto& g : groups) m = std::max(m, static_cast<std::int64_t>(g.layer_names.size()));
  return m;
}

// _use_packed_kv_cache_config for the configurations this port admits: every group a
// UniformTypeKVCacheSpecs (DeepSeek-V4's layout) with more than one group is refused; the connector's
// enable_cross_layers_blocks is not modelled (no connector).
void refuse_packed_layout(const std::vector<KVCacheGroupSpec>& groups) {
  if (groups.size() > 1 && all_uniform_type_groups(groups)) {
    throw std::invalid_argument(
        "the packed per-block KV cache layout (_get_kv_cache_config_packed) is not modelled by this port: it "
        "serves DeepSeek-V4's grouped UniformTypeKVCacheSpecs");
  }
}

}  // namespace

// vllm/utils/mem_utils.py format_gib: f"{round(b / GiB_bytes, 2)}". printf's %.2f rounds the double exactly
// as round(x, 2) does; repr then drops trailing zeros but keeps one digit after the point.
std::string format_gib(std::int64_t b) {
  double x = static_cast<double>(b) / static_cast<double>(kGiB);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  std::string s(buf);
  while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  if (s == "-0.0") s = "-0.0";
  return s;
}

// kv_cache_utils.py@6e448d0e resolve_kv_cache_block_sizes.
std::pair<std::int64_t, std::int64_t> resolve_kv_cache_block_sizes(const KVCacheConfig& kv_cache_config,
                                                                   const KVCacheVllmConfig& vllm_config) {
  std::int64_t dcp = vllm_config.decode_context_parallel_size;
  const auto& groups = kv_cache_config.kv_cache_groups;
  if (groups.size() <= 1) {
    std::int64_t bs = vllm_config.block_size * dcp;
    return {bs, bs};
  }
  std::vector<std::int64_t> group_block_sizes;
  for (const auto& g : groups) {
    group_block_sizes.push_back(isinstance<AttentionSpec>(g.kv_cache_spec) ? g.kv_cache_spec->block_size * dcp
                                                                           : g.kv_cache_spec->block_size);
  }
  std::int64_t scheduler_block_size = 1;
  for (std::int64_t bs : group_block_sizes) scheduler_block_size = std::lcm(scheduler_block_size, bs);
  if (!(vllm_config.enable_prefix_caching || vllm_config.kv_transfer_config_set)) {
    return {scheduler_block_size, scheduler_block_size};
  }
  for (const auto& g : groups) {
    if (isinstance<MambaSpec>(g.kv_cache_spec) && g.kv_cache_spec->block_size != vllm_config.block_size) {
      return {scheduler_block_size, scheduler_block_size};
    }
  }
  std::int64_t hash_block_size = 0;
  if (vllm_config.prefix_match_unit.has_value()) {
    hash_block_size = *vllm_config.prefix_match_unit;
  } else {
    for (std::int64_t bs : group_block_sizes) hash_block_size = std::gcd(hash_block_size, bs);
  }
  for (std::int64_t bs : group_block_sizes) {
    if (bs % hash_block_size != 0) {
      std::string sizes = "[";
      for (std::size_t i = 0; i < group_block_sizes.size(); ++i) {
        sizes += (i ? ", " : "") + std::to_string(group_block_sizes[i]);
      }
      sizes += "]";
      throw ValueError("Invalid prefix_match_unit=" + std::to_string(hash_block_size) +
                       "; all KV cache group block sizes must be divisible by prefix_match_unit. Got group block "
                       "sizes=" + sizes + ".");
    }
  }
  return {scheduler_block_size, hash_block_size};
}

// kv_cache_utils.py@6e448d0e _check_enough_kv_cache_memory.
void _check_enough_kv_cache_memory(std::int64_t available_memory, const std::function<std::int64_t()>& get_needed_memory,
                                   std::int64_t max_model_len,
                                   const std::function<std::int64_t(std::int64_t)>& estimate_max_model_len_fn) {
  if (available_memory <= 0) {
    throw ValueError(
        "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the "
        "engine (this flag also controls CPU memory reservation on the CPU backend, despite its name). See "
        "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.");
  }
  std::int64_t needed_memory = get_needed_memory();
  if (needed_memory > available_memory) {
    std::int64_t estimated_max_len = estimate_max_model_len_fn(available_memory);
    std::string estimated_msg;
    if (estimated_max_len > 0) {
      estimated_msg = "Based on the available memory, the estimated maximum model length is " +
                      std::to_string(estimated_max_len) + ". ";
    }
    throw ValueError("To serve at least one request with the model's max seq len (" + std::to_string(max_model_len) +
                     "), (" + format_gib(needed_memory) +
                     " GiB KV cache is needed, which is larger than the available KV cache memory (" +
                     format_gib(available_memory) + " GiB). " + estimated_msg +
                     "Try increasing `gpu_memory_utilization` (which also controls CPU memory on the CPU backend) or "
                     "decreasing `max_model_len` when initializing the engine. See "
                     "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.");
  }
}

// kv_cache_utils.py@6e448d0e max_memory_usage_bytes.
std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config, const std::vector<KVCacheSpecPtr>& kv_cache_specs) {
  std::int64_t total = 0;
  for (const auto& spec : kv_cache_specs) total += spec->max_memory_usage_bytes(vllm_config);
  return total;
}

namespace {

// The binary search shared by estimate_max_model_len and _estimate_max_model_len_from_groups.
std::int64_t binary_search_max_len(const KVCacheVllmConfig& vllm_config,
                                   const std::function<bool(const KVCacheVllmConfig&)>& fits_config) {
  KVCacheVllmConfig cfg = vllm_config;  // upstream mutates and restores max_model_len
  auto fits = [&](std::int64_t model_len) {
    cfg.max_model_len = model_len;
    return fits_config(cfg);
  };
  std::int64_t left = 1;
  std::int64_t right = vllm_config.max_model_len;
  if (!fits(left)) return 0;
  std::int64_t result = 1;
  while (left <= right) {
    std::int64_t mid = floor_div(left + right, 2);
    if (fits(mid)) {
      result = mid;
      left = mid + 1;
    } else {
      right = mid - 1;
    }
  }
  return result;
}

}  // namespace

// kv_cache_utils.py@6e448d0e estimate_max_model_len.
std::int64_t estimate_max_model_len(const KVCacheVllmConfig& vllm_config, const KVCacheSpecDict& kv_cache_spec,
                                    std::int64_t available_memory) {
  auto specs = kv_cache_spec.values();
  return binary_search_max_len(vllm_config, [&](const KVCacheVllmConfig& cfg) {
    return max_memory_usage_bytes(cfg, specs) <= available_memory;
  });
}

// kv_cache_utils.py@6e448d0e check_enough_kv_cache_memory.
void check_enough_kv_cache_memory(const KVCacheVllmConfig& vllm_config, const KVCacheSpecDict& kv_cache_spec,
                                  std::int64_t available_memory) {
  if (kv_cache_spec.empty()) return;
  _check_enough_kv_cache_memory(
      available_memory, [&] { return max_memory_usage_bytes(vllm_config, kv_cache_spec.values()); },
      vllm_config.max_model_len,
      [&](std::int64_t am) { return estimate_max_model_len(vllm_config, kv_cache_spec, am); });
}

// kv_cache_utils.py@6e448d0e create_kv_cache_group_specs.
std::vector<KVCacheGroupSpec> create_kv_cache_group_specs(const KVCacheSpecDict& kv_cache_spec,
                                                          const std::vector<std::vector<std::string>>& grouped_layer_names) {
  std::vector<KVCacheGroupSpec> kv_cache_groups;
  for (const auto& layer_names_one_group : grouped_layer_names) {
    std::vector<KVCacheSpecPtr> layer_specs;
    for (const auto& name : layer_names_one_group) layer_specs.push_back(kv_cache_spec.at(name));
    if (layer_specs.empty()) throw std::out_of_range("IndexError: list index out of range");
    KVCacheSpecPtr merged_layer_spec = layer_specs[0]->merge(layer_specs);
    kv_cache_groups.push_back(KVCacheGroupSpec{layer_names_one_group, merged_layer_spec, false});
  }
  return kv_cache_groups;
}

// kv_cache_utils.py@6e448d0e is_kv_cache_spec_uniform.
bool is_kv_cache_spec_uniform(const KVCacheSpecDict& kv_cache_spec) {
  if (kv_cache_spec.empty()) return true;
  try {
    auto values = kv_cache_spec.values();
    (void)values[0]->merge(values);
  } catch (const AssertionError&) {
    return false;
  }
  return true;
}

// kv_cache_utils.py@6e448d0e get_max_concurrency_for_kv_cache_config.
double get_max_concurrency_for_kv_cache_config(const KVCacheVllmConfig& vllm_config, const KVCacheConfig& kv_cache_config) {
  std::int64_t num_blocks_per_request = 0;
  for (const auto& group : kv_cache_config.kv_cache_groups) {
    num_blocks_per_request +=
        cdiv(group.kv_cache_spec->max_memory_usage_bytes(vllm_config), group.kv_cache_spec->page_size_bytes());
  }
  if (num_blocks_per_request == 0) throw std::domain_error("ZeroDivisionError: division by zero");
  return static_cast<double>(kv_cache_config.num_blocks) / static_cast<double>(num_blocks_per_request);
}

// kv_cache_utils.py@6e448d0e may_override_num_blocks.
std::int64_t may_override_num_blocks(const KVCacheVllmConfig& vllm_config, std::int64_t num_blocks) {
  if (vllm_config.num_gpu_blocks_override.has_value()) return *vllm_config.num_gpu_blocks_override;
  return num_blocks;
}

// kv_cache_utils.py@6e448d0e _pool_bytes_per_block.
std::int64_t _pool_bytes_per_block(const KVCacheVllmConfig&, const std::vector<KVCacheGroupSpec>& kv_cache_groups) {
  if (const auto* u = single_uniform_type_group(kv_cache_groups)) return u->page_size_bytes();
  refuse_packed_layout(kv_cache_groups);
  std::int64_t group_size = max_group_size(kv_cache_groups);
  std::int64_t page_size = get_uniform_page_size(group_specs(kv_cache_groups));
  return page_size * group_size;
}

// kv_cache_utils.py@6e448d0e get_num_blocks.
std::int64_t get_num_blocks(const KVCacheVllmConfig& vllm_config, std::int64_t num_layers, std::int64_t available_memory,
                            std::int64_t page_size) {
  std::int64_t num_blocks = floor_div(floor_div(available_memory, page_size), num_layers);
  num_blocks = std::max<std::int64_t>(num_blocks, 0);
  return may_override_num_blocks(vllm_config, num_blocks);
}

// kv_cache_utils.py@6e448d0e get_uniform_page_size.
std::int64_t get_uniform_page_size(const std::vector<KVCacheSpecPtr>& kv_cache_specs) {
  std::set<std::int64_t> page_sizes;
  for (const auto& s : kv_cache_specs) page_sizes.insert(s->page_size_bytes());
  require(page_sizes.size() == 1, "len(page_sizes) == 1");
  return *page_sizes.begin();
}

// kv_cache_utils.py@6e448d0e _get_kv_cache_groups_uniform_spec.
std::vector<KVCacheGroupSpec> _get_kv_cache_groups_uniform_spec(const KVCacheSpecDict& kv_cache_specs) {
  return create_kv_cache_group_specs(kv_cache_specs, {kv_cache_specs.keys()});
}

// kv_cache_utils.py@6e448d0e _get_kv_cache_groups_uniform_type.
std::vector<KVCacheGroupSpec> _get_kv_cache_groups_uniform_type(const std::shared_ptr<const UniformTypeKVCacheSpecs>& spec) {
  return {KVCacheGroupSpec{spec->kv_cache_specs.keys(), spec, false}};
}

// kv_cache_utils.py@6e448d0e is_kv_cache_page_size_uniform.
bool is_kv_cache_page_size_uniform(const KVCacheSpecDict& kv_cache_spec) {
  std::set<std::int64_t> page_sizes;
  for (const auto& [name, s] : kv_cache_spec) page_sizes.insert(s->page_size_bytes());
  return page_sizes.size() == 1;
}

// kv_cache_utils.py@6e448d0e unify_kv_cache_spec_page_size.
KVCacheSpecDict unify_kv_cache_spec_page_size(const KVCacheSpecDict& kv_cache_spec) {
  std::set<std::int64_t> page_sizes;
  for (const auto& [name, s] : kv_cache_spec) page_sizes.insert(s->page_size_bytes());
  if (page_sizes.size() <= 1) return kv_cache_spec;
  std::int64_t max_page_size = *page_sizes.rbegin();
  KVCacheSpecDict new_kv_cache_spec;
  for (const auto& [layer_name, layer_spec] : kv_cache_spec) {
    if (layer_spec->page_size_bytes() == max_page_size) {
      new_kv_cache_spec.set(layer_name, layer_spec);
    } else if (const auto* mamba = dynamic_cast<const MambaSpec*>(layer_spec.get())) {
      auto new_spec = std::make_shared<MambaSpec>(*mamba);
      new_spec->page_size_padded = max_page_size;
      require(new_spec->page_size_bytes() == max_page_size, "new_spec.page_size_bytes == max_page_size");
      new_kv_cache_spec.set(layer_name, new_spec);
    } else {
      std::int64_t layer_page_size = layer_spec->page_size_bytes();
      std::shared_ptr<KVCacheSpec> new_spec;
      const auto* attn = dynamic_cast<const AttentionSpec*>(layer_spec.get());
      if (max_page_size % layer_page_size == 0) {
        std::int64_t ratio = max_page_size / layer_page_size;
        new_spec = layer_spec->copy_with_new_block_size(layer_spec->block_size * ratio);
      } else if (attn != nullptr && attn->indexes_kv_by_block_stride) {
        new_spec = layer_spec->clone();
        dynamic_cast<AttentionSpec&>(*new_spec).page_size_padded = max_page_size;
      } else {
        throw NotImplementedError("Layer " + layer_name +
                                  ": page size is not divisible by the maximum page size and cannot be padded. "
                                  "Padding is only supported for attention layers whose backend indexes KV pages by "
                                  "the block stride (indexes_kv_by_block_stride is True).");
      }
      require(new_spec->page_size_bytes() == max_page_size, "new_spec.page_size_bytes == max_page_size");
      new_kv_cache_spec.set(layer_name, new_spec);
    }
  }
  return new_kv_cache_spec;
}

// kv_cache_utils.py@6e448d0e is_kv_cache_type_attention_free.
bool is_kv_cache_type_attention_free(const KVCacheSpecDict& kv_cache_spec) { return kv_cache_spec.empty(); }

// kv_cache_utils.py@6e448d0e _get_kv_cache_groups_uniform_page_size.
std::vector<KVCacheGroupSpec> _get_kv_cache_groups_uniform_page_size(const KVCacheSpecDict& kv_cache_spec) {
  // same_type_layers: dict[KVCacheSpec, list[str]] keyed by spec equality, in first-seen order.
  std::vector<std::pair<KVCacheSpecPtr, std::vector<std::string>>> same_type_layers;
  for (const auto& [layer_name, layer_spec] : kv_cache_spec) {
    auto it = std::find_if(same_type_layers.begin(), same_type_layers.end(),
                           [&](const auto& entry) { return *entry.first == *layer_spec; });
    if (it == same_type_layers.end()) {
      same_type_layers.push_back({layer_spec, {layer_name}});
    } else {
      it->second.push_back(layer_name);
    }
  }
  std::vector<std::vector<std::string>> layer_buckets;
  std::vector<std::vector<KVCacheSpecPtr>> spec_buckets;
  for (const auto& [layer_spec, layer_names] : same_type_layers) {
    bool placed = false;
    for (std::size_t b = 0; b < layer_buckets.size(); ++b) {
      std::vector<KVCacheSpecPtr> candidate = spec_buckets[b];
      candidate.push_back(layer_spec);
      try {
        (void)spec_buckets[b][0]->merge(candidate);
      } catch (const AssertionError&) {
        continue;
      } catch (const ValueError&) {
        continue;
      }
      layer_buckets[b].insert(layer_buckets[b].end(), layer_names.begin(), layer_names.end());
      spec_buckets[b].push_back(layer_spec);
      placed = true;
      break;
    }
    if (!placed) {
      layer_buckets.push_back(layer_names);
      spec_buckets.push_back({layer_spec});
    }
  }
  std::int64_t min_num_layers = 0;
  std::int64_t max_num_layers = 0;
  for (std::size_t b = 0; b < layer_buckets.size(); ++b) {
    auto n = static_cast<std::int64_t>(layer_buckets[b].size());
    min_num_layers = b == 0 ? n : std::min(min_num_layers, n);
    max_num_layers = b == 0 ? n : std::max(max_num_layers, n);
  }
  std::int64_t group_size = min_num_layers;
  // `max_num_layers < min_num_layers * 1.5`, exactly in integers.
  if (2 * max_num_layers < 3 * min_num_layers) group_size = max_num_layers;
  std::vector<std::vector<std::string>> grouped_layers;
  for (const auto& layers : layer_buckets) {
    auto n = static_cast<std::int64_t>(layers.size());
    std::int64_t num_groups = cdiv(n, group_size);
    for (std::int64_t i = 0; i < num_groups; ++i) {
      std::vector<std::string> group;
      for (std::int64_t j = i; j < n; j += num_groups) group.push_back(layers[static_cast<std::size_t>(j)]);
      grouped_layers.push_back(std::move(group));
    }
  }
  return create_kv_cache_group_specs(kv_cache_spec, grouped_layers);
}

// kv_cache_utils.py@6e448d0e _promote_local_kv_cache_specs.
KVCacheSpecDict _promote_local_kv_cache_specs(const KVCacheSpecDict& kv_cache_spec) {
  KVCacheSpecDict promoted_specs = kv_cache_spec;
  if (is_kv_cache_spec_uniform(promoted_specs) || UniformTypeKVCacheSpecs::is_uniform_type(promoted_specs)) {
    return promoted_specs;
  }
  bool has_full_attention = false;
  bool has_sliding_window = false;
  bool has_chunked_local_attention = false;
  std::set<std::int64_t> full_block_sizes;
  for (const auto& [name, spec] : promoted_specs) {
    has_full_attention = has_full_attention || isinstance<FullAttentionSpec>(spec);
    has_sliding_window = has_sliding_window || isinstance<SlidingWindowSpec>(spec);
    has_chunked_local_attention = has_chunked_local_attention || isinstance<ChunkedLocalAttentionSpec>(spec);
    if (isinstance<FullAttentionSpec>(spec)) full_block_sizes.insert(spec->block_size);
  }
  std::optional<std::int64_t> full_attention_block_size;
  if (full_block_sizes.size() == 1) full_attention_block_size = *full_block_sizes.begin();
  auto promoted_page_size_padded = [](const AttentionSpec& spec, std::int64_t block_size) -> std::optional<std::int64_t> {
    if (!spec.page_size_padded.has_value()) return std::nullopt;
    std::int64_t unpadded_page_size = floor_div(spec.unpadded_page_size_bytes() * block_size, spec.block_size);
    return std::max(*spec.page_size_padded, unpadded_page_size);
  };
  if (has_full_attention && (has_sliding_window || has_chunked_local_attention)) {
    for (const auto& [layer_name, spec] : kv_cache_spec) {
      // (SlidingWindowMLASpec is refused by this port, so its branch never applies.)
      if (const auto* sw = dynamic_cast<const SlidingWindowSpec*>(spec.get())) {
        std::int64_t block_size = full_attention_block_size.value_or(sw->block_size);
        FullAttentionSpec::Args a;
        a.block_size = block_size;
        a.num_kv_heads = sw->num_kv_heads;
        a.head_size = sw->head_size;
        a.head_size_v = sw->head_size_v;
        a.dtype = sw->dtype;
        a.kv_quant_mode = sw->kv_quant_mode;
        a.sliding_window = sw->sliding_window;
        a.page_size_padded = promoted_page_size_padded(*sw, block_size);
        promoted_specs.set(layer_name, std::make_shared<FullAttentionSpec>(a));
      } else if (const auto* cl = dynamic_cast<const ChunkedLocalAttentionSpec*>(spec.get())) {
        std::int64_t block_size = full_attention_block_size.value_or(cl->block_size);
        FullAttentionSpec::Args a;
        a.block_size = block_size;
        a.num_kv_heads = cl->num_kv_heads;
        a.head_size = cl->head_size;
        a.dtype = cl->dtype;
        a.attention_chunk_size = cl->attention_chunk_size;
        a.page_size_padded = promoted_page_size_padded(*cl, block_size);
        promoted_specs.set(layer_name, std::make_shared<FullAttentionSpec>(a));
      }
    }
  }
  if (!(is_kv_cache_spec_uniform(promoted_specs) || UniformTypeKVCacheSpecs::is_uniform_type(promoted_specs))) {
    throw ValueError("Failed to promote local KV cache specs to one unified type.");
  }
  return promoted_specs;
}

// kv_cache_utils.py@6e448d0e _try_get_full_allocation_fallback_groups.
std::optional<std::vector<KVCacheGroupSpec>> _try_get_full_allocation_fallback_groups(const KVCacheSpecDict& kv_cache_spec) {
  bool has_mla = false;
  bool has_regular_swa = false;
  for (const auto& [name, spec] : kv_cache_spec) {
    if (isinstance<ChunkedLocalAttentionSpec>(spec)) return std::nullopt;
    has_mla = has_mla || isinstance<MLAAttentionSpec>(spec);
    has_regular_swa = has_regular_swa || isinstance<SlidingWindowSpec>(spec);
  }
  if (!(has_mla && has_regular_swa)) return std::nullopt;
  KVCacheSpecDict promoted_specs;
  try {
    promoted_specs = _promote_local_kv_cache_specs(kv_cache_spec);
  } catch (const ValueError&) {
    return std::nullopt;
  }
  auto uniform_spec = UniformTypeKVCacheSpecs::from_specs(promoted_specs);
  if (uniform_spec == nullptr) return std::nullopt;
  return _get_kv_cache_groups_uniform_type(uniform_spec);
}

// kv_cache_utils.py@6e448d0e unify_hybrid_kv_cache_specs.
void unify_hybrid_kv_cache_specs(KVCacheSpecDict& kv_cache_spec) {
  if (is_kv_cache_spec_uniform(kv_cache_spec) || UniformTypeKVCacheSpecs::is_uniform_type(kv_cache_spec)) return;
  KVCacheSpecDict promoted = _promote_local_kv_cache_specs(kv_cache_spec);
  for (const auto& [name, spec] : promoted) kv_cache_spec.set(name, spec);
}

// kv_cache_utils.py@6e448d0e get_kv_cache_groups. (The DeepSeek-V4 grouping and hidden-state layers need
// SlidingWindowMLASpec / HiddenStateCacheSpec, which this port refuses, so those branches never apply.)
std::vector<KVCacheGroupSpec> get_kv_cache_groups(const KVCacheVllmConfig& vllm_config, KVCacheSpecDict& kv_cache_spec) {
  for (const auto& [name, spec] : kv_cache_spec) check_kv_cache_spec_type_ported(spec->type_name());
  if (vllm_config.disable_hybrid_kv_cache_manager) unify_hybrid_kv_cache_specs(kv_cache_spec);
  if (is_kv_cache_type_attention_free(kv_cache_spec)) return {};
  if (is_kv_cache_spec_uniform(kv_cache_spec)) return _get_kv_cache_groups_uniform_spec(kv_cache_spec);
  if (auto uniform_spec = UniformTypeKVCacheSpecs::from_specs(kv_cache_spec)) {
    return _get_kv_cache_groups_uniform_type(uniform_spec);
  }
  KVCacheSpecDict filtered_spec;
  try {
    filtered_spec = unify_kv_cache_spec_page_size(kv_cache_spec);
  } catch (const NotImplementedError&) {
    auto fallback_groups = _try_get_full_allocation_fallback_groups(kv_cache_spec);
    if (!fallback_groups.has_value()) throw;
    return *fallback_groups;
  }
  return _get_kv_cache_groups_uniform_page_size(filtered_spec);
}

// kv_cache_utils.py@6e448d0e get_kv_cache_config_from_groups.
KVCacheConfig get_kv_cache_config_from_groups(const KVCacheVllmConfig& vllm_config,
                                              const std::vector<KVCacheGroupSpec>& kv_cache_groups,
                                              std::int64_t available_memory) {
  if (kv_cache_groups.empty()) return KVCacheConfig{1, {}, kv_cache_groups};
  std::int64_t num_blocks = 0;
  std::vector<KVCacheTensor> kv_cache_tensors;
  if (const auto* u = single_uniform_type_group(kv_cache_groups)) {
    num_blocks = may_override_num_blocks(vllm_config, floor_div(available_memory, u->page_size_bytes()));
    for (const auto& layer_name : kv_cache_groups[0].layer_names) {
      kv_cache_tensors.push_back(KVCacheTensor{u->kv_cache_specs.at(layer_name)->page_size_bytes() * num_blocks,
                                               {layer_name}, 0, 0});
    }
  } else {
    refuse_packed_layout(kv_cache_groups);
    std::int64_t group_size = max_group_size(kv_cache_groups);
    std::int64_t page_size = get_uniform_page_size(group_specs(kv_cache_groups));
    require(group_size > 0, "group_size must be greater than 0");
    num_blocks = get_num_blocks(vllm_config, group_size, available_memory, page_size);
    for (std::int64_t i = 0; i < group_size; ++i) {
      std::vector<std::string> shared_by;
      for (const auto& g : kv_cache_groups) {
        if (i < static_cast<std::int64_t>(g.layer_names.size())) shared_by.push_back(g.layer_names[static_cast<std::size_t>(i)]);
      }
      kv_cache_tensors.push_back(KVCacheTensor{page_size * num_blocks, shared_by, 0, 0});
    }
  }
  return KVCacheConfig{num_blocks, kv_cache_tensors, kv_cache_groups};
}

// kv_cache_utils.py@6e448d0e generate_scheduler_kv_cache_config.
KVCacheConfig generate_scheduler_kv_cache_config(const std::vector<KVCacheConfig>& kv_cache_configs) {
  require(!kv_cache_configs.empty(), "kv_cache_configs is not empty");
  for (const auto& cfg : kv_cache_configs) {
    require(cfg.num_blocks == kv_cache_configs[0].num_blocks, "all workers have the same num_blocks");
  }
  KVCacheConfig cfg = kv_cache_configs[0];
  for (auto& group : cfg.kv_cache_groups) {
    if (const auto* u = dynamic_cast<const UniformTypeKVCacheSpecs*>(group.kv_cache_spec.get())) {
      group.kv_cache_spec = u->kv_cache_specs.items().front().second;
    }
  }
  return cfg;
}

// kv_cache_utils.py@6e448d0e get_kv_cache_capacity.
std::pair<std::int64_t, double> get_kv_cache_capacity(const KVCacheVllmConfig& vllm_config, const KVCacheConfig& kv_cache_config) {
  double max_concurrency = get_max_concurrency_for_kv_cache_config(vllm_config, kv_cache_config);
  return {static_cast<std::int64_t>(max_concurrency * static_cast<double>(vllm_config.max_model_len)), max_concurrency};
}

// kv_cache_utils.py@6e448d0e _max_memory_usage_bytes_from_groups.
std::int64_t _max_memory_usage_bytes_from_groups(const KVCacheVllmConfig& vllm_config,
                                                 const std::vector<KVCacheGroupSpec>& kv_cache_groups) {
  if (kv_cache_groups.empty()) return 0;
  if (const auto* u = single_uniform_type_group(kv_cache_groups)) {
    std::int64_t total = 0;
    for (const auto& [name, spec] : u->kv_cache_specs) total += spec->max_memory_usage_bytes(vllm_config);
    return total;
  }
  refuse_packed_layout(kv_cache_groups);
  std::int64_t group_size = max_group_size(kv_cache_groups);
  std::int64_t page_size = get_uniform_page_size(group_specs(kv_cache_groups));
  std::int64_t blocks_needed = 0;
  for (const auto& g : kv_cache_groups) blocks_needed += cdiv(g.kv_cache_spec->max_memory_usage_bytes(vllm_config), page_size);
  return group_size * page_size * blocks_needed;
}

// kv_cache_utils.py@6e448d0e _estimate_max_model_len_from_groups.
std::int64_t _estimate_max_model_len_from_groups(const KVCacheVllmConfig& vllm_config,
                                                 const std::vector<KVCacheGroupSpec>& kv_cache_groups,
                                                 std::int64_t available_memory) {
  return binary_search_max_len(vllm_config, [&](const KVCacheVllmConfig& cfg) {
    return _max_memory_usage_bytes_from_groups(cfg, kv_cache_groups) <= available_memory;
  });
}

// kv_cache_utils.py@6e448d0e _auto_fit_max_model_len.
void _auto_fit_max_model_len(KVCacheVllmConfig& vllm_config,
                             const std::vector<std::vector<KVCacheGroupSpec>>& projected_groups_per_worker,
                             const std::vector<std::int64_t>& available_memory) {
  std::int64_t original_max = vllm_config.max_model_len;
  if (std::all_of(projected_groups_per_worker.begin(), projected_groups_per_worker.end(),
                  [](const auto& g) { return g.empty(); })) {
    return;
  }
  std::int64_t auto_fit_max = original_max;
  for (std::size_t w = 0; w < projected_groups_per_worker.size(); ++w) {
    if (projected_groups_per_worker[w].empty()) continue;
    std::int64_t worker_max =
        _estimate_max_model_len_from_groups(vllm_config, projected_groups_per_worker[w], available_memory[w]);
    auto_fit_max = std::min(auto_fit_max, worker_max);
  }
  if (auto_fit_max <= 0) {
    throw ValueError(
        "Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. Try "
        "increasing `gpu_memory_utilization`.");
  }
  if (auto_fit_max < original_max) vllm_config.max_model_len = auto_fit_max;
}

// kv_cache_utils.py@6e448d0e _project_kv_cache_groups_to_worker.
std::vector<KVCacheGroupSpec> _project_kv_cache_groups_to_worker(const std::vector<KVCacheGroupSpec>& global_kv_cache_groups,
                                                                 const KVCacheSpecDict& worker_spec) {
  std::vector<KVCacheGroupSpec> projected_groups;
  for (const auto& group : global_kv_cache_groups) {
    std::vector<std::string> worker_layer_names;
    for (const auto& name : group.layer_names) {
      if (worker_spec.contains(name)) worker_layer_names.push_back(name);
    }
    KVCacheSpecPtr group_spec = group.kv_cache_spec;
    const auto* u = dynamic_cast<const UniformTypeKVCacheSpecs*>(group_spec.get());
    if (!worker_layer_names.empty() && u != nullptr) {
      KVCacheSpecDict specs;
      for (const auto& name : worker_layer_names) specs.set(name, u->kv_cache_specs.at(name));
      group_spec = std::make_shared<UniformTypeKVCacheSpecs>(u->block_size, specs);
    }
    projected_groups.push_back(
        KVCacheGroupSpec{worker_layer_names, group_spec, group.is_eagle_group && !worker_layer_names.empty()});
  }
  return projected_groups;
}

// kv_cache_utils.py@6e448d0e get_kv_cache_configs.
std::vector<KVCacheConfig> get_kv_cache_configs(KVCacheVllmConfig& vllm_config,
                                                const std::vector<KVCacheSpecDict>& kv_cache_specs,
                                                const std::vector<std::int64_t>& available_memory_in) {
  require(kv_cache_specs.size() == available_memory_in.size(), "one available-memory figure per worker");
  KVCacheSpecDict merged_kv_cache_specs;
  for (const auto& one_worker : kv_cache_specs) {
    for (const auto& [layer_name, layer_spec] : one_worker) {
      if (!merged_kv_cache_specs.contains(layer_name)) {
        merged_kv_cache_specs.set(layer_name, layer_spec);
      } else {
        require(*merged_kv_cache_specs.at(layer_name) == *layer_spec,
                "The KV cache specs for the same layer are different across workers. This is not supported yet.");
      }
    }
  }
  // KVCacheSpecRegistry.check_kv_cache_spec_registry: every spec class must be one this port models.
  for (const auto& [name, spec] : merged_kv_cache_specs) check_kv_cache_spec_type_ported(spec->type_name());
  std::vector<KVCacheGroupSpec> global_kv_cache_groups = get_kv_cache_groups(vllm_config, merged_kv_cache_specs);

  std::vector<std::vector<KVCacheGroupSpec>> projected_groups_per_worker;
  for (const auto& worker_spec : kv_cache_specs) {
    projected_groups_per_worker.push_back(_project_kv_cache_groups_to_worker(global_kv_cache_groups, worker_spec));
  }

  std::vector<std::int64_t> available_memory = available_memory_in;
  if (vllm_config.num_gpu_blocks_override.has_value()) {
    std::vector<std::int64_t> adjusted_memory;
    for (std::size_t w = 0; w < projected_groups_per_worker.size(); ++w) {
      if (projected_groups_per_worker[w].empty()) {
        adjusted_memory.push_back(available_memory[w]);
        continue;
      }
      std::int64_t bytes_per_block = _pool_bytes_per_block(vllm_config, projected_groups_per_worker[w]);
      adjusted_memory.push_back(*vllm_config.num_gpu_blocks_override * bytes_per_block);
    }
    available_memory = adjusted_memory;
  }

  if (vllm_config.original_max_model_len == -1) {
    _auto_fit_max_model_len(vllm_config, projected_groups_per_worker, available_memory);
  }

  for (std::size_t w = 0; w < projected_groups_per_worker.size(); ++w) {
    const auto& groups = projected_groups_per_worker[w];
    if (groups.empty()) continue;
    const KVCacheVllmConfig& cfg = vllm_config;
    _check_enough_kv_cache_memory(
        available_memory[w], [&] { return _max_memory_usage_bytes_from_groups(cfg, groups); }, cfg.max_model_len,
        [&](std::int64_t am) { return _estimate_max_model_len_from_groups(cfg, groups, am); });
  }

  std::vector<KVCacheConfig> kv_cache_configs;
  for (std::size_t w = 0; w < projected_groups_per_worker.size(); ++w) {
    std::size_t assigned = 0;
    for (const auto& g : projected_groups_per_worker[w]) assigned += g.layer_names.size();
    require(assigned == kv_cache_specs[w].size(), "Some layers are not assigned to any group.");
    kv_cache_configs.push_back(get_kv_cache_config_from_groups(vllm_config, projected_groups_per_worker[w], available_memory[w]));
  }

  std::int64_t min_num_blocks = kv_cache_configs.at(0).num_blocks;
  for (const auto& c : kv_cache_configs) min_num_blocks = std::min(min_num_blocks, c.num_blocks);
  for (auto& c : kv_cache_configs) {
    std::int64_t num_blocks_old = c.num_blocks;
    c.num_blocks = min_num_blocks;
    for (auto& tensor : c.kv_cache_tensors) {
      require(num_blocks_old != 0 && tensor.size % num_blocks_old == 0, "tensor.size % num_blocks_old == 0");
      tensor.size = tensor.size / num_blocks_old * min_num_blocks;
    }
  }
  return kv_cache_configs;
}

// The single-worker form of get_kv_cache_configs.
KVCacheConfig get_kv_cache_config(const KVCacheSpecDict& kv_cache_spec, std::int64_t available_memory,
                                  std::optional<std::int64_t> num_gpu_blocks_override, std::int64_t max_model_len) {
  KVCacheVllmConfig cfg;
  cfg.max_model_len = max_model_len;
  cfg.original_max_model_len = max_model_len;
  cfg.num_gpu_blocks_override = num_gpu_blocks_override;
  return get_kv_cache_configs(cfg, {kv_cache_spec}, {available_memory}).at(0);
}

}  // namespace blis::vllm
