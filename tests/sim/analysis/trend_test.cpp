// The trend tests (src/sim/analysis/trend.h): the slope test and the growth test by hand, their sizes on
// the models they assume, the growth test's conservatism on a stationary series, degenerate windows, and
// each refusal beside its closest accepted input.
#include "sim/analysis/trend.h"

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

const std::vector<double> kY{1, 3, 2, 5, 4};

TEST(Trend, SlopeTestByHand) {
  // x = 1..5, xbar = 3, Sxx = 10, Sxy = 8: b = 0.8; residuals -0.4, 0.8, -1, 1.2, -0.6 give RSS = 3.6,
  // s^2 = 1.2, se = sqrt(0.12), t = 0.8 / sqrt(0.12); two-sided p with 3 degrees of freedom.
  const SlopeTest s = slope_test(kY, 0.05);
  EXPECT_DOUBLE_EQ(s.slope, 0.8);
  EXPECT_DOUBLE_EQ(s.t_statistic, 0.8 / std::sqrt(0.12));
  EXPECT_EQ(s.degrees_of_freedom, 3.0);
  EXPECT_DOUBLE_EQ(s.p_value, 2.0 * student_t_upper_tail(s.t_statistic, 3));
  EXPECT_NEAR(s.p_value, 0.1041, 1e-4);
  EXPECT_FALSE(s.trend);
  EXPECT_TRUE(slope_test(kY, 0.2).trend);
}

TEST(Trend, GrowthTestByHand) {
  // Increments {2, -1, 3, -1}: mean 0.75, sample variance 12.75 / 3 = 4.25, t = 0.75 / (sqrt(4.25) / 2).
  const GrowthTest g = growth_test(kY, 0.05);
  EXPECT_DOUBLE_EQ(g.mean_increment, 0.75);
  EXPECT_DOUBLE_EQ(g.t_statistic, 0.75 / (std::sqrt(4.25) / 2.0));
  EXPECT_EQ(g.degrees_of_freedom, 3.0);
  EXPECT_DOUBLE_EQ(g.p_value, student_t_upper_tail(g.t_statistic, 3));
  EXPECT_FALSE(g.grows);
}

TEST(Trend, DegenerateWindows) {
  const std::vector<double> flat(20, 4.0);
  EXPECT_EQ(slope_test(flat, 0.01).t_statistic, 0.0);
  EXPECT_EQ(slope_test(flat, 0.01).p_value, 1.0);
  EXPECT_EQ(growth_test(flat, 0.01).p_value, 0.5);
  EXPECT_FALSE(growth_test(flat, 0.01).grows);
  std::vector<double> line(20);
  for (std::size_t j = 0; j < line.size(); ++j) line[j] = 2.0 * static_cast<double>(j);
  EXPECT_EQ(slope_test(line, 0.01).t_statistic, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(slope_test(line, 0.01).trend);
  EXPECT_EQ(growth_test(line, 0.01).p_value, 0.0);
  EXPECT_TRUE(growth_test(line, 0.01).grows);
  std::vector<double> down(line.rbegin(), line.rend());
  EXPECT_EQ(slope_test(down, 0.01).t_statistic, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(growth_test(down, 0.01).p_value, 1.0);
}

TEST(Trend, SizesOnTheModelsTheTestsAssume) {
  // 10000 windows of k = 20: the slope test at 5% on independent normal means rejects about 5%; the growth
  // test at 5% on a driftless Gaussian random walk (its exact null) rejects about 5%; the growth test at
  // 0.1% on independent normal means (a stationary series) essentially never rejects, because the
  // increments telescope. Binomial standard deviation of a 5% rate: 0.22%. This seed gives 5.07%, 4.99%
  // and 0.
  std::mt19937_64 rng(3);
  int slope = 0, walk = 0, stationary = 0;
  const int trials = 10000;
  std::vector<double> y(20), rw(20);
  for (int t = 0; t < trials; ++t) {
    double s = 0;
    for (std::size_t j = 0; j < y.size(); ++j) {
      y[j] = queues::normal(rng);
      rw[j] = s += queues::normal(rng);
    }
    slope += slope_test(y, 0.05).trend;
    walk += growth_test(rw, 0.05).grows;
    stationary += growth_test(y, 0.001).grows;
  }
  std::printf("rejections over %d windows: slope %d, growth on a walk %d, growth on a stationary series %d\n", trials,
              slope, walk, stationary);
  EXPECT_NEAR(slope / double(trials), 0.05, 0.009);
  EXPECT_NEAR(walk / double(trials), 0.05, 0.009);
  EXPECT_LE(stationary, 2);
}

TEST(Trend, GrowthTestDetectsDrift) {
  // A random walk with drift 1 per batch (unit-variance steps): t is about sqrt(19) = 4.4 on average.
  std::mt19937_64 rng(5);
  int detected = 0;
  std::vector<double> rw(20);
  for (int t = 0; t < 1000; ++t) {
    double s = 0;
    for (double& v : rw) v = s += 1.0 + queues::normal(rng);
    detected += growth_test(rw, 0.001).grows;
  }
  EXPECT_GT(detected, 500);
}

TEST(Trend, RefusalsBesideTheirClosestAcceptedInputs) {
  EXPECT_NO_THROW(slope_test(std::vector<double>{1, 2, 4}, 0.05));
  EXPECT_THROW(slope_test(std::vector<double>{1, 2}, 0.05), std::invalid_argument);
  EXPECT_NO_THROW(growth_test(std::vector<double>{1, 2, 4}, 0.05));
  EXPECT_THROW(growth_test(std::vector<double>{1, 2}, 0.05), std::invalid_argument);
  EXPECT_NO_THROW(slope_test(kY, std::nextafter(1.0, 0.0)));
  EXPECT_THROW(slope_test(kY, 1.0), std::invalid_argument);
  EXPECT_THROW(growth_test(kY, 0.0), std::invalid_argument);
  EXPECT_THROW(growth_test(std::vector<double>{1, 2, std::numeric_limits<double>::quiet_NaN()}, 0.05),
               std::invalid_argument);
  try {
    growth_test(kY, 0.0);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "growth_test: level = 0: a test's level must lie in the open interval (0, 1)");
  }
}

}  // namespace
