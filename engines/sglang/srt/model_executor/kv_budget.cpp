// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/model_executor/model_runner.py@71de97b2 (alloc_memory_pool),
// python/sglang/srt/mem_cache/kv_cache_configurator.py@71de97b2 (KVCacheConfigurator._profile_available_bytes,
// config_from_budget, _apply_token_constraints, resolve_max_num_reqs),
// python/sglang/srt/model_executor/pool_configurator.py@71de97b2 (DefaultPoolConfigurator._compute_cell_size for
// MHA/GQA, calculate_pool_sizes, calculate_pool_sizes_from_max_tokens, MemoryPoolConfig's check),
// python/sglang/srt/mem_cache/kv_cache_dtype.py@71de97b2 (configure_kv_cache_dtype's element sizes) and
// python/sglang/srt/utils/common.py@71de97b2 (get_available_gpu_memory's GiB and float32 reduction); the KV
// token budget of a text model without mamba state, draft model, hybrid SWA or DSA pools. GPU memory is
// read from BLIS's memory breakdown instead of torch.cuda.mem_get_info.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <variant>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

using internal::not_modelled;

// mem_cache/kv_cache_dtype.py@71de97b2 configure_kv_cache_dtype: auto keeps the model's dtype (read from the
// graph's unquantised weights: the checkpoint's torch_dtype); bf16/bfloat16 are 2 bytes, fp8_e4m3/fp8_e5m2
// one. "auto" on a quantised checkpoint is refused: its kv_cache_quant_algo (FP8 KV) is not in the graph.
std::int64_t kv_cache_element_size(const schema::Graph& graph, const std::string& kv_cache_dtype) {
  if (kv_cache_dtype == "bf16" || kv_cache_dtype == "bfloat16") return 2;
  if (kv_cache_dtype == "fp8_e4m3" || kv_cache_dtype == "fp8_e5m2") return 1;
  if (kv_cache_dtype != "auto")
    not_modelled("kv_cache_dtype=" + kv_cache_dtype, "only auto, bf16, bfloat16, fp8_e4m3 and fp8_e5m2 are ported");
  std::set<std::string> seen;
  bool quantised = false;
  for (const auto& t : graph.model_tensors)
    if (t.part == "weight") {
      if (t.quant) quantised = true;
      else seen.insert(t.dtype);
    }
  for (const auto& [_, kind] : graph.layer_kinds)
    for (const auto& t : kind.tensors)
      if (t.part == "weight" && t.quant) quantised = true;
  if (quantised)
    not_modelled("kv_cache_dtype=auto for model " + graph.model,
                 "a quantised checkpoint may carry kv_cache_quant_algo=FP8, which the graph does not state");
  if (seen.size() != 1 || (!seen.contains("BF16") && !seen.contains("F16")))
    not_modelled("kv_cache_dtype=auto for model " + graph.model,
                 "its model tensors are not all BF16 or all F16 (model_tensors[].dtype), so the model's dtype "
                 "cannot be read");
  return 2;
}

// pool_configurator.py@71de97b2 DefaultPoolConfigurator._compute_cell_size, the MHA branch without FP4 or
// MXFP8 scales: get_num_kv_heads(tp) x (head_dim + v_head_dim) x num_layers x element size, with
// configs/model_config.py@71de97b2 ModelConfig.get_num_kv_heads = max(1, total_num_kv_heads // tp) (no DCP).
std::int64_t kv_cell_size(const schema::Graph& graph, std::int64_t tp, std::int64_t num_layers,
                          std::int64_t kv_element_size) {
  if (tp < 1) throw std::invalid_argument("tp_size=" + std::to_string(tp) + ": expected at least 1");
  if (num_layers < 0) throw std::invalid_argument("num_layers=" + std::to_string(num_layers) + ": expected 0 or more");
  if (kv_element_size < 1)
    throw std::invalid_argument("kv_element_size=" + std::to_string(kv_element_size) + ": expected at least 1");
  const schema::GraphAttention& a = internal::uniform_attention(graph);
  const std::int64_t n = std::max<std::int64_t>(1, a.kv_heads.value() / tp);
  return n * (a.head_dim.value() + a.v_head_dim.value()) * num_layers * kv_element_size;
}

namespace {

// utils/common.py@71de97b2 get_available_gpu_memory: free bytes in GiB; with distributed=True the free
// memory is all-reduced (MIN) through a float32 tensor before the division.
double free_gib(std::int64_t free_bytes, bool distributed) {
  const double v = distributed ? static_cast<double>(static_cast<float>(free_bytes)) : static_cast<double>(free_bytes);
  return v / static_cast<double>(std::int64_t{1} << 30);
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::int64_t per_rank(const engine::MemoryTerm& t, const std::string& what) {
  if (const auto* b = std::get_if<units::BytesPerRank>(&t.bytes)) return b->value();
  throw std::invalid_argument("kv_budget: the " + what + " term is stated per " +
                              std::string(engine::basis_name(t.bytes)) + ", and the KV budget reads per-rank memory");
}

}  // namespace

// kv_cache_configurator.py@71de97b2 KVCacheConfigurator._profile_available_bytes (no mamba state, not
// multimodal: mm_runtime_reservation_gb is 0.0).
std::int64_t profile_available_bytes(std::int64_t free_before_load_bytes, std::int64_t free_at_pool_bytes,
                                     double mem_fraction_static, bool distributed) {
  if (free_before_load_bytes <= 0)
    throw std::invalid_argument("free_before_load_bytes=" + std::to_string(free_before_load_bytes) +
                                ": the GPU has no free memory before the model loads");
  const double pre_model_load_memory = free_gib(free_before_load_bytes, distributed);
  const double available_gpu_memory = free_gib(free_at_pool_bytes, distributed);
  const double slack_gb = pre_model_load_memory * (1 - mem_fraction_static);
  const double mm_reservation_gb = 0.0;
  const double rest_memory = available_gpu_memory - slack_gb - mm_reservation_gb;
  if (rest_memory <= 0) {
    const double minimum_mem_fraction_static = 1 - available_gpu_memory / pre_model_load_memory;
    const double suggested_mem_fraction_static = std::ceil(minimum_mem_fraction_static * 1000) / 1000;
    throw std::invalid_argument(
        "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=" +
        internal::py_float(mem_fraction_static) + ". Raise --mem-fraction-static above " +
        fixed(suggested_mem_fraction_static, 3) + " (minimum viable = 1 - available/pre = " +
        fixed(minimum_mem_fraction_static, 4) + "). If using speculative decoding, draft weights are now counted.");
  }
  return static_cast<std::int64_t>(rest_memory * static_cast<double>(std::int64_t{1} << 30));  // int(): truncation
}

namespace {

// pool_configurator.py@71de97b2 MemoryPoolConfig.__post_init__.
void check_pool(std::int64_t max_total_num_tokens) {
  if (max_total_num_tokens <= 0)
    throw std::invalid_argument("Not enough memory. Please try to increase --mem-fraction-static.");
}

// kv_cache_configurator.py@71de97b2 KVCacheConfigurator.resolve_max_num_reqs (no mamba state), and
// managers/tp_worker.py@71de97b2's "max_running_request is zero" assertion.
std::int64_t resolve_max_num_reqs(std::int64_t token_capacity, std::int64_t context_len,
                                  std::optional<std::int64_t> max_running_requests, std::int64_t attn_dp_size) {
  std::int64_t estimated = static_cast<std::int64_t>(static_cast<double>(token_capacity) /
                                                     static_cast<double>(context_len) * 512);
  estimated = std::max<std::int64_t>(std::min<std::int64_t>(estimated, 4096), 2048);
  std::int64_t max_num_reqs = 0;
  if (max_running_requests) {
    const std::int64_t requested_per_worker = *max_running_requests / attn_dp_size;
    max_num_reqs = std::min(requested_per_worker, token_capacity / 2);
  } else {
    max_num_reqs = std::min(estimated, token_capacity / 2);
  }
  if (max_num_reqs <= 0) throw std::invalid_argument("max_running_request is zero");
  return max_num_reqs;
}

}  // namespace

// kv_cache_configurator.py@71de97b2 KVCacheConfigurator.config_from_budget (DefaultPoolConfigurator
// .calculate_pool_sizes: available // cell_size, aligned down to the page; _apply_token_constraints' user cap,
// re-aligned through calculate_pool_sizes_from_max_tokens when it changes the value) and
// _resolve_memory_pool_config's resolve_max_num_reqs.
MemoryPool memory_pool(std::int64_t available_bytes, std::int64_t cell_size, std::int64_t page_size,
                       std::int64_t context_len, std::optional<std::int64_t> max_total_tokens,
                       std::optional<std::int64_t> max_running_requests, std::int64_t attn_dp_size) {
  if (cell_size <= 0)
    not_modelled("cell_size=" + std::to_string(cell_size), "a rank without KV layers (the zero-KV token cap) is not ported");
  if (page_size < 1) throw std::invalid_argument("page_size=" + std::to_string(page_size) + ": expected at least 1");
  if (context_len < 1) throw std::invalid_argument("context_len=" + std::to_string(context_len) + ": expected at least 1");
  if (attn_dp_size < 1) throw std::invalid_argument("attn_dp_size=" + std::to_string(attn_dp_size) + ": expected at least 1");
  if (max_running_requests && *max_running_requests < 1)
    throw std::invalid_argument("max_running_requests=" + std::to_string(*max_running_requests) + ": expected at least 1");
  MemoryPool p;
  p.available_bytes = available_bytes;
  p.cell_size = cell_size;
  std::int64_t max_total_num_tokens = available_bytes / cell_size;
  max_total_num_tokens = max_total_num_tokens / page_size * page_size;
  check_pool(max_total_num_tokens);
  std::int64_t max_tokens = max_total_num_tokens;
  if (max_total_tokens) max_tokens = std::min(max_tokens, *max_total_tokens);
  if (max_tokens != max_total_num_tokens) {
    max_total_num_tokens = max_tokens / page_size * page_size;
    check_pool(max_total_num_tokens);
  }
  p.max_total_num_tokens = max_total_num_tokens;
  p.max_running_requests = resolve_max_num_reqs(max_total_num_tokens, context_len, max_running_requests, attn_dp_size);
  return p;
}

// model_runner.py@71de97b2 ModelRunner.alloc_memory_pool over the breakdown, per stage; with pp_size > 1
// _apply_token_constraints all-reduces the token capacity to its minimum over the stages.
std::vector<MemoryPool> kv_budget(const engine::MemoryBreakdown& memory, const schema::Chip& chip,
                                  const ResolvedServerArgs& args, const LoweringConfig& cfg,
                                  const std::vector<std::int64_t>& cell_sizes) {
  if (memory.stages.empty()) throw std::invalid_argument("kv_budget: the memory breakdown states no stage");
  if (cell_sizes.size() != memory.stages.size())
    throw std::invalid_argument("kv_budget: " + std::to_string(cell_sizes.size()) + " cell sizes for " +
                                std::to_string(memory.stages.size()) + " stages");
  const std::int64_t total = chip.memory.bytes.value.value();
  const bool distributed = cfg.tp * cfg.pp * cfg.dp > 1;  // get_world_group().world_size > 1
  std::vector<MemoryPool> out;
  for (std::size_t i = 0; i < memory.stages.size(); ++i) {
    const engine::StageMemory& s = memory.stages[i];
    const std::int64_t free_before = total - per_rank(s.outside_allocator, "outside_allocator");
    const std::int64_t free_at_pool = free_before - per_rank(s.weights, "weights");
    const std::int64_t available =
        profile_available_bytes(free_before, free_at_pool, args.memory.mem_fraction_static, distributed);
    out.push_back(memory_pool(available, cell_sizes[i], args.attention.page_size, args.context_len, cfg.max_total_tokens,
                              cfg.max_running_requests));
  }
  if (out.size() > 1) {
    std::int64_t m = out.front().max_total_num_tokens;
    for (const MemoryPool& p : out) m = std::min(m, p.max_total_num_tokens);
    for (MemoryPool& p : out)
      if (p.max_total_num_tokens != m) {
        p.max_total_num_tokens = m / args.attention.page_size * args.attention.page_size;
        check_pool(p.max_total_num_tokens);
        p.max_running_requests =
            resolve_max_num_reqs(p.max_total_num_tokens, args.context_len, cfg.max_running_requests, 1);
      }
  }
  return out;
}

}  // namespace blis::sglang::model_executor
