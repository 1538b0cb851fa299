// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/kv_cache_interface.py@6e448d0e (KVQuantMode, the KVCacheSpec
// hierarchy FullAttentionSpec, MLAAttentionSpec, SlidingWindowSpec, ChunkedLocalAttentionSpec, MambaSpec,
// EncoderOnlyAttentionSpec, CrossAttentionSpec, SinkFullAttentionSpec, UniformTypeKVCacheSpecs, and
// KVCacheTensor, KVCacheGroupSpec, KVCacheConfig), with the uniform-type registry of
// vllm/v1/kv_cache_spec_registry.py@6e448d0e folded into is_uniform_with_collection. Not ported, and
// refused by type name (check_kv_cache_spec_type_ported): TQFullAttentionSpec, HiddenStateCacheSpec,
// RSWASpec, SlidingWindowMLASpec (DeepSeek-V4 and TurboQuant layouts, the hidden-state extractor, R-SWA).
// A torch.dtype is held as its torch name ("float16", "bfloat16", "float32", "float8_e4m3fn", ...).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace blis::vllm {

// Python's AssertionError, ValueError and NotImplementedError as upstream raises them where a caller
// catches them (the KV-cache grouping tries merges and catches AssertionError/ValueError).
class AssertionError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};
class ValueError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};
class NotImplementedError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Python's floor division a // b.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}
// vllm/utils/math_utils.py cdiv (`-(a // -b)`) and round_up.
constexpr std::int64_t cdiv(std::int64_t a, std::int64_t b) { return -floor_div(a, -b); }
constexpr std::int64_t round_up(std::int64_t x, std::int64_t y) { return floor_div(x + y - 1, y) * y; }

// vllm/utils/torch_utils.py get_dtype_size: the element size of a torch dtype named without "torch.".
std::int64_t get_dtype_size(const std::string& dtype);
// vllm/utils/torch_utils.py nvfp4_kv_cache_full_dim.
constexpr std::int64_t nvfp4_kv_cache_full_dim(std::int64_t head_size) { return head_size / 2 + head_size / 16; }

// kv_cache_interface.py@6e448d0e KVQuantMode.
enum class KVQuantMode : int {
  NONE = 0,
  FP8_PER_TENSOR = 1,
  INT8_PER_TOKEN_HEAD = 2,
  FP8_PER_TOKEN_HEAD = 3,
  INT4_PER_TOKEN_HEAD = 4,
  NVFP4 = 5,
  TURBOQUANT = 6,
};
// kv_cache_interface.py@6e448d0e KVQuantMode.is_per_token_head / is_nvfp4 / is_turboquant.
bool is_per_token_head(KVQuantMode m);
inline bool is_nvfp4(KVQuantMode m) { return m == KVQuantMode::NVFP4; }
inline bool is_turboquant(KVQuantMode m) { return m == KVQuantMode::TURBOQUANT; }
// kv_cache_interface.py@6e448d0e get_kv_quant_mode, is_quantized_kv_cache,
// kv_cache_uses_per_token_head_scales.
KVQuantMode get_kv_quant_mode(const std::string& kv_cache_dtype);
bool is_quantized_kv_cache(const std::string& kv_cache_dtype);
bool kv_cache_uses_per_token_head_scales(const std::string& kv_cache_dtype);

// kv_cache_interface.py@6e448d0e KVCacheSpecKind (a str Enum; kv_cache_spec_kind_value gives the value).
enum class KVCacheSpecKind {
  FULL_ATTENTION,
  MLA_ATTENTION,
  SLIDING_WINDOW,
  SLIDING_WINDOW_MLA,
  MAMBA,
  CHUNKED_LOCAL_ATTENTION,
  SINK_FULL_ATTENTION,
  ENCODER_ONLY_ATTENTION,
  CROSS_ATTENTION,
  UNKNOWN,
};
const char* kv_cache_spec_kind_value(KVCacheSpecKind kind);

// The VllmConfig fields the KV-cache specs and the start-up sizing read, as resolved values (this port
// takes no VllmConfig object).
struct KVCacheVllmConfig {
  std::int64_t max_model_len = 0;                 // model_config.max_model_len
  std::int64_t original_max_model_len = 0;        // model_config.original_max_model_len (-1: auto-fit)
  std::int64_t decode_context_parallel_size = 1;  // parallel_config.decode_context_parallel_size
  std::int64_t max_in_flight_tokens = 0;          // VllmConfig.max_in_flight_tokens
  std::string mamba_cache_mode = "none";          // cache_config.mamba_cache_mode
  std::int64_t max_num_encoder_input_tokens = 0;  // scheduler_config.max_num_encoder_input_tokens
  std::optional<std::int64_t> num_gpu_blocks_override;  // cache_config.num_gpu_blocks_override
  bool disable_hybrid_kv_cache_manager = false;   // scheduler_config.disable_hybrid_kv_cache_manager
  std::int64_t block_size = 16;                   // cache_config.block_size
  bool enable_prefix_caching = true;              // cache_config.enable_prefix_caching
  bool kv_transfer_config_set = false;            // vllm_config.kv_transfer_config is not None
  std::optional<std::int64_t> prefix_match_unit;  // cache_config.prefix_match_unit
};

class KVCacheSpec;
using KVCacheSpecPtr = std::shared_ptr<const KVCacheSpec>;

// Python's insertion-ordered dict[str, KVCacheSpec] (layer name -> spec).
class KVCacheSpecDict {
 public:
  using Item = std::pair<std::string, KVCacheSpecPtr>;
  KVCacheSpecDict() = default;
  KVCacheSpecDict(std::initializer_list<Item> items);
  void set(const std::string& name, KVCacheSpecPtr spec);  // d[name] = spec (keeps an existing position)
  const KVCacheSpecPtr& at(const std::string& name) const;  // d[name]; std::out_of_range if absent
  bool contains(const std::string& name) const { return index_.count(name) != 0; }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const std::vector<Item>& items() const { return items_; }
  std::vector<std::string> keys() const;
  std::vector<KVCacheSpecPtr> values() const;
  std::vector<Item>::const_iterator begin() const { return items_.begin(); }
  std::vector<Item>::const_iterator end() const { return items_.end(); }
  // dict == dict: the same keys mapping to equal specs, in any order.
  friend bool operator==(const KVCacheSpecDict& a, const KVCacheSpecDict& b);

 private:
  std::vector<Item> items_;
  std::map<std::string, std::size_t> index_;
};

// kv_cache_interface.py@6e448d0e KVCacheSpec: the KV-cache format of one layer. Frozen dataclasses
// upstream; here shared as KVCacheSpecPtr (const) and changed only through clone().
class KVCacheSpec {
 public:
  virtual ~KVCacheSpec() = default;
  std::int64_t block_size = 0;  // number of tokens in a block

  // The upstream class name ("FullAttentionSpec", ...).
  virtual const char* type_name() const = 0;
  // KVCacheSpec.page_size_bytes.
  virtual std::int64_t page_size_bytes() const = 0;
  // KVCacheSpec.storage_block_size.
  virtual std::int64_t storage_block_size() const { return block_size; }
  // KVCacheSpec.max_memory_usage_bytes.
  virtual std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const = 0;
  // KVCacheSpec.max_num_blocks_per_req.
  virtual std::int64_t max_num_blocks_per_req(const KVCacheVllmConfig& vllm_config, std::int64_t max_len) const;
  // KVCacheSpec.copy_with_new_block_size (dataclasses.replace(self, block_size=...)).
  std::shared_ptr<KVCacheSpec> copy_with_new_block_size(std::int64_t new_block_size) const;
  // A copy of the same dynamic type (dataclasses.replace without changes).
  virtual std::shared_ptr<KVCacheSpec> clone() const = 0;
  // KVCacheSpec.merge, a classmethod called upstream as type(specs[0]).merge(specs): here dispatched on
  // this spec, which callers take to be specs[0]. Throws AssertionError or ValueError as upstream does.
  virtual KVCacheSpecPtr merge(const std::vector<KVCacheSpecPtr>& specs) const;
  // KVCacheSpec.is_uniform_with_collection (the default form uses the registered uniform-type base).
  virtual bool is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const;
  // The dataclass __eq__: the same class and equal fields.
  virtual bool equals(const KVCacheSpec& other) const;
  friend bool operator==(const KVCacheSpec& a, const KVCacheSpec& b) { return a.equals(b); }

 protected:
  KVCacheSpec() = default;
  KVCacheSpec(const KVCacheSpec&) = default;
  KVCacheSpec& operator=(const KVCacheSpec&) = default;
};

// isinstance(spec, T) for a spec reference or pointer.
template <typename T>
bool isinstance(const KVCacheSpec& spec) {
  return dynamic_cast<const T*>(&spec) != nullptr;
}
template <typename T>
bool isinstance(const KVCacheSpecPtr& spec) {
  return spec != nullptr && dynamic_cast<const T*>(spec.get()) != nullptr;
}

// Refuses a KV-cache spec class this port does not model (by its upstream class name); accepts the
// ported ones. Throws std::invalid_argument naming the class.
void check_kv_cache_spec_type_ported(const std::string& type_name);

// kv_cache_interface.py@6e448d0e AttentionSpec.
class AttentionSpec : public KVCacheSpec {
 public:
  std::int64_t num_kv_heads = 0;
  std::int64_t head_size = 0;
  std::string dtype;
  KVQuantMode kv_quant_mode = KVQuantMode::NONE;
  std::optional<std::int64_t> page_size_padded;
  bool indexes_kv_by_block_stride = false;

  // AttentionSpec.unpadded_page_size_bytes / page_size_bytes / real_page_size_bytes.
  std::int64_t unpadded_page_size_bytes() const;
  std::int64_t page_size_bytes() const override;
  virtual std::int64_t real_page_size_bytes() const;
  // AttentionSpec.max_num_blocks_per_req.
  std::int64_t max_num_blocks_per_req(const KVCacheVllmConfig& vllm_config, std::int64_t max_len) const override;
  bool equals(const KVCacheSpec& other) const override;
  // getattr(a, f) == getattr(b, f) for every f in fields(AttentionSpec).
  bool attention_fields_equal(const AttentionSpec& other) const;
};

// kv_cache_interface.py@6e448d0e FullAttentionSpec.
class FullAttentionSpec : public AttentionSpec {
 public:
  struct Args {
    std::int64_t block_size = 0;
    std::int64_t num_kv_heads = 0;
    std::int64_t head_size = 0;
    std::string dtype;
    KVQuantMode kv_quant_mode = KVQuantMode::NONE;
    std::optional<std::int64_t> page_size_padded;
    bool indexes_kv_by_block_stride = false;
    std::optional<std::int64_t> head_size_v;  // None: head_size (__post_init__)
    std::optional<std::int64_t> sliding_window;
    std::optional<std::int64_t> attention_chunk_size;
    bool non_causal = false;
  };
  explicit FullAttentionSpec(const Args& args);

  std::int64_t head_size_v = 0;
  std::optional<std::int64_t> sliding_window;
  std::optional<std::int64_t> attention_chunk_size;
  bool non_causal = false;

  const char* type_name() const override { return "FullAttentionSpec"; }
  std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const override;
  // FullAttentionSpec.merge_window_sizes (the set given as a sorted std::set is equivalent: size only).
  static std::optional<std::int64_t> merge_window_sizes(const std::vector<std::int64_t>& window_sizes);
  KVCacheSpecPtr merge(const std::vector<KVCacheSpecPtr>& specs) const override;
  std::int64_t real_page_size_bytes() const override;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<FullAttentionSpec>(*this); }
  bool equals(const KVCacheSpec& other) const override;

 protected:
  FullAttentionSpec() = default;
};

// kv_cache_interface.py@6e448d0e MLAAttentionSpec.
class MLAAttentionSpec : public FullAttentionSpec {
 public:
  struct Args {
    std::int64_t block_size = 0;
    std::int64_t num_kv_heads = 0;
    std::int64_t head_size = 0;
    std::string dtype;
    KVQuantMode kv_quant_mode = KVQuantMode::NONE;
    std::optional<std::int64_t> page_size_padded;
    bool indexes_kv_by_block_stride = false;
    std::optional<std::int64_t> head_size_v;
    std::optional<std::int64_t> sliding_window;
    std::optional<std::int64_t> attention_chunk_size;
    bool non_causal = false;
    std::optional<std::string> cache_dtype_str;
    std::optional<std::int64_t> alignment;
    std::int64_t compress_ratio = 1;
    std::optional<std::string> model_version;
    bool non_causal_multi_token_decode = false;
  };
  explicit MLAAttentionSpec(const Args& args);

  std::optional<std::string> cache_dtype_str;
  std::optional<std::int64_t> alignment;
  std::int64_t compress_ratio = 1;
  std::optional<std::string> model_version;
  bool non_causal_multi_token_decode = false;

  const char* type_name() const override { return "MLAAttentionSpec"; }
  std::int64_t storage_block_size() const override { return block_size / compress_ratio; }
  std::int64_t real_page_size_bytes() const override;
  KVCacheSpecPtr merge(const std::vector<KVCacheSpecPtr>& specs) const override;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<MLAAttentionSpec>(*this); }
  bool equals(const KVCacheSpec& other) const override;
};

// kv_cache_interface.py@6e448d0e SinkFullAttentionSpec.
class SinkFullAttentionSpec : public FullAttentionSpec {
 public:
  struct Args {
    std::int64_t block_size = 0;
    std::int64_t num_kv_heads = 0;
    std::int64_t head_size = 0;
    std::string dtype;
    KVQuantMode kv_quant_mode = KVQuantMode::NONE;
    std::optional<std::int64_t> page_size_padded;
    bool indexes_kv_by_block_stride = false;
    std::optional<std::int64_t> head_size_v;
    std::optional<std::int64_t> sliding_window;
    std::optional<std::int64_t> attention_chunk_size;
    bool non_causal = false;
    std::optional<std::int64_t> sink_len;
  };
  explicit SinkFullAttentionSpec(const Args& args);

  std::optional<std::int64_t> sink_len;

  const char* type_name() const override { return "SinkFullAttentionSpec"; }
  KVCacheSpecPtr merge(const std::vector<KVCacheSpecPtr>& specs) const override;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<SinkFullAttentionSpec>(*this); }
  bool equals(const KVCacheSpec& other) const override;
};

// kv_cache_interface.py@6e448d0e ChunkedLocalAttentionSpec.
class ChunkedLocalAttentionSpec : public AttentionSpec {
 public:
  struct Args {
    std::int64_t block_size = 0;
    std::int64_t num_kv_heads = 0;
    std::int64_t head_size = 0;
    std::string dtype;
    KVQuantMode kv_quant_mode = KVQuantMode::NONE;
    std::optional<std::int64_t> page_size_padded;
    bool indexes_kv_by_block_stride = false;
    std::int64_t attention_chunk_size = 0;
  };
  explicit ChunkedLocalAttentionSpec(const Args& args);

  std::int64_t attention_chunk_size = 0;

  const char* type_name() const override { return "ChunkedLocalAttentionSpec"; }
  // ChunkedLocalAttentionSpec.max_admission_blocks_per_request.
  std::int64_t max_admission_blocks_per_request(std::int64_t max_in_flight_tokens, std::int64_t max_model_len) const;
  std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const override;
  bool is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const override;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<ChunkedLocalAttentionSpec>(*this); }
  bool equals(const KVCacheSpec& other) const override;
};

// kv_cache_interface.py@6e448d0e SlidingWindowSpec.
class SlidingWindowSpec : public AttentionSpec {
 public:
  struct Args {
    std::int64_t block_size = 0;
    std::int64_t num_kv_heads = 0;
    std::int64_t head_size = 0;
    std::string dtype;
    KVQuantMode kv_quant_mode = KVQuantMode::NONE;
    std::optional<std::int64_t> page_size_padded;
    bool indexes_kv_by_block_stride = false;
    std::int64_t sliding_window = 0;
    std::optional<std::int64_t> head_size_v;  // None: head_size (__post_init__)
  };
  explicit SlidingWindowSpec(const Args& args);

  std::int64_t sliding_window = 0;
  std::int64_t head_size_v = 0;

  const char* type_name() const override { return "SlidingWindowSpec"; }
  std::int64_t real_page_size_bytes() const override;
  // SlidingWindowSpec.max_admission_blocks_per_request.
  std::int64_t max_admission_blocks_per_request(std::int64_t max_in_flight_tokens, std::int64_t max_model_len) const;
  std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const override;
  bool is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const override;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<SlidingWindowSpec>(*this); }
  bool equals(const KVCacheSpec& other) const override;
};

// kv_cache_interface.py@6e448d0e MambaSpec. mamba_type holds the MambaAttentionBackendEnum member name.
class MambaSpec : public KVCacheSpec {
 public:
  struct Args {
    std::int64_t block_size = 0;
    std::vector<std::vector<std::int64_t>> shapes;
    std::vector<std::string> dtypes;
    std::optional<std::int64_t> page_size_padded;
    std::string mamba_type = "MAMBA2";
    std::string mamba_cache_mode = "none";
    std::int64_t num_speculative_blocks = 0;
  };
  explicit MambaSpec(const Args& args);

  std::vector<std::vector<std::int64_t>> shapes;
  std::vector<std::string> dtypes;
  std::optional<std::int64_t> page_size_padded;
  std::string mamba_type = "MAMBA2";
  std::string mamba_cache_mode = "none";
  std::int64_t num_speculative_blocks = 0;

  const char* type_name() const override { return "MambaSpec"; }
  std::int64_t page_size_bytes() const override;
  std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const override;
  std::int64_t max_num_blocks_per_req(const KVCacheVllmConfig& vllm_config, std::int64_t max_len) const override;
  bool is_uniform_with_collection(const KVCacheSpecDict& kv_cache_specs) const override;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<MambaSpec>(*this); }
  bool equals(const KVCacheSpec& other) const override;
};

// The constructor arguments of the AttentionSpec subclasses that add no field.
struct AttentionSpecArgs {
  std::int64_t block_size = 0;
  std::int64_t num_kv_heads = 0;
  std::int64_t head_size = 0;
  std::string dtype;
  KVQuantMode kv_quant_mode = KVQuantMode::NONE;
  std::optional<std::int64_t> page_size_padded;
  bool indexes_kv_by_block_stride = false;
};

// kv_cache_interface.py@6e448d0e EncoderOnlyAttentionSpec.
class EncoderOnlyAttentionSpec : public AttentionSpec {
 public:
  explicit EncoderOnlyAttentionSpec(const AttentionSpecArgs& args);
  const char* type_name() const override { return "EncoderOnlyAttentionSpec"; }
  std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig&) const override { return 0; }
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<EncoderOnlyAttentionSpec>(*this); }
};

// kv_cache_interface.py@6e448d0e CrossAttentionSpec.
class CrossAttentionSpec : public AttentionSpec {
 public:
  explicit CrossAttentionSpec(const AttentionSpecArgs& args);
  const char* type_name() const override { return "CrossAttentionSpec"; }
  std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const override;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<CrossAttentionSpec>(*this); }
};

// kv_cache_interface.py@6e448d0e UniformTypeKVCacheSpecs.
class UniformTypeKVCacheSpecs : public KVCacheSpec {
 public:
  UniformTypeKVCacheSpecs(std::int64_t block_size, KVCacheSpecDict kv_cache_specs);

  KVCacheSpecDict kv_cache_specs;

  const char* type_name() const override { return "UniformTypeKVCacheSpecs"; }
  std::int64_t page_size_bytes() const override;
  std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config) const override;
  // UniformTypeKVCacheSpecs.is_uniform_type / from_specs (nullptr for None).
  static bool is_uniform_type(const KVCacheSpecDict& kv_cache_specs);
  static std::shared_ptr<const UniformTypeKVCacheSpecs> from_specs(const KVCacheSpecDict& kv_cache_specs);
  // UniformTypeKVCacheSpecs.max_memory_usage_pages.
  std::int64_t max_memory_usage_pages(const KVCacheVllmConfig& vllm_config) const;
  std::shared_ptr<KVCacheSpec> clone() const override { return std::make_shared<UniformTypeKVCacheSpecs>(*this); }
  bool equals(const KVCacheSpec& other) const override;
};

// kv_cache_interface.py@6e448d0e get_kv_cache_spec_kind / get_kv_cache_spec_sliding_window.
KVCacheSpecKind get_kv_cache_spec_kind(const KVCacheSpec& kv_cache_spec);
std::optional<std::int64_t> get_kv_cache_spec_sliding_window(const KVCacheSpec& kv_cache_spec);

// kv_cache_interface.py@6e448d0e KVCacheTensor.
struct KVCacheTensor {
  std::int64_t size = 0;                // size of the KV cache tensor in bytes
  std::vector<std::string> shared_by;  // layer names that share the tensor
  std::int64_t offset = 0;
  std::int64_t block_stride = 0;
  friend bool operator==(const KVCacheTensor&, const KVCacheTensor&) = default;
};

// kv_cache_interface.py@6e448d0e KVCacheGroupSpec.
struct KVCacheGroupSpec {
  std::vector<std::string> layer_names;
  KVCacheSpecPtr kv_cache_spec;
  bool is_eagle_group = false;
  // The dataclass __eq__ (specs compared by value).
  friend bool operator==(const KVCacheGroupSpec& a, const KVCacheGroupSpec& b);
};

// kv_cache_interface.py@6e448d0e KVCacheConfig.
struct KVCacheConfig {
  std::int64_t num_blocks = 0;
  std::vector<KVCacheTensor> kv_cache_tensors;
  std::vector<KVCacheGroupSpec> kv_cache_groups;

  // KVCacheConfig.has_mamba_layers / has_mixed_precision_kv_cache / needs_kv_cache_zeroing.
  bool has_mamba_layers() const;
  bool has_mixed_precision_kv_cache() const;
  bool needs_kv_cache_zeroing() const { return has_mamba_layers() || has_mixed_precision_kv_cache(); }
  friend bool operator==(const KVCacheConfig&, const KVCacheConfig&) = default;
};

}  // namespace blis::vllm
