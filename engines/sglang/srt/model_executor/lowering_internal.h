// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: shared pieces of the port of python/sglang/srt/server_args.py@71de97b2 and
// python/sglang/srt/model_executor/model_runner.py@71de97b2 that lowering.h declares; each function cites the
// upstream it ports. Internal to engines/sglang/srt/model_executor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "srt/model_executor/lowering.h"

namespace blis::sglang::model_executor::internal {

// "<what> is not modelled by this port: <reason>", as std::invalid_argument.
[[noreturn]] void not_modelled(const std::string& what, const std::string& reason);

// Python's round(x, 3) on a float.
double py_round3(double x);

// Python's repr of a float (the shortest string that reads back to it).
std::string py_float(double v);

// The refusals every resolution shares (speculative decoding, PD disaggregation, DP attention, data
// parallelism) and the range checks of the numeric arguments.
void check_supported(const LoweringConfig& cfg);

// The single attention layout of a graph whose every layer is full softmax attention with one geometry;
// refuses anything else by name.
const schema::GraphAttention& uniform_attention(const schema::Graph& graph);

// --- The model walk (lowering_layers.cpp, lowering_weights.cpp, lowering_launch.cpp) ---

using Quant = schema::PoolPlanQuantFormat;
using Layer = schema::PoolPlanLoweredLayer;
using Tensor = schema::PoolPlanResidentTensor;
using Kernel = schema::PoolPlanKernelImpl;

// Everything the per-layer lowering reads, resolved once.
struct Walk {
  const schema::Graph* graph = nullptr;
  const schema::Chip* chip = nullptr;
  LoweringConfig cfg;
  ResolvedServerArgs args;
  DeviceCapability cc;
  std::int64_t max_running_requests = 0;
  std::string dtype = "bf16";  // the model's 16-bit type (ModelConfig dtype "auto")
  std::int64_t dtype_bytes = 2;
  Quant kv;                    // the KV cache's stored format
  std::int64_t decode_rows = 0;  // the largest captured (or, without graphs, schedulable) decode batch
  Quant act() const;
};

// The attention geometry of the model on one rank (QKVParallelLinear's head split).
struct HeadSplit {
  std::int64_t q_heads = 0, kv_heads = 0, q_per_rank = 0, kv_per_rank = 0, head_dim = 0, rotary_dim = 0;
};
HeadSplit head_split(const schema::GraphAttention& a, std::int64_t tp);

// distributed/utils.py divide: "{numerator} is not divisible by {denominator}".
std::int64_t divide(std::int64_t numerator, std::int64_t denominator);

// Refuses by name every feature of the graph the walk does not lower (the whole graph, before any layer).
void check_walk(const Walk& w);

// The lowered layers of the model (model-level and per layer), in execution order.
std::vector<Layer> lower_layers(const Walk& w);
// The resident weights, one entry per stored (fused) parameter per rank.
std::vector<Tensor> lower_weights(const Walk& w);
// The engine buffers SGLang allocates for the pool (ReqToTokenPool).
std::vector<schema::PoolPlanBuffer> lower_buffers(const Walk& w);
// The profiling_step the plan states (SGLang runs no profiling forward; see lowering_launch.cpp).
engine::plan::StepShape profiling_step(const Walk& w);

}  // namespace blis::sglang::model_executor::internal
