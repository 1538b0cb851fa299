// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/config/vllm.py, vllm/config/compilation.py, vllm/platforms/cuda.py,
// vllm/v1/attention/backends/flash_attn.py, flashinfer.py, fa_utils.py and vllm/distributed/utils.py@6e448d0e;
// the resolution of the model and KV data types, the attention backend and the CUDA-graph mode and
// capture sizes. Optimisation levels other than the default -O2, performance modes other than
// "balanced", sequence parallelism (off by default) and LoRA are not ported.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "model_executor/lowering_internal.h"

namespace blis::vllm {

namespace lowering {

void not_modelled(const std::string& what, const std::string& reason) {
  throw std::invalid_argument(what + " is not modelled by this port: " + reason);
}

// vllm/distributed/utils.py@6e448d0e ensure_divisibility / divide.
std::int64_t divide(std::int64_t numerator, std::int64_t denominator) {
  if (denominator <= 0 || numerator % denominator != 0)
    throw std::invalid_argument(std::to_string(numerator) + " is not divisible by " + std::to_string(denominator));
  return numerator / denominator;
}

Quant plain(const std::string& dtype, std::int64_t bits) {
  Quant q;
  q.dtype = dtype;
  q.payload_bits = units::Count{bits};
  return q;
}

Quant fp8_block_weight(std::int64_t block_n, std::int64_t block_k) {
  Quant q = plain("fp8", 8);
  q.scale_bits = units::Count{32};
  q.block = std::vector<units::Count>{units::Count{block_n}, units::Count{block_k}};
  return q;
}

Quant fp8_group_activation(std::int64_t group) {
  Quant q = plain("fp8", 8);
  q.scale_bits = units::Count{32};
  q.block = std::vector<units::Count>{units::Count{group}};
  return q;
}

// vllm/config/model.py@6e448d0e _get_and_verify_dtype: "auto" keeps the checkpoint's 16-bit type (read
// from its unquantised tensors, the checkpoint's torch_dtype); a float32 checkpoint runs in bfloat16
// upstream on CUDA only through that function's float32 rule, which is not ported.
ModelDtype resolve_model_dtype(const schema::Graph& graph, const LoweringConfig& cfg) {
  ModelDtype d;
  std::string want = cfg.dtype;
  if (want == "auto") {
    std::set<std::string> seen;
    for (const auto& t : graph.model_tensors)
      if (t.part == "weight" && !t.quant) seen.insert(t.dtype);
    if (seen.size() != 1 || (!seen.contains("BF16") && !seen.contains("F16")))
      not_modelled("dtype=auto for model " + graph.model,
                   "its model tensors are not all BF16 or all F16 (model_tensors[].dtype), so the checkpoint's "
                   "16-bit type cannot be read");
    want = seen.contains("BF16") ? "bfloat16" : "float16";
  }
  if (want == "bfloat16" || want == "bf16") {
    d.torch_name = "bfloat16";
    d.plan_dtype = "bf16";
  } else if (want == "float16" || want == "half" || want == "fp16") {
    d.torch_name = "float16";
    d.plan_dtype = "fp16";
  } else {
    not_modelled("dtype=" + cfg.dtype, "only auto, bfloat16 and float16 are lowered");
  }
  return d;
}

// vllm/config/cache.py@6e448d0e CacheConfig.cache_dtype; kv_cache_interface.py get_kv_quant_mode.
KVDtype resolve_kv_dtype(const ModelDtype& dtype, const LoweringConfig& cfg) {
  KVDtype k;
  const std::string& v = cfg.kv_cache_dtype;
  if (v == "auto") {
    k.torch_name = dtype.torch_name;
    k.plan_dtype = dtype.plan_dtype;
  } else if (v == "bfloat16") {
    k.torch_name = "bfloat16";
    k.plan_dtype = "bf16";
  } else if (v == "float16") {
    k.torch_name = "float16";
    k.plan_dtype = "fp16";
  } else if (v == "fp8" || v == "fp8_e4m3") {
    k.torch_name = "float8_e4m3fn";
    k.plan_dtype = "fp8";
    k.bytes = 1;
    k.quantized = true;
  } else {
    not_modelled("kv_cache_dtype=" + v, "only auto, bfloat16, float16, fp8 and fp8_e4m3 are lowered");
  }
  return k;
}

// vllm/distributed/utils.py@6e448d0e get_pp_indices (VLLM_PP_LAYER_PARTITION unset).
std::vector<std::int64_t> stages_of_layers(std::int64_t num_hidden_layers, std::int64_t pp_size) {
  std::vector<std::int64_t> partitions(static_cast<std::size_t>(pp_size), num_hidden_layers / pp_size);
  const std::int64_t remaining_layers = num_hidden_layers % pp_size;
  for (std::int64_t i = 2; i < remaining_layers + 2; ++i) partitions[static_cast<std::size_t>(pp_size - i)] += 1;
  std::vector<std::int64_t> out;
  for (std::int64_t s = 0; s < pp_size; ++s)
    for (std::int64_t j = 0; j < partitions[static_cast<std::size_t>(s)]; ++j) out.push_back(s);
  return out;
}

}  // namespace lowering

using lowering::not_modelled;

DeviceCapability device_capability(const schema::Chip& chip) {
  const std::string& a = chip.architecture;
  if (a == "Ampere") return {8, 0};
  if (a == "Ada Lovelace") return {8, 9};
  if (a == "Hopper") return {9, 0};
  if (a == "Blackwell") return {10, 0};
  if (a == "Blackwell Ultra") return {10, 3};
  not_modelled("chip " + chip.name + " (architecture " + a + ")",
               "its compute capability is not known to the lowering (Ampere, Ada Lovelace, Hopper, Blackwell, "
               "Blackwell Ultra)");
}

namespace {

enum class CGSupport { NEVER = 0, UNIFORM_SINGLE_TOKEN_DECODE = 1, UNIFORM_BATCH = 2, ALWAYS = 3 };

const char* cg_name(CGSupport s) {
  switch (s) {
    case CGSupport::NEVER: return "AttentionCGSupport.NEVER";
    case CGSupport::UNIFORM_SINGLE_TOKEN_DECODE: return "AttentionCGSupport.UNIFORM_SINGLE_TOKEN_DECODE";
    case CGSupport::UNIFORM_BATCH: return "AttentionCGSupport.UNIFORM_BATCH";
    case CGSupport::ALWAYS: return "AttentionCGSupport.ALWAYS";
  }
  return "";
}

// CUDAGraphMode (compilation.py@6e448d0e): NONE, PIECEWISE, FULL, and the pairs (decode, mixed).
struct Mode {
  std::string decode, mixed;  // each NONE, PIECEWISE or FULL
  std::string name() const {
    if (decode == mixed) return decode;
    if (decode == "FULL" && mixed == "NONE") return "FULL_DECODE_ONLY";
    return "FULL_AND_PIECEWISE";
  }
  bool has_full() const { return decode == "FULL" || mixed == "FULL"; }
};

Mode mode_of(const std::string& name) {
  if (name == "NONE" || name == "PIECEWISE" || name == "FULL") return {name, name};
  if (name == "FULL_DECODE_ONLY") return {"FULL", "NONE"};
  if (name == "FULL_AND_PIECEWISE") return {"FULL", "PIECEWISE"};
  throw std::invalid_argument("cudagraph_mode=" + name +
                              ": not a CUDAGraphMode (NONE, PIECEWISE, FULL, FULL_DECODE_ONLY, FULL_AND_PIECEWISE)");
}

// The first attention layout of the graph (the lowering refuses graphs whose attention kinds differ in
// head size, so one layout decides the backend).
const schema::GraphAttention* first_attention(const schema::Graph& graph) {
  for (const auto& name : graph.layers) {
    const auto it = graph.layer_kinds.find(name);
    if (it != graph.layer_kinds.end() && it->second.mixer.attention) return &*it->second.mixer.attention;
  }
  return nullptr;
}

}  // namespace

ResolvedCompilation resolve_compilation(const LoweringConfig& cfg, const schema::Graph& graph,
                                        const schema::Chip& chip) {
  ResolvedCompilation r;
  const DeviceCapability cc = device_capability(chip);
  if (cfg.num_speculative_tokens != 0)
    not_modelled("num_speculative_tokens=" + std::to_string(cfg.num_speculative_tokens),
                 "speculative decoding is not lowered");
  r.uniform_decode_query_len = 1 + cfg.num_speculative_tokens;
  const lowering::ModelDtype dtype = lowering::resolve_model_dtype(graph, cfg);
  const lowering::KVDtype kv = lowering::resolve_kv_dtype(dtype, cfg);
  const schema::GraphAttention* attn = first_attention(graph);
  if (!attn) not_modelled("model " + graph.model, "it has no attention layer (layer_kinds[].mixer.attention)");
  if (attn->kind == "MLA") not_modelled("layer_kinds[].mixer.attention.kind=MLA", "MLA backends are not lowered");

  // platforms/cuda.py@6e448d0e _get_backend_priorities (use_mla=False): SM100 prefers FLASHINFER, others
  // FLASH_ATTN; each candidate is taken when its validate_configuration passes (get_valid_backends).
  CGSupport support = CGSupport::NEVER;
  const std::int64_t head_size = attn->head_dim.value();
  const bool fa_head_ok = head_size % 8 == 0 && head_size <= 256;  // flash_attn.py supports_head_size
  if (cc.major == 10) {
    r.attention_backend = "FLASHINFER";
    // flashinfer.py@6e448d0e FlashInferMetadataBuilder.get_cudagraph_support: trtllm-gen decode
    // (can_use_trtllm_attention holds for the lowered GQA layouts on SM100): UNIFORM_BATCH.
    support = CGSupport::UNIFORM_BATCH;
  } else if (cc.major >= 8) {
    // fa_utils.py@6e448d0e get_flash_attn_version: FA3 on SM90, else FA2.
    const int version = cc.major == 9 ? 3 : 2;
    // flash_attn.py@6e448d0e supports_combination: "FP8 KV cache requires FA3 on SM90 or FA4 on SM100".
    const bool kv_ok = !kv.quantized || version == 3;
    if (fa_head_ok && kv_ok) {
      r.attention_backend = "FLASH_ATTN";
      r.flash_attn_version = version;
      // flash_attn.py@6e448d0e FlashAttentionMetadataBuilder._cudagraph_support.
      support = version == 3 ? CGSupport::ALWAYS : CGSupport::UNIFORM_BATCH;
    } else {
      not_modelled("attention on " + chip.name + " with kv_cache_dtype=" + cfg.kv_cache_dtype + " and head_dim " +
                       std::to_string(head_size),
                   "FLASH_ATTN rejects it and the next backend (FLASHINFER on SM" + std::to_string(cc.major) +
                       std::to_string(cc.minor) + ") is not lowered");
    }
  } else {
    not_modelled("chip " + chip.name, "compute capability below 8.0");
  }
  if (!fa_head_ok && r.attention_backend == "FLASHINFER")
    not_modelled("head_dim " + std::to_string(head_size), "FLASHINFER head sizes other than multiples of 8 up to 256");

  // vllm.py@6e448d0e VllmConfig.__post_init__: enforce_eager sets compilation mode NONE and cudagraph
  // mode NONE; otherwise -O2's default (OPTIMIZATION_LEVEL_02) applies when the user set no mode.
  Mode mode = mode_of(cfg.cudagraph_mode.value_or("FULL_AND_PIECEWISE"));
  const bool compile = !cfg.enforce_eager;  // CompilationMode.VLLM_COMPILE at -O2
  if (cfg.enforce_eager) mode = mode_of("NONE");
  if (mode.decode == "PIECEWISE" || mode.mixed == "PIECEWISE") {
    // requires_piecewise_compilation without VLLM_COMPILE: overridden to NONE (vllm.py).
    if (!compile) mode = mode_of("NONE");
  }
  // compilation.py@6e448d0e set_splitting_ops_for_v1: VLLM_COMPILE with splitting_ops None puts the
  // attention ops in splitting_ops, so splitting_ops_contain_attention() holds whenever compiling.
  const bool splitting_attention = compile;

  // vllm.py@6e448d0e VllmConfig._set_cudagraph_sizes.
  if (!cfg.enforce_eager && mode.name() != "NONE") {
    std::int64_t max_size = 0;
    if (cfg.max_cudagraph_capture_size) {
      max_size = *cfg.max_cudagraph_capture_size;
    } else {
      const std::int64_t decode_query_len = 1 + cfg.num_speculative_tokens;
      max_size = std::min<std::int64_t>(cfg.max_num_seqs * decode_query_len * 2, 512);
    }
    const std::int64_t max_num_tokens = cfg.max_num_batched_tokens;
    max_size = std::min(max_num_tokens, max_size);
    if (max_size < 1)
      throw std::invalid_argument("Maximum cudagraph size should be greater than or equal to 1 when using cuda graph.");
    std::vector<std::int64_t> sizes;
    if (cfg.cudagraph_capture_sizes) {
      if (cfg.cudagraph_capture_sizes->empty())
        throw std::invalid_argument("cudagraph_capture_sizes should contain at least one element when using cuda graph.");
      std::set<std::int64_t> dedup(cfg.cudagraph_capture_sizes->begin(), cfg.cudagraph_capture_sizes->end());
      for (std::int64_t i : dedup)
        if (i <= max_num_tokens) sizes.push_back(i);
    } else {
      for (std::int64_t i : {1, 2, 4})
        if (i <= max_size) sizes.push_back(i);
      if (max_size >= 8)
        for (std::int64_t i = 8; i < std::min<std::int64_t>(max_size + 1, 256); i += 8) sizes.push_back(i);
      if (max_size >= 256)
        for (std::int64_t i = 256; i < max_size + 1; i += 16) sizes.push_back(i);
      if (max_num_tokens <= max_size && std::find(sizes.begin(), sizes.end(), max_num_tokens) == sizes.end())
        sizes.push_back(max_num_tokens);
      std::set<std::int64_t> s(sizes.begin(), sizes.end());
      sizes.assign(s.begin(), s.end());
    }
    const std::int64_t valid_max_size = sizes.empty() ? 0 : sizes.back();
    if (cfg.max_cudagraph_capture_size && *cfg.max_cudagraph_capture_size != valid_max_size &&
        cfg.cudagraph_capture_sizes)
      throw std::invalid_argument("customized max_cudagraph_capture_size(=" +
                                  std::to_string(*cfg.max_cudagraph_capture_size) +
                                  ") should be consistent with the max value of cudagraph_capture_sizes(=" +
                                  std::to_string(valid_max_size) + ")");
    r.max_cudagraph_capture_size = valid_max_size;
    r.cudagraph_capture_sizes = sizes;
  }

  // compilation.py@6e448d0e CompilationConfig.resolve_cudagraph_mode_and_sizes.
  const std::string backend = r.attention_backend;
  if (mode.name() != "NONE") {
    if (mode.mixed == "FULL" && support != CGSupport::ALWAYS) {
      if (support == CGSupport::NEVER)
        throw std::invalid_argument("CUDAGraphMode." + mode.name() + " is not supported with " + backend +
                                    " backend (support: " + cg_name(support) +
                                    "); please try cudagraph_mode=PIECEWISE, and make sure compilation mode is "
                                    "VLLM_COMPILE");
      mode = splitting_attention ? mode_of("FULL_AND_PIECEWISE") : mode_of("FULL_DECODE_ONLY");
    }
    if (mode.decode == "FULL" && support == CGSupport::NEVER)
      mode = splitting_attention ? mode_of("PIECEWISE") : mode_of("NONE");
    if (mode.decode == "FULL" && r.uniform_decode_query_len > 1 &&
        static_cast<int>(support) < static_cast<int>(CGSupport::UNIFORM_BATCH))
      mode = splitting_attention ? mode_of("PIECEWISE") : mode_of("NONE");
  }
  r.cudagraph_mode = mode.name();
  if (r.cudagraph_mode == "NONE") {
    r.cudagraph_capture_sizes.clear();
    r.max_cudagraph_capture_size = 0;
  }
  return r;
}

}  // namespace blis::vllm
