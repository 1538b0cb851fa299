// DEV-11's procedure coverage (slow tier): the paired interval's coverage, and the chance of any false claim
// (a false winner or a false loser) across a family of comparisons under Holm's and Bonferroni's
// adjustments, measured over many simulated families and printed.
//
//   coverage     normal paired differences (mean 0.3, sd 0.5) for n = 5, 10, 30 pairs at 90%, 95% and 99%:
//                fails if any is more than 1 percentage point from nominal over 20000 trials (binomial
//                standard deviation at most 0.21 points).
//   false claims families of M = 10 comparisons, 10 pairs each, every true difference exactly 0 and margin
//                0, family confidence 95%: fails if Holm's or Bonferroni's rate of families with any better
//                or worse exceeds 5% + 0.6 points (three binomial standard deviations over 5000 families).
//                The unadjusted rate (each at 95%) is printed beside them: about 1 - 0.95^10 = 40%.
//   boundary     the same families with every true difference exactly at -margin (lower is better, margin
//                0.2): a "better" claim is false there, and each comparison makes one with probability at
//                most a / 2 before adjustment; judged like the false claims above.
//   power        families of 10 where 5 candidates are truly better by 1 sd: the mean number found better,
//                printed for Holm and Bonferroni (Holm finds at least as many; judged).
// Measured with these seeds: coverage 0.8982 to 0.9907 (every cell within 0.5 points of nominal); null
// families 5.08% with Holm and with Bonferroni (they coincide there: both decide anything only when the
// smallest p is below a / M), 39.98% unadjusted; at the margin 2.36% with either, 21.72% unadjusted; power
// 2.03 of 5 found with Holm, 1.88 with Bonferroni.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "queues.h"
#include "sim/analysis/comparison.h"

namespace {

using namespace blis::sim::analysis;

TEST(ComparisonCoverage, PairedIntervalCoverage) {
  std::mt19937_64 rng(101);
  const int trials = 20000;
  for (std::size_t n : {5u, 10u, 30u}) {
    for (double confidence : {0.90, 0.95, 0.99}) {
      int covered = 0;
      std::vector<double> a(n), b(n);
      for (int t = 0; t < trials; ++t) {
        for (std::size_t i = 0; i < n; ++i) {
          a[i] = 5.0 + queues::normal(rng);
          b[i] = a[i] + 0.3 + 0.5 * queues::normal(rng);
        }
        const PairedComparison c = compare_paired(a, b, 0.0, Direction::lower_is_better, confidence);
        covered += c.difference.lower() <= 0.3 && 0.3 <= c.difference.upper();
      }
      const double rate = static_cast<double>(covered) / trials;
      std::printf("n = %2zu, confidence %.2f: coverage %.4f\n", n, confidence, rate);
      EXPECT_NEAR(rate, confidence, 0.01) << n << " " << confidence;
    }
  }
}

struct FamilyRates {
  double holm = 0, bonferroni = 0, unadjusted = 0;  // fraction of families with any false claim
};

// Families of 10 comparisons with true differences `truth` (candidate - baseline), differences sd 1.
FamilyRates false_claims(double truth, double margin, bool better_is_false_only, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int families = 5000;
  const std::size_t m = 10, n = 10;
  std::vector<std::vector<double>> base(m, std::vector<double>(n)), cand(m, std::vector<double>(n));
  int holm = 0, bonf = 0, raw = 0;
  auto is_false = [&](const PairedComparison& c) {
    if (better_is_false_only) return c.outcome == Outcome::better;
    return c.outcome != Outcome::not_distinguished;
  };
  for (int f = 0; f < families; ++f) {
    std::vector<PairedSample> family;
    for (std::size_t k = 0; k < m; ++k) {
      for (std::size_t i = 0; i < n; ++i) {
        base[k][i] = 10.0 + queues::normal(rng);
        cand[k][i] = base[k][i] + truth + queues::normal(rng);
      }
      family.push_back({base[k], cand[k], margin, Direction::lower_is_better});
    }
    bool any_h = false, any_b = false, any_r = false;
    for (const PairedComparison& c : compare_paired_family(family, 0.95, Adjustment::holm)) any_h |= is_false(c);
    for (const PairedComparison& c : compare_paired_family(family, 0.95, Adjustment::bonferroni)) {
      any_b |= is_false(c);
    }
    for (const PairedSample& s : family) {
      any_r |= is_false(compare_paired(s.baseline, s.candidate, s.margin, s.direction, 0.95));
    }
    holm += any_h;
    bonf += any_b;
    raw += any_r;
  }
  return {holm / double(families), bonf / double(families), raw / double(families)};
}

TEST(ComparisonCoverage, FamilyWiseFalseClaimRate) {
  const FamilyRates null = false_claims(0.0, 0.0, false, 202);
  std::printf("null families (M = 10): any false claim  holm %.4f  bonferroni %.4f  unadjusted %.4f\n", null.holm,
              null.bonferroni, null.unadjusted);
  EXPECT_LE(null.holm, 0.056);
  EXPECT_LE(null.bonferroni, 0.056);
  EXPECT_GT(null.unadjusted, 0.3);
  const FamilyRates edge = false_claims(-0.2, 0.2, true, 303);
  std::printf("at the margin (M = 10): any false better  holm %.4f  bonferroni %.4f  unadjusted %.4f\n", edge.holm,
              edge.bonferroni, edge.unadjusted);
  EXPECT_LE(edge.holm, 0.056);
  EXPECT_LE(edge.bonferroni, 0.056);
}

TEST(ComparisonCoverage, HolmIsAtLeastAsPowerfulAsBonferroni) {
  std::mt19937_64 rng(404);
  const int families = 2000;
  const std::size_t m = 10, n = 10;
  std::vector<std::vector<double>> base(m, std::vector<double>(n)), cand(m, std::vector<double>(n));
  long found_h = 0, found_b = 0;
  for (int f = 0; f < families; ++f) {
    std::vector<PairedSample> family;
    for (std::size_t k = 0; k < m; ++k) {
      const double truth = k < 5 ? -1.0 : 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        base[k][i] = 10.0 + queues::normal(rng);
        cand[k][i] = base[k][i] + truth + queues::normal(rng);
      }
      family.push_back({base[k], cand[k], 0.0, Direction::lower_is_better});
    }
    const auto h = compare_paired_family(family, 0.95, Adjustment::holm);
    const auto b = compare_paired_family(family, 0.95, Adjustment::bonferroni);
    for (std::size_t k = 0; k < 5; ++k) {
      found_h += h[k].outcome == Outcome::better;
      found_b += b[k].outcome == Outcome::better;
    }
  }
  std::printf("5 of 10 truly better by 1 sd: found per family  holm %.3f  bonferroni %.3f\n",
              found_h / double(families), found_b / double(families));
  EXPECT_GE(found_h, found_b);
}

}  // namespace
