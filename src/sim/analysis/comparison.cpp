#include "sim/analysis/comparison.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "sim/analysis/checks.h"
#include "sim/analysis/statistics.h"
#include "sim/analysis/student_t.h"

namespace blis::sim::analysis {
namespace {

std::vector<double> differences(std::string_view function, const std::string& prefix, std::span<const double> baseline,
                                std::span<const double> candidate, double margin) {
  detail::require_size(function, prefix + "baseline", baseline, 2,
                       "a paired interval needs a spread of the differences");
  if (candidate.size() != baseline.size()) {
    detail::refuse(function, prefix + "candidate.size()", detail::number(candidate.size()),
                   "the comparison is paired: one candidate value per baseline value, and baseline.size() is " +
                       detail::number(baseline.size()));
  }
  detail::require_finite(function, prefix + "baseline", baseline);
  detail::require_finite(function, prefix + "candidate", candidate);
  if (!(std::isfinite(margin) && margin >= 0.0)) {
    detail::refuse(function, prefix + "margin", detail::number(margin),
                   "the margin must be finite and at least 0, in the figure's own unit");
  }
  std::vector<double> d(baseline.size());
  for (std::size_t r = 0; r < d.size(); ++r) d[r] = candidate[r] - baseline[r];
  return d;
}

// The outcome read from the interval, as the header defines it.
void decide(PairedComparison& c) {
  const double lo = c.difference.lower();
  const double hi = c.difference.upper();
  const double m = c.margin;
  const bool below = hi < -m;  // the whole interval lies below -m
  const bool above = lo > m;   // the whole interval lies above m
  if (c.direction == Direction::lower_is_better) {
    c.outcome = below ? Outcome::better : (above ? Outcome::worse : Outcome::not_distinguished);
  } else {
    c.outcome = above ? Outcome::better : (below ? Outcome::worse : Outcome::not_distinguished);
  }
  c.equivalent = -m < lo && hi < m;
}

// The smallest a at which the (1 - a) interval lies wholly beyond the margin on one side.
double p_value_of(const Interval& i, double margin) {
  const double excess = std::fabs(i.mean) - margin;
  if (!(excess > 0.0)) return 1.0;
  const double se = i.standard_deviation / std::sqrt(static_cast<double>(i.n));
  if (se == 0.0) return 0.0;
  return std::min(1.0, 2.0 * student_t_upper_tail(excess / se, static_cast<double>(i.n - 1)));
}

PairedComparison at_confidence(std::string_view function, const std::string& prefix, const std::vector<double>& d,
                               double margin, Direction direction, double confidence) {
  PairedComparison c;
  c.margin = margin;
  c.direction = direction;
  c.difference =
      detail::interval_of(function, prefix + "differences", d, confidence, IntervalSource::paired_differences);
  c.p_value = p_value_of(c.difference, margin);
  decide(c);
  return c;
}

}  // namespace

PairedComparison compare_paired(std::span<const double> baseline, std::span<const double> candidate, double margin,
                                Direction direction, double confidence) {
  constexpr std::string_view kFn = "compare_paired";
  const std::vector<double> d = differences(kFn, "", baseline, candidate, margin);
  detail::require_confidence(kFn, "confidence", confidence);
  return at_confidence(kFn, "", d, margin, direction, confidence);
}

std::vector<PairedComparison> compare_paired_family(std::span<const PairedSample> comparisons, double family_confidence,
                                                    Adjustment adjustment) {
  constexpr std::string_view kFn = "compare_paired_family";
  if (comparisons.empty()) {
    detail::refuse(kFn, "comparisons.size()", "0", "a family needs at least one comparison");
  }
  detail::require_confidence(kFn, "family_confidence", family_confidence);
  const std::size_t m = comparisons.size();
  const double alpha = 1.0 - family_confidence;
  std::vector<std::vector<double>> diffs;
  diffs.reserve(m);
  for (std::size_t i = 0; i < m; ++i) {
    const PairedSample& s = comparisons[i];
    diffs.push_back(differences(kFn, "comparisons[" + detail::number(i) + "].", s.baseline, s.candidate, s.margin));
  }
  auto prefix = [](std::size_t i) { return "comparisons[" + detail::number(i) + "]."; };
  std::vector<PairedComparison> out(m);
  if (adjustment == Adjustment::bonferroni) {
    const double level = 1.0 - alpha / static_cast<double>(m);
    for (std::size_t i = 0; i < m; ++i) {
      out[i] = at_confidence(kFn, prefix(i), diffs[i], comparisons[i].margin, comparisons[i].direction, level);
    }
    return out;
  }
  // Holm: order by the unadjusted p-value (computed at any confidence; it does not depend on it).
  std::vector<double> p(m);
  for (std::size_t i = 0; i < m; ++i) {
    p[i] = at_confidence(kFn, prefix(i), diffs[i], comparisons[i].margin, comparisons[i].direction, 0.5).p_value;
  }
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  bool stopped = false;
  double stop_level = 0.0;
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t i = order[j];
    const double level = stopped ? stop_level : 1.0 - alpha / static_cast<double>(m - j);
    PairedComparison c =
        at_confidence(kFn, prefix(i), diffs[i], comparisons[i].margin, comparisons[i].direction, level);
    if (!stopped && c.outcome == Outcome::not_distinguished) {
      stopped = true;
      stop_level = level;
    } else if (stopped && c.outcome != Outcome::not_distinguished) {
      // Holm stops at the first undecided step: a later comparison decides nothing, even if its own interval
      // at the stopping level would (only possible through rounding, since its p-value is at least as large).
      c.outcome = Outcome::not_distinguished;
    }
    out[i] = c;
  }
  return out;
}

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::better:
      return "better";
    case Outcome::worse:
      return "worse";
    case Outcome::not_distinguished:
      return "not_distinguished";
  }
  return "?";
}

}  // namespace blis::sim::analysis
