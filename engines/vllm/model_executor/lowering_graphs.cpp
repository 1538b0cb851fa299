// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/cudagraph_dispatcher.py (CudagraphDispatcher) and
// vllm/v1/worker/gpu_model_runner.py (_is_uniform_decode, _determine_batch_execution_and_padding,
// _dummy_run's request split, profile_run)@6e448d0e; the graphs captured, the padded launch of a step and
// the profiling step. LoRA keys, sequence-parallel padding (off by default), data-parallel padding
// across ranks (coordinate_batch_across_dp) and micro-batching are not ported.
#include <algorithm>
#include <stdexcept>

#include "model_executor/lowering_internal.h"

namespace blis::vllm {

namespace {

// cudagraph_dispatcher.py@6e448d0e CudagraphDispatcher._compute_bs_to_padded_graph_size, for one size:
// the smallest capture size at or above num_tokens.
std::int64_t bs_to_padded_graph_size(const ResolvedCompilation& r, std::int64_t num_tokens) {
  for (const std::int64_t s : r.cudagraph_capture_sizes)
    if (s >= num_tokens) return s;
  return num_tokens;  // above the largest size: never dispatched to a graph
}

struct Descriptor {
  std::int64_t num_tokens = 0;
  std::optional<std::int64_t> num_reqs;
  bool uniform = false;
};

// cudagraph_dispatcher.py@6e448d0e CudagraphDispatcher._create_padded_batch_descriptor.
Descriptor create_padded_batch_descriptor(const ResolvedCompilation& r, const LoweringConfig& cfg,
                                          std::int64_t num_tokens, bool uniform_decode, bool full_mode) {
  Descriptor d;
  d.num_tokens = bs_to_padded_graph_size(r, num_tokens);
  if (uniform_decode && full_mode) {
    d.num_reqs = std::min(d.num_tokens / r.uniform_decode_query_len, cfg.max_num_seqs);
    d.uniform = true;
  } else {
    d.num_reqs = std::min(d.num_tokens, cfg.max_num_seqs);
  }
  return d;
}

bool has_mode(const std::string& mode, const std::string& runtime) {
  if (mode == "FULL_AND_PIECEWISE") return runtime == "FULL" || runtime == "PIECEWISE";
  if (mode == "FULL_DECODE_ONLY") return runtime == "FULL" || runtime == "NONE";
  return mode == runtime;
}
std::string decode_mode(const std::string& mode) {
  return mode == "FULL_AND_PIECEWISE" || mode == "FULL_DECODE_ONLY" ? "FULL" : mode;
}
std::string mixed_mode(const std::string& mode) {
  if (mode == "FULL_AND_PIECEWISE") return "PIECEWISE";
  if (mode == "FULL_DECODE_ONLY") return "NONE";
  return mode;
}
bool separate_routine(const std::string& mode) { return mode == "FULL_AND_PIECEWISE" || mode == "FULL_DECODE_ONLY"; }

// The FULL keys' decode sizes (initialize_cudagraph_keys): capture sizes from uniform_decode_query_len up
// to uniform_decode_query_len x max_num_seqs.
std::vector<std::int64_t> full_decode_sizes(const ResolvedCompilation& r, const LoweringConfig& cfg) {
  std::vector<std::int64_t> out;
  for (const std::int64_t x : r.cudagraph_capture_sizes)
    if (x <= r.uniform_decode_query_len * cfg.max_num_seqs && x >= r.uniform_decode_query_len) out.push_back(x);
  return out;
}

}  // namespace

namespace lowering {

// cudagraph_dispatcher.py@6e448d0e CudagraphDispatcher.initialize_cudagraph_keys: a mixed-mode key per
// capture size (PIECEWISE keys carry no request count; FULL mixed keys a token count), and with a separate
// decode routine a FULL key per decode size. Each key is one captured graph per pipeline stage.
schema::PoolPlanGraphPolicy graph_policy(const ResolvedCompilation& r, const LoweringConfig& cfg, std::int64_t stages) {
  schema::PoolPlanGraphPolicy policy;
  std::vector<schema::PoolPlanGraphBucket> buckets;
  const std::string mode = r.cudagraph_mode;
  if (mode != "NONE") {
    for (std::int64_t stage = 0; stage < stages; ++stage) {
      const std::string mixed = mixed_mode(mode);
      if (mixed != "NONE") {
        for (const std::int64_t bs : r.cudagraph_capture_sizes) {
          schema::PoolPlanGraphBucket b;
          schema::PoolPlanBucketSize size;
          size.tokens = units::Tokens{bs};
          b.size = size;
          b.launch = mixed == "PIECEWISE" ? "piecewise" : "full_graph";
          // Without a separate decode routine, uniform decode batches replay these keys too.
          b.modes = separate_routine(mode) ? std::vector<std::string>{"mixed", "extend_only"}
                                           : std::vector<std::string>{"mixed", "extend_only", "decode_only"};
          b.stage = stage;
          buckets.push_back(b);
        }
      }
      if (decode_mode(mode) == "FULL" && separate_routine(mode)) {
        for (const std::int64_t bs : full_decode_sizes(r, cfg)) {
          schema::PoolPlanGraphBucket b;
          schema::PoolPlanBucketSize size;
          size.requests = units::Count{bs / r.uniform_decode_query_len};
          b.size = size;
          b.launch = "full_graph";
          b.modes = std::vector<std::string>{"decode_only"};
          b.query_tokens_per_request = units::Tokens{r.uniform_decode_query_len};
          b.stage = stage;
          buckets.push_back(b);
        }
      }
    }
  }
  policy.buckets = buckets;
  return policy;
}

// gpu_model_runner.py@6e448d0e GPUModelRunner.profile_run -> _dummy_run(self.max_num_tokens,
// is_profile=True): num_reqs = min(num_tokens, max_num_seqs) prompt requests of num_tokens // num_reqs
// tokens, the last one taking the remainder, no cached tokens, one sampled position each
// (_dummy_sampler_run over the last hidden state of each request), launched eagerly (force_eager).
engine::plan::StepShape profiling_step(const LoweringConfig& cfg) {
  const std::int64_t num_tokens = cfg.max_num_batched_tokens;
  const std::int64_t num_reqs = std::min(num_tokens, cfg.max_num_seqs);
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

}  // namespace lowering

// gpu_model_runner.py@6e448d0e GPUModelRunner._determine_batch_execution_and_padding (with
// _is_uniform_decode) and cudagraph_dispatcher.py@6e448d0e CudagraphDispatcher.dispatch.
schema::StepShapePaddedShape padded_launch(const ResolvedCompilation& r, const LoweringConfig& cfg,
                                           std::int64_t num_tokens, std::int64_t num_reqs, std::int64_t max_query_len,
                                           const std::vector<std::int64_t>& attention_layers, bool use_cascade_attn) {
  if (num_tokens < 0 || num_reqs < 0 || max_query_len < 0)
    throw std::invalid_argument("padded_launch: token and request counts are zero or more");
  schema::StepShapePaddedShape out;
  out.rank = 0;
  const bool uniform_decode =
      max_query_len == r.uniform_decode_query_len && num_tokens == max_query_len * num_reqs;
  const std::string mode = r.cudagraph_mode;
  const auto eager = [&] {
    out.tokens = units::Tokens{num_tokens};
    out.requests = units::Count{num_reqs};
    out.launch = "eager";
    return out;
  };
  if (mode == "NONE" || r.max_cudagraph_capture_size == 0 || num_tokens > r.max_cudagraph_capture_size ||
      num_tokens == 0)
    return eager();
  const bool normalized_uniform = uniform_decode && separate_routine(mode);
  const bool full_keys = has_mode(mode, "FULL");
  const Descriptor d = create_padded_batch_descriptor(r, cfg, num_tokens, normalized_uniform, full_keys);
  // FULL keys: the decode sizes when the routine is separate, every capture size for mode FULL.
  const bool disable_full = use_cascade_attn;
  if (full_keys && !disable_full) {
    bool found = false;
    if (separate_routine(mode)) {
      if (d.uniform)
        for (const std::int64_t x : full_decode_sizes(r, cfg))
          if (x == d.num_tokens) found = true;
    } else {
      found = !d.uniform;  // mixed-mode FULL keys hold non-uniform descriptors of every capture size
    }
    if (found) {
      out.tokens = units::Tokens{d.num_tokens};
      out.requests = units::Count{*d.num_reqs};
      out.launch = "full_graph";
      return out;
    }
  }
  if (has_mode(mode, "PIECEWISE")) {
    out.tokens = units::Tokens{d.num_tokens};
    out.requests = units::Count{num_reqs};  // a PIECEWISE key has num_reqs=None: requests are not padded
    out.launch = "piecewise";
    out.eager_layers = attention_layers;
    return out;
  }
  return eager();
}

}  // namespace blis::vllm
