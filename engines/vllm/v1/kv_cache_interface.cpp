// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/kv_cache_interface.py@6e448d0e; see kv_cache_interface.h.
#include "v1/kv_cache_interface.h"

#include <algorithm>
#include <set>

namespace blis::vllm {

namespace {

const KVCacheSpec& first_spec(const std::vector<KVCacheSpecPtr>& specs) {
  if (specs.empty()) throw AssertionError("merge() of an empty list of KV cache specs");
  return *specs[0];
}

void require(bool ok, const char* message) {
  if (!ok) throw AssertionError(message);
}

template <typename T>
std::optional<T> single_or_none(const std::set<T>& values) {
  if (values.empty()) return std::nullopt;
  return *values.begin();
}

}  // namespace

// vllm/utils/torch_utils.py get_dtype_size (torch element sizes).
std::int64_t get_dtype_size(const std::string& dtype) {
  static const std::map<std::string, std::int64_t> sizes = {
      {"float64", 8},       {"float32", 4},        {"float16", 2},   {"bfloat16", 2},
      {"float8_e4m3fn", 1}, {"float8_e5m2", 1},    {"float8_e4m3fnuz", 1}, {"float8_e5m2fnuz", 1},
      {"uint8", 1},         {"int8", 1},           {"int16", 2},     {"int32", 4},
      {"int64", 8},         {"bool", 1},           {"double", 8},    {"float", 4},
      {"half", 2},
  };
  auto it = sizes.find(dtype);
  if (it == sizes.end()) throw std::invalid_argument("torch dtype '" + dtype + "' is not modelled by this port");
  return it->second;
}

// kv_cache_interface.py@6e448d0e KVQuantMode.is_per_token_head.
bool is_per_token_head(KVQuantMode m) {
  return m == KVQuantMode::INT8_PER_TOKEN_HEAD || m == KVQuantMode::FP8_PER_TOKEN_HEAD ||
         m == KVQuantMode::INT4_PER_TOKEN_HEAD;
}

// kv_cache_interface.py@6e448d0e get_kv_quant_mode.
KVQuantMode get_kv_quant_mode(const std::string& kv_cache_dtype) {
  if (kv_cache_dtype == "int4_per_token_head") return KVQuantMode::INT4_PER_TOKEN_HEAD;
  if (kv_cache_dtype == "int8_per_token_head") return KVQuantMode::INT8_PER_TOKEN_HEAD;
  if (kv_cache_dtype == "fp8_per_token_head") return KVQuantMode::FP8_PER_TOKEN_HEAD;
  if (kv_cache_dtype == "nvfp4") return KVQuantMode::NVFP4;
  if (kv_cache_dtype.rfind("turboquant_", 0) == 0) return KVQuantMode::TURBOQUANT;
  if (kv_cache_dtype.rfind("fp8", 0) == 0) return KVQuantMode::FP8_PER_TENSOR;
  return KVQuantMode::NONE;
}

// kv_cache_interface.py@6e448d0e is_quantized_kv_cache.
bool is_quantized_kv_cache(const std::string& kv_cache_dtype) { return get_kv_quant_mode(kv_cache_dtype) != KVQuantMode::NONE; }

// kv_cache_interface.py@6e448d0e kv_cache_uses_per_token_head_scales.
bool kv_cache_uses_per_token_head_scales(const std::string& kv_cache_dtype) {
  return is_per_token_head(get_kv_quant_mode(kv_cache_dtype));
}

// kv_cache_interface.py@6e448d0e KVCacheSpecKind values.
const char* kv_cache_spec_kind_value(KVCacheSpecKind kind) {
  switch (kind) {
    case KVCacheSpecKind::FULL_ATTENTION: return "full_attention";
    case KVCacheSpecKind::MLA_ATTENTION: return "mla_attention";
    case KVCacheSpecKind::SLIDING_WINDOW: return "sliding_window";
    case KVCacheSpecKind::SLIDING_WINDOW_MLA: return "sliding_window_mla";
    case KVCacheSpecKind::MAMBA: return "mamba";
    case KVCacheSpecKind::CHUNKED_LOCAL_ATTENTION: return "chunked_local_attention";
    case KVCacheSpecKind::SINK_FULL_ATTENTION: return "sink_full_attention";
    case KVCacheSpecKind::ENCODER_ONLY_ATTENTION: return "encoder_only_attention";
    case KVCacheSpecKind::CROSS_ATTENTION: return "cross_attention";
    case KVCacheSpecKind::UNKNOWN: return "unknown";
  }
  return "unknown";
}

// ---- KVCacheSpecDict -----------------------------------------------------------------------------

KVCacheSpecDict::KVCacheSpecDict(std::initializer_list<Item> items) {
  for (const auto& [name, spec] : items) set(name, spec);
}

void KVCacheSpecDict::set(const std::string& name, KVCacheSpecPtr spec) {
  auto it = index_.find(name);
  if (it != index_.end()) {
    items_[it->second].second = std::move(spec);
    return;
  }
  index_.emplace(name, items_.size());
  items_.emplace_back(name, std::move(spec));
}

const KVCacheSpecPtr& KVCacheSpecDict::at(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) throw std::out_of_range("KeyError: '" + name + "'");
  return items_[it->second].second;
}

std::vector<std::string> KVCacheSpecDict::keys() const {
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const auto& item : items_) out.push_back(item.first);
  return out;
}

std::vector<KVCacheSpecPtr> KVCacheSpecDict::values() const {
  std::vector<KVCacheSpecPtr> out;
  out.reserve(items_.size());
  for (const auto& item : items_) out.push_back(item.second);
  return out;
}

bool operator==(const KVCacheSpecDict& a, const KVCacheSpecDict& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [name, spec] : a.items_) {
    if (!b.contains(name)) return false;
    if (!(*spec == *b.at(name))) return false;
  }
  return true;
}

// ---- KVCacheSpec ---------------------------------------------------------------------------------

// kv_cache_interface.py@6e448d0e KVCacheSpec.max_num_blocks_per_req.
std::int64_t KVCacheSpec::max_num_blocks_per_req(const KVCacheVllmConfig&, std::int64_t max_len) const {
  return cdiv(max_len, block_size);
}

// kv_cache_interface.py@6e448d0e KVCacheSpec.copy_with_new_block_size.
std::shared_ptr<KVCacheSpec> KVCacheSpec::copy_with_new_block_size(std::int64_t new_block_size) const {
  auto copy = clone();
  copy->block_size = new_block_size;
  return copy;
}

// kv_cache_interface.py@6e448d0e KVCacheSpec.merge.
KVCacheSpecPtr KVCacheSpec::merge(const std::vector<KVCacheSpecPtr>& specs) const {
  const KVCacheSpec& first = first_spec(specs);
  for (std::size_t i = 1; i < specs.size(); ++i) {
    require(*specs[i] == first, "All layers in the same KV cache group must be the same.");
  }
  return first.clone();
}

// kv_cache_interface.py@6e448d0e KVCacheSpec.is_uniform_with_collection, with the uniform-type base
// classes of single_type_kv_cache_manager.py@6e448d0e register_all_kvcache_specs: FullAttentionSpec for
// itself and its subclasses (MLA, sink), CrossAttentionSpec for itself; the other ported classes override.
bool KVCacheSpec::is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const {
  if (isinstance<FullAttentionSpec>(*this)) {
    return std::all_of(kv_cache_specs.begin(), kv_cache_specs.end(),
                       [](const auto& item) { return isinstance<FullAttentionSpec>(item.second); });
  }
  if (isinstance<CrossAttentionSpec>(*this)) {
    return std::all_of(kv_cache_specs.begin(), kv_cache_specs.end(),
                       [](const auto& item) { return isinstance<CrossAttentionSpec>(item.second); });
  }
  throw AssertionError(std::string("Unsupported KV cache spec type: ") + type_name() +
                       ". Please register it using @register_kv_cache_spec decorator.");
}

bool KVCacheSpec::equals(const KVCacheSpec& other) const {
  return std::string(type_name()) == other.type_name() && block_size == other.block_size;
}

void check_kv_cache_spec_type_ported(const std::string& type_name) {
  static const std::set<std::string> ported = {
      "FullAttentionSpec", "MLAAttentionSpec", "SinkFullAttentionSpec", "SlidingWindowSpec",
      "ChunkedLocalAttentionSpec", "MambaSpec", "EncoderOnlyAttentionSpec", "CrossAttentionSpec",
      "UniformTypeKVCacheSpecs"};
  if (ported.count(type_name) != 0) return;
  static const std::map<std::string, std::string> refused = {
      {"TQFullAttentionSpec", "the TurboQuant KV-cache layout is not ported"},
      {"HiddenStateCacheSpec", "the hidden-state extraction cache (extract_hidden_states) is not ported"},
      {"RSWASpec", "Reference Sliding Window Attention (RSWAManager) is not ported"},
      {"SlidingWindowMLASpec", "the DeepSeek-V4 sliding-window MLA layout and its packed grouping are not ported"},
  };
  auto it = refused.find(type_name);
  if (it != refused.end()) {
    throw std::invalid_argument("KV cache spec " + type_name + " is not modelled by this port: " + it->second);
  }
  throw std::invalid_argument("KV cache spec " + type_name +
                              " is not modelled by this port: it is not a KV cache spec of the pinned vLLM release");
}

// ---- AttentionSpec -------------------------------------------------------------------------------

// kv_cache_interface.py@6e448d0e AttentionSpec.unpadded_page_size_bytes.
std::int64_t AttentionSpec::unpadded_page_size_bytes() const {
  std::int64_t unpadded = real_page_size_bytes();
  if (is_per_token_head(kv_quant_mode)) unpadded += 2 * block_size * num_kv_heads * get_dtype_size("float32");
  return unpadded;
}

// kv_cache_interface.py@6e448d0e AttentionSpec.page_size_bytes.
std::int64_t AttentionSpec::page_size_bytes() const {
  if (page_size_padded.has_value()) {
    require(*page_size_padded >= unpadded_page_size_bytes(), "page_size_padded >= unpadded_page_size_bytes");
    return *page_size_padded;
  }
  return unpadded_page_size_bytes();
}

// kv_cache_interface.py@6e448d0e AttentionSpec.real_page_size_bytes.
std::int64_t AttentionSpec::real_page_size_bytes() const {
  std::int64_t head_dim = head_size;
  if (is_nvfp4(kv_quant_mode)) {
    head_dim = nvfp4_kv_cache_full_dim(head_size);
  } else if (kv_quant_mode == KVQuantMode::INT4_PER_TOKEN_HEAD) {
    head_dim = head_size / 2;
  }
  return 2 * block_size * num_kv_heads * head_dim * get_dtype_size(dtype);
}

// kv_cache_interface.py@6e448d0e AttentionSpec.max_num_blocks_per_req.
std::int64_t AttentionSpec::max_num_blocks_per_req(const KVCacheVllmConfig& vllm_config, std::int64_t max_len) const {
  return cdiv(max_len, block_size * vllm_config.decode_context_parallel_size);
}

bool AttentionSpec::attention_fields_equal(const AttentionSpec& o) const {
  return block_size == o.block_size && num_kv_heads == o.num_kv_heads && head_size == o.head_size && dtype == o.dtype &&
         kv_quant_mode == o.kv_quant_mode && page_size_padded == o.page_size_padded &&
         indexes_kv_by_block_stride == o.indexes_kv_by_block_stride;
}

bool AttentionSpec::equals(const KVCacheSpec& other) const {
  if (!KVCacheSpec::equals(other)) return false;
  return attention_fields_equal(dynamic_cast<const AttentionSpec&>(other));
}

namespace {

template <typename S, typename A>
void set_attention_fields(S& s, const A& a) {
  s.block_size = a.block_size;
  s.num_kv_heads = a.num_kv_heads;
  s.head_size = a.head_size;
  s.dtype = a.dtype;
  s.kv_quant_mode = a.kv_quant_mode;
  s.page_size_padded = a.page_size_padded;
  s.indexes_kv_by_block_stride = a.indexes_kv_by_block_stride;
}

template <typename S, typename A>
void set_full_attention_fields(S& s, const A& a) {
  set_attention_fields(s, a);
  s.head_size_v = a.head_size_v.value_or(a.head_size);  // FullAttentionSpec.__post_init__
  s.sliding_window = a.sliding_window;
  s.attention_chunk_size = a.attention_chunk_size;
  s.non_causal = a.non_causal;
}

// The shared body of FullAttentionSpec.merge and SinkFullAttentionSpec.merge: the merged fields.
FullAttentionSpec::Args merged_full_attention_args(const std::vector<KVCacheSpecPtr>& specs) {
  for (const auto& s : specs) {
    require(isinstance<FullAttentionSpec>(s),
            "All attention layers in the same KV cache group must be FullAttentionSpec.");
  }
  std::vector<std::int64_t> sliding_window;
  std::vector<std::int64_t> attention_chunk_size;
  bool non_causal = false;
  for (const auto& s : specs) {
    const auto& f = dynamic_cast<const FullAttentionSpec&>(*s);
    if (f.sliding_window) sliding_window.push_back(*f.sliding_window);
    if (f.attention_chunk_size) attention_chunk_size.push_back(*f.attention_chunk_size);
    non_causal = non_causal || f.non_causal;
  }
  for (const auto& s : specs) {
    require(!isinstance<MLAAttentionSpec>(s), "MLAAttentionSpec should be merged in MLAAttentionSpec.merge");
  }
  const auto& s0 = dynamic_cast<const FullAttentionSpec&>(*specs[0]);
  FullAttentionSpec::Args a;
  a.block_size = s0.block_size;
  a.num_kv_heads = s0.num_kv_heads;
  a.head_size = s0.head_size;
  a.head_size_v = s0.head_size_v;
  a.dtype = s0.dtype;
  a.kv_quant_mode = s0.kv_quant_mode;
  a.page_size_padded = s0.page_size_padded;
  a.indexes_kv_by_block_stride = s0.indexes_kv_by_block_stride;
  a.sliding_window = FullAttentionSpec::merge_window_sizes(sliding_window);
  a.attention_chunk_size = FullAttentionSpec::merge_window_sizes(attention_chunk_size);
  a.non_causal = non_causal;
  return a;
}

void check_merged_full_attention(const std::vector<KVCacheSpecPtr>& specs, const FullAttentionSpec& merged) {
  for (const auto& s : specs) {
    require(dynamic_cast<const AttentionSpec&>(*s).attention_fields_equal(merged),
            "All attention layers in the same KV cache group must have the same attention spec.");
  }
  require((merged.sliding_window.has_value() ? 1 : 0) + (merged.attention_chunk_size.has_value() ? 1 : 0) <= 1,
          "Model with both sliding window layers and chunked local attention layers is not supported.");
}

}  // namespace

// ---- FullAttentionSpec ---------------------------------------------------------------------------

FullAttentionSpec::FullAttentionSpec(const Args& a) { set_full_attention_fields(*this, a); }

// kv_cache_interface.py@6e448d0e FullAttentionSpec.max_memory_usage_bytes.
std::int64_t FullAttentionSpec::max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const {
  std::int64_t max_model_len = vllm_config.max_model_len;
  std::int64_t dcp_world_size = vllm_config.decode_context_parallel_size;
  if (dcp_world_size > 1) max_model_len = cdiv(max_model_len, dcp_world_size);
  return cdiv(max_model_len, block_size) * page_size_bytes();
}

// kv_cache_interface.py@6e448d0e FullAttentionSpec.merge_window_sizes (of a set: distinct values).
std::optional<std::int64_t> FullAttentionSpec::merge_window_sizes(const std::vector<std::int64_t>& window_sizes) {
  std::set<std::int64_t> distinct(window_sizes.begin(), window_sizes.end());
  if (distinct.size() > 1) {
    throw ValueError("All attention layers in the same KV cache group must have the same window size.");
  }
  return single_or_none(distinct);
}

// kv_cache_interface.py@6e448d0e FullAttentionSpec.merge.
KVCacheSpecPtr FullAttentionSpec::merge(const std::vector<KVCacheSpecPtr>& specs) const {
  first_spec(specs);
  auto merged = std::make_shared<FullAttentionSpec>(merged_full_attention_args(specs));
  check_merged_full_attention(specs, *merged);
  return merged;
}

// kv_cache_interface.py@6e448d0e FullAttentionSpec.real_page_size_bytes.
std::int64_t FullAttentionSpec::real_page_size_bytes() const {
  std::int64_t last_dim = head_size + head_size_v;
  if (is_nvfp4(kv_quant_mode)) {
    last_dim = nvfp4_kv_cache_full_dim(head_size) + nvfp4_kv_cache_full_dim(head_size_v);
  } else if (kv_quant_mode == KVQuantMode::INT4_PER_TOKEN_HEAD) {
    last_dim = head_size / 2 + head_size_v / 2;
  }
  return block_size * num_kv_heads * last_dim * get_dtype_size(dtype);
}

bool FullAttentionSpec::equals(const KVCacheSpec& other) const {
  if (!AttentionSpec::equals(other)) return false;
  const auto& o = dynamic_cast<const FullAttentionSpec&>(other);
  return head_size_v == o.head_size_v && sliding_window == o.sliding_window &&
         attention_chunk_size == o.attention_chunk_size && non_causal == o.non_causal;
}

// ---- MLAAttentionSpec ----------------------------------------------------------------------------

// kv_cache_interface.py@6e448d0e MLAAttentionSpec.__init__/__post_init__ (with _apply_alignment_padding).
MLAAttentionSpec::MLAAttentionSpec(const Args& a) {
  set_full_attention_fields(*this, a);
  cache_dtype_str = a.cache_dtype_str;
  alignment = a.alignment;
  compress_ratio = a.compress_ratio;
  model_version = a.model_version;
  non_causal_multi_token_decode = a.non_causal_multi_token_decode;
  if (alignment.has_value()) {
    std::int64_t actual = real_page_size_bytes();
    std::int64_t padded = round_up(actual, *alignment);
    if (padded != actual) page_size_padded = padded;
  }
}

// kv_cache_interface.py@6e448d0e MLAAttentionSpec.real_page_size_bytes.
std::int64_t MLAAttentionSpec::real_page_size_bytes() const {
  if (cache_dtype_str == "fp8_ds_mla") {
    if (model_version == "deepseek_v4") return storage_block_size() * 584;
    return block_size * 656;
  }
  std::int64_t head_dim = kv_quant_mode == KVQuantMode::INT4_PER_TOKEN_HEAD ? head_size / 2 : head_size;
  return storage_block_size() * num_kv_heads * head_dim * get_dtype_size(dtype);
}

// kv_cache_interface.py@6e448d0e MLAAttentionSpec.merge.
KVCacheSpecPtr MLAAttentionSpec::merge(const std::vector<KVCacheSpecPtr>& specs) const {
  first_spec(specs);
  for (const auto& s : specs) {
    require(isinstance<MLAAttentionSpec>(s),
            "All attention layers in the same KV cache group must be MLAAttentionSpec.");
  }
  std::set<std::optional<std::string>> cache_dtype_strs;
  std::set<std::int64_t> compress_ratios;
  std::set<std::optional<std::string>> model_versions;
  std::set<bool> block_strides;
  bool multi_token_decode = false;
  for (const auto& s : specs) {
    const auto& m = dynamic_cast<const MLAAttentionSpec&>(*s);
    cache_dtype_strs.insert(m.cache_dtype_str);
    compress_ratios.insert(m.compress_ratio);
    model_versions.insert(m.model_version);
    block_strides.insert(m.indexes_kv_by_block_stride);
    multi_token_decode = multi_token_decode || m.non_causal_multi_token_decode;
  }
  require(cache_dtype_strs.size() == 1 && compress_ratios.size() == 1 && model_versions.size() == 1 &&
              block_strides.size() == 1,
          "All attention layers in the same KV cache group must use the same quantization method, compress "
          "ratio, model version, and KV block stride indexing.");
  const auto& s0 = dynamic_cast<const MLAAttentionSpec&>(*specs[0]);
  Args a;
  a.block_size = s0.block_size;
  a.num_kv_heads = s0.num_kv_heads;
  a.head_size = s0.head_size;
  a.dtype = s0.dtype;
  a.kv_quant_mode = s0.kv_quant_mode;
  a.page_size_padded = s0.page_size_padded;
  a.indexes_kv_by_block_stride = *block_strides.begin();
  a.cache_dtype_str = *cache_dtype_strs.begin();
  a.compress_ratio = *compress_ratios.begin();
  a.model_version = *model_versions.begin();
  a.non_causal_multi_token_decode = multi_token_decode;
  auto merged = std::make_shared<MLAAttentionSpec>(a);
  for (const auto& s : specs) {
    require(dynamic_cast<const AttentionSpec&>(*s).attention_fields_equal(*merged),
            "All attention layers in the same KV cache group must have the same attention spec.");
  }
  return merged;
}

bool MLAAttentionSpec::equals(const KVCacheSpec& other) const {
  if (!FullAttentionSpec::equals(other)) return false;
  const auto& o = dynamic_cast<const MLAAttentionSpec&>(other);
  return cache_dtype_str == o.cache_dtype_str && alignment == o.alignment && compress_ratio == o.compress_ratio &&
         model_version == o.model_version && non_causal_multi_token_decode == o.non_causal_multi_token_decode;
}

// ---- SinkFullAttentionSpec -----------------------------------------------------------------------

SinkFullAttentionSpec::SinkFullAttentionSpec(const Args& a) {
  set_full_attention_fields(*this, a);
  sink_len = a.sink_len;
}

// kv_cache_interface.py@6e448d0e SinkFullAttentionSpec.merge.
KVCacheSpecPtr SinkFullAttentionSpec::merge(const std::vector<KVCacheSpecPtr>& specs) const {
  first_spec(specs);
  FullAttentionSpec::Args f = merged_full_attention_args(specs);
  Args a;
  a.block_size = f.block_size;
  a.num_kv_heads = f.num_kv_heads;
  a.head_size = f.head_size;
  a.head_size_v = f.head_size_v;
  a.dtype = f.dtype;
  a.kv_quant_mode = f.kv_quant_mode;
  a.page_size_padded = f.page_size_padded;
  a.indexes_kv_by_block_stride = f.indexes_kv_by_block_stride;
  a.sliding_window = f.sliding_window;
  a.attention_chunk_size = f.attention_chunk_size;
  a.non_causal = f.non_causal;
  const auto* s0 = dynamic_cast<const SinkFullAttentionSpec*>(specs[0].get());
  require(s0 != nullptr, "All attention layers in the same KV cache group must be SinkFullAttentionSpec.");
  a.sink_len = s0->sink_len;
  auto merged = std::make_shared<SinkFullAttentionSpec>(a);
  check_merged_full_attention(specs, *merged);
  return merged;
}

bool SinkFullAttentionSpec::equals(const KVCacheSpec& other) const {
  if (!FullAttentionSpec::equals(other)) return false;
  return sink_len == dynamic_cast<const SinkFullAttentionSpec&>(other).sink_len;
}

// ---- ChunkedLocalAttentionSpec -------------------------------------------------------------------

ChunkedLocalAttentionSpec::ChunkedLocalAttentionSpec(const Args& a) {
  set_attention_fields(*this, a);
  attention_chunk_size = a.attention_chunk_size;
}

// kv_cache_interface.py@6e448d0e ChunkedLocalAttentionSpec.max_admission_blocks_per_request.
std::int64_t ChunkedLocalAttentionSpec::max_admission_blocks_per_request(std::int64_t max_in_flight_tokens,
                                                                         std::int64_t max_model_len) const {
  std::int64_t num_tokens = std::min(attention_chunk_size + max_in_flight_tokens, max_model_len);
  return cdiv(num_tokens, block_size);
}

// kv_cache_interface.py@6e448d0e ChunkedLocalAttentionSpec.max_memory_usage_bytes.
std::int64_t ChunkedLocalAttentionSpec::max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const {
  return max_admission_blocks_per_request(vllm_config.max_in_flight_tokens, vllm_config.max_model_len) *
         page_size_bytes();
}

// kv_cache_interface.py@6e448d0e ChunkedLocalAttentionSpec.is_uniform_with_collection.
bool ChunkedLocalAttentionSpec::is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const {
  return std::all_of(kv_cache_specs.begin(), kv_cache_specs.end(), [this](const auto& item) {
    const auto* s = dynamic_cast<const ChunkedLocalAttentionSpec*>(item.second.get());
    return s != nullptr && s->attention_chunk_size == attention_chunk_size;
  });
}

bool ChunkedLocalAttentionSpec::equals(const KVCacheSpec& other) const {
  if (!AttentionSpec::equals(other)) return false;
  return attention_chunk_size == dynamic_cast<const ChunkedLocalAttentionSpec&>(other).attention_chunk_size;
}

// ---- SlidingWindowSpec ---------------------------------------------------------------------------

SlidingWindowSpec::SlidingWindowSpec(const Args& a) {
  set_attention_fields(*this, a);
  sliding_window = a.sliding_window;
  head_size_v = a.head_size_v.value_or(a.head_size);  // SlidingWindowSpec.__post_init__
}

// kv_cache_interface.py@6e448d0e SlidingWindowSpec.real_page_size_bytes.
std::int64_t SlidingWindowSpec::real_page_size_bytes() const {
  if (is_nvfp4(kv_quant_mode)) {
    std::int64_t last_dim = nvfp4_kv_cache_full_dim(head_size) + nvfp4_kv_cache_full_dim(head_size_v);
    return block_size * num_kv_heads * last_dim * get_dtype_size(dtype);
  }
  return block_size * num_kv_heads * (head_size + head_size_v) * get_dtype_size(dtype);
}

// kv_cache_interface.py@6e448d0e SlidingWindowSpec.max_admission_blocks_per_request.
std::int64_t SlidingWindowSpec::max_admission_blocks_per_request(std::int64_t max_in_flight_tokens,
                                                                 std::int64_t max_model_len) const {
  std::int64_t num_tokens = std::min(sliding_window - 1 + max_in_flight_tokens, max_model_len);
  return cdiv(num_tokens, block_size) + 1;
}

// kv_cache_interface.py@6e448d0e SlidingWindowSpec.max_memory_usage_bytes.
std::int64_t SlidingWindowSpec::max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const {
  require(vllm_config.decode_context_parallel_size == 1, "DCP not support sliding window.");
  return max_admission_blocks_per_request(vllm_config.max_in_flight_tokens, vllm_config.max_model_len) *
         page_size_bytes();
}

// kv_cache_interface.py@6e448d0e SlidingWindowSpec.is_uniform_with_collection.
bool SlidingWindowSpec::is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const {
  return std::all_of(kv_cache_specs.begin(), kv_cache_specs.end(), [this](const auto& item) {
    const auto* s = dynamic_cast<const SlidingWindowSpec*>(item.second.get());
    return s != nullptr && s->sliding_window == sliding_window;
  });
}

bool SlidingWindowSpec::equals(const KVCacheSpec& other) const {
  if (!AttentionSpec::equals(other)) return false;
  const auto& o = dynamic_cast<const SlidingWindowSpec&>(other);
  return sliding_window == o.sliding_window && head_size_v == o.head_size_v;
}

// ---- MambaSpec -----------------------------------------------------------------------------------

MambaSpec::MambaSpec(const Args& a)
    : shapes(a.shapes),
      dtypes(a.dtypes),
      page_size_padded(a.page_size_padded),
      mamba_type(a.mamba_type),
      mamba_cache_mode(a.mamba_cache_mode),
      num_speculative_blocks(a.num_speculative_blocks) {
  block_size = a.block_size;
}

// kv_cache_interface.py@6e448d0e MambaSpec.page_size_bytes (zip: the shorter of shapes and dtypes).
std::int64_t MambaSpec::page_size_bytes() const {
  std::int64_t page_size = 0;
  for (std::size_t i = 0; i < std::min(shapes.size(), dtypes.size()); ++i) {
    std::int64_t n = 1;
    for (std::int64_t d : shapes[i]) n *= d;
    page_size += n * get_dtype_size(dtypes[i]);
  }
  if (page_size_padded.has_value()) {
    require(*page_size_padded >= page_size, "page_size_padded >= page_size");
    return *page_size_padded;
  }
  return page_size;
}

// kv_cache_interface.py@6e448d0e MambaSpec.max_memory_usage_bytes.
std::int64_t MambaSpec::max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const {
  if (vllm_config.mamba_cache_mode == "all") {
    return (cdiv(vllm_config.max_model_len, block_size) + num_speculative_blocks) * page_size_bytes();
  }
  if (vllm_config.mamba_cache_mode == "align") return page_size_bytes() * (2 + num_speculative_blocks);
  return page_size_bytes() * (1 + num_speculative_blocks);
}

// kv_cache_interface.py@6e448d0e MambaSpec.max_num_blocks_per_req.
std::int64_t MambaSpec::max_num_blocks_per_req(const KVCacheVllmConfig& vllm_config, std::int64_t max_len) const {
  if (vllm_config.mamba_cache_mode == "align") return cdiv(max_len, block_size) + num_speculative_blocks;
  return cdiv(max_memory_usage_bytes(vllm_config), page_size_bytes());
}

// kv_cache_interface.py@6e448d0e MambaSpec.is_uniform_with_collection.
bool MambaSpec::is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const {
  return std::all_of(kv_cache_specs.begin(), kv_cache_specs.end(), [this](const auto& item) {
    const auto* s = dynamic_cast<const MambaSpec*>(item.second.get());
    return s != nullptr && s->num_speculative_blocks == num_speculative_blocks;
  });
}

bool MambaSpec::equals(const KVCacheSpec& other) const {
  if (!KVCacheSpec::equals(other)) return false;
  const auto& o = dynamic_cast<const MambaSpec&>(other);
  return shapes == o.shapes && dtypes == o.dtypes && page_size_padded == o.page_size_padded &&
         mamba_type == o.mamba_type && mamba_cache_mode == o.mamba_cache_mode &&
         num_speculative_blocks == o.num_speculative_blocks;
}

// ---- EncoderOnlyAttentionSpec, CrossAttentionSpec ------------------------------------------------

EncoderOnlyAttentionSpec::EncoderOnlyAttentionSpec(const AttentionSpecArgs& a) { set_attention_fields(*this, a); }

CrossAttentionSpec::CrossAttentionSpec(const AttentionSpecArgs& a) { set_attention_fields(*this, a); }

// kv_cache_interface.py@6e448d0e CrossAttentionSpec.max_memory_usage_bytes.
std::int64_t CrossAttentionSpec::max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const {
  return cdiv(vllm_config.max_num_encoder_input_tokens, block_size) * page_size_bytes();
}

// ---- UniformTypeKVCacheSpecs ---------------------------------------------------------------------

UniformTypeKVCacheSpecs::UniformTypeKVCacheSpecs(std::int64_t block_size_, KVCacheSpecDict specs)
    : kv_cache_specs(std::move(specs)) {
  block_size = block_size_;
}

// kv_cache_interface.py@6e448d0e UniformTypeKVCacheSpecs.page_size_bytes.
std::int64_t UniformTypeKVCacheSpecs::page_size_bytes() const {
  std::int64_t total = 0;
  for (const auto& [name, spec] : kv_cache_specs) total += spec->page_size_bytes();
  return total;
}

// kv_cache_interface.py@6e448d0e UniformTypeKVCacheSpecs.max_memory_usage_pages.
std::int64_t UniformTypeKVCacheSpecs::max_memory_usage_pages(const KVCacheVllmConfig& vllm_config) const {
  if (kv_cache_specs.empty()) throw ValueError("max() arg is an empty sequence");
  std::int64_t max_pages = 0;
  bool first = true;
  for (const auto& [name, spec] : kv_cache_specs) {
    std::int64_t pages = cdiv(spec->max_memory_usage_bytes(vllm_config), spec->page_size_bytes());
    if (first || pages > max_pages) max_pages = pages;
    first = false;
  }
  return max_pages;
}

// kv_cache_interface.py@6e448d0e UniformTypeKVCacheSpecs.max_memory_usage_bytes.
std::int64_t UniformTypeKVCacheSpecs::max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const {
  return max_memory_usage_pages(vllm_config) * page_size_bytes();
}

// kv_cache_interface.py@6e448d0e UniformTypeKVCacheSpecs.is_uniform_type.
bool UniformTypeKVCacheSpecs::is_uniform_type(const KVCacheSpecDict& kv_cache_specs) {
  std::set<std::int64_t> block_sizes;
  for (const auto& [name, spec] : kv_cache_specs) block_sizes.insert(spec->block_size);
  if (block_sizes.size() > 1) return false;
  if (kv_cache_specs.empty()) throw std::out_of_range("StopIteration: is_uniform_type of no layers");
  return kv_cache_specs.items().front().second->is_uniform_with_collection(kv_cache_specs);
}

// kv_cache_interface.py@6e448d0e UniformTypeKVCacheSpecs.from_specs.
std::shared_ptr<const UniformTypeKVCacheSpecs> UniformTypeKVCacheSpecs::from_specs(const KVCacheSpecDict& kv_cache_specs) {
  if (!is_uniform_type(kv_cache_specs)) return nullptr;
  return std::make_shared<UniformTypeKVCacheSpecs>(kv_cache_specs.items().front().second->block_size, kv_cache_specs);
}

bool UniformTypeKVCacheSpecs::equals(const KVCacheSpec& other) const {
  if (!KVCacheSpec::equals(other)) return false;
  return kv_cache_specs == dynamic_cast<const UniformTypeKVCacheSpecs&>(other).kv_cache_specs;
}

// ---- kinds, groups, configs ----------------------------------------------------------------------

// kv_cache_interface.py@6e448d0e get_kv_cache_spec_kind.
KVCacheSpecKind get_kv_cache_spec_kind(const KVCacheSpec& spec) {
  if (const auto* u = dynamic_cast<const UniformTypeKVCacheSpecs*>(&spec)) {
    std::set<KVCacheSpecKind> inner;
    for (const auto& [name, s] : u->kv_cache_specs) inner.insert(get_kv_cache_spec_kind(*s));
    if (inner.size() == 1) return *inner.begin();
    return KVCacheSpecKind::UNKNOWN;
  }
  if (isinstance<MLAAttentionSpec>(spec)) return KVCacheSpecKind::MLA_ATTENTION;
  if (isinstance<SinkFullAttentionSpec>(spec)) return KVCacheSpecKind::SINK_FULL_ATTENTION;
  if (isinstance<FullAttentionSpec>(spec)) return KVCacheSpecKind::FULL_ATTENTION;
  if (isinstance<ChunkedLocalAttentionSpec>(spec)) return KVCacheSpecKind::CHUNKED_LOCAL_ATTENTION;
  if (isinstance<SlidingWindowSpec>(spec)) return KVCacheSpecKind::SLIDING_WINDOW;
  if (isinstance<MambaSpec>(spec)) return KVCacheSpecKind::MAMBA;
  if (isinstance<EncoderOnlyAttentionSpec>(spec)) return KVCacheSpecKind::ENCODER_ONLY_ATTENTION;
  if (isinstance<CrossAttentionSpec>(spec)) return KVCacheSpecKind::CROSS_ATTENTION;
  return KVCacheSpecKind::UNKNOWN;
}

// kv_cache_interface.py@6e448d0e get_kv_cache_spec_sliding_window.
std::optional<std::int64_t> get_kv_cache_spec_sliding_window(const KVCacheSpec& spec) {
  if (const auto* u = dynamic_cast<const UniformTypeKVCacheSpecs*>(&spec)) {
    std::set<std::optional<std::int64_t>> inner;
    for (const auto& [name, s] : u->kv_cache_specs) inner.insert(get_kv_cache_spec_sliding_window(*s));
    return inner.size() == 1 ? *inner.begin() : std::nullopt;
  }
  if (const auto* s = dynamic_cast<const SlidingWindowSpec*>(&spec)) return s->sliding_window;
  return std::nullopt;
}

bool operator==(const KVCacheGroupSpec& a, const KVCacheGroupSpec& b) {
  if (a.layer_names != b.layer_names || a.is_eagle_group != b.is_eagle_group) return false;
  if (a.kv_cache_spec == nullptr || b.kv_cache_spec == nullptr) return a.kv_cache_spec == b.kv_cache_spec;
  return *a.kv_cache_spec == *b.kv_cache_spec;
}

// kv_cache_interface.py@6e448d0e KVCacheConfig.has_mamba_layers.
bool KVCacheConfig::has_mamba_layers() const {
  return std::any_of(kv_cache_groups.begin(), kv_cache_groups.end(),
                     [](const KVCacheGroupSpec& g) { return isinstance<MambaSpec>(g.kv_cache_spec); });
}

// kv_cache_interface.py@6e448d0e KVCacheConfig.has_mixed_precision_kv_cache.
bool KVCacheConfig::has_mixed_precision_kv_cache() const {
  std::set<std::pair<std::string, int>> precisions;
  for (const auto& group : kv_cache_groups) {
    std::vector<KVCacheSpecPtr> specs;
    if (const auto* u = dynamic_cast<const UniformTypeKVCacheSpecs*>(group.kv_cache_spec.get())) {
      specs = u->kv_cache_specs.values();
    } else {
      specs = {group.kv_cache_spec};
    }
    for (const auto& s : specs) {
      if (const auto* a = dynamic_cast<const AttentionSpec*>(s.get())) {
        precisions.emplace(a->dtype, static_cast<int>(a->kv_quant_mode));
      }
    }
  }
  return precisions.size() > 1;
}

}  // namespace blis::vllm
