// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/worker/gpu_worker.py (Worker.init_device's snapshot order,
// Worker.determine_available_memory), vllm/v1/worker/utils.py (request_memory), vllm/utils/mem_utils.py
// (memory_profiling's non_kv_cache_memory), vllm/v1/core/kv_cache_utils.py
// (_check_enough_kv_cache_memory's first check) and vllm/v1/worker/gpu_model_runner.py
// (GPUModelRunner.__init__'s persistent buffers)@6e448d0e. kv_cache_memory_bytes (which skips the rule)
// and VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 are not ported: the default subtracts the estimate.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <variant>

#include "model_executor/lowering_internal.h"

namespace blis::vllm {

namespace {

std::int64_t per_rank(const engine::MemoryTerm& t, const std::string& what) {
  if (const auto* b = std::get_if<units::BytesPerRank>(&t.bytes)) return b->value();
  throw std::invalid_argument("kv_budget: the " + what + " term is stated per " + std::string(engine::basis_name(t.bytes)) +
                              ", and the budget rule subtracts per-rank memory");
}

// vllm/utils/mem_utils.py@6e448d0e format_gib: round(b / GiB, 2), printed by Python's str().
std::string format_float(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string format_gib(std::int64_t b) {
  const double g = std::round(static_cast<double>(b) / 1073741824.0 * 100.0) / 100.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", g);
  std::string s = buf;
  while (s.size() > 3 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

}  // namespace

// gpu_worker.py@6e448d0e Worker.determine_available_memory:
//   available_kv_cache_memory_bytes = requested_memory - profile_result.non_kv_cache_memory
//                                     - cudagraph_memory_estimate_applied
// with requested_memory = ceil(total_memory x gpu_memory_utilization) (utils.py request_memory), and
// non_kv_cache_memory = total_consumed + transient_peak_headroom (mem_utils.py memory_profiling): what
// the process allocated after the init snapshot (weights, persistent buffers, memory outside torch that
// grew since) plus the profiling run's transient activation peak. The snapshot is taken after the device
// context and the communicators exist (Worker.init_device: "Initialize the distributed environment BEFORE
// taking memory snapshot"), so the breakdown's outside_allocator term is not subtracted; it only has to
// leave requested_memory free (request_memory's ValueError). The CUDA-graph estimate is applied by default
// (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1).
std::vector<std::int64_t> kv_budget(const engine::MemoryBreakdown& memory, const schema::Chip& chip,
                                    double gpu_memory_utilization) {
  if (!(gpu_memory_utilization > 0.0) || gpu_memory_utilization > 1.0)
    throw std::invalid_argument("gpu_memory_utilization=" + format_float(gpu_memory_utilization) +
                                ": expected a value in (0, 1]");
  if (memory.stages.empty()) throw std::invalid_argument("kv_budget: the memory breakdown states no stage");
  const std::int64_t total_memory = chip.memory.bytes.value.value();
  const std::int64_t requested_memory =
      static_cast<std::int64_t>(std::ceil(static_cast<double>(total_memory) * gpu_memory_utilization));
  std::vector<std::int64_t> out;
  for (const engine::StageMemory& s : memory.stages) {
    const std::int64_t outside = per_rank(s.outside_allocator, "outside_allocator");
    const std::int64_t free_memory = total_memory - outside;  // init_snapshot.free_memory
    if (free_memory < requested_memory)
      throw std::invalid_argument("Free memory on device cuda:0 (" + format_gib(free_memory) + "/" +
                                  format_gib(total_memory) + " GiB) on startup is less than desired GPU memory "
                                  "utilization (" + format_float(gpu_memory_utilization) + ", " +
                                  format_gib(requested_memory) +
                                  " GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.");
    std::int64_t non_kv = per_rank(s.weights, "weights") + per_rank(s.engine_buffers, "engine_buffers") +
                          per_rank(s.activations, "activations");
    for (const auto& [name, term] : s.remainder) non_kv += per_rank(term, "remainder " + name);
    const std::int64_t cudagraph_memory_estimate = per_rank(s.graph_pool, "graph_pool");
    const std::int64_t available = requested_memory - non_kv - cudagraph_memory_estimate;
    // kv_cache_utils.py@6e448d0e _check_enough_kv_cache_memory.
    if (available <= 0)
      throw std::invalid_argument(
          "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the "
          "engine (this flag also controls CPU memory reservation on the CPU backend, despite its name). See "
          "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.");
    out.push_back(available);
  }
  return out;
}

namespace lowering {

// gpu_model_runner.py@6e448d0e GPUModelRunner.__init__ "Persistent buffers for CUDA graphs" (input_ids,
// positions, query_start_loc, seq_lens, num_computed_tokens, prev_num_draft_tokens, req_indices,
// prev_positions, num_scheduled_tokens, encoder_seq_lens, inputs_embeds, is_token_ids,
// discard_request_mask, num_decode_draft_tokens, num_accepted_tokens, query_pos): each CpuGpuBuffer
// holds a device tensor and a pinned host copy (optimistic_seq_lens_cpu is host only; positions,
// seq_lens and num_computed_tokens device only). Sized without the caching allocator's rounding.
std::vector<schema::PoolPlanBuffer> runner_buffers(const Context& c) {
  const std::int64_t T = c.cfg.max_num_batched_tokens, R = c.cfg.max_num_seqs;
  const std::int64_t H = c.graph->dims.hidden_size.value(), b = c.dtype.bytes;
  const std::int64_t arange = std::max(R + 1, T);
  // Buffers with both halves (CpuGpuBuffer).
  const std::int64_t both = 4 * T               // input_ids int32
                            + 4 * (R + 1)       // query_start_loc int32
                            + 4 * R             // prev_num_draft_tokens int32
                            + 8 * T             // req_indices int64
                            + 8 * R             // prev_positions int64
                            + 4 * R             // num_scheduled_tokens int32
                            + 4 * R             // encoder_seq_lens int32
                            + T * H * b         // inputs_embeds (model dtype)
                            + T                 // is_token_ids bool
                            + R                 // discard_request_mask bool
                            + 4 * R             // num_decode_draft_tokens int32
                            + 4 * R             // num_accepted_tokens int32
                            + 8 * arange;       // query_pos int64
  const std::int64_t device_only = 8 * T + 4 * R + 4 * R;  // positions int64, seq_lens, num_computed_tokens
  const std::int64_t host_only = 4 * R;                    // optimistic_seq_lens_cpu
  schema::PoolPlanBuffer dev;
  dev.name = "model runner persistent input buffers (gpu_model_runner.py GPUModelRunner.__init__)";
  dev.bytes = units::BytesPerRank{both + device_only};
  dev.basis = "rank";
  dev.location = "device";
  schema::PoolPlanBuffer pinned;
  pinned.name = "model runner persistent input buffers, pinned host halves";
  pinned.bytes = units::BytesPerRank{both + host_only};
  pinned.basis = "rank";
  pinned.location = "pinned_host";
  return {dev, pinned};
}

}  // namespace lowering

}  // namespace blis::vllm
