#include "sim/analysis/stopping.h"

#include <cmath>
#include <string>

#include "sim/analysis/checks.h"

namespace blis::sim::analysis {

StoppingState replication_decision(std::span<const std::vector<double>> figures, const StoppingRule& rule) {
  constexpr std::string_view kFn = "replication_decision";
  if (rule.min_replications < 5) {
    detail::refuse(kFn, "rule.min_replications", detail::number(rule.min_replications),
                   "replications start at five (design 8.8)");
  }
  if (rule.max_replications < rule.min_replications) {
    detail::refuse(kFn, "rule.max_replications", detail::number(rule.max_replications),
                   "the limit must be at least rule.min_replications = " + detail::number(rule.min_replications));
  }
  if (!(std::isfinite(rule.relative_half_width) && rule.relative_half_width > 0.0)) {
    detail::refuse(kFn, "rule.relative_half_width", detail::number(rule.relative_half_width),
                   "the target relative half-width must be finite and greater than 0");
  }
  detail::require_confidence(kFn, "rule.confidence", rule.confidence);
  if (figures.empty()) {
    detail::refuse(kFn, "figures.size()", "0", "the rule needs at least one figure to judge");
  }
  const std::size_t n = figures[0].size();
  for (std::size_t f = 0; f < figures.size(); ++f) {
    const std::string name = "figures[" + detail::number(f) + "]";
    if (figures[f].size() != n) {
      detail::refuse(kFn, name + ".size()", detail::number(figures[f].size()),
                     "every figure needs one estimate per replication, as figures[0] has " + detail::number(n));
    }
    detail::require_finite(kFn, name, figures[f]);
  }
  StoppingState s;
  s.replications = n;
  if (n >= 2) {
    for (std::size_t f = 0; f < figures.size(); ++f) {
      s.figures.push_back(detail::interval_of(kFn, "figures[" + detail::number(f) + "]", figures[f], rule.confidence,
                                              IntervalSource::replications));
    }
  }
  if (n < rule.min_replications) {
    s.decision = StopDecision::continue_running;
    return s;
  }
  bool all_narrow = true;
  for (const Interval& i : s.figures) all_narrow = all_narrow && i.relative_half_width <= rule.relative_half_width;
  if (all_narrow) {
    s.decision = StopDecision::width_reached;
  } else if (n >= rule.max_replications) {
    s.decision = StopDecision::max_reached;
  } else {
    s.decision = StopDecision::continue_running;
  }
  return s;
}

}  // namespace blis::sim::analysis
