// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/model_executor/models/qwen3_moe.py (Qwen3MoeSparseMoeBlock),
// vllm/model_executor/layers/fused_moe/layer.py (FusedMoE's TP sharding of the experts) and
// vllm/model_executor/layers/fused_moe/oracle/unquantized.py (select_unquantized_moe_backend)@6e448d0e;
// the unquantised MoE block under tensor parallelism. Expert parallelism, quantised experts (whose
// backend the fp8 oracle selects) and shared experts are refused by name.
#include "model_executor/lowering_internal.h"

namespace blis::vllm::lowering {

namespace {

// oracle/unquantized.py@6e448d0e _get_priority_backends and select_unquantized_moe_backend on CUDA:
// FLASHINFER_TRTLLM, FLASHINFER_CUTLASS, TRITON, BATCHED_TRITON, with both FlashInfer backends moved
// behind Triton on SM90. On SM100 the trtllm-gen BF16 kernel needs intermediate_size_per_partition a
// multiple of 128 (_trtllm_bf16_lora_supported's comment: "which would crash the kernel at runtime;
// fall back to Triton"); elsewhere (SM80, SM90) Triton is the first supported backend.
Kernel moe_kernel(const Context& c, std::int64_t intermediate_per_partition) {
  Kernel k;
  if (c.cc.major == 10 && intermediate_per_partition % 128 == 0) {
    k.library = "flashinfer";
    k.variant = "unquantizedfusedmoe_flashinfer_trtllm_trtllmbf16experts";
  } else {
    k.library = "vllm-csrc";
    k.variant = "unquantizedfusedmoe_triton_tritonexperts";
  }
  return k;
}

}  // namespace

// qwen3_moe.py@6e448d0e Qwen3MoeSparseMoeBlock.forward: the router (ReplicatedLinear gate), then FusedMoE
// (top-k softmax, token permutation, the gate-up grouped GEMM, SiluAndMul, the down grouped GEMM, the
// weighted sum) and the TP all-reduce of its output (maybe_all_reduce_tensor_model_parallel).
void lower_moe_ffn(const Context& c, std::int64_t layer, const schema::GraphLayerKind& kind,
                   const std::string& kind_name, engine::plan::PoolPlan& plan) {
  const auto& moe = *kind.ffn.moe;
  const std::string at = "layer_kinds." + kind_name + ".ffn.moe";
  if (moe.activation != "silu") not_modelled(at + ".activation=" + moe.activation, "only SiluAndMul experts are lowered");
  for (const auto& t : kind.tensors)
    if (t.role.starts_with("expert_") && (t.quant || (t.dtype != "BF16" && t.dtype != "F16")))
      not_modelled(at + " with expert weights stored as " + t.dtype,
                   "quantised experts run the backend the fused_moe fp8 oracle selects, which is not lowered");
  const std::int64_t stage = c.stage_of_layer[static_cast<std::size_t>(layer)];
  const std::int64_t h = c.graph->dims.hidden_size.value();
  const std::int64_t experts = moe.experts[0].count.value();
  const std::int64_t inter = moe.experts[0].intermediate.value();
  const std::int64_t top_k = moe.router.top_k.value();
  const std::int64_t tp = c.cfg.tp;
  const std::int64_t inter_r = divide(inter, tp);  // FusedMoE: intermediate_size_per_partition
  const Kernel k = moe_kernel(c, inter_r);
  LinearScheme router;
  router.kernel.library = "torch";
  router.kernel.variant = "torch.nn.functional.linear";

  auto& layers = *plan.layers;
  layers.push_back(rms_norm(c, layer, stage, "post-attention norm", h, true));
  layers.push_back(gemm(c, router, layer, stage, "router", experts, h));
  Layer perm = layer_of(layer, stage, "moe.permute", "top-k routing and token permutation");
  {
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.hidden = units::Count{h};
    sh.experts = units::Count{experts};
    sh.top_k = units::Count{top_k};
    schema::PoolPlanDtypes d;
    d.activation = c.dtype.format();
    sh.dtypes = d;
    perm.shape = sh;
    perm.kernel = k;
  }
  layers.push_back(perm);
  const auto grouped = [&](const std::string& name, std::int64_t n, std::int64_t kk) {
    Layer g = layer_of(layer, stage, "moe.grouped_gemm", name);
    g.kernel = k;
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.n = units::Count{n};
    sh.k = units::Count{kk};
    sh.experts = units::Count{experts};
    sh.local_experts = units::Count{experts};
    sh.top_k = units::Count{top_k};
    schema::PoolPlanDtypes d;
    d.compute = c.dtype.plan_dtype;
    d.activation = c.dtype.format();
    d.weight = c.dtype.format();
    d.output = c.dtype.format();
    sh.dtypes = d;
    g.shape = sh;
    return g;
  };
  layers.push_back(grouped("experts gate and up projection", 2 * inter_r, h));
  Layer act = layer_of(layer, stage, "elementwise.activation", "experts SiluAndMul");
  {
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.width = units::Count{top_k * inter_r};  // every routed copy of the token
    sh.gated = true;
    schema::PoolPlanDtypes d;
    d.activation = c.dtype.format();
    d.output = c.dtype.format();
    sh.dtypes = d;
    act.shape = sh;
  }
  layers.push_back(act);
  layers.push_back(grouped("experts down projection", h, inter_r));
  if (tp > 1) layers.push_back(tp_all_reduce(c, layer, stage, "MoE output all-reduce", h));

  auto& w = *plan.weights;
  const std::vector<std::string> tp_shard = tp > 1 ? std::vector<std::string>{"tp"} : std::vector<std::string>{};
  const std::string p = "layers." + std::to_string(layer) + ".";
  w.push_back(tensor(p + "post_attention_layernorm.weight", layer, stage, {h}, c.dtype.format(), {}));
  w.push_back(tensor(p + "mlp.gate.weight", layer, stage, {experts, h}, c.dtype.format(), {}));
  w.push_back(tensor(p + "mlp.experts.w13_weight", layer, stage, {experts, 2 * inter_r, h}, c.dtype.format(), tp_shard));
  w.push_back(tensor(p + "mlp.experts.w2_weight", layer, stage, {experts, h, inter_r}, c.dtype.format(), tp_shard));
}

}  // namespace blis::vllm::lowering
