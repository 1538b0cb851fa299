// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/server_args.py@71de97b2,
// python/sglang/srt/arg_groups/overrides.py@71de97b2, python/sglang/srt/model_executor/cuda_graph_config.py@71de97b2,
// python/sglang/srt/model_executor/model_runner.py@71de97b2, python/sglang/srt/model_executor/pool_configurator.py@71de97b2,
// python/sglang/srt/mem_cache/kv_cache_configurator.py@71de97b2 and
// python/sglang/srt/model_executor/runner/base_cuda_graph_runner.py@71de97b2; only the start-up decisions
// that shape the lowered plan (the GPU-memory defaults, the attention backend and page size, the CUDA-graph
// batch sizes and decode padding, the KV token budget) are ported, as plain functions over the catalog's
// graph and chip and the user's server arguments. Everything upstream supports that this port does not model
// is refused by name with std::invalid_argument ("... is not modelled by this port: <reason>").
//
// Upstream resolves these in ServerArgs._run_resolution_pipeline (server_args.py) and at start-up of the
// model runner (model_runner.py, which sizes the KV pool through KVCacheConfigurator and the pool
// configurators); the functions below keep that order: resolve_server_args first (what the server arguments
// become before any GPU work), then the KV budget from memory measured around the model load, then the
// decode batch sizes the CUDA-graph runner captures (which depend on the pool's request slots).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contracts/engine/plan.h"
#include "contracts/engine/results.h"
#include "schema/chip.h"
#include "schema/graph.h"

namespace blis::sglang::model_executor {

// The compute capability SGLang reads (torch.cuda.get_device_capability). The catalog chip does not state it
// (its architecture is a documentation-only label, SUB-20), so the caller gives it with the configuration.
struct DeviceCapability {
  int major = 0;
  int minor = 0;
};

// What the resolution reads: the user's server arguments (upstream names; an absent optional is upstream's
// None, "resolve the default") and the catalog entries the engine runs on.
struct LoweringConfig {
  std::string model;                                  // --model-path: the catalog model id
  std::string chip;                                   // the catalog chip
  std::int64_t tp = 1;                                // --tp-size
  std::int64_t pp = 1;                                // --pp-size
  std::int64_t dp = 1;                                // --dp-size
  std::optional<std::int64_t> chunked_prefill_size;   // --chunked-prefill-size (-1 or 0 disables chunking)
  std::int64_t max_prefill_tokens = 16384;            // --max-prefill-tokens
  std::optional<std::int64_t> cuda_graph_max_bs;      // --cuda-graph-max-bs-decode
  std::optional<std::vector<std::int64_t>> cuda_graph_bs;  // --cuda-graph-bs-decode
  bool disable_cuda_graph = false;                    // --disable-cuda-graph (both phases)
  bool disable_prefill_cuda_graph = false;            // --disable-prefill-cuda-graph
  bool disable_cuda_graph_padding = false;            // --disable-cuda-graph-padding
  std::optional<double> mem_fraction_static;          // --mem-fraction-static
  std::optional<std::int64_t> max_running_requests;  // --max-running-requests
  std::optional<std::int64_t> max_total_tokens;       // --max-total-tokens
  std::optional<std::int64_t> page_size;              // --page-size
  std::optional<std::string> attention_backend;       // --attention-backend (only the default is lowered)
  std::string kv_cache_dtype = "auto";                // --kv-cache-dtype: auto, bf16, bfloat16, fp8_e4m3, fp8_e5m2
  std::string disaggregation_mode = "null";           // --disaggregation-mode (only "null" is lowered)
  std::optional<std::string> speculative_algorithm;   // --speculative-algorithm (refused when set)
  bool enable_dp_attention = false;                   // --enable-dp-attention (refused when set)
  bool disable_overlap_schedule = false;              // --disable-overlap-schedule
  std::optional<std::int64_t> context_length;         // ModelConfig.context_len; default: the graph's max_position_embeddings
  // _handle_gpu_memory_settings caps the prefill CUDA-graph max_bs at 4096 for model paths naming one model
  // series (a substring test upstream); the port states no model names (SUB-3), so the caller passes the cap.
  std::optional<std::int64_t> model_path_prefill_cap;
  // The chip's compute capability (CUDA 12.8 or later and FlashInfer installed are assumed); required by the
  // attention backend's resolution.
  std::optional<DeviceCapability> capability;
};

// The GPU-memory-dependent defaults (server_args.py ServerArgs._handle_gpu_memory_settings and the
// CUDA-graph configuration it completes).
struct MemoryDefaults {
  std::optional<double> gpu_mem_mib;          // get_device_memory_capacity: MiB, None when unknown
  std::int64_t chunked_prefill_size = 0;
  std::string decode_cuda_graph_backend;      // "full" or "disabled"
  std::int64_t decode_max_bs = 0;             // cuda_graph_config.decode.max_bs
  std::vector<std::int64_t> decode_bs;        // cuda_graph_config.decode.bs (before the runner's clamp)
  std::string prefill_cuda_graph_backend;     // "breakable" or "disabled"
  std::int64_t prefill_max_bs = 0;            // cuda_graph_config.prefill.max_bs (tokens)
  std::vector<std::int64_t> prefill_bs;       // cuda_graph_config.prefill.bs (token buckets)
  std::optional<double> reserved_mem_mib;     // the reserve behind mem_fraction_static (absent when the user set it)
  double mem_fraction_static = 0.0;
};

// The capacity SGLang reads with nvidia-smi (memory.total, MiB), from the catalog chip's memory: the
// chip's bytes / 2^20, truncated to whole MiB as nvidia-smi prints them.
double gpu_memory_mib(const schema::Chip& chip);

// server_args.py ServerArgs._handle_gpu_memory_settings (with _parse_cuda_graph_config's defaults,
// _generate_decode_cuda_graph_batch_sizes, _generate_prefill_cuda_graph_batch_sizes, reserve_for_graph_mb
// and reserve_for_deepep_a2a_mb) on CUDA, for a model that is (use_mla_backend) or is not an MLA model.
// gpu_mem_mib absent is upstream's gpu_mem None. Throws std::invalid_argument for a refused configuration.
MemoryDefaults resolve_memory_defaults(std::optional<double> gpu_mem_mib, const LoweringConfig& cfg,
                                       bool use_mla_backend);

// The attention backend and page size SGLang resolves (overrides.py _attention_backend_default ->
// ServerArgs._get_default_attn_backend, _mla_backend_page_constraints, _attention_backend_fa3_fp8_fallback,
// _fa4_page_constraint, _page_size_default).
struct AttentionChoice {
  std::string attention_backend;   // fa3, flashinfer, trtllm_mha, fa4, triton
  std::int64_t page_size = 1;
  bool use_mla_backend = false;
};
// Reads cfg.capability (refused when absent) and the chip's name for messages.
AttentionChoice resolve_attention_backend(const schema::Graph& graph, const schema::Chip& chip,
                                          const LoweringConfig& cfg);

// Everything resolve_server_args settles (ServerArgs._run_resolution_pipeline, the parts that shape the plan).
struct ResolvedServerArgs {
  MemoryDefaults memory;
  AttentionChoice attention;
  bool disable_overlap_schedule = false;  // the user's flag, or a hook's (pp_size > 1)
  std::int64_t context_len = 0;           // ModelConfig.context_len
};
ResolvedServerArgs resolve_server_args(const schema::Graph& graph, const schema::Chip& chip,
                                       const LoweringConfig& cfg);

// --- The KV budget (model_runner.py alloc_memory_pool -> KVCacheConfigurator.configure) ---

// The KV cache element size in bytes (mem_cache/kv_cache_dtype.py configure_kv_cache_dtype) for the
// model's 16-bit type.
std::int64_t kv_cache_element_size(const schema::Graph& graph, const std::string& kv_cache_dtype);

// pool_configurator.py DefaultPoolConfigurator._compute_cell_size for an MHA/GQA model: the bytes one token
// takes across the num_layers layers of a rank, get_num_kv_heads(tp) x (head_dim + v_head_dim) x num_layers x
// element size. Refuses what the port does not size (MLA, sliding windows, layers without attention,
// attention layouts that differ between layers).
std::int64_t kv_cell_size(const schema::Graph& graph, std::int64_t tp, std::int64_t num_layers,
                          std::int64_t kv_element_size);

// kv_cache_configurator.py KVCacheConfigurator._profile_available_bytes for a text model without mamba
// state: free_before_load_bytes is what get_available_gpu_memory reports after the distributed init
// (pre_model_load_memory), free_at_pool_bytes what it reports when the pool is sized (after the weights
// are loaded). distributed (world size > 1) reduces the free bytes through a float32 tensor, as upstream.
// Throws std::invalid_argument with upstream's message when nothing is left.
std::int64_t profile_available_bytes(std::int64_t free_before_load_bytes, std::int64_t free_at_pool_bytes,
                                     double mem_fraction_static, bool distributed);

// The pool the KV budget buys: max_total_num_tokens (DefaultPoolConfigurator.calculate_pool_sizes, page
// aligned; the user's max_total_tokens cap of _apply_token_constraints) and max_running_requests
// (KVCacheConfigurator.resolve_max_num_reqs).
struct MemoryPool {
  std::int64_t available_bytes = 0;
  std::int64_t cell_size = 0;
  std::int64_t max_total_num_tokens = 0;
  std::int64_t max_running_requests = 0;
};
MemoryPool memory_pool(std::int64_t available_bytes, std::int64_t cell_size, std::int64_t page_size,
                       std::int64_t context_len, std::optional<std::int64_t> max_total_tokens,
                       std::optional<std::int64_t> max_running_requests, std::int64_t attn_dp_size = 1);

// The same over BLIS's memory breakdown of a plan, per stage: pre_model_load_memory is the chip's memory
// minus the breakdown's outside_allocator term (the device context and communicators exist before upstream
// measures it); the pool is sized after the weights load, so free_at_pool subtracts the weights term. The
// activations, graph pool and engine buffers are allocated after the pool and are what mem_fraction_static's
// slack holds; they are not subtracted (upstream does not measure them). cell_sizes has one entry per stage.
std::vector<MemoryPool> kv_budget(const engine::MemoryBreakdown& memory, const schema::Chip& chip,
                                  const ResolvedServerArgs& args, const LoweringConfig& cfg,
                                  const std::vector<std::int64_t>& cell_sizes);

// --- CUDA graphs (runner/base_cuda_graph_runner.py) ---

// get_batch_sizes_to_capture for the decode runner without DP attention, two-batch overlap or context
// parallelism (alignment 1): the configured decode batch sizes clamped to the request pool's size
// (req_to_token_pool.size = max_running_requests), that size added when it is below the largest. Empty
// when the decode graph is disabled.
std::vector<std::int64_t> decode_capture_batch_sizes(const MemoryDefaults& memory, std::int64_t req_to_token_pool_size);

// DecodeCudaGraphRunner.can_run_graph and BaseCudaGraphRunner._pad_to_bucket: the captured batch size a
// decode batch of batch_size requests replays (the smallest captured size at or above it), or nullopt when
// it runs eagerly (no graphs, or above the largest captured size).
std::optional<std::int64_t> padded_decode_batch_size(const std::vector<std::int64_t>& capture_bs,
                                                     std::int64_t batch_size);

// --- The plan (partial) ---

// The plan-level policies SGLang's start-up fixes for one pp stage (pp_size 1): the layout, the one KV group of
// MHATokenToKVPool (bytes_per_page = page_size x kv_cell_size), the captured graphs (the decode runner's full
// graphs at decode_capture_batch_sizes(max_running_requests), one query token per request; the prefill runner's
// breakable graphs at the prefill token buckets, launched piecewise around attention) and in_flight (2 with the
// overlap schedule, else 1). The model walk is not part of it: layers, weights, buffers, host and profiling_step
// are left unstated (lower() below completes the plan). max_running_requests is the pool's (memory_pool / kv_budget).
engine::plan::PoolPlan lower_policies(const schema::Graph& graph, const schema::Chip& chip, const LoweringConfig& cfg,
                                      const ResolvedServerArgs& args, std::int64_t max_running_requests);

// --- The plan (phase 1, complete but for kv_budget) ---

// lower_policies' plan completed with the model walk (lowering_layers.cpp, lowering_weights.cpp,
// lowering_launch.cpp): one lowered layer per primitive of each graph layer as the pinned model files run it
// (models/llama.py and mixtral.py's decoder layers: RMSNorm, QKVParallelLinear, rotary, the KV cache write, the
// resolved attention backend's prefill and decode kernels, o_proj, the TP all-reduce, the dense MLP or the fused
// MoE Triton runner), the model-level embedding, final norm, LM head, logits all-gather and sampler; the resident
// weights of every graph tensor as SGLang's parallel linear layers shard them over tp; the engine buffers
// (ReqToTokenPool); the host work; and the profiling step (see lowering_launch.cpp: SGLang runs no profiling
// forward). kv_budget stays absent (kv_budget above fills it). cfg.capability must be given. Refuses by name
// (std::invalid_argument "... is not modelled by this port: <reason>") every graph feature it does not lower:
// MLA, windows, sinks, sparse indexers, recurrent or empty mixers, QK norms, output gates, asymmetric value heads,
// quantised or non-16-bit weights, biases other than the QKV projection's, shared or grouped-routing experts,
// a MoE block on SM100 (whose runner a model-specific override picks) and activations other than SiLU.
engine::plan::PoolPlan lower(const schema::Graph& graph, const schema::Chip& chip, const LoweringConfig& cfg,
                             const ResolvedServerArgs& args, std::int64_t max_running_requests);

// The launched shape of one step on the plan lower() wrote (one rank, pp 1), as the pinned model runner picks it
// (model_runner.py ModelRunner.forward's dispatch, runner/decode_cuda_graph_runner.py can_run_graph and
// runner/prefill_cuda_graph_runner.py PrefillCudaGraphRunner.can_run_graph / can_replay_locally):
//   forward_mode "decode": num_reqs requests of one query token each (max_query_len 1, num_tokens == num_reqs);
//     the decode runner's full graph at padded_decode_batch_size of the plan's decode buckets when it can run
//     (launch full_graph, tokens = requests = the padded batch size), otherwise eager.
//   forward_mode "extend" or "mixed" (ForwardMode.is_extend includes MIXED, and the prefill runner replays a
//     MIXED batch as EXTEND): the prefill runner's breakable graph when the plan captured token buckets, num_tokens
//     is at most the largest bucket and the bucket it pads to (bisect_left) is at most twice num_tokens
//     (_MAX_PREFILL_CUDA_GRAPH_PADDING_FACTOR): launch piecewise at the padded token count, requests unpadded,
//     every attention layer eager between the captured segments; otherwise eager.
// The step is assumed to ask no logprobs, embeddings or LoRA (the eligibility tests that read them pass).
// Throws std::invalid_argument for an unknown mode or inconsistent counts.
schema::StepShapePaddedShape padded_launch(const engine::plan::PoolPlan& plan, std::int64_t num_tokens,
                                           std::int64_t num_reqs, std::int64_t max_query_len,
                                           const std::string& forward_mode);

}  // namespace blis::sglang::model_executor
