// Paired comparison of two configurations (design §8.8, DEV-11). Each replication r runs both the baseline
// and the candidate on the same scenario seed, so they share common random numbers (§8.4), and the
// comparison is made on the paired differences d_r = candidate_r - baseline_r: their t interval (source
// paired_differences, n - 1 degrees of freedom) and one of three outcomes.
//
// With the margin m >= 0 in the figure's own unit and the interval [lo, hi] of the mean difference:
//   lower_is_better (a latency):       better when hi < -m; worse when lo > m;
//   higher_is_better (a throughput):   better when lo > m;  worse when hi < -m;
//   otherwise not_distinguished; it is also `equivalent` when -m < lo and hi < m (the whole interval lies
//   within the margin, so the configurations differ by less than the margin at this confidence).
// The inequalities are strict: an interval touching the margin does not decide.
//
// Many comparisons (a search, or one candidate against several baselines) control the chance of any false
// claim (a false winner, or a false loser) across all of them, at 1 - family_confidence, with Holm's
// step-down procedure (Holm, "A simple sequentially rejective multiple test procedure", Scand. J. Statist.
// 6, 1979) or Bonferroni's. Each comparison's p-value is the smallest a at which its (1 - a) interval lies
// wholly beyond the margin on one side: p = 2 P(T_{n-1} > T) with T = (|dbar| - m) / (s / sqrt(n)) when
// |dbar| > m (p = 0 if also s = 0), and p = 1 when |dbar| <= m; dbar is the mean difference and s its
// sample standard deviation. With a = 1 - family_confidence and the comparisons taken in increasing p
// (ties in input order):
//   holm        the j-th (j = 1..M) is tested with its interval at confidence 1 - a / (M - j + 1); the first
//               that does not decide, and every one after it, is not distinguished, and each of those is
//               reported at the confidence of that first undecided step;
//   bonferroni  every comparison is decided with its interval at confidence 1 - a / M.
// Each comparison's `difference` is the interval at the confidence it was decided at, so its outcome and
// its equivalent flag agree with the interval reported (the one exception, possible only through rounding
// at a boundary: a comparison after Holm's stop whose interval would decide is still not distinguished).
// The false-claim rate is measured by tests/sim/analysis/comparison_coverage_check.cpp (DEV-11).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "sim/analysis/interval.h"

namespace blis::sim::analysis {

enum class Direction { lower_is_better, higher_is_better };
enum class Outcome { better, worse, not_distinguished };
enum class Adjustment { holm, bonferroni };

struct PairedComparison {
  Outcome outcome = Outcome::not_distinguished;
  bool equivalent = false;  // the whole interval lies strictly within (-margin, margin)
  Interval difference;      // of candidate - baseline, at the confidence the outcome was decided at
  double margin = 0.0;
  Direction direction = Direction::lower_is_better;
  double p_value = 1.0;  // as defined above (unadjusted)
};

// One comparison at the given confidence. Refuses (std::invalid_argument): series of different lengths or
// with fewer than two pairs, a NaN or infinite value, a margin that is negative or not finite, and a
// confidence outside (0, 1).
PairedComparison compare_paired(std::span<const double> baseline, std::span<const double> candidate, double margin,
                                Direction direction, double confidence);

struct PairedSample {
  std::span<const double> baseline;
  std::span<const double> candidate;
  double margin = 0.0;
  Direction direction = Direction::lower_is_better;
};

// M comparisons with the chance of any false claim held at 1 - family_confidence. Results are in input
// order. Refuses no comparisons, a family_confidence outside (0, 1), and any comparison compare_paired
// would refuse (naming it by its index).
std::vector<PairedComparison> compare_paired_family(std::span<const PairedSample> comparisons, double family_confidence,
                                                    Adjustment adjustment);

const char* to_string(Outcome o);

}  // namespace blis::sim::analysis
