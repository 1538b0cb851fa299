// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/config/vllm.py, vllm/config/compilation.py, vllm/platforms/cuda.py,
// vllm/v1/cudagraph_dispatcher.py, vllm/v1/worker/gpu_model_runner.py, vllm/v1/worker/gpu_worker.py,
// vllm/v1/worker/utils.py, vllm/model_executor/layers/linear.py, vllm/model_executor/layers/fused_moe/
// oracle/unquantized.py, vllm/model_executor/layers/quantization/utils/fp8_utils.py,
// vllm/distributed/utils.py and vllm/distributed/device_communicators/*@6e448d0e; only what decides the
// lowered plan (kernel selection, sharding, capture sizes and padding, the profiling step, the KV page
// layout and the KV budget rule) is ported, as plain functions over the catalog's graph and chip.
//
// The lowering of a model graph to the PoolPlan the cost model prices, as the pinned vLLM release runs it on CUDA
// (design §6.2, §6.3): phase 1 (lower) writes the partial plan; phase 2 (kv_budget) applies vLLM's
// budget rule to the environment's MemoryBreakdown of that plan. Everything upstream supports that this
// port does not lower is refused by name with std::invalid_argument ("... is not modelled by this
// port: <reason>"); vLLM's own configuration errors keep vLLM's message text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contracts/engine/plan.h"
#include "contracts/engine/results.h"
#include "schema/chip.h"
#include "schema/graph.h"

namespace blis::vllm {

// What the lowering reads: the user's engine arguments (upstream names) and what the engine learns from
// its environment (the chip, the fabric, the nodes and GPUs it is placed on).
struct LoweringConfig {
  std::string model;                     // the catalog model (the graph's model id)
  std::string chip;                      // the catalog chip
  std::optional<std::string> fabric;     // the catalog network between nodes; absent on one node
  std::int64_t tp = 1;                   // --tensor-parallel-size
  std::int64_t pp = 1;                   // --pipeline-parallel-size
  std::int64_t dp = 1;                   // --data-parallel-size
  std::int64_t nodes = 1;                // nodes one instance may span
  std::int64_t gpus_per_node = 8;        // GPUs an instance may use on each node
  std::string dtype = "auto";            // --dtype: auto, bfloat16 (bf16), float16 (half, fp16)
  std::string kv_cache_dtype = "auto";   // --kv-cache-dtype: auto, bfloat16, float16, fp8, fp8_e4m3
  std::string quantization;              // --quantization: "" (from the checkpoint) or fp8
  std::int64_t block_size = 16;          // the resolved KV block size in tokens (CacheConfig.block_size)
  std::int64_t max_num_batched_tokens = 8192;  // the resolved SchedulerConfig.max_num_batched_tokens
  std::int64_t max_num_seqs = 256;       // the resolved SchedulerConfig.max_num_seqs
  bool enforce_eager = false;            // --enforce-eager
  std::optional<std::string> cudagraph_mode;  // -cc.cudagraph_mode (NONE, PIECEWISE, FULL, FULL_DECODE_ONLY, FULL_AND_PIECEWISE)
  std::optional<std::vector<std::int64_t>> cudagraph_capture_sizes;  // -cc.cudagraph_capture_sizes
  std::optional<std::int64_t> max_cudagraph_capture_size;            // -cc.max_cudagraph_capture_size
  bool async_scheduling = true;          // the resolved SchedulerConfig.async_scheduling
  bool disable_custom_all_reduce = false;  // --disable-custom-all-reduce
  std::int64_t num_speculative_tokens = 0;  // speculative decoding is refused when above 0
};

// The compilation settings vLLM resolves for the run (VllmConfig.__post_init__, _set_cudagraph_sizes,
// CompilationConfig.resolve_cudagraph_mode_and_sizes), and the attention backend they depend on.
struct ResolvedCompilation {
  std::string cudagraph_mode;                         // CUDAGraphMode name after every downgrade
  std::vector<std::int64_t> cudagraph_capture_sizes;  // ascending; empty without graphs
  std::int64_t max_cudagraph_capture_size = 0;        // 0 without graphs
  std::string attention_backend;                      // AttentionBackendEnum name (FLASH_ATTN, FLASHINFER)
  int flash_attn_version = 0;                         // 2 or 3 with FLASH_ATTN, else 0
  std::int64_t uniform_decode_query_len = 1;          // 1 + num_speculative_tokens
};

// The compute capability vLLM reads with torch.cuda.get_device_capability, from the catalog chip's
// architecture (Ampere 8.0, Ada Lovelace 8.9, Hopper 9.0, Blackwell 10.0, Blackwell Ultra 10.3). A chip
// of another architecture is refused by name.
struct DeviceCapability {
  int major = 0;
  int minor = 0;
};
DeviceCapability device_capability(const schema::Chip& chip);

// Resolves the compilation defaults as the pin does, for the model's attention layout on the chip.
ResolvedCompilation resolve_compilation(const LoweringConfig& cfg, const schema::Graph& graph,
                                        const schema::Chip& chip);

// Phase 1: the partial plan (no kv_budget). Throws std::invalid_argument for what it refuses.
engine::plan::PoolPlan lower(const schema::Graph& graph, const schema::Chip& chip, const LoweringConfig& cfg);

// Per attention layer, what the KV cache manager needs to build vLLM's KV cache specs (FullAttentionSpec,
// SlidingWindowSpec, MLAAttentionSpec of vllm/v1/kv_cache_interface.py) on one rank.
struct LayerKVSpec {
  std::int64_t layer = 0;              // the graph's layer index
  std::int64_t stage = 0;              // the pipeline stage that holds it
  std::string attention = "full";      // full or sliding_window
  std::optional<std::int64_t> window;  // sliding_window: the window in tokens
  std::int64_t num_kv_heads = 0;       // per rank (MLA: 1)
  std::int64_t head_size = 0;          // MLA: kv_lora_rank + qk_rope_head_dim
  std::int64_t head_size_v = 0;        // MLA: equal to head_size (unused by MLAAttentionSpec)
  std::string dtype;                   // the cache's torch dtype name (bfloat16, float16, float8_e4m3fn)
  std::int64_t dtype_bytes = 0;
  bool use_mla = false;
  std::int64_t block_size = 0;
  std::int64_t page_size_bytes = 0;    // real_page_size_bytes of the spec
};
std::vector<LayerKVSpec> layer_kv_specs(const schema::Graph& graph, const LoweringConfig& cfg);

// Phase 2, the budget rule (gpu_worker.py Worker.determine_available_memory, utils.py request_memory):
// per stage, ceil(total memory x gpu_memory_utilization) minus every non-KV term the environment sized
// that vLLM measures after its start-up snapshot (weights, engine buffers, peak activations, named
// remainder terms) and the CUDA-graph memory estimate. Memory outside the allocator (the device context
// and the communication libraries, created before the snapshot) is not subtracted, as upstream; it only
// has to leave the requested memory free (request_memory's check). Throws std::invalid_argument with
// vLLM's own messages when the free memory is below the requested memory or nothing is left for KV.
std::vector<std::int64_t> kv_budget(const engine::MemoryBreakdown& memory, const schema::Chip& chip,
                                    double gpu_memory_utilization);

// The padded launch of one step under the resolved compilation (gpu_model_runner.py
// GPUModelRunner._determine_batch_execution_and_padding with cudagraph_dispatcher.py
// CudagraphDispatcher.dispatch), for one rank: num_tokens scheduled over num_reqs requests whose
// longest query is max_query_len tokens. attention_layers are the graph layers whose attention runs
// eagerly between the pieces of a piecewise graph (the plan's attention layers on the step's stage).
schema::StepShapePaddedShape padded_launch(const ResolvedCompilation& compilation, const LoweringConfig& cfg,
                                           std::int64_t num_tokens, std::int64_t num_reqs,
                                           std::int64_t max_query_len,
                                           const std::vector<std::int64_t>& attention_layers,
                                           bool use_cascade_attn = false);

}  // namespace blis::vllm
