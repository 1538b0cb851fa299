// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/models/llama.py@71de97b2 (LlamaModel, LlamaDecoderLayer,
// LlamaAttention, LlamaMLP) and python/sglang/srt/models/mixtral.py@71de97b2 (MixtralMoE), with the kernels the
// layers they build select on CUDA: python/sglang/srt/layers/layernorm.py@71de97b2 (RMSNorm.forward_cuda),
// python/sglang/srt/layers/activation.py@71de97b2 (SiluAndMul.forward_cuda),
// python/sglang/srt/layers/rotary_embedding/base.py@71de97b2 (RotaryEmbedding.forward_cuda),
// python/sglang/srt/models/qwen3.py@71de97b2 (Qwen3Attention's QK norm, via models/utils.py@71de97b2 apply_qk_norm and
// kernels/ops/layernorm/norm.py@71de97b2 fused_inplace_qknorm),
// python/sglang/srt/layers/quantization/unquant.py@71de97b2 (UnquantizedLinearMethod.apply,
// initialize_bf16_gemm_config, UnquantizedFusedMoEMethod.create_moe_runner),
// python/sglang/kernels/ops/gemm/cutedsl_bf16_gemm.py@71de97b2 (use_cutedsl_bf16_gemm),
// python/sglang/srt/mem_cache/memory_pool.py@71de97b2 (_set_kv_buffer_impl), the attention backends
// python/sglang/srt/layers/attention/{flashinfer_backend,flashattention_backend,trtllm_mha_backend,
// triton_backend}.py@71de97b2 (forward_extend, forward_decode), python/sglang/srt/layers/moe/moe_runner/
// triton.py@71de97b2, python/sglang/srt/distributed/parallel_state.py@71de97b2 and
// python/sglang/srt/distributed/device_communicators/custom_all_reduce.py@71de97b2 (the TP all-reduce's
// communicator), python/sglang/srt/layers/vocab_parallel_embedding.py@71de97b2 and
// python/sglang/srt/layers/logits_processor.py@71de97b2; the lowered layers of a plan. Only the unquantised
// 16-bit dense and MoE decoder of full-attention GQA/MHA models (dense ones with or without per-head QK norms) is
// walked; everything else is
// refused by name (check_walk). Per-call kernel choices that depend on the row count (the SM100 BF16 GEMM, the
// all-reduce communicator) are made once, at the largest decode batch the runner captures: a lowered layer
// names one kernel.
#include <algorithm>
#include <stdexcept>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

using internal::not_modelled;

namespace internal {

Quant Walk::act() const {
  Quant q;
  q.dtype = dtype;
  q.payload_bits = units::Count{dtype_bytes * 8};
  return q;
}

// python/sglang/srt/distributed/utils.py@71de97b2 divide / ensure_divisibility (an AssertionError upstream).
std::int64_t divide(std::int64_t numerator, std::int64_t denominator) {
  if (denominator < 1 || numerator % denominator != 0)
    throw std::invalid_argument(std::to_string(numerator) + " is not divisible by " + std::to_string(denominator));
  return numerator / denominator;
}

// python/sglang/srt/layers/linear.py@71de97b2 QKVParallelLinear.__init__: query heads split over tp; KV heads
// split when tp < total_num_kv_heads, else replicated (num_kv_head_replicas = tp / total_num_kv_heads, one KV head
// per rank).
HeadSplit head_split(const schema::GraphAttention& a, std::int64_t tp) {
  HeadSplit s;
  s.q_heads = a.q_heads.value();
  s.kv_heads = a.kv_heads.value();
  s.head_dim = a.head_dim.value();
  s.rotary_dim = a.rotary_dims ? a.rotary_dims->value() : s.head_dim;
  s.q_per_rank = divide(s.q_heads, tp);
  if (tp >= s.kv_heads) {
    (void)divide(tp, s.kv_heads);
    s.kv_per_rank = 1;
  } else {
    s.kv_per_rank = divide(s.kv_heads, tp);
  }
  return s;
}

namespace {

bool known_role(const std::string& role) {
  for (const char* r : {"norm", "q_norm", "k_norm", "attn_q", "attn_k", "attn_v", "attn_o", "mlp_gate", "mlp_up", "mlp_down",
                        "expert_gate", "expert_up", "expert_down", "router"})
    if (role == r) return true;
  return false;
}

}  // namespace

// The graph features the walk lowers, checked before any layer (the refusals of lower()).
void check_walk(const Walk& w) {
  const schema::Graph& g = *w.graph;
  (void)uniform_attention(g);  // MLA, windows, sinks, indexers, non-attention mixers, mixed KV layouts
  std::string dtype;
  for (const auto& [kind_name, kind] : g.layer_kinds) {
    const std::string at = "layer_kinds." + kind_name;
    if (!kind.mixer.attention) continue;  // uniform_attention refused it if a layer uses it
    const auto& a = *kind.mixer.attention;
    // models/utils.py@71de97b2 apply_qk_norm, as qwen3.py's Qwen3Attention.forward_prepare_native calls it: on CUDA,
    // with equal epsilons (one rms_norm_eps), deterministic inference off (SGLANG_ENABLE_DETERMINISTIC_INFERENCE
    // is not modelled, so unset) and the prefill graph's tc_compiler at its default eager, the JIT
    // fused_inplace_qknorm runs when can_use_fused_inplace_qknorm(head_dim) holds (kernels/ops/layernorm/
    // norm.py@71de97b2: head_dim 64, 128, 256, 512 or 1024). The per-head RMSNorm fallback and qwen3_moe.py's own
    // QK-norm path are not lowered.
    if (a.qk_norm == "per_head") {
      if (kind.ffn.moe)
        not_modelled(at + ".mixer.attention.qk_norm=per_head with ffn.moe",
                     "the MoE models' QK-norm path (qwen3_moe.py's fused_qk_norm_rope and its fallbacks) is not lowered");
      const std::int64_t hd = a.head_dim.value();
      if (hd != 64 && hd != 128 && hd != 256 && hd != 512 && hd != 1024)
        not_modelled(at + ".mixer.attention.head_dim=" + std::to_string(hd) + " with qk_norm=per_head",
                     "can_use_fused_inplace_qknorm refuses this head size and the per-head RMSNorm fallback is not lowered");
    } else if (a.qk_norm != "none") {
      not_modelled(at + ".mixer.attention.qk_norm=" + a.qk_norm, "only per-head QK norms (apply_qk_norm) are lowered");
    }
    if (a.output_gate) not_modelled(at + ".mixer.attention.output_gate=true", "gated attention output is not lowered");
    if (a.v_head_dim.value() != a.head_dim.value())
      not_modelled(at + ".mixer.attention.v_head_dim=" + std::to_string(a.v_head_dim.value()),
                   "asymmetric value heads (the fa4 backend SGLang picks for them on SM100) are not lowered");
    if (kind.ffn.none && *kind.ffn.none)
      not_modelled(at + ".ffn.none", "a layer without a feed-forward block is not lowered");
    if (kind.ffn.dense && kind.ffn.dense->activation != "silu")
      not_modelled(at + ".ffn.dense.activation=" + kind.ffn.dense->activation, "only SiluAndMul is lowered");
    if (kind.ffn.moe) {
      const auto& m = *kind.ffn.moe;
      for (const auto& e : m.experts)
        if (e.role != "routed")
          not_modelled(at + ".ffn.moe.experts[role=" + e.role + "]", "shared experts are not lowered");
      if (m.experts.size() != 1) not_modelled(at + ".ffn.moe.experts", "exactly one routed expert group is lowered");
      if (m.activation != "silu")
        not_modelled(at + ".ffn.moe.activation=" + m.activation, "only SiLU experts are lowered");
      if (m.router.scoring != "softmax")
        not_modelled(at + ".ffn.moe.router.scoring=" + m.router.scoring, "only softmax top-k routing is lowered");
      if (m.router.correction_bias)
        not_modelled(at + ".ffn.moe.router.correction_bias=true", "biased routing is not lowered");
      if (m.router.groups) not_modelled(at + ".ffn.moe.router.groups", "grouped top-k routing is not lowered");
      // overrides.py@71de97b2 _qwen3_moe_family_overrides (and the Llama 4 / Gemma 4 ones) set
      // moe_runner_backend=flashinfer_trtllm on SM100 by architecture name, which the graph keeps for people only.
      if (w.cc.major == 10)
        not_modelled(at + ".ffn.moe on " + w.chip->name,
                     "on SM100 model-specific overrides keyed on the architecture name pick the MoE runner");
    }
    for (const auto& t : kind.tensors) {
      const std::string tat = at + ".tensors[" + t.name + "]";
      if (!known_role(t.role)) not_modelled(tat + ".role=" + t.role, "a tensor of this role is not lowered");
      if (t.part == "bias" && t.role != "attn_q" && t.role != "attn_k" && t.role != "attn_v")
        not_modelled(tat + ".part=bias", "only the QKV projection's bias is lowered");
      if (t.part != "weight" && t.part != "bias")
        not_modelled(tat + ".part=" + t.part, "quantised checkpoints are not lowered");
      if (t.quant || (t.dtype != "BF16" && t.dtype != "F16"))
        not_modelled(tat + ".dtype=" + t.dtype,
                     "only unquantised BF16 or F16 checkpoints (UnquantizedLinearMethod) are lowered");
      if (dtype.empty()) dtype = t.dtype;
      if (t.dtype != dtype) not_modelled(tat + ".dtype=" + t.dtype, "a checkpoint mixing BF16 and F16 is not lowered");
    }
  }
  for (const auto& t : g.model_tensors) {
    const std::string tat = "model_tensors[" + t.name + "]";
    if (t.role != "embed" && t.role != "lm_head" && t.role != "norm")
      not_modelled(tat + ".role=" + t.role, "a model-level tensor of this role is not lowered");
    if (t.part != "weight") not_modelled(tat + ".part=" + t.part, "a model-level bias or scale is not lowered");
    if (t.quant || t.dtype != dtype)
      not_modelled(tat + ".dtype=" + t.dtype, "a model-level tensor stored unlike the layers' weights is not lowered");
  }
  const std::int64_t tp = w.cfg.tp;
  if (tp > 8)
    not_modelled("tp_size=" + std::to_string(tp),
                 "a TP group beyond one 8-GPU node (the collectives' span) is not lowered");
}

namespace {

// The dtypes of a GEMM over the model's 16-bit weights: computed in the model dtype, activations, weights and
// output all in it.
schema::PoolPlanDtypes weight_dtypes(const Walk& w) {
  schema::PoolPlanDtypes d;
  d.compute = w.dtype;
  d.activation = w.act();
  d.weight = w.act();
  d.output = w.act();
  return d;
}

Layer layer_of(std::optional<std::int64_t> layer, const std::string& primitive, const std::string& name) {
  Layer l;
  l.layer = layer;
  l.stage = 0;
  l.primitive = primitive;
  l.name = name;
  return l;
}

Kernel kernel(const std::string& library, const std::string& variant) {
  Kernel k;
  k.library = library;
  k.variant = variant;
  return k;
}

// cutedsl_bf16_gemm.py@71de97b2 _K3_TGV_WIN_SHAPES and use_cutedsl_bf16_gemm: the TGV-vs-cuBLAS decision.
bool use_cutedsl_bf16_gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
  static const std::pair<std::int64_t, std::int64_t> k3[] = {{6144, 7168}, {6016, 7168}, {7168, 1536}, {1536, 7168},
                                                             {2304, 1536}, {3584, 7168}, {7168, 3584}, {7168, 768}};
  if (m <= 0) return false;
  if (k % 8 != 0) return false;
  if (m <= 8)
    for (const auto& [sn, sk] : k3)
      if (sn == n && sk == k) return true;
  if (n < 1024 || k < 2048 || k > 6144) return false;
  const bool ragged = m % 16 != 0;
  if (n <= 1024) return m <= 512 && (m >= 48 || m % 16 >= 9);
  if (n <= 2624) return m <= 128 && k >= 4096;
  if (n <= 4096) return m <= 64;
  if (k < 4096) return k >= 3072 && 25 <= m && m <= 48 && ragged;
  if (n <= 6144) {
    if (m <= 64) return m <= 32 || k >= 6144 || ragged;
    return m <= 72 && k >= 6144 && ragged;
  }
  if (n <= 8192) return m <= 48 || (m <= 63 && ragged);
  return n <= 12288 && k >= 6144 && (m <= 32 || (m <= 48 && ragged));
}

// unquant.py@71de97b2 UnquantizedLinearMethod.apply on CUDA: F.linear (cuBLAS), except that the BF16 GEMM backend
// "auto" resolves to cutedsl on SM100 (initialize_bf16_gemm_config, without deterministic inference), where a BF16
// GEMM runs the TGV kernel when use_cutedsl_bf16_gemm(m, n, k) holds. The choice is made at m = w.decode_rows.
Kernel linear_kernel(const Walk& w, std::int64_t n, std::int64_t k) {
  if (w.cc.major == 10 && w.dtype == "bf16" && use_cutedsl_bf16_gemm(w.decode_rows, n, k))
    return kernel("sglang-kernel", "cutedsl_bf16_gemm");
  return kernel("torch", "torch.nn.functional.linear");
}

Layer gemm(const Walk& w, std::optional<std::int64_t> layer, const std::string& name, std::int64_t n, std::int64_t k,
           const std::string& rows = "tokens") {
  Layer l = layer_of(layer, "gemm", name);
  l.kernel = linear_kernel(w, n, k);
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = rows;
  sh.n = units::Count{n};
  sh.k = units::Count{k};
  sh.dtypes = weight_dtypes(w);
  l.shape = sh;
  return l;
}

// layernorm.py@71de97b2 RMSNorm.forward_cuda: sgl_kernel rmsnorm, or fused_add_rmsnorm when a residual is passed
// (cast_x_before_out_mul is False for these models, so the JIT variant is not taken).
Layer rms_norm(const Walk& w, std::optional<std::int64_t> layer, const std::string& name, std::int64_t hidden,
               bool fused_residual) {
  Layer l = layer_of(layer, "elementwise.norm", name);
  l.kernel = kernel("sglang-kernel", fused_residual ? "fused_add_rmsnorm" : "rmsnorm");
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = "tokens";
  sh.hidden = units::Count{hidden};
  sh.fused_residual = fused_residual;
  schema::PoolPlanDtypes d;
  d.activation = w.act();
  d.weight = w.act();
  d.output = w.act();
  sh.dtypes = d;
  l.shape = sh;
  return l;
}

// activation.py@71de97b2 SiluAndMul.forward_cuda: sgl_kernel silu_and_mul.
Layer silu_and_mul(const Walk& w, std::int64_t layer, const std::string& name, std::int64_t width) {
  Layer l = layer_of(layer, "elementwise.activation", name);
  l.kernel = kernel("sglang-kernel", "silu_and_mul");
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = "tokens";
  sh.width = units::Count{width};
  sh.gated = true;
  schema::PoolPlanDtypes d;
  d.activation = w.act();
  d.output = w.act();
  sh.dtypes = d;
  l.shape = sh;
  return l;
}

// parallel_state.py@71de97b2 GroupCoordinator._resolve_outplace_all_reduce_method with the communicators a default
// launch builds (quick all-reduce, pymscclpp and torch symmetric memory are off by default), and
// custom_all_reduce.py@71de97b2 CustomAllreduce.should_custom_ar on CUDA: world sizes 2, 4, 6, 8, an input whose byte
// size is a multiple of 16 and at most _MAX_CAR_SIZE (8 MiB), on two GPUs or a fully NVLink-connected group;
// otherwise PyNccl. Evaluated for the largest decode batch's message.
Kernel all_reduce_kernel(const Walk& w, std::int64_t bytes) {
  const std::int64_t world = w.cfg.tp;
  const bool supported = world == 2 || world == 4 || world == 6 || world == 8;
  const bool full_nvlink = w.chip->nvlink.has_value();
  if (supported && bytes % 16 == 0 && (world == 2 || full_nvlink) && bytes <= 8192 * 1024)
    return kernel("sglang-kernel", "custom_all_reduce");
  return kernel("nccl", "all_reduce");
}

Layer collective(const Walk& w, std::optional<std::int64_t> layer, const std::string& primitive,
                 const std::string& name, std::int64_t bytes_per_token, const std::string& rows, const Kernel& k) {
  Layer l = layer_of(layer, primitive, name);
  l.kernel = k;
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = rows;
  schema::PoolPlanDtypes d;
  d.activation = w.act();
  sh.dtypes = d;
  l.shape = sh;
  schema::PoolPlanCollective co;
  co.group = "tp";
  co.group_size = units::Count{w.cfg.tp};
  co.span = "node";
  co.bytes_per_token = units::BytesPerRank{bytes_per_token};
  l.collective = co;
  return l;
}

// linear.py@71de97b2 RowParallelLinear.forward (reduce_results=True): tensor_model_parallel_all_reduce.
Layer tp_all_reduce(const Walk& w, std::optional<std::int64_t> layer, const std::string& name) {
  const std::int64_t per_token = w.graph->dims.hidden_size.value() * w.dtype_bytes;
  return collective(w, layer, "collective.all_reduce", name, per_token, "tokens",
                    all_reduce_kernel(w, per_token * w.decode_rows));
}

// The attention backend's kernels for prompt (forward_extend) and decode (forward_decode) tokens, for the MHA/GQA
// path of each backend without speculative decoding or sliding windows:
//   flashinfer_backend.py@71de97b2 FlashInferAttnBackend: BatchPrefillWithRaggedKVCacheWrapper over the new tokens
//     (merged with BatchPrefillWithPagedKVCacheWrapper over a cached prefix), BatchDecodeWithPagedKVCacheWrapper;
//   flashattention_backend.py@71de97b2 FlashAttentionBackend (fa3): sgl_kernel's flash_attn_with_kvcache for both;
//   trtllm_mha_backend.py@71de97b2 TRTLLMHAAttnBackend: flashinfer.prefill.trtllm_batch_context_with_kv_cache and
//     flashinfer.decode.trtllm_batch_decode_with_kv_cache;
//   triton_backend.py@71de97b2 TritonAttnBackend: extend_attention_fwd and decode_attention_fwd.
Kernel attention_kernel(const Walk& w, bool decode) {
  const std::string& b = w.args.attention.attention_backend;
  if (b == "flashinfer")
    return kernel("flashinfer", decode ? "BatchDecodeWithPagedKVCacheWrapper" : "BatchPrefillWithRaggedKVCacheWrapper");
  if (b == "fa3") return kernel("sglang-kernel", "flash_attn_with_kvcache");
  if (b == "trtllm_mha")
    return kernel("flashinfer", decode ? "trtllm_batch_decode_with_kv_cache" : "trtllm_batch_context_with_kv_cache");
  if (b == "triton") return kernel("sglang-kernel", decode ? "decode_attention_fwd" : "extend_attention_fwd");
  not_modelled("attention_backend=" + b, "the walk lowers the flashinfer, fa3, trtllm_mha and triton backends only");
}

// llama.py@71de97b2 LlamaDecoderLayer.forward's attention half: input_layernorm (rmsnorm on the first layer, whose
// residual is None, fused_add_rmsnorm after), LlamaAttention.forward (qkv_proj, rotary_emb, RadixAttention: the
// backend's set_kv_buffer then its attention, o_proj with its all-reduce). qwen3.py@71de97b2 Qwen3DecoderLayer
// (LayerCommunicator without DP attention or all-reduce fusion, which overrides.py@71de97b2
// _flashinfer_allreduce_fusion_auto_enable leaves off for Qwen3ForCausalLM) runs the same steps, with
// Qwen3Attention's QK norm between the projection and the rotary embedding.
void attention_block(const Walk& w, std::int64_t i, const schema::GraphAttention& a, std::vector<Layer>& out) {
  const std::int64_t h = w.graph->dims.hidden_size.value();
  const HeadSplit s = head_split(a, w.cfg.tp);
  const std::int64_t q_out = s.q_per_rank * s.head_dim, kv_out = s.kv_per_rank * s.head_dim;
  out.push_back(rms_norm(w, i, "input norm", h, i != 0));
  out.push_back(gemm(w, i, "fused query-key-value projection", q_out + 2 * kv_out, h));
  if (a.qk_norm == "per_head") {
    // models/utils.py@71de97b2 apply_qk_norm: fused_inplace_qknorm normalises every query and key head of a token
    // in place, in one launch (check_walk admitted only this path).
    Layer l = rms_norm(w, i, "query-key norm per head", q_out + kv_out, false);
    l.kernel = kernel("sglang-kernel", "fused_inplace_qknorm");
    out.push_back(l);
  }
  {
    // rotary_embedding/base.py@71de97b2 RotaryEmbedding.forward_cuda: sgl_kernel
    // apply_rope_with_cos_sin_cache_inplace on query and key.
    Layer rot = layer_of(i, "elementwise.rotary", "rotary embedding");
    rot.kernel = kernel("sglang-kernel", "apply_rope_with_cos_sin_cache_inplace");
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.heads_q = units::Count{s.q_per_rank};
    sh.heads_kv = units::Count{s.kv_per_rank};
    sh.rotary_dim = units::Count{s.rotary_dim};
    schema::PoolPlanDtypes d;
    d.activation = w.act();
    sh.dtypes = d;
    rot.shape = sh;
    out.push_back(rot);
  }
  {
    // memory_pool.py@71de97b2 _set_kv_buffer_impl: the JIT store_cache kernel when a K and a V row are a multiple
    // of 4 bytes (can_use_store_cache), else the indexed copy.
    const std::int64_t kv_bytes = w.kv.payload_bits->value() / 8;
    const bool store_cache = (kv_out * kv_bytes) % 4 == 0;
    Layer l = layer_of(i, "kv_cache.write", "KV cache write");
    l.kernel = store_cache ? kernel("sglang-kernel", "store_cache") : kernel("torch", "index_put_");
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.kv_width = units::Count{2 * kv_out};
    schema::PoolPlanDtypes d;
    d.activation = w.act();
    d.kv = w.kv;
    sh.dtypes = d;
    l.shape = sh;
    out.push_back(l);
  }
  for (const bool decode : {false, true}) {
    Layer l = layer_of(i, decode ? "attention.decode" : "attention.prefill",
                       decode ? "attention, decode requests" : "attention, prompt requests");
    l.kernel = attention_kernel(w, decode);
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.heads_q = units::Count{s.q_per_rank};
    sh.heads_kv = units::Count{s.kv_per_rank};
    sh.head_dim = units::Count{s.head_dim};
    schema::PoolPlanDtypes d;
    d.compute = w.dtype;
    d.activation = w.act();
    d.kv = w.kv;
    d.output = w.act();
    sh.dtypes = d;
    l.shape = sh;
    out.push_back(l);
  }
  out.push_back(gemm(w, i, "output projection", h, q_out));
  if (w.cfg.tp > 1) out.push_back(tp_all_reduce(w, i, "attention output all-reduce"));
}

// llama.py@71de97b2 LlamaMLP.forward: gate_up_proj (MergedColumnParallelLinear), SiluAndMul, down_proj
// (RowParallelLinear), after post_attention_layernorm (fused_add_rmsnorm).
void dense_block(const Walk& w, std::int64_t i, const schema::GraphDense& dense, std::vector<Layer>& out) {
  const std::int64_t h = w.graph->dims.hidden_size.value();
  const std::int64_t inter_r = divide(dense.intermediate.value(), w.cfg.tp);
  out.push_back(rms_norm(w, i, "post-attention norm", h, true));
  out.push_back(gemm(w, i, "gate and up projection", 2 * inter_r, h));
  out.push_back(silu_and_mul(w, i, "SiluAndMul", inter_r));
  out.push_back(gemm(w, i, "down projection", h, inter_r));
  if (w.cfg.tp > 1) out.push_back(tp_all_reduce(w, i, "MLP output all-reduce"));
}

// mixtral.py@71de97b2 MixtralMoE.forward: the router (ReplicatedLinear gate, F.linear), TopK (topk.py@71de97b2: softmax
// top-k, sgl_kernel topk_softmax, then moe_align_block_size's token permutation), FusedMoE under the Triton runner
// (unquant.py@71de97b2 UnquantizedFusedMoEMethod.create_moe_runner: MoeRunnerBackend.TRITON on CUDA without the
// FlashInfer, DeepGEMM or triton_kernels options; moe_runner/triton.py@71de97b2 TritonRunnerCore: the fused_moe_kernel
// Triton GEMM over w13, silu_and_mul over every routed copy, the fused_moe_kernel over w2, moe_sum_reduce), and the
// TP all-reduce of the output. FusedMoE shards each expert's intermediate size over tp (no expert parallelism).
void moe_block(const Walk& w, std::int64_t i, const schema::GraphMoe& moe, std::vector<Layer>& out) {
  const std::int64_t h = w.graph->dims.hidden_size.value();
  const std::int64_t experts = moe.experts[0].count.value();
  const std::int64_t inter_r = divide(moe.experts[0].intermediate.value(), w.cfg.tp);
  const std::int64_t top_k = moe.router.top_k.value();
  out.push_back(rms_norm(w, i, "post-attention norm", h, true));
  out.push_back(gemm(w, i, "router", experts, h));
  {
    Layer l = layer_of(i, "moe.permute", "top-k routing and token permutation");
    l.kernel = kernel("sglang-kernel", "topk_softmax");
    l.kernels = units::Count{2};  // topk_softmax, then moe_align_block_size
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.hidden = units::Count{h};
    sh.experts = units::Count{experts};
    sh.top_k = units::Count{top_k};
    schema::PoolPlanDtypes d;
    d.activation = w.act();
    sh.dtypes = d;
    l.shape = sh;
    out.push_back(l);
  }
  const auto grouped = [&](const std::string& name, std::int64_t n, std::int64_t k, std::int64_t launches) {
    Layer l = layer_of(i, "moe.grouped_gemm", name);
    l.kernel = kernel("sglang-kernel", "fused_moe_kernel");
    if (launches > 1) l.kernels = units::Count{launches};
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.n = units::Count{n};
    sh.k = units::Count{k};
    sh.experts = units::Count{experts};
    sh.local_experts = units::Count{experts};
    sh.top_k = units::Count{top_k};
    sh.dtypes = weight_dtypes(w);
    l.shape = sh;
    return l;
  };
  out.push_back(grouped("experts gate and up projection", 2 * inter_r, h, 1));
  out.push_back(silu_and_mul(w, i, "experts SiluAndMul", top_k * inter_r));
  out.push_back(grouped("experts down projection", h, inter_r, 2));  // fused_moe_kernel, then moe_sum_reduce
  if (w.cfg.tp > 1) out.push_back(tp_all_reduce(w, i, "MoE output all-reduce"));
}

// vocab_parallel_embedding.py@71de97b2 pad_vocab_size (DEFAULT_VOCAB_PADDING_SIZE 64).
std::int64_t padded_vocab(std::int64_t vocab) { return (vocab + 63) / 64 * 64; }

}  // namespace

// llama.py@71de97b2 LlamaForCausalLM.forward: LlamaModel.forward (embed_tokens, the decoder layers, the final norm
// with the residual), then LogitsProcessor (the LM head over the positions sampled, the TP all-gather of the vocab
// shards) and the sampler (float32 logits over the vocabulary).
std::vector<Layer> lower_layers(const Walk& w) {
  const schema::Graph& g = *w.graph;
  const std::int64_t h = g.dims.hidden_size.value();
  const std::int64_t vocab = g.dims.vocab_size.value();
  const std::int64_t vocab_r = divide(padded_vocab(vocab), w.cfg.tp);
  std::vector<Layer> out;
  {
    // VocabParallelEmbedding.forward: a masked lookup of this rank's shard, then the all-reduce when tp > 1.
    Layer e = layer_of(std::nullopt, "embedding", "token embedding");
    e.kernel = kernel("torch", "torch.nn.functional.embedding");
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.hidden = units::Count{h};
    schema::PoolPlanDtypes d;
    d.weight = w.act();
    d.output = w.act();
    sh.dtypes = d;
    e.shape = sh;
    out.push_back(e);
    if (w.cfg.tp > 1) out.push_back(tp_all_reduce(w, std::nullopt, "embedding all-reduce"));
  }
  for (std::size_t li = 0; li < g.layers.size(); ++li) {
    const std::int64_t i = static_cast<std::int64_t>(li);
    const schema::GraphLayerKind& kind = g.layer_kinds.at(g.layers[li]);
    attention_block(w, i, *kind.mixer.attention, out);
    if (kind.ffn.dense)
      dense_block(w, i, *kind.ffn.dense, out);
    else if (kind.ffn.moe)
      moe_block(w, i, *kind.ffn.moe, out);
    else
      not_modelled("layer_kinds." + g.layers[li] + ".ffn", "a layer without a dense or MoE block is not lowered");
  }
  out.push_back(rms_norm(w, std::nullopt, "final norm", h, true));
  out.push_back(gemm(w, std::nullopt, "language-model head", vocab_r, h, "sampled"));
  if (w.cfg.tp > 1)
    // logits_processor.py@71de97b2 LogitsProcessor._get_logits: tensor_model_parallel_all_gather of the shards.
    out.push_back(collective(w, std::nullopt, "collective.all_gather", "logits all-gather", vocab_r * w.dtype_bytes,
                             "sampled", kernel("nccl", "all_gather")));
  {
    Layer s = layer_of(std::nullopt, "sampling", "sampler");
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "sampled";
    sh.vocab = units::Count{vocab};
    schema::PoolPlanDtypes d;
    Quant f32;
    f32.payload_bits = units::Count{32};  // float32 logits: no tensor-core data type
    d.activation = f32;
    sh.dtypes = d;
    s.shape = sh;
    out.push_back(s);
  }
  return out;
}

}  // namespace internal

}  // namespace blis::sglang::model_executor
