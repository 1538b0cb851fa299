// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/model_executor/layers/linear.py, vllm/model_executor/kernels/linear/
// __init__.py, vllm/model_executor/layers/quantization/utils/fp8_utils.py, vllm/model_executor/layers/
// layernorm.py, vllm/model_executor/layers/activation.py, vllm/distributed/device_communicators/
// {cuda_communicator,custom_all_reduce,symm_mem,all_reduce_utils}.py and vllm/model_executor/models/
// llama.py (LlamaMLP)@6e448d0e; the sharding, stored formats and kernels of linear layers, norms, the gated
// activation, the dense feed-forward block and the TP all-reduce. Online (dynamic) FP8 quantisation of an
// unquantised checkpoint, per-tensor FP8 checkpoints and every other quantisation method are refused.
#include <algorithm>
#include <stdexcept>

#include "model_executor/lowering_internal.h"

namespace blis::vllm::lowering {

Layer layer_of(std::optional<std::int64_t> layer, std::int64_t stage, const std::string& primitive,
               const std::string& name) {
  Layer l;
  l.layer = layer;
  l.stage = stage;
  l.primitive = primitive;
  l.name = name;
  return l;
}

Tensor tensor(const std::string& name, std::optional<std::int64_t> layer, std::int64_t stage,
              std::vector<std::int64_t> shape, const Quant& format, std::vector<std::string> sharding) {
  Tensor t;
  t.name = name;
  t.layer = layer;
  t.stage = stage;
  std::vector<units::Count> dims;
  for (const std::int64_t d : shape) dims.emplace_back(d);
  t.shape = dims;
  t.format = format;
  t.sharding = std::move(sharding);
  t.location = "device";
  return t;
}

namespace {

bool is_linear_role(const std::string& role) {
  return role.starts_with("attn_") || role.starts_with("mlp_") || role.starts_with("expert_") ||
         role.starts_with("shared_");
}

}  // namespace

// The linear method vLLM builds for the checkpoint (QuantizationConfig from quantization_config):
// UnquantizedLinearMethod (linear.py@6e448d0e) runs torch.nn.functional.linear; Fp8LinearMethod with a
// weight_block_size (fp8.py) picks the first supported kernel of _POSSIBLE_FP8_BLOCK_KERNELS
// (kernels/linear/__init__.py@6e448d0e): on SM90 and SM100 with the DeepGEMM the pin builds in
// (docker/Dockerfile's deepgemm external project), DeepGemmFp8BlockScaledMMKernel for M >= 32 (the
// FlashInfer swap-AB kernel FlashInferFp8DeepGEMMDynamicBlockScaledKernel uses below 32 rows is not told
// apart: one kernel per lowered layer).
LinearScheme linear_scheme(const Context& c, const std::vector<schema::GraphTensor>& tensors,
                           const std::string& kind_name) {
  LinearScheme s;
  bool quantized = false, plain16 = false;
  for (const auto& t : tensors) {
    if (!is_linear_role(t.role) || t.part != "weight") continue;
    const std::string at = "layer_kinds." + kind_name + ".tensors[" + t.name + "]";
    if (t.dtype == "unstated")
      not_modelled(at + ".dtype=unstated", "the stored data type is needed to size and run the weight");
    if (t.quant) {
      if (t.quant->format != "fp8_e4m3")
        not_modelled(at + ".quant.format=" + t.quant->format, "only block-scaled fp8_e4m3 checkpoints are lowered");
      if (t.quant->block.size() != 2)
        not_modelled(at + ".quant.block", "a block of two extents is expected");
      quantized = true;
      s.block_n = t.quant->block[0].value();
      s.block_k = t.quant->block[1].value();
    } else if (t.dtype == "BF16" || t.dtype == "F16") {
      plain16 = true;
    } else {
      not_modelled(at + ".dtype=" + t.dtype, "an unquantised linear weight is lowered in BF16 or F16 only");
    }
  }
  if (quantized && plain16)
    not_modelled("layer_kinds." + kind_name + ".tensors", "a layer mixing quantised and unquantised linear weights");
  if (!c.cfg.quantization.empty() && c.cfg.quantization != "fp8")
    not_modelled("quantization=" + c.cfg.quantization, "only checkpoint FP8 (fp8) is lowered");
  if (c.cfg.quantization == "fp8" && !quantized)
    not_modelled("quantization=fp8 on the unquantised layer kind " + kind_name,
                 "online dynamic FP8 quantisation (Fp8OnlineLinearMethod) is not lowered");
  if (!quantized) {
    s.kernel.library = "torch";
    s.kernel.variant = "torch.nn.functional.linear";
    return s;
  }
  if (c.cc.major != 9 && c.cc.major != 10)
    not_modelled("a block-scaled FP8 checkpoint on " + c.chip->name,
                 "vLLM runs it there with a kernel other than DeepGEMM (Marlin weight-only below SM89, CUTLASS or "
                 "Triton block kernels elsewhere), which is not lowered");
  s.fp8_block = true;
  s.kernel.library = "deep-gemm";
  s.kernel.variant = "DeepGemmFp8BlockScaledMMKernel";
  s.kernels = 2;  // per_token_group_quant_fp8, then the GEMM
  return s;
}

// fp8_utils.py@6e448d0e validate_fp8_block_shape.
void validate_fp8_block_shape(std::int64_t tp, std::int64_t input_size, std::int64_t output_size,
                              std::int64_t input_size_per_partition,
                              const std::vector<std::int64_t>& output_partition_sizes, std::int64_t block_n,
                              std::int64_t block_k) {
  if (tp > 1 && input_size / input_size_per_partition == tp && input_size_per_partition % block_k != 0)
    throw std::invalid_argument("Weight input_size_per_partition = " + std::to_string(input_size_per_partition) +
                                " is not divisible by weight quantization block_k = " + std::to_string(block_k) + ".");
  std::int64_t sum = 0;
  for (const std::int64_t p : output_partition_sizes) sum += p;
  const bool is_tp_split = tp > 1 && output_size / sum == tp;
  const bool is_merged_gemm = output_partition_sizes.size() > 1;
  if (is_tp_split || is_merged_gemm) {
    std::vector<std::int64_t> sizes = output_partition_sizes;
    if (!is_tp_split && is_merged_gemm) sizes.pop_back();
    for (const std::int64_t p : sizes)
      if (p % block_n != 0)
        throw std::invalid_argument("Weight output_partition_size = " + std::to_string(p) +
                                    " is not divisible by weight quantization block_n = " + std::to_string(block_n) + ".");
  }
}

Quant weight_format(const Context& c, const LinearScheme& s) {
  return s.fp8_block ? fp8_block_weight(s.block_n, s.block_k) : c.dtype.format();
}

Layer gemm(const Context& c, const LinearScheme& s, std::optional<std::int64_t> layer, std::int64_t stage,
           const std::string& name, std::int64_t n, std::int64_t k, const std::string& rows) {
  Layer l = layer_of(layer, stage, "gemm", name);
  l.kernel = s.kernel;
  if (s.kernels > 1) l.kernels = units::Count{s.kernels};
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = rows;
  sh.n = units::Count{n};
  sh.k = units::Count{k};
  schema::PoolPlanDtypes d;
  if (s.fp8_block) {
    d.compute = "fp8";
    d.activation = fp8_group_activation(s.block_k);
    d.weight = fp8_block_weight(s.block_n, s.block_k);
  } else {
    d.compute = c.dtype.plan_dtype;
    d.activation = c.dtype.format();
    d.weight = c.dtype.format();
  }
  d.output = c.dtype.format();
  sh.dtypes = d;
  l.shape = sh;
  return l;
}

// layernorm.py@6e448d0e RMSNorm.forward (fused_add_rms_norm when a residual is passed).
Layer rms_norm(const Context& c, std::optional<std::int64_t> layer, std::int64_t stage, const std::string& name,
               std::int64_t hidden, bool fused_residual) {
  Layer l = layer_of(layer, stage, "elementwise.norm", name);
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = "tokens";
  sh.hidden = units::Count{hidden};
  sh.fused_residual = fused_residual;
  schema::PoolPlanDtypes d;
  d.activation = c.dtype.format();
  d.weight = c.dtype.format();
  d.output = c.dtype.format();
  sh.dtypes = d;
  l.shape = sh;
  return l;
}

namespace {

constexpr std::int64_t MiB = 1024 * 1024;

// all_reduce_utils.py@6e448d0e CUSTOM_ALL_REDUCE_MAX_SIZES / SYMM_MEM_ALL_REDUCE_MAX_SIZES; 0: no entry.
std::int64_t custom_max(const DeviceCapability& cc, std::int64_t world) {
  if (cc.major == 9 && cc.minor == 0) {
    if (world == 2) return 64 * MiB;
    if (world == 4) return 32 * MiB;
    if (world == 6) return MiB / 2;
    if (world == 8) return MiB / 4;
  } else if (cc.major == 10 && cc.minor == 0) {
    if (world == 2 || world == 4) return 2 * MiB;
    if (world == 6 || world == 8) return 1 * MiB;
  } else if (cc.major == 10 && cc.minor == 3) {
    if (world == 2 || world == 4 || world == 8) return 4 * MiB;
    if (world == 6) return 8 * MiB;
  }
  return 0;
}
std::int64_t symm_max(const DeviceCapability& cc, std::int64_t world) {
  if (cc.major == 9 && cc.minor == 0) {
    if (world == 2 || world == 6 || world == 8) return 64 * MiB;
    if (world == 4) return 32 * MiB;
  } else if (cc.major == 10 && cc.minor == 0) {
    if (world == 2) return 8 * MiB;
    if (world == 4) return 32 * MiB;
    if (world == 6 || world == 8) return 128 * MiB;
  } else if (cc.major == 10 && cc.minor == 3) {
    if (world == 2) return 4 * MiB;
    if (world == 4 || world == 6) return 32 * MiB;
    if (world == 8) return 64 * MiB;
  }
  return 0;
}

}  // namespace

// cuda_communicator.py@6e448d0e CudaCommunicator.__init__ and all_reduce: the TP group's communicators
// (VLLM_ALLREDUCE_USE_SYMM_MEM=1, VLLM_ALLREDUCE_USE_FLASHINFER=0 and VLLM_USE_NCCL_SYMM_MEM=0 by default)
// are tried in order: CustomAllreduce.should_custom_ar (custom_all_reduce.py: enabled for world sizes
// 2, 4, 6, 8, 16 on one fully NVLink-connected node; max_size 8 MiB, capped by
// CUSTOM_ALL_REDUCE_MAX_SIZES when symmetric memory is enabled; input size a multiple of 16 and below
// max_size; world size at most 8), then SymmMemCommunicator.should_use_symm_mem (bfloat16 input, size a
// multiple of 4, at most SYMM_MEM_ALL_REDUCE_MAX_SIZES), then PyNccl.
Kernel all_reduce_kernel(const Context& c, std::int64_t bytes) {
  const std::int64_t world = c.cfg.tp;
  const bool same_node = c.span == "node";
  const bool nvlink = c.chip->nvlink.has_value();  // is_fully_connected: every pair linked by NVLink
  const std::int64_t symm = same_node ? symm_max(c.cc, world) : 0;  // multicast within one NVLink domain
  const bool symm_enabled = symm > 0;
  const bool ca_enabled = !c.cfg.disable_custom_all_reduce && same_node && nvlink &&
                          (world == 2 || world == 4 || world == 6 || world == 8 || world == 16);
  Kernel k;
  if (ca_enabled && world <= 8) {
    std::int64_t max_size = 8192 * 1024;
    if (symm_enabled && custom_max(c.cc, world) > 0) max_size = std::min(custom_max(c.cc, world), max_size);
    if (bytes % 16 == 0 && bytes < max_size) {
      k.library = "vllm-csrc";
      k.variant = "custom_all_reduce";
      return k;
    }
  }
  if (symm_enabled && c.dtype.torch_name == "bfloat16" && bytes % 4 == 0 && bytes <= symm) {
    k.library = "torch";
    k.variant = "symm_mem.all_reduce";
    return k;
  }
  k.library = "nccl";
  k.variant = "all_reduce";
  return k;
}

// The all-reduce a RowParallelLinear's output takes (linear.py@6e448d0e RowParallelLinear.forward,
// reduce_results=True: tensor_model_parallel_all_reduce). The kernel is the one chosen for the largest
// decode step's message (min(max_num_seqs, max_num_batched_tokens) rows): the communicator chooses per
// call by size, and a lowered layer names one kernel.
Layer tp_all_reduce(const Context& c, std::optional<std::int64_t> layer, std::int64_t stage, const std::string& name,
                    std::int64_t hidden) {
  Layer l = layer_of(layer, stage, "collective.all_reduce", name);
  const std::int64_t per_token = hidden * c.dtype.bytes;
  l.kernel = all_reduce_kernel(c, per_token * std::min(c.cfg.max_num_seqs, c.cfg.max_num_batched_tokens));
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = "tokens";
  schema::PoolPlanDtypes d;
  d.activation = c.dtype.format();
  sh.dtypes = d;
  l.shape = sh;
  schema::PoolPlanCollective co;
  co.group = "tp";
  co.group_size = units::Count{c.cfg.tp};
  co.span = c.span;
  co.bytes_per_token = units::BytesPerRank{per_token};
  l.collective = co;
  return l;
}

// llama.py@6e448d0e LlamaMLP (and the Qwen2/Qwen3 MLPs of the same structure): gate_up_proj
// (MergedColumnParallelLinear), SiluAndMul, down_proj (RowParallelLinear), after the post-attention
// norm (fused_add_rms_norm with the residual).
void lower_dense_ffn(const Context& c, std::int64_t layer, const schema::GraphLayerKind& kind,
                     const std::string& kind_name, engine::plan::PoolPlan& plan) {
  const auto& dense = *kind.ffn.dense;
  if (dense.activation != "silu")
    not_modelled("layer_kinds." + kind_name + ".ffn.dense.activation=" + dense.activation,
                 "only SiluAndMul is lowered");
  const std::int64_t stage = c.stage_of_layer[static_cast<std::size_t>(layer)];
  const std::int64_t h = c.graph->dims.hidden_size.value();
  const std::int64_t inter = dense.intermediate.value();
  const std::int64_t tp = c.cfg.tp;
  const std::int64_t inter_r = divide(inter, tp);
  const LinearScheme s = linear_scheme(c, kind.tensors, kind_name);
  if (s.fp8_block) {
    validate_fp8_block_shape(tp, h, 2 * inter, h, {inter_r, inter_r}, s.block_n, s.block_k);
    validate_fp8_block_shape(tp, inter, h, inter_r, {h}, s.block_n, s.block_k);
  }
  auto& layers = *plan.layers;
  const std::string p = "layers." + std::to_string(layer) + ".";
  layers.push_back(rms_norm(c, layer, stage, "post-attention norm", h, true));
  layers.push_back(gemm(c, s, layer, stage, "gate and up projection", 2 * inter_r, h));
  Layer act = layer_of(layer, stage, "elementwise.activation", "SiluAndMul");
  schema::PoolPlanPrimitiveShape ash;
  ash.rows = "tokens";
  ash.width = units::Count{inter_r};
  ash.gated = true;
  schema::PoolPlanDtypes ad;
  ad.activation = c.dtype.format();
  ad.output = c.dtype.format();
  ash.dtypes = ad;
  act.shape = ash;
  layers.push_back(act);
  layers.push_back(gemm(c, s, layer, stage, "down projection", h, inter_r));
  if (tp > 1) layers.push_back(tp_all_reduce(c, layer, stage, "MLP output all-reduce", h));

  auto& w = *plan.weights;
  const Quant wf = weight_format(c, s);
  const std::vector<std::string> tp_shard = tp > 1 ? std::vector<std::string>{"tp"} : std::vector<std::string>{};
  w.push_back(tensor(p + "post_attention_layernorm.weight", layer, stage, {h}, c.dtype.format(), {}));
  w.push_back(tensor(p + "mlp.gate_up_proj.weight", layer, stage, {2 * inter_r, h}, wf, tp_shard));
  w.push_back(tensor(p + "mlp.down_proj.weight", layer, stage, {h, inter_r}, wf, tp_shard));
}

}  // namespace blis::vllm::lowering
