// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: shared pieces of the lowering port of vllm/model_executor/layers/linear.py@6e448d0e and
// the other files lowering.h names; each function cites the upstream it ports. Internal to
// engines/vllm/model_executor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model_executor/lowering.h"

namespace blis::vllm::lowering {

using Quant = schema::PoolPlanQuantFormat;
using Layer = schema::PoolPlanLoweredLayer;
using Tensor = schema::PoolPlanResidentTensor;
using Kernel = schema::PoolPlanKernelImpl;

// "... is not modelled by this port: <reason>", as std::invalid_argument.
[[noreturn]] void not_modelled(const std::string& what, const std::string& reason);

// vllm/distributed/utils.py@6e448d0e divide / ensure_divisibility: "{numerator} is not divisible by
// {denominator}" (AssertionError upstream; std::invalid_argument here).
std::int64_t divide(std::int64_t numerator, std::int64_t denominator);

Quant plain(const std::string& dtype, std::int64_t bits);
// A block-scaled FP8 weight with F32 scales (the checkpoint's weight_scale_inv) over [block_n, block_k].
Quant fp8_block_weight(std::int64_t block_n, std::int64_t block_k);
// The activation of a block-scaled FP8 GEMM: per-token groups of 128 elements with F32 scales
// (fp8_utils.py@6e448d0e per_token_group_quant_fp8, group_shape (1, 128)).
Quant fp8_group_activation(std::int64_t group);

// The model's data type after --dtype (ModelConfig dtype resolution: "auto" keeps the checkpoint's
// 16-bit floating type; float32 is refused).
struct ModelDtype {
  std::string torch_name;   // bfloat16 or float16
  std::string plan_dtype;   // bf16 or fp16
  std::int64_t bytes = 2;
  Quant format() const { return plain(plan_dtype, 16); }
};

// The KV cache's data type after --kv-cache-dtype (CacheConfig.cache_dtype; kv_cache_interface.py
// get_kv_quant_mode): the model's type for auto, or fp8 (e4m3, one scale per tensor).
struct KVDtype {
  std::string torch_name;   // bfloat16, float16 or float8_e4m3fn
  std::string plan_dtype;   // bf16, fp16 or fp8
  std::int64_t bytes = 2;
  bool quantized = false;
  Quant format() const { return plain(plan_dtype, bytes * 8); }
};

// How a linear layer's weights are stored and run: unquantized (UnquantizedLinearMethod) or FP8 with
// block scales (Fp8LinearMethod with weight_block_size).
struct LinearScheme {
  bool fp8_block = false;
  std::int64_t block_n = 0, block_k = 0;
  Kernel kernel;             // what executes the GEMM
  std::int64_t kernels = 1;  // launches per GEMM when eager (FP8: the activation quantisation, then the GEMM)
};

// Everything the per-layer lowerings read, resolved once.
struct Context {
  const schema::Graph* graph = nullptr;
  const schema::Chip* chip = nullptr;
  LoweringConfig cfg;
  DeviceCapability cc;
  ResolvedCompilation compilation;
  ModelDtype dtype;
  KVDtype kv;
  std::string span;          // the highest topology tier the TP group spans (node or fabric)
  std::int64_t ranks_per_node = 1;
  std::vector<std::int64_t> stage_of_layer;  // per graph layer
};

ModelDtype resolve_model_dtype(const schema::Graph& graph, const LoweringConfig& cfg);
KVDtype resolve_kv_dtype(const ModelDtype& dtype, const LoweringConfig& cfg);
// vllm/distributed/utils.py@6e448d0e get_pp_indices, for every stage: the stage of each layer.
std::vector<std::int64_t> stages_of_layers(std::int64_t num_hidden_layers, std::int64_t pp_size);

// The attention geometry of one layer kind on one rank (QKVParallelLinear's sharding).
struct AttentionGeometry {
  std::int64_t q_heads = 0, kv_heads = 0;      // the model's
  std::int64_t q_per_rank = 0, kv_per_rank = 0;
  std::int64_t head_dim = 0, v_head_dim = 0, rotary_dim = 0;
};
AttentionGeometry attention_geometry(const schema::GraphAttention& a, std::int64_t tp, const std::string& kind_name);

// The attention layer's kernel (the backend's), for the prefill and decode families.
Kernel attention_kernel(const Context& c, bool decode);

// A lowered layer with its common fields.
Layer layer_of(std::optional<std::int64_t> layer, std::int64_t stage, const std::string& primitive,
               const std::string& name);
// The TP all-reduce of a row-parallel output (bytes per token: the hidden width in the model's type).
Layer tp_all_reduce(const Context& c, std::optional<std::int64_t> layer, std::int64_t stage,
                    const std::string& name, std::int64_t hidden);
// The kernel the device communicator selects for a TP all-reduce of `bytes` (cuda_communicator.py
// CudaCommunicator.all_reduce's order: custom all-reduce, torch symmetric memory, then PyNccl).
Kernel all_reduce_kernel(const Context& c, std::int64_t bytes);

// The linear scheme of a graph's layer-kind tensors (refuses a stored format it does not lower).
LinearScheme linear_scheme(const Context& c, const std::vector<schema::GraphTensor>& tensors,
                           const std::string& kind_name);
// A GEMM of n x k per rank.
Layer gemm(const Context& c, const LinearScheme& s, std::optional<std::int64_t> layer, std::int64_t stage,
           const std::string& name, std::int64_t n, std::int64_t k, const std::string& rows = "tokens");
// fp8_utils.py@6e448d0e validate_fp8_block_shape.
void validate_fp8_block_shape(std::int64_t tp, std::int64_t input_size, std::int64_t output_size,
                              std::int64_t input_size_per_partition,
                              const std::vector<std::int64_t>& output_partition_sizes,
                              std::int64_t block_n, std::int64_t block_k);
// The stored format of a linear weight under the scheme.
Quant weight_format(const Context& c, const LinearScheme& s);
Tensor tensor(const std::string& name, std::optional<std::int64_t> layer, std::int64_t stage,
              std::vector<std::int64_t> shape, const Quant& format, std::vector<std::string> sharding);

Layer rms_norm(const Context& c, std::optional<std::int64_t> layer, std::int64_t stage, const std::string& name,
               std::int64_t hidden, bool fused_residual);

// One decoder layer: the attention block (norm, projections, rotary, cache write, attention, output
// projection, all-reduce) and the feed-forward block.
void lower_attention_block(const Context& c, std::int64_t layer, const schema::GraphLayerKind& kind,
                           const std::string& kind_name, engine::plan::PoolPlan& plan);
void lower_dense_ffn(const Context& c, std::int64_t layer, const schema::GraphLayerKind& kind,
                     const std::string& kind_name, engine::plan::PoolPlan& plan);
void lower_moe_ffn(const Context& c, std::int64_t layer, const schema::GraphLayerKind& kind,
                   const std::string& kind_name, engine::plan::PoolPlan& plan);

// Refuses a layer kind whose structure the lowering does not handle, naming the field and value.
void check_layer_kind(const Context& c, const schema::GraphLayerKind& kind, const std::string& kind_name);

// The plan's captured graphs (CudagraphDispatcher.initialize_cudagraph_keys).
schema::PoolPlanGraphPolicy graph_policy(const ResolvedCompilation& compilation, const LoweringConfig& cfg,
                                         std::int64_t stages);
// The profiling step (GPUModelRunner.profile_run -> _dummy_run(max_num_tokens, is_profile=True)).
engine::plan::StepShape profiling_step(const LoweringConfig& cfg);
// The model runner's persistent buffers (GPUModelRunner.__init__).
std::vector<schema::PoolPlanBuffer> runner_buffers(const Context& c);

}  // namespace blis::vllm::lowering
