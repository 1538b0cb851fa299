// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/model_executor/models/llama.py (LlamaAttention, LlamaDecoderLayer),
// qwen3.py (Qwen3Attention's q_norm/k_norm), vllm/model_executor/layers/linear.py (QKVParallelLinear's
// head sharding), vllm/config/model.py (verify_with_parallel_config), vllm/v1/attention/backends/
// flash_attn.py and flashinfer.py (the kernels and the separate KV-cache write) and
// vllm/v1/kv_cache_interface.py (the page layout of FullAttentionSpec, SlidingWindowSpec and
// MLAAttentionSpec)@6e448d0e. MLA, attention sinks, output gates, sparse indexers, sliding and chunked
// windows in the lowered plan, and unweighted or across-head QK norms are refused by name.
#include <stdexcept>

#include "model_executor/lowering_internal.h"

namespace blis::vllm {

namespace lowering {

AttentionGeometry attention_geometry(const schema::GraphAttention& a, std::int64_t tp, const std::string& kind_name) {
  AttentionGeometry g;
  g.q_heads = a.q_heads.value();
  g.kv_heads = a.kv_heads.value();
  g.head_dim = a.head_dim.value();
  g.v_head_dim = a.v_head_dim.value();
  g.rotary_dim = a.rotary_dims ? a.rotary_dims->value() : g.head_dim;
  // config/model.py@6e448d0e ModelConfig.verify_with_parallel_config.
  if (g.q_heads % tp != 0)
    throw std::invalid_argument("Total number of attention heads (" + std::to_string(g.q_heads) +
                                ") must be divisible by tensor parallel size (" + std::to_string(tp) + ").");
  g.q_per_rank = g.q_heads / tp;
  // linear.py@6e448d0e QKVParallelLinear.__init__: KV heads are replicated when tp >= total_num_kv_heads.
  if (tp >= g.kv_heads) {
    g.kv_per_rank = 1;
    (void)divide(tp, g.kv_heads);
  } else {
    g.kv_per_rank = divide(g.kv_heads, tp);
  }
  (void)kind_name;
  return g;
}

Kernel attention_kernel(const Context& c, bool decode) {
  Kernel k;
  const std::string kv = c.kv.quantized ? ".kv-fp8" : "";
  if (c.compilation.attention_backend == "FLASH_ATTN") {
    // flash_attn.py@6e448d0e FlashAttentionImpl.forward: flash_attn_varlen_func of vllm_flash_attn, FA3 on
    // SM90 and FA2 elsewhere, one kernel for prompt and decode tokens.
    k.library = "flash-attn";
    k.variant = (c.compilation.flash_attn_version == 3 ? "flash_attn_fa3" : "flash_attn") + kv;
  } else {
    // flashinfer.py@6e448d0e FlashInferImpl.forward: trtllm-gen prefill and decode kernels on SM100.
    k.library = "flashinfer";
    k.variant = (decode ? "flashinfer_trtllmdecode" : "flashinfer_trtllmprefill") + kv;
  }
  return k;
}

void check_layer_kind(const Context& c, const schema::GraphLayerKind& kind, const std::string& kind_name) {
  const std::string at = "layer_kinds." + kind_name;
  if (kind.mixer.recurrent) not_modelled(at + ".mixer.recurrent", "recurrent mixers (Mamba) are not lowered");
  if (!kind.mixer.attention) not_modelled(at + ".mixer.none", "a layer without token mixing is not lowered");
  const auto& a = *kind.mixer.attention;
  if (a.kind == "MLA") not_modelled(at + ".mixer.attention.kind=MLA", "MLA attention backends are not lowered");
  if (a.sinks) not_modelled(at + ".mixer.attention.sinks=true", "attention sinks are not lowered");
  if (a.output_gate) not_modelled(at + ".mixer.attention.output_gate=true", "gated attention output is not lowered");
  if (a.indexer) not_modelled(at + ".mixer.attention.indexer", "sparse attention indexers are not lowered");
  if (a.qk_norm != "none" && a.qk_norm != "per_head")
    not_modelled(at + ".mixer.attention.qk_norm=" + a.qk_norm, "only none and per_head QK norms are lowered");
  if (a.window.kind != "full")
    not_modelled(at + ".mixer.attention.window.kind=" + a.window.kind,
                 "the hybrid KV cache grouping of windowed layers is not lowered");
  if (a.v_head_dim.value() != a.head_dim.value())
    not_modelled(at + ".mixer.attention.v_head_dim=" + std::to_string(a.v_head_dim.value()),
                 "a value head size other than head_dim is not lowered");
  if (kind.ffn.none) not_modelled(at + ".ffn.none", "a layer without a feed-forward block is not lowered");
  if (kind.ffn.moe) {
    const auto& m = *kind.ffn.moe;
    for (const auto& e : m.experts)
      if (e.role != "routed")
        not_modelled(at + ".ffn.moe.experts[role=" + e.role + "]", "shared experts are not lowered");
    if (m.experts.size() != 1) not_modelled(at + ".ffn.moe.experts", "exactly one routed expert group is lowered");
    if (m.router.scoring != "softmax")
      not_modelled(at + ".ffn.moe.router.scoring=" + m.router.scoring, "only softmax top-k routing is lowered");
    if (m.router.correction_bias) not_modelled(at + ".ffn.moe.router.correction_bias=true", "biased routing is not lowered");
    if (m.router.groups) not_modelled(at + ".ffn.moe.router.groups", "grouped top-k routing is not lowered");
  }
  (void)c;
}

// llama.py@6e448d0e LlamaDecoderLayer.forward's attention half: input_layernorm (RMSNorm, fused with the
// residual add from the second layer on), LlamaAttention.forward (qkv_proj, [Qwen3: q_norm, k_norm],
// rotary_emb, Attention: unified_kv_cache_update then the backend's attention, o_proj with its TP
// all-reduce).
void lower_attention_block(const Context& c, std::int64_t layer, const schema::GraphLayerKind& kind,
                           const std::string& kind_name, engine::plan::PoolPlan& plan) {
  const auto& a = *kind.mixer.attention;
  const std::int64_t stage = c.stage_of_layer[static_cast<std::size_t>(layer)];
  const std::int64_t h = c.graph->dims.hidden_size.value();
  const std::int64_t tp = c.cfg.tp;
  const AttentionGeometry g = attention_geometry(a, tp, kind_name);
  const std::int64_t hd = g.head_dim;
  const LinearScheme s = linear_scheme(c, kind.tensors, kind_name);
  const std::int64_t q_out = g.q_per_rank * hd, kv_out = g.kv_per_rank * hd;
  if (s.fp8_block) {
    validate_fp8_block_shape(tp, h, (g.q_heads + 2 * g.kv_heads) * hd, h, {q_out, kv_out, kv_out}, s.block_n, s.block_k);
    validate_fp8_block_shape(tp, g.q_heads * hd, h, q_out, {h}, s.block_n, s.block_k);
  }
  bool qkv_bias = false;
  for (const auto& t : kind.tensors)
    if ((t.role == "attn_q" || t.role == "attn_k" || t.role == "attn_v") && t.part == "bias") qkv_bias = true;
  for (const auto& t : kind.tensors)
    if (t.role == "attn_o" && t.part == "bias")
      not_modelled("layer_kinds." + kind_name + ".tensors[" + t.name + "]", "an output projection bias is not lowered");

  auto& layers = *plan.layers;
  layers.push_back(rms_norm(c, layer, stage, "input norm", h, layer != 0));
  layers.push_back(gemm(c, s, layer, stage, "fused query-key-value projection", q_out + 2 * kv_out, h));
  if (a.qk_norm == "per_head") {
    layers.push_back(rms_norm(c, layer, stage, "query norm per head", q_out, false));
    layers.push_back(rms_norm(c, layer, stage, "key norm per head", kv_out, false));
  }
  if (g.rotary_dim > 0) {
    Layer rot = layer_of(layer, stage, "elementwise.rotary", "rotary embedding");
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.heads_q = units::Count{g.q_per_rank};
    sh.heads_kv = units::Count{g.kv_per_rank};
    sh.rotary_dim = units::Count{g.rotary_dim};
    schema::PoolPlanDtypes d;
    d.activation = c.dtype.format();
    sh.dtypes = d;
    rot.shape = sh;
    layers.push_back(rot);
  }
  {
    // attention/attention.py@6e448d0e unified_kv_cache_update -> reshape_and_cache_flash (the backends'
    // forward_includes_kv_cache_update is False for FLASH_ATTN and FLASHINFER).
    Layer w = layer_of(layer, stage, "kv_cache.write", "KV cache write");
    w.kernel = Kernel{};
    w.kernel->library = "vllm-csrc";
    w.kernel->variant = "reshape_and_cache_flash";
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.kv_width = units::Count{2 * kv_out};
    schema::PoolPlanDtypes d;
    d.activation = c.dtype.format();
    d.kv = c.kv.format();
    sh.dtypes = d;
    w.shape = sh;
    layers.push_back(w);
  }
  for (const bool decode : {false, true}) {
    Layer at = layer_of(layer, stage, decode ? "attention.decode" : "attention.prefill",
                        decode ? "attention, decode requests" : "attention, prompt requests");
    at.kernel = attention_kernel(c, decode);
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.heads_q = units::Count{g.q_per_rank};
    sh.heads_kv = units::Count{g.kv_per_rank};
    sh.head_dim = units::Count{hd};
    schema::PoolPlanDtypes d;
    d.compute = c.dtype.plan_dtype;
    d.activation = c.dtype.format();
    d.kv = c.kv.format();
    d.output = c.dtype.format();
    sh.dtypes = d;
    at.shape = sh;
    layers.push_back(at);
  }
  layers.push_back(gemm(c, s, layer, stage, "output projection", h, q_out));
  if (tp > 1) layers.push_back(tp_all_reduce(c, layer, stage, "attention output all-reduce", h));

  auto& w = *plan.weights;
  const Quant wf = weight_format(c, s);
  const std::vector<std::string> tp_shard = tp > 1 ? std::vector<std::string>{"tp"} : std::vector<std::string>{};
  const std::string p = "layers." + std::to_string(layer) + ".";
  w.push_back(tensor(p + "input_layernorm.weight", layer, stage, {h}, c.dtype.format(), {}));
  w.push_back(tensor(p + "self_attn.qkv_proj.weight", layer, stage, {q_out + 2 * kv_out, h}, wf, tp_shard));
  if (qkv_bias)
    w.push_back(tensor(p + "self_attn.qkv_proj.bias", layer, stage, {q_out + 2 * kv_out}, c.dtype.format(), tp_shard));
  w.push_back(tensor(p + "self_attn.o_proj.weight", layer, stage, {h, q_out}, wf, tp_shard));
  if (a.qk_norm == "per_head") {
    w.push_back(tensor(p + "self_attn.q_norm.weight", layer, stage, {hd}, c.dtype.format(), {}));
    w.push_back(tensor(p + "self_attn.k_norm.weight", layer, stage, {hd}, c.dtype.format(), {}));
  }
}

}  // namespace lowering

// kv_cache_interface.py@6e448d0e FullAttentionSpec / SlidingWindowSpec / MLAAttentionSpec
// real_page_size_bytes, with the heads per rank of QKVParallelLinear (or one latent head for MLA, as
// MLAAttention builds its spec) and the cache dtype of CacheConfig.cache_dtype.
std::vector<LayerKVSpec> layer_kv_specs(const schema::Graph& graph, const LoweringConfig& cfg) {
  using namespace lowering;
  if (cfg.block_size <= 0) throw std::invalid_argument("block_size=" + std::to_string(cfg.block_size) + ": a block holds at least one token");
  if (cfg.pp < 1 || cfg.tp < 1) throw std::invalid_argument("tp and pp are at least 1");
  const ModelDtype dtype = resolve_model_dtype(graph, cfg);
  const KVDtype kv = resolve_kv_dtype(dtype, cfg);
  const std::vector<std::int64_t> stage = stages_of_layers(static_cast<std::int64_t>(graph.layers.size()), cfg.pp);
  std::vector<LayerKVSpec> out;
  for (std::size_t i = 0; i < graph.layers.size(); ++i) {
    const auto it = graph.layer_kinds.find(graph.layers[i]);
    if (it == graph.layer_kinds.end())
      throw std::invalid_argument("layers[" + std::to_string(i) + "]=" + graph.layers[i] + ": not a key of layer_kinds");
    if (!it->second.mixer.attention) continue;  // no KV cache
    const auto& a = *it->second.mixer.attention;
    LayerKVSpec s;
    s.layer = static_cast<std::int64_t>(i);
    s.stage = stage[i];
    s.dtype = kv.torch_name;
    s.dtype_bytes = kv.bytes;
    s.block_size = cfg.block_size;
    if (a.window.kind == "sliding") {
      s.attention = "sliding_window";
      s.window = a.window.size ? a.window.size->value() : 0;
    } else if (a.window.kind == "chunked") {
      not_modelled("layer_kinds." + graph.layers[i] + ".mixer.attention.window.kind=chunked",
                   "ChunkedLocalAttentionSpec is not built by this port");
    }
    if (a.kind == "MLA") {
      if (!a.mla) throw std::invalid_argument("layer_kinds." + graph.layers[i] + ".mixer.attention.mla: absent for kind MLA");
      s.use_mla = true;
      s.num_kv_heads = 1;
      s.head_size = a.mla->kv_lora_rank.value() + a.mla->qk_rope_head_dim.value();
      s.head_size_v = s.head_size;
      s.page_size_bytes = s.block_size * s.num_kv_heads * s.head_size * s.dtype_bytes;
    } else {
      const AttentionGeometry g = attention_geometry(a, cfg.tp, graph.layers[i]);
      s.num_kv_heads = g.kv_per_rank;
      s.head_size = g.head_dim;
      s.head_size_v = g.v_head_dim;
      s.page_size_bytes = s.block_size * s.num_kv_heads * (s.head_size + s.head_size_v) * s.dtype_bytes;
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace blis::vllm
