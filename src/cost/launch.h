// What one lockstep rank of a StepShape launches (design §6.2): the counts a lowered layer's `rows` reads
// (launched tokens, launched requests, sampled positions), the requests scheduled on the rank and how the
// step launches. Shared by step pricing (step.h) and the memory breakdown (memory.h), which sizes the
// plan's profiling step with the same counts and scopes its lookups by the same layout; internal to
// src/cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "contracts/engine/plan.h"

namespace blis::cost {

struct RankCounts {
  std::int64_t tokens = 0;     // launched tokens (padding included)
  std::int64_t requests = 0;   // launched requests (padding included)
  std::int64_t sampled = 0;    // sampled positions
  std::int64_t scheduled = 0;  // scheduled requests
  std::vector<schema::StepShapeRequestStep> reqs;
  std::optional<std::string> launch;
  std::set<std::int64_t> eager_layers;
};

// Rank i of step (0 when the step lists no ranks): its scheduled requests' new tokens and count, and a
// sampled position per request (its sampled_tokens, 1 when unstated); where the step's padded shape for
// the rank states tokens or requests, those are launched instead. Refuses (CostError, the message led by
// `what` and naming `field`, e.g. "padded[rank 0].tokens") a padded size below the scheduled one.
// `field_prefix` leads the field names ("" for a step, "plan.profiling_step." for the profiling step).
RankCounts counts_of(const engine::plan::StepShape& step, std::size_t i, const std::string& what,
                     const std::string& field_prefix = "");

// The number of lockstep ranks the step describes: its ranks, at least one.
std::size_t lockstep_ranks(const engine::plan::StepShape& step);

// The plan layout's parallel widths (tp, ep, pp, dp, cp), where stated, copied into the same-named scope
// fields of a lookup key or a primitive call.
template <class Scoped>
void copy_layout_widths(const engine::plan::PoolPlan& plan, Scoped& to) {
  if (!plan.layout) return;
  const auto& lo = *plan.layout;
  if (lo.tp) to.tp = lo.tp->value();
  if (lo.ep) to.ep = lo.ep->value();
  if (lo.pp) to.pp = lo.pp->value();
  if (lo.dp) to.dp = lo.dp->value();
  if (lo.cp) to.cp = lo.cp->value();
}

// The row count a lowered layer's `rows` names ("tokens" when absent): launched tokens, launched requests
// or sampled positions. Refuses (CostError) another value, naming `field`.
std::int64_t rows_of(const std::optional<std::string>& rows, const RankCounts& c, const std::string& what,
                     const std::string& field);

}  // namespace blis::cost
