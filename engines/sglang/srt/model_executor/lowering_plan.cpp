// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/memory_pool.py@71de97b2 (MHATokenToKVPool's one
// page layout across the rank's layers), python/sglang/srt/model_executor/runner/decode_cuda_graph_runner.py@71de97b2
// and python/sglang/srt/model_executor/runner/prefill_cuda_graph_runner.py@71de97b2 (the graphs each runner
// captures), python/sglang/srt/model_executor/runner_backend/breakable_cuda_graph_backend.py@71de97b2 (segments
// broken at attention) and python/sglang/srt/managers/scheduler.py@71de97b2 (the overlap schedule's one step in
// flight ahead); the plan-level policies of a PoolPlan. The model walk (the lowered layers and the resident
// weights) is not ported here: lower_policies leaves layers and weights unstated.
#include <stdexcept>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

using internal::not_modelled;

namespace {

schema::PoolPlanQuantFormat kv_format(const schema::Graph& graph, const std::string& kv_cache_dtype,
                                      std::int64_t element_size) {
  schema::PoolPlanQuantFormat q;
  q.payload_bits = units::Count{element_size * 8};
  if (element_size == 1) {
    q.dtype = "fp8";  // fp8_e4m3 or fp8_e5m2, one byte, no scales
    return q;
  }
  q.dtype = "bf16";
  // auto keeps the model's type: fp16 when the checkpoint's unquantised weights are F16.
  if (kv_cache_dtype == "auto")
    for (const auto& t : graph.model_tensors)
      if (t.part == "weight" && !t.quant && t.dtype == "F16") q.dtype = "fp16";
  return q;
}

}  // namespace

engine::plan::PoolPlan lower_policies(const schema::Graph& graph, const schema::Chip& chip, const LoweringConfig& cfg,
                                      const ResolvedServerArgs& args, std::int64_t max_running_requests) {
  if (cfg.pp != 1)
    not_modelled("pp_size=" + std::to_string(cfg.pp), "the pipeline stages' layer split is not ported to the plan");
  const std::int64_t num_layers = static_cast<std::int64_t>(graph.layers.size());
  engine::plan::PoolPlan plan;
  plan.chip = chip.name;
  plan.model = graph.model;
  schema::PoolPlanLayout lo;
  lo.tp = units::Count{cfg.tp};
  lo.pp = units::Count{1};
  lo.dp = units::Count{1};
  lo.ep = units::Count{1};
  lo.cp = units::Count{1};
  plan.layout = lo;

  // memory_pool.py@71de97b2 MHATokenToKVPool: one K and one V buffer per layer, all paged alike; a page of
  // page_size tokens takes page_size x cell_size bytes across the rank's layers.
  {
    const std::int64_t e = kv_cache_element_size(graph, cfg.kv_cache_dtype);
    const std::int64_t cell = kv_cell_size(graph, cfg.tp, num_layers, e);
    schema::PoolPlanKVGroup g;
    std::vector<std::int64_t> layers;
    for (std::int64_t i = 0; i < num_layers; ++i) layers.push_back(i);
    g.layers = layers;
    g.bytes_per_page = units::BytesPerRank{cell * args.attention.page_size};
    g.tokens_per_page = units::Tokens{args.attention.page_size};
    g.attention = "full";
    g.format = kv_format(graph, cfg.kv_cache_dtype, e);
    plan.kv = std::vector<schema::PoolPlanKVGroup>{g};
  }

  // The captured graphs: the decode runner's full graphs, one per captured batch size (one token per request),
  // and the prefill runner's breakable graphs, one per token bucket, replayed with attention between segments.
  {
    schema::PoolPlanGraphPolicy policy;
    std::vector<schema::PoolPlanGraphBucket> buckets;
    for (const std::int64_t bs : decode_capture_batch_sizes(args.memory, max_running_requests)) {
      schema::PoolPlanGraphBucket b;
      schema::PoolPlanBucketSize size;
      size.requests = units::Count{bs};
      b.size = size;
      b.launch = "full_graph";
      b.modes = std::vector<std::string>{"decode_only"};
      b.query_tokens_per_request = units::Tokens{1};
      b.stage = 0;
      buckets.push_back(b);
    }
    if (args.memory.prefill_cuda_graph_backend == "breakable")
      for (const std::int64_t tokens : args.memory.prefill_bs) {
        schema::PoolPlanGraphBucket b;
        schema::PoolPlanBucketSize size;
        size.tokens = units::Tokens{tokens};
        b.size = size;
        b.launch = "piecewise";
        b.modes = std::vector<std::string>{"extend_only"};
        b.stage = 0;
        buckets.push_back(b);
      }
    policy.buckets = buckets;
    plan.graphs = policy;
  }
  // scheduler.py@71de97b2 event_loop_overlap: one batch is launched ahead of the one being processed.
  plan.in_flight = units::Count{args.disable_overlap_schedule ? 1 : 2};
  return plan;
}

}  // namespace blis::sglang::model_executor
