// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_coordinator.py@6e448d0e; see kv_cache_coordinator.h.
#include "v1/core/kv_cache_coordinator.h"

#include <algorithm>
#include <stdexcept>
#include <typeinfo>

namespace blis::vllm {

// kv_cache_coordinator.py@6e448d0e _validate_prefix_cache_retention_interval
void _validate_prefix_cache_retention_interval(std::optional<std::int64_t> retention_interval,
                                               std::int64_t scheduler_block_size, const KVCacheConfig& kv_cache_config) {
  if (!retention_interval.has_value()) return;
  bool any_sparse = false;
  for (const auto& g : kv_cache_config.kv_cache_groups) {
    if (isinstance<SlidingWindowSpec>(g.kv_cache_spec) || isinstance<MambaSpec>(g.kv_cache_spec)) any_sparse = true;
  }
  if (!any_sparse) {
    throw ValueError(
        "VLLM_PREFIX_CACHE_RETENTION_INTERVAL is set but this model has no sliding-window or Mamba KV cache "
        "group, so retention has no effect. Unset it (it only applies to sliding-window and Mamba attention).");
  }
  if (*retention_interval < 0 || *retention_interval % scheduler_block_size != 0) {
    throw ValueError("VLLM_PREFIX_CACHE_RETENTION_INTERVAL (" + std::to_string(*retention_interval) +
                     ") must be non-negative and a multiple of scheduler_block_size (" +
                     std::to_string(scheduler_block_size) + ").");
  }
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.__init__
KVCacheCoordinator::KVCacheCoordinator(KVCacheConfig kv_cache_config_, std::int64_t max_model_len_,
                                       std::int64_t max_in_flight_tokens, bool use_eagle, bool enable_caching_,
                                       bool enable_kv_cache_events, std::int64_t dcp_world_size,
                                       std::int64_t pcp_world_size, std::int64_t scheduler_block_size_,
                                       std::int64_t hash_block_size, std::optional<std::int64_t> retention_interval_)
    : kv_cache_config(std::move(kv_cache_config_)),
      max_model_len(max_model_len_),
      enable_caching(enable_caching_),
      scheduler_block_size(scheduler_block_size_) {
  bool ok = scheduler_block_size % hash_block_size == 0;
  for (const auto& g : kv_cache_config.kv_cache_groups) ok = ok && scheduler_block_size % g.kv_cache_spec->block_size == 0;
  if (!ok) throw AssertionError("scheduler_block_size must be a multiple of hash_block_size and of every group's block size");

  block_pool = std::make_unique<BlockPool>(kv_cache_config.num_blocks, enable_caching, hash_block_size,
                                           enable_kv_cache_events);

  const auto num_groups = static_cast<std::int64_t>(kv_cache_config.kv_cache_groups.size());
  for (std::int64_t i = 0; i < num_groups; ++i) {
    if (kv_cache_config.kv_cache_groups[static_cast<std::size_t>(i)].is_eagle_group) eagle_group_ids.insert(i);
  }
  if (use_eagle && eagle_group_ids.empty()) {
    for (std::int64_t i = 0; i < num_groups; ++i) eagle_group_ids.insert(i);
  }

  const bool needs_zeroing = kv_cache_config.needs_kv_cache_zeroing();
  for (std::int64_t i = 0; i < num_groups; ++i) {
    single_type_managers.push_back(get_manager_for_kv_cache_spec(
        kv_cache_config.kv_cache_groups[static_cast<std::size_t>(i)].kv_cache_spec, max_in_flight_tokens,
        max_model_len, block_pool.get(), enable_caching, i, scheduler_block_size, dcp_world_size, pcp_world_size,
        needs_zeroing));
  }

  retention_interval = retention_interval_;
  _validate_prefix_cache_retention_interval(retention_interval, scheduler_block_size, kv_cache_config);
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.get_num_blocks_to_allocate
std::int64_t KVCacheCoordinator::get_num_blocks_to_allocate(const std::string& request_id, std::int64_t num_tokens,
                                                            const CacheHitBlocks& new_computed_blocks,
                                                            std::int64_t num_encoder_tokens,
                                                            std::int64_t total_computed_tokens,
                                                            std::int64_t num_local_computed_tokens,
                                                            std::int64_t num_tokens_main_model,
                                                            bool apply_admission_cap) {
  static const std::vector<KVCacheBlock*> kNoBlocks;
  std::int64_t num_blocks_to_allocate = 0;
  for (std::size_t i = 0; i < single_type_managers.size(); ++i) {
    auto& manager = *single_type_managers[i];
    if (dynamic_cast<CrossAttentionManager*>(&manager) != nullptr) {
      // A single static allocation of blocks based on the number of encoder input tokens.
      num_blocks_to_allocate += manager.get_num_blocks_to_allocate(request_id, num_encoder_tokens, kNoBlocks, 0, 0,
                                                                   num_encoder_tokens, apply_admission_cap);
    } else {
      num_blocks_to_allocate += manager.get_num_blocks_to_allocate(
          request_id, num_tokens, new_computed_blocks.at(i), total_computed_tokens, num_local_computed_tokens,
          num_tokens_main_model, apply_admission_cap);
    }
  }
  return num_blocks_to_allocate;
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.allocate_new_computed_blocks
void KVCacheCoordinator::allocate_new_computed_blocks(const std::string& request_id,
                                                      const CacheHitBlocks& new_computed_blocks,
                                                      std::int64_t num_local_computed_tokens,
                                                      std::int64_t num_external_computed_tokens) {
  bool running = false;
  for (const auto& manager : single_type_managers) running = running || manager->num_cached_block.count(request_id) != 0;
  if (running) {
    for (const auto& blocks : new_computed_blocks) {
      if (!blocks.empty()) throw AssertionError("running request with new computed blocks");
    }
    return;
  }
  // Two-phase allocation (issue #33775): touch every group's local hits, then allocate external blocks.
  for (std::size_t i = 0; i < single_type_managers.size(); ++i) {
    single_type_managers[i]->add_local_computed_blocks(request_id, new_computed_blocks.at(i),
                                                       num_local_computed_tokens, num_external_computed_tokens);
  }
  if (num_external_computed_tokens > 0) {
    for (auto& manager : single_type_managers) {
      manager->allocate_external_computed_blocks(request_id, num_local_computed_tokens, num_external_computed_tokens);
    }
  }
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.allocate_new_blocks
CacheHitBlocks KVCacheCoordinator::allocate_new_blocks(const std::string& request_id, std::int64_t num_tokens,
                                                       std::int64_t num_tokens_main_model,
                                                       std::int64_t num_encoder_tokens) {
  CacheHitBlocks result;
  for (auto& manager : single_type_managers) {
    const bool cross = dynamic_cast<CrossAttentionManager*>(manager.get()) != nullptr;
    result.push_back(manager->allocate_new_blocks(request_id, cross ? num_encoder_tokens : num_tokens,
                                                  num_tokens_main_model));
  }
  return result;
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.cache_blocks
void KVCacheCoordinator::cache_blocks(const Request& request, std::int64_t num_computed_tokens) {
  for (auto& manager : single_type_managers) manager->cache_blocks(request, num_computed_tokens, retention_interval);
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.free
void KVCacheCoordinator::free(const std::string& request_id) {
  for (auto& manager : single_type_managers) manager->free(request_id);
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.pop_blocks_for_free
std::vector<KVCacheBlock*> KVCacheCoordinator::pop_blocks_for_free(const std::string& request_id) {
  std::vector<KVCacheBlock*> blocks;
  for (auto& manager : single_type_managers) {
    auto b = manager->pop_blocks_for_free(request_id);
    blocks.insert(blocks.end(), b.begin(), b.end());
  }
  return blocks;
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.get_num_common_prefix_blocks
std::vector<std::int64_t> KVCacheCoordinator::get_num_common_prefix_blocks(const std::string& running_request_id) {
  std::vector<std::int64_t> out;
  for (auto& manager : single_type_managers) out.push_back(manager->get_num_common_prefix_blocks(running_request_id));
  return out;
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.remove_skipped_blocks
void KVCacheCoordinator::remove_skipped_blocks(const std::string& request_id, std::int64_t processed_computed_tokens,
                                               std::optional<std::int64_t> num_prompt_tokens) {
  for (auto& manager : single_type_managers) {
    manager->remove_skipped_blocks(request_id, processed_computed_tokens, num_prompt_tokens);
  }
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.get_blocks
CacheHitBlocks KVCacheCoordinator::get_blocks(const std::string& request_id) const {
  CacheHitBlocks out;
  for (const auto& manager : single_type_managers) {
    auto it = manager->req_to_blocks.find(request_id);
    out.push_back(it == manager->req_to_blocks.end() ? std::vector<KVCacheBlock*>{} : it->second);
  }
  return out;
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.new_step_starts
void KVCacheCoordinator::new_step_starts() {
  for (auto& manager : single_type_managers) manager->new_step_starts();
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinatorNoPrefixCache.__init__
KVCacheCoordinatorNoPrefixCache::KVCacheCoordinatorNoPrefixCache(
    KVCacheConfig kv_cache_config_, std::int64_t max_model_len_, std::int64_t max_in_flight_tokens, bool use_eagle,
    bool enable_kv_cache_events, std::int64_t dcp_world_size, std::int64_t pcp_world_size,
    std::int64_t scheduler_block_size_, std::int64_t hash_block_size, std::optional<std::int64_t> retention_interval_)
    : KVCacheCoordinator(std::move(kv_cache_config_), max_model_len_, max_in_flight_tokens, use_eagle, false,
                         enable_kv_cache_events, dcp_world_size, pcp_world_size, scheduler_block_size_,
                         hash_block_size, retention_interval_),
      num_single_type_manager(static_cast<std::int64_t>(single_type_managers.size())) {}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinatorNoPrefixCache.get_num_common_prefix_blocks
std::vector<std::int64_t> KVCacheCoordinatorNoPrefixCache::get_num_common_prefix_blocks(const std::string&) {
  return std::vector<std::int64_t>(static_cast<std::size_t>(num_single_type_manager), 0);
}

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinatorNoPrefixCache.find_longest_cache_hit
CoordinatorCacheHit KVCacheCoordinatorNoPrefixCache::find_longest_cache_hit(const std::vector<BlockHash>&,
                                                                            std::int64_t) {
  return {CacheHitBlocks(static_cast<std::size_t>(num_single_type_manager)), 0, 0};
}

// kv_cache_coordinator.py@6e448d0e UnitaryKVCacheCoordinator.__init__
UnitaryKVCacheCoordinator::UnitaryKVCacheCoordinator(KVCacheConfig kv_cache_config_, std::int64_t max_model_len_,
                                                     std::int64_t max_in_flight_tokens, bool use_eagle,
                                                     bool enable_caching_, bool enable_kv_cache_events,
                                                     std::int64_t dcp_world_size_, std::int64_t pcp_world_size_,
                                                     std::int64_t scheduler_block_size_, std::int64_t hash_block_size,
                                                     std::optional<std::int64_t> retention_interval_)
    : KVCacheCoordinator(std::move(kv_cache_config_), max_model_len_, max_in_flight_tokens, use_eagle,
                         enable_caching_, enable_kv_cache_events, dcp_world_size_, pcp_world_size_,
                         scheduler_block_size_, hash_block_size, retention_interval_),
      kv_cache_spec(kv_cache_config.kv_cache_groups.at(0).kv_cache_spec),
      block_size(kv_cache_spec->block_size),
      dcp_world_size(dcp_world_size_),
      pcp_world_size(pcp_world_size_) {
  if (dcp_world_size > 1) block_size *= dcp_world_size;
  if (enable_caching && hash_block_size != block_size) {
    throw AssertionError("UnitaryKVCacheCoordinator assumes hash_block_size == block_size");
  }
  if (kv_cache_config.kv_cache_groups.size() != 1) {
    throw AssertionError("UnitaryKVCacheCoordinator assumes only one kv cache group");
  }
  single_type_managers[0]->use_eagle = eagle_group_ids.count(0) != 0;
}

// kv_cache_coordinator.py@6e448d0e UnitaryKVCacheCoordinator.find_longest_cache_hit
CoordinatorCacheHit UnitaryKVCacheCoordinator::find_longest_cache_hit(const std::vector<BlockHash>& block_hashes,
                                                                      std::int64_t max_cache_hit_length) {
  auto [hit_blocks, hit_length] = single_type_managers[0]->find_longest_cache_hit(
      block_hashes, max_cache_hit_length, {0}, *block_pool, *kv_cache_spec, eagle_group_ids.count(0) != 0, block_size,
      dcp_world_size, pcp_world_size);
  return {std::move(hit_blocks), hit_length, 0};
}

// kv_cache_coordinator.py@6e448d0e HybridKVCacheCoordinator.__init__
HybridKVCacheCoordinator::HybridKVCacheCoordinator(KVCacheConfig kv_cache_config_, std::int64_t max_model_len_,
                                                   std::int64_t max_in_flight_tokens, bool use_eagle,
                                                   bool enable_caching_, bool enable_kv_cache_events,
                                                   std::int64_t dcp_world_size_, std::int64_t pcp_world_size,
                                                   std::int64_t scheduler_block_size_, std::int64_t hash_block_size_,
                                                   std::optional<std::int64_t> retention_interval_)
    : KVCacheCoordinator(std::move(kv_cache_config_), max_model_len_, max_in_flight_tokens, use_eagle,
                         enable_caching_, enable_kv_cache_events, dcp_world_size_, pcp_world_size,
                         scheduler_block_size_, hash_block_size_, retention_interval_),
      hash_block_size(hash_block_size_),
      dcp_world_size(dcp_world_size_),
      enable_partial_hash_hits(false) {
  for (const auto& manager : single_type_managers) {
    if (manager->block_size % hash_block_size != 0) {
      throw AssertionError("Each KV cache group's real block_size must be divisible by hash_block_size.");
    }
  }
  if (pcp_world_size != 1) throw AssertionError("PCP not support hybrid attn now.");
  if (dcp_world_size > 1) {
    for (const auto& g : kv_cache_config.kv_cache_groups) {
      if (!isinstance<FullAttentionSpec>(g.kv_cache_spec) && !isinstance<MambaSpec>(g.kv_cache_spec)) {
        throw AssertionError(std::string("DCP with hybrid KV cache layouts only supports full-attention and Mamba "
                                         "groups, got: ") + g.kv_cache_spec->type_name() + ".");
      }
    }
  }
  // Partial hash hits need a Mamba "align" group; MambaManager is refused at construction, so this is
  // always false here.
  for (const auto& g : kv_cache_config.kv_cache_groups) {
    const auto* m = dynamic_cast<const MambaSpec*>(g.kv_cache_spec.get());
    if (dcp_world_size == 1 && m != nullptr && m->mamba_cache_mode == "align" && m->block_size > hash_block_size) {
      enable_partial_hash_hits = true;
    }
  }
  verify_and_split_kv_cache_groups();
}

// kv_cache_coordinator.py@6e448d0e HybridKVCacheCoordinator._cache_hit_alignment_tokens
std::int64_t HybridKVCacheCoordinator::_cache_hit_alignment_tokens() const {
  return enable_partial_hash_hits ? hash_block_size : scheduler_block_size;
}

// kv_cache_coordinator.py@6e448d0e HybridKVCacheCoordinator.verify_and_split_kv_cache_groups
void HybridKVCacheCoordinator::verify_and_split_kv_cache_groups() {
  attention_groups.clear();
  for (std::size_t i = 0; i < kv_cache_config.kv_cache_groups.size(); ++i) {
    const auto& g = kv_cache_config.kv_cache_groups[i];
    const SingleTypeKVCacheManager* manager = single_type_managers[i].get();
    const auto& spec = g.kv_cache_spec;
    const bool use_eagle = eagle_group_ids.count(static_cast<std::int64_t>(i)) != 0;
    bool found = false;
    for (auto& group : attention_groups) {
      if (*group.spec == *spec) {
        if (typeid(*manager) != typeid(*group.manager_cls)) {
          throw AssertionError("Expected same manager class for identical KV cache specs.");
        }
        group.group_ids.push_back(static_cast<std::int64_t>(i));
        if (use_eagle && !group.use_eagle) group.use_eagle = true;
        found = true;
        break;
      }
    }
    if (!found) attention_groups.push_back(SpecGroup{spec, {static_cast<std::int64_t>(i)}, manager, use_eagle});
  }
  if (attention_groups.size() <= 1) {
    throw AssertionError("HybridKVCacheCoordinator requires at least two attention groups.");
  }
  // Put full attention first (a stable sort on `not isinstance(spec, FullAttentionSpec)`).
  std::stable_sort(attention_groups.begin(), attention_groups.end(), [](const SpecGroup& a, const SpecGroup& b) {
    return isinstance<FullAttentionSpec>(a.spec) && !isinstance<FullAttentionSpec>(b.spec);
  });
  const auto& first = attention_groups[0];
  full_attention_group_id =
      isinstance<FullAttentionSpec>(first.spec) ? std::optional<std::int64_t>(first.group_ids[0]) : std::nullopt;
  for (const auto& group : attention_groups) {
    if (group.use_eagle) {
      for (auto gid : group.group_ids) single_type_managers[static_cast<std::size_t>(gid)]->use_eagle = true;
    }
  }
}

// kv_cache_coordinator.py@6e448d0e HybridKVCacheCoordinator.cache_blocks
void HybridKVCacheCoordinator::cache_blocks(const Request& request, std::int64_t num_computed_tokens) {
  const std::int64_t aligned_num_computed_tokens =
      enable_partial_hash_hits ? num_computed_tokens
                               : floor_div(num_computed_tokens, scheduler_block_size) * scheduler_block_size;
  for (auto& manager : single_type_managers) {
    std::int64_t num_tokens_to_cache = aligned_num_computed_tokens;
    if (manager->use_eagle && aligned_num_computed_tokens > 0) {
      num_tokens_to_cache = std::min(num_computed_tokens, aligned_num_computed_tokens + manager->block_size);
    }
    manager->cache_blocks(request, num_tokens_to_cache, retention_interval);
  }
}

// kv_cache_coordinator.py@6e448d0e HybridKVCacheCoordinator.find_longest_cache_hit
CoordinatorCacheHit HybridKVCacheCoordinator::find_longest_cache_hit(const std::vector<BlockHash>& block_hashes,
                                                                     std::int64_t max_cache_hit_length) {
  const std::size_t num_groups = kv_cache_config.kv_cache_groups.size();
  std::int64_t hit_length = max_cache_hit_length;
  std::int64_t longest_hit_length = 0;
  std::vector<std::optional<std::vector<KVCacheBlock*>>> hit_blocks_by_group(num_groups);
  std::vector<std::int64_t> hit_length_by_group(num_groups, 0);

  const bool is_simple_hybrid = attention_groups.size() == 2 && isinstance<FullAttentionSpec>(attention_groups[0].spec);
  std::set<std::size_t> eagle_verified;

  while (true) {
    std::int64_t curr_hit_length = hit_length;
    for (std::size_t idx = 0; idx < attention_groups.size(); ++idx) {
      const auto& group = attention_groups[idx];
      const auto first_group_id = static_cast<std::size_t>(group.group_ids[0]);
      const std::int64_t group_block_size = single_type_managers[first_group_id]->block_size;
      const bool is_full = isinstance<FullAttentionSpec>(group.spec);
      if (is_full && hit_blocks_by_group[first_group_id].has_value()) {
        // Full attention is downward-closed: trim to the (reduced) current hit length.
        curr_hit_length = std::min(curr_hit_length, hit_length_by_group[first_group_id]);
        continue;
      }
      const bool drop_eagle_block = group.use_eagle && eagle_verified.count(idx) == 0;
      std::int64_t max_length = curr_hit_length;
      if (drop_eagle_block && !isinstance<MambaSpec>(group.spec)) {
        const std::int64_t eagle_margin =
            (enable_partial_hash_hits && group.manager_cls->supports_fine_grained_hash_lookup() &&
             group_block_size > hash_block_size)
                ? hash_block_size
                : group_block_size;
        max_length = std::min(curr_hit_length + eagle_margin, max_cache_hit_length);
      }
      auto [hit_blocks, new_hit_length] = group.manager_cls->find_longest_cache_hit(
          block_hashes, max_length, group.group_ids, *block_pool, *group.spec, drop_eagle_block,
          _cache_hit_alignment_tokens(), is_full ? dcp_world_size : 1);
      if (drop_eagle_block) {
        eagle_verified.insert(idx);
      } else if (new_hit_length < curr_hit_length) {
        eagle_verified.clear();
      }
      curr_hit_length = new_hit_length;
      for (std::size_t k = 0; k < group.group_ids.size(); ++k) {
        const auto gid = static_cast<std::size_t>(group.group_ids[k]);
        hit_blocks_by_group[gid] = std::move(hit_blocks[k]);
        hit_length_by_group[gid] = new_hit_length;
      }
      longest_hit_length = std::max(longest_hit_length, curr_hit_length);
    }
    if (curr_hit_length >= hit_length) break;
    hit_length = curr_hit_length;
    if (is_simple_hybrid) break;
  }

  // Truncate full attention blocks to the final hit_length.
  const auto& first_group = attention_groups[0];
  if (isinstance<FullAttentionSpec>(first_group.spec)) {
    const std::int64_t group_block_size = single_type_managers[static_cast<std::size_t>(first_group.group_ids[0])]->block_size;
    const std::int64_t num_blocks = cdiv(hit_length, group_block_size);
    for (auto gid : first_group.group_ids) {
      auto& blks = hit_blocks_by_group[static_cast<std::size_t>(gid)];
      if (blks.has_value()) {
        if (static_cast<std::int64_t>(blks->size()) > num_blocks) blks->resize(static_cast<std::size_t>(num_blocks));
        hit_length_by_group[static_cast<std::size_t>(gid)] = hit_length;
      }
    }
  }
  const std::int64_t num_uncached_common_prefix_tokens = longest_hit_length - hit_length;
  CacheHitBlocks cache_hit_blocks;
  for (auto& blocks : hit_blocks_by_group) cache_hit_blocks.push_back(blocks.has_value() ? std::move(*blocks) : std::vector<KVCacheBlock*>{});
  return {std::move(cache_hit_blocks), hit_length, num_uncached_common_prefix_tokens};
}

// kv_cache_coordinator.py@6e448d0e HybridKVCacheCoordinator.find_longest_cache_hit_per_group
std::pair<CacheHitBlocks, std::vector<std::int64_t>> HybridKVCacheCoordinator::find_longest_cache_hit_per_group(
    const std::vector<BlockHash>& block_hashes, std::int64_t max_cache_hit_length) {
  const std::size_t num_groups = kv_cache_config.kv_cache_groups.size();
  CacheHitBlocks hit_blocks(num_groups);
  std::vector<std::int64_t> hit_lengths(num_groups, 0);
  for (const auto& group : attention_groups) {
    auto [blocks, group_hit] = group.manager_cls->find_longest_cache_hit(
        block_hashes, max_cache_hit_length, group.group_ids, *block_pool, *group.spec, group.use_eagle,
        _cache_hit_alignment_tokens());
    for (std::size_t k = 0; k < group.group_ids.size(); ++k) {
      hit_blocks[static_cast<std::size_t>(group.group_ids[k])] = std::move(blocks[k]);
      hit_lengths[static_cast<std::size_t>(group.group_ids[k])] = group_hit;
    }
  }
  return {std::move(hit_blocks), std::move(hit_lengths)};
}

// kv_cache_coordinator.py@6e448d0e get_kv_cache_coordinator
std::unique_ptr<KVCacheCoordinator> get_kv_cache_coordinator(
    const KVCacheConfig& kv_cache_config, std::int64_t max_model_len, std::int64_t max_in_flight_tokens,
    bool use_eagle, bool enable_caching, bool enable_kv_cache_events, std::int64_t dcp_world_size,
    std::int64_t pcp_world_size, std::int64_t scheduler_block_size, std::int64_t hash_block_size,
    std::optional<std::int64_t> retention_interval) {
  if (!enable_caching) {
    return std::make_unique<KVCacheCoordinatorNoPrefixCache>(kv_cache_config, max_model_len, max_in_flight_tokens,
                                                             use_eagle, enable_kv_cache_events, dcp_world_size,
                                                             pcp_world_size, scheduler_block_size, hash_block_size,
                                                             retention_interval);
  }
  if (kv_cache_config.kv_cache_groups.size() == 1) {
    return std::make_unique<UnitaryKVCacheCoordinator>(kv_cache_config, max_model_len, max_in_flight_tokens,
                                                       use_eagle, enable_caching, enable_kv_cache_events,
                                                       dcp_world_size, pcp_world_size, scheduler_block_size,
                                                       hash_block_size, retention_interval);
  }
  return std::make_unique<HybridKVCacheCoordinator>(kv_cache_config, max_model_len, max_in_flight_tokens, use_eagle,
                                                    enable_caching, enable_kv_cache_events, dcp_world_size,
                                                    pcp_world_size, scheduler_block_size, hash_block_size,
                                                    retention_interval);
}

}  // namespace blis::vllm
