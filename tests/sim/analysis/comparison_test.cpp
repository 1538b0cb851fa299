// Paired comparisons (src/sim/analysis/comparison.h): the three outcomes in both directions, the equivalent
// flag, strict boundaries, p-values consistent with intervals, Holm's and Bonferroni's adjustments, the
// interval's coverage, and each refusal beside its closest accepted input.
#include "sim/analysis/comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "queues.h"
#include "sim/analysis/student_t.h"

namespace {

using namespace blis::sim::analysis;

const std::vector<double> kBase{10, 10, 10, 10, 10};
// Differences {-1.1, -0.9, -1.0, -0.8, -1.2}: mean -1, s^2 = 0.025, half-width at 95% t(0.975, 4) *
// sqrt(0.025 / 5) = 0.1963, so the interval is about [-1.196, -0.804].
const std::vector<double> kFaster{8.9, 9.1, 9.0, 9.2, 8.8};

TEST(Comparison, ThreeOutcomesInBothDirections) {
  const PairedComparison lower = compare_paired(kBase, kFaster, 0.5, Direction::lower_is_better, 0.95);
  EXPECT_EQ(lower.outcome, Outcome::better);
  EXPECT_FALSE(lower.equivalent);
  EXPECT_EQ(lower.difference.source, IntervalSource::paired_differences);
  EXPECT_NEAR(lower.difference.mean, -1.0, 1e-15);
  EXPECT_NEAR(lower.difference.half_width, 2.776445105197793 * std::sqrt(0.025 / 5), 1e-12);
  // The same data for a higher-is-better figure: worse.
  EXPECT_EQ(compare_paired(kBase, kFaster, 0.5, Direction::higher_is_better, 0.95).outcome, Outcome::worse);
  // Swapping baseline and candidate flips the outcome.
  EXPECT_EQ(compare_paired(kFaster, kBase, 0.5, Direction::lower_is_better, 0.95).outcome, Outcome::worse);
  EXPECT_EQ(compare_paired(kFaster, kBase, 0.5, Direction::higher_is_better, 0.95).outcome, Outcome::better);
  // A margin the interval reaches into: not distinguished, and not equivalent.
  const PairedComparison wide = compare_paired(kBase, kFaster, 0.9, Direction::lower_is_better, 0.95);
  EXPECT_EQ(wide.outcome, Outcome::not_distinguished);
  EXPECT_FALSE(wide.equivalent);
}

TEST(Comparison, EquivalentWhenTheWholeIntervalIsWithinTheMargin) {
  const std::vector<double> same{10.01, 9.98, 10.0, 10.01, 10.0};
  const PairedComparison c = compare_paired(kBase, same, 0.1, Direction::lower_is_better, 0.95);
  EXPECT_EQ(c.outcome, Outcome::not_distinguished);
  EXPECT_TRUE(c.equivalent);
  // A zero margin can never be equivalent; the interval straddles zero, so not distinguished.
  const PairedComparison zero = compare_paired(kBase, same, 0.0, Direction::lower_is_better, 0.95);
  EXPECT_EQ(zero.outcome, Outcome::not_distinguished);
  EXPECT_FALSE(zero.equivalent);
}

TEST(Comparison, BoundariesAreStrict) {
  // Equal differences give a zero-width interval at exactly -0.5: touching the margin decides nothing.
  const std::vector<double> at{9.5, 9.5, 9.5};
  const std::vector<double> base{10, 10, 10};
  const PairedComparison touch = compare_paired(base, at, 0.5, Direction::lower_is_better, 0.95);
  EXPECT_EQ(touch.outcome, Outcome::not_distinguished);
  EXPECT_FALSE(touch.equivalent);
  EXPECT_EQ(touch.p_value, 1.0);
  const std::vector<double> beyond{9.25, 9.25, 9.25};
  const PairedComparison past = compare_paired(base, beyond, 0.5, Direction::lower_is_better, 0.95);
  EXPECT_EQ(past.outcome, Outcome::better);
  EXPECT_EQ(past.p_value, 0.0);
}

TEST(Comparison, PValueIsTheLevelAtWhichTheIntervalDecides) {
  const PairedComparison c = compare_paired(kBase, kFaster, 0.8, Direction::lower_is_better, 0.95);
  ASSERT_GT(c.p_value, 0.0);
  ASSERT_LT(c.p_value, 1.0);
  // T = (1 - 0.8) / (s / sqrt(5)), p = 2 P(T_4 > T).
  EXPECT_NEAR(c.p_value, 2 * student_t_upper_tail(0.2 / std::sqrt(0.025 / 5), 4), 1e-12);
  const double a = c.p_value;
  EXPECT_EQ(compare_paired(kBase, kFaster, 0.8, Direction::lower_is_better, 1 - a * 1.001).outcome, Outcome::better);
  EXPECT_EQ(compare_paired(kBase, kFaster, 0.8, Direction::lower_is_better, 1 - a * 0.999).outcome,
            Outcome::not_distinguished);
}

// Ten differences with mean mu and sample standard deviation 1 (a fixed symmetric pattern, rescaled), so the
// p-value of a zero-margin comparison is 2 P(T_9 > |mu| sqrt(10)).
std::vector<double> differences_with_p(double p) {
  const double t = -student_t_quantile(p / 2, 9);
  const double mu = -t / std::sqrt(10.0);  // negative: the candidate is lower
  const double z[10] = {-1.5, -1, -0.5, 0, 0, 0, 0, 0.5, 1, 1.5};
  const double s = std::sqrt(7.0 / 9.0);
  std::vector<double> d(10);
  for (int i = 0; i < 10; ++i) d[i] = mu + z[i] / s;
  return d;
}

TEST(Comparison, HolmDecidesMoreThanBonferroniAndReportsItsLevels) {
  const std::vector<double> zeros(10, 0.0);
  const std::vector<double> d1 = differences_with_p(0.02), d2 = differences_with_p(0.01), d3 = differences_with_p(0.04);
  const std::vector<PairedSample> family{{zeros, d1, 0.0, Direction::lower_is_better},
                                         {zeros, d2, 0.0, Direction::lower_is_better},
                                         {zeros, d3, 0.0, Direction::lower_is_better}};
  // Holm at a = 0.05: 0.01 < 0.05/3, 0.02 < 0.05/2, 0.04 < 0.05: all three decided, each at its step's level.
  const std::vector<PairedComparison> holm = compare_paired_family(family, 0.95, Adjustment::holm);
  ASSERT_EQ(holm.size(), 3u);
  EXPECT_NEAR(holm[1].p_value, 0.01, 1e-12);
  for (const PairedComparison& c : holm) EXPECT_EQ(c.outcome, Outcome::better);
  EXPECT_EQ(holm[1].difference.confidence, 1 - 0.05 / 3);
  EXPECT_EQ(holm[0].difference.confidence, 1 - 0.05 / 2);
  EXPECT_EQ(holm[2].difference.confidence, 1 - 0.05 / 1);
  // Bonferroni: every comparison at 1 - 0.05/3; only p = 0.01 is below 0.0167.
  const std::vector<PairedComparison> bonf = compare_paired_family(family, 0.95, Adjustment::bonferroni);
  EXPECT_EQ(bonf[0].outcome, Outcome::not_distinguished);
  EXPECT_EQ(bonf[1].outcome, Outcome::better);
  EXPECT_EQ(bonf[2].outcome, Outcome::not_distinguished);
  for (const PairedComparison& c : bonf) EXPECT_EQ(c.difference.confidence, 1 - 0.05 / 3);
}

TEST(Comparison, HolmStopsAtTheFirstUndecidedStep) {
  const std::vector<double> zeros(10, 0.0);
  const std::vector<double> d1 = differences_with_p(0.01), d2 = differences_with_p(0.03), d3 = differences_with_p(0.04);
  const std::vector<PairedSample> family{{zeros, d1, 0.0, Direction::lower_is_better},
                                         {zeros, d2, 0.0, Direction::lower_is_better},
                                         {zeros, d3, 0.0, Direction::lower_is_better}};
  // 0.01 < 0.05/3 decides; 0.03 > 0.05/2 stops; 0.04 (< 0.05 alone) is not distinguished either, and both
  // are reported at the stopping step's level 1 - 0.05/2.
  const std::vector<PairedComparison> holm = compare_paired_family(family, 0.95, Adjustment::holm);
  EXPECT_EQ(holm[0].outcome, Outcome::better);
  EXPECT_EQ(holm[1].outcome, Outcome::not_distinguished);
  EXPECT_EQ(holm[2].outcome, Outcome::not_distinguished);
  EXPECT_EQ(holm[1].difference.confidence, 1 - 0.05 / 2);
  EXPECT_EQ(holm[2].difference.confidence, 1 - 0.05 / 2);
  // Alone, the third would be decided at 95%.
  EXPECT_EQ(compare_paired(zeros, d3, 0.0, Direction::lower_is_better, 0.95).outcome, Outcome::better);
  // A family of one is the single comparison.
  const std::vector<PairedSample> one{{zeros, d3, 0.0, Direction::lower_is_better}};
  EXPECT_EQ(compare_paired_family(one, 0.95, Adjustment::holm)[0].outcome, Outcome::better);
}

TEST(Comparison, IntervalCoversTheTrueMeanDifference) {
  // 2000 trials of 10 pairs under common random numbers: baseline ~ N(5, 1), candidate = baseline +
  // N(0.3, 0.5^2), so the differences are N(0.3, 0.25) whatever the baseline. The 95% interval should cover
  // 0.3 in 95% of trials; the binomial standard deviation is 0.49%, and the stated tolerance is +-1.5%
  // (three standard deviations). This seed covers in 93.85% of trials (over 100000 trials, 95.05%).
  std::mt19937_64 rng(2024);
  const int trials = 2000;
  int covered = 0;
  std::vector<double> a(10), b(10);
  for (int t = 0; t < trials; ++t) {
    for (int i = 0; i < 10; ++i) {
      a[i] = 5.0 + queues::normal(rng);
      b[i] = a[i] + 0.3 + 0.5 * queues::normal(rng);
    }
    const PairedComparison c = compare_paired(a, b, 0.0, Direction::lower_is_better, 0.95);
    covered += c.difference.lower() <= 0.3 && 0.3 <= c.difference.upper();
  }
  std::printf("coverage over %d trials: %d (%.2f%%)\n", trials, covered, 100.0 * covered / trials);
  EXPECT_NEAR(covered / double(trials), 0.95, 0.015);
}

TEST(Comparison, RefusalsBesideTheirClosestAcceptedInputs) {
  const std::vector<double> two{1, 2};
  EXPECT_NO_THROW(compare_paired(two, two, 0.0, Direction::lower_is_better, 0.95));
  EXPECT_THROW(compare_paired(std::vector<double>{1}, std::vector<double>{1}, 0.0, Direction::lower_is_better, 0.95),
               std::invalid_argument);
  EXPECT_THROW(compare_paired(two, std::vector<double>{1, 2, 3}, 0.0, Direction::lower_is_better, 0.95),
               std::invalid_argument);
  EXPECT_THROW(compare_paired(two, std::vector<double>{1, std::numeric_limits<double>::quiet_NaN()}, 0.0,
                              Direction::lower_is_better, 0.95),
               std::invalid_argument);
  EXPECT_THROW(compare_paired(two, two, -1e-300, Direction::lower_is_better, 0.95), std::invalid_argument);
  EXPECT_THROW(compare_paired(two, two, std::numeric_limits<double>::infinity(), Direction::lower_is_better, 0.95),
               std::invalid_argument);
  EXPECT_NO_THROW(compare_paired(two, two, 0.0, Direction::lower_is_better, std::nextafter(1.0, 0.0)));
  EXPECT_THROW(compare_paired(two, two, 0.0, Direction::lower_is_better, 1.0), std::invalid_argument);
  const std::vector<PairedSample> ok{{two, two, 0.0, Direction::lower_is_better}};
  EXPECT_NO_THROW(compare_paired_family(ok, 0.95, Adjustment::holm));
  EXPECT_THROW(compare_paired_family(std::vector<PairedSample>{}, 0.95, Adjustment::holm), std::invalid_argument);
  EXPECT_THROW(compare_paired_family(ok, 0.0, Adjustment::holm), std::invalid_argument);
  const std::vector<double> three{1, 2, 3};
  const std::vector<PairedSample> bad{{two, two, 0.0, Direction::lower_is_better},
                                      {two, three, 0.0, Direction::lower_is_better}};
  try {
    compare_paired_family(bad, 0.95, Adjustment::bonferroni);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "compare_paired_family: comparisons[1].candidate.size() = 3: the comparison is paired: one candidate "
                 "value per baseline value, and baseline.size() is 2");
  }
}

}  // namespace
