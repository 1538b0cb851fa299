// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/model_executor/model_runner.py@71de97b2 (ModelRunner.forward's
// choice between the decode runner's graph, the prefill runner's graph and the eager forward),
// python/sglang/srt/model_executor/forward_batch_info.py@71de97b2 (ForwardMode.is_cuda_graph, is_extend),
// python/sglang/srt/model_executor/runner/decode_cuda_graph_runner.py@71de97b2 (can_run_graph) and
// python/sglang/srt/model_executor/runner/prefill_cuda_graph_runner.py@71de97b2 (PrefillCudaGraphRunner.can_run_graph,
// can_replay_locally, the bucket a replay pads to); the launched shape of a step on one rank without DP attention,
// context parallelism, LoRA, logprobs, input embeddings or speculative decoding. Also the profiling_step the plan
// states, and why it is not a profiling forward (python/sglang/srt/mem_cache/kv_cache_configurator.py@71de97b2).
#include <algorithm>
#include <set>
#include <stdexcept>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

namespace internal {

// SGLang runs no profiling forward before sizing the KV pool: kv_cache_configurator.py@71de97b2
// KVCacheConfigurator._profile_available_bytes measures the free memory around the model load and keeps
// (1 - mem_fraction_static) of the device free for everything allocated later, the activations among them
// (see kv_budget). The schema asks the partial plan for the step its activation memory is sized with, so the plan
// states the largest forward the scheduler can launch, which that reserve has to hold: one extend step of the
// prefill chunk (chunked_prefill_size tokens; max_prefill_tokens when chunking is off), the PrefillAdder's token
// cap, spread over as many requests as the pool and the tokens allow (each request is one sampled row of float32
// logits), launched eagerly (the eager forward holds every intermediate; a replayed graph reuses its pool). It is
// the smallest shape that bounds every step this plan runs; a smaller one would under-state the reserve.
engine::plan::StepShape profiling_step(const Walk& w) {
  const std::int64_t chunk = w.args.memory.chunked_prefill_size;
  const std::int64_t num_tokens = chunk > 0 ? chunk : w.cfg.max_prefill_tokens;
  if (num_tokens < 1)
    throw std::invalid_argument("max_prefill_tokens=" + std::to_string(num_tokens) + ": expected at least 1");
  const std::int64_t num_reqs = std::min(num_tokens, w.max_running_requests);
  const std::int64_t per = num_tokens / num_reqs;
  schema::StepShapeRankStep rank;
  rank.rank = 0;
  std::vector<schema::StepShapeRequestStep> reqs;
  for (std::int64_t i = 0; i < num_reqs; ++i) {
    const std::int64_t n = per + (i == num_reqs - 1 ? num_tokens % num_reqs : 0);
    schema::StepShapeRequestStep q;
    q.new_tokens = units::Tokens{n};
    q.cached_tokens = units::Tokens{0};
    q.query_tokens = units::Tokens{n};
    q.sampled_tokens = units::Tokens{1};
    reqs.push_back(q);
  }
  rank.requests = reqs;
  engine::plan::StepShape step;
  step.mode = "extend_only";
  step.ranks = std::vector<schema::StepShapeRankStep>{rank};
  schema::StepShapePaddedShape pad;
  pad.rank = 0;
  pad.tokens = units::Tokens{num_tokens};
  pad.requests = units::Count{num_reqs};
  pad.launch = "eager";
  step.padded = std::vector<schema::StepShapePaddedShape>{pad};
  step.stage = 0;
  return step;
}

}  // namespace internal

namespace {

// _MAX_PREFILL_CUDA_GRAPH_PADDING_FACTOR of prefill_cuda_graph_runner.py@71de97b2.
constexpr std::int64_t kMaxPrefillPaddingFactor = 2;

schema::StepShapePaddedShape eager(std::int64_t num_tokens, std::int64_t num_reqs) {
  schema::StepShapePaddedShape out;
  out.rank = 0;
  out.tokens = units::Tokens{num_tokens};
  out.requests = units::Count{num_reqs};
  out.launch = "eager";
  return out;
}

}  // namespace

// model_runner.py@71de97b2 ModelRunner.forward (the _forward_raw dispatch): a DECODE batch replays the decode runner
// when it can_run_graph (ForwardMode.is_cuda_graph); an EXTEND or MIXED batch (ForwardMode.is_extend) replays the
// prefill runner's graph when it can_run_graph; everything else runs eagerly.
schema::StepShapePaddedShape padded_launch(const engine::plan::PoolPlan& plan, std::int64_t num_tokens,
                                           std::int64_t num_reqs, std::int64_t max_query_len,
                                           const std::string& forward_mode) {
  if (num_tokens < 1 || num_reqs < 1 || max_query_len < 1 || max_query_len > num_tokens || num_reqs > num_tokens)
    throw std::invalid_argument("padded_launch: num_tokens=" + std::to_string(num_tokens) + ", num_reqs=" +
                                std::to_string(num_reqs) + ", max_query_len=" + std::to_string(max_query_len) +
                                ": a step launches at least one token per request and its longest query within them");
  std::vector<std::int64_t> decode_bs, prefill_tokens;
  if (plan.graphs && plan.graphs->buckets)
    for (const auto& b : *plan.graphs->buckets) {
      if (!b.size) continue;
      if (b.size->requests && b.launch && *b.launch == "full_graph") decode_bs.push_back(b.size->requests->value());
      if (b.size->tokens && b.launch && *b.launch == "piecewise") prefill_tokens.push_back(b.size->tokens->value());
    }
  std::sort(decode_bs.begin(), decode_bs.end());
  std::sort(prefill_tokens.begin(), prefill_tokens.end());

  if (forward_mode == "decode") {
    if (max_query_len != 1 || num_tokens != num_reqs)
      throw std::invalid_argument(
          "padded_launch: a decode batch has one query token per request (num_tokens=" + std::to_string(num_tokens) +
          ", num_reqs=" + std::to_string(num_reqs) + ", max_query_len=" + std::to_string(max_query_len) + ")");
    // decode_cuda_graph_runner.py@71de97b2 DecodeCudaGraphRunner.can_run_graph and _pad_to_bucket.
    const std::optional<std::int64_t> bs = padded_decode_batch_size(decode_bs, num_reqs);
    if (!bs) return eager(num_tokens, num_reqs);
    schema::StepShapePaddedShape out;
    out.rank = 0;
    out.tokens = units::Tokens{*bs};
    out.requests = units::Count{*bs};
    out.launch = "full_graph";
    return out;
  }
  if (forward_mode != "extend" && forward_mode != "mixed")
    throw std::invalid_argument("padded_launch: forward_mode=" + forward_mode + ": expected extend, decode or mixed");
  // prefill_cuda_graph_runner.py@71de97b2 PrefillCudaGraphRunner.can_replay_locally: num_tokens above the largest
  // captured bucket, or a bucket (bisect_left, BaseCudaGraphRunner._pad_to_bucket) more than twice num_tokens, runs
  // eagerly. A MIXED batch is replayed as EXTEND (the runner normalises the mode).
  if (prefill_tokens.empty() || num_tokens > prefill_tokens.back()) return eager(num_tokens, num_reqs);
  const std::int64_t padded = *std::lower_bound(prefill_tokens.begin(), prefill_tokens.end(), num_tokens);
  if (padded > num_tokens * kMaxPrefillPaddingFactor) return eager(num_tokens, num_reqs);
  // breakable_cuda_graph_backend.py@71de97b2: the captured segments break at every attention layer, which runs
  // eagerly on the live batch.
  std::set<std::int64_t> attention;
  if (plan.layers)
    for (const auto& l : *plan.layers)
      if (l.layer && l.primitive.starts_with("attention.")) attention.insert(*l.layer);
  schema::StepShapePaddedShape out;
  out.rank = 0;
  out.tokens = units::Tokens{padded};
  out.requests = units::Count{num_reqs};
  out.launch = "piecewise";
  out.eager_layers = std::vector<std::int64_t>(attention.begin(), attention.end());
  return out;
}

}  // namespace blis::sglang::model_executor
