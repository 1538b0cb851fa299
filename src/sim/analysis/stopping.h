// The replication stopping rule of design §8.8: replications start at five and continue until every
// figure's interval is narrower than a stated fraction of its estimate, or a stated limit is reached, in
// which case the width reached is reported.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "sim/analysis/interval.h"

namespace blis::sim::analysis {

struct StoppingRule {
  std::size_t min_replications = 5;  // at least 5 (§8.8)
  std::size_t max_replications = 0;  // the limit; at least min_replications
  double relative_half_width = 0.0;  // the target half-width / |estimate|, finite and > 0
  double confidence = 0.95;          // of every figure's interval, in (0, 1)
};

enum class StopDecision {
  continue_running,  // fewer than min_replications, or some figure is wider than the target and n < max
  width_reached,     // n >= min_replications and every figure's relative half-width <= the target
  max_reached,       // n >= max_replications and some figure is still wider than the target
};

struct StoppingState {
  StopDecision decision = StopDecision::continue_running;
  std::size_t replications = 0;   // n, the replications done so far
  std::vector<Interval> figures;  // each figure's replication_interval, in input order (empty when n < 2)
};

// The decision after n replications. figures[f][r] is figure f's estimate from replication r; every figure
// has the same n (0 allowed: continue). Rule, in order:
//   n < min_replications                                      -> continue_running
//   every figure's relative_half_width <= rule's target        -> width_reached
//   n >= max_replications                                      -> max_reached
//   otherwise                                                  -> continue_running
// A figure whose mean is 0 has relative half-width +infinity unless its half-width is 0 too (Interval),
// so it reaches the target only when all its estimates are equal.
// Refuses (std::invalid_argument): min_replications < 5, max_replications < min_replications, a target
// that is not finite and > 0, a confidence outside (0, 1), no figures, figures of different lengths, and
// a NaN or infinite estimate.
StoppingState replication_decision(std::span<const std::vector<double>> figures, const StoppingRule& rule);

}  // namespace blis::sim::analysis
