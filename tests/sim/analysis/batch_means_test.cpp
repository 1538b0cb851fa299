// Batch means (src/sim/analysis/batch_means.h): the split, the interval, the lag-1 autocorrelation and its
// threshold, Grubbs' outlier test, the false-flag rates of both checks on independent normal data, and each
// refusal beside its closest accepted input.
#include "sim/analysis/batch_means.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "queues.h"

namespace {

using namespace blis::sim::analysis;

TEST(BatchMeans, SplitsTheWindowDroppingTheLeadingRemainder) {
  // 105 observations in 10 batches: b = 10, and the first 5 (nearest the warm-up) enter no batch.
  std::vector<double> w(105);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<double>(i);
  const BatchMeans b = batch_means(w, 10, 0.95);
  EXPECT_EQ(b.batch_size, 10u);
  EXPECT_EQ(b.dropped, 5u);
  ASSERT_EQ(b.means.size(), 10u);
  EXPECT_EQ(b.means[0], 9.5);   // mean of 5..14
  EXPECT_EQ(b.means[9], 99.5);  // mean of 95..104
  EXPECT_EQ(b.interval.source, IntervalSource::batch_means);
  EXPECT_EQ(b.interval.n, 10u);
  EXPECT_EQ(b.interval.mean, 54.5);
  // A ramp's batch means are perfectly serially dependent.
  EXPECT_TRUE(b.correlated);
}

TEST(BatchMeans, LagOneAutocorrelationByHand) {
  EXPECT_EQ(lag1_autocorrelation(std::vector<double>{1, 2, 3}), 0.0);             // (-1)(0) + (0)(1) = 0
  EXPECT_EQ(lag1_autocorrelation(std::vector<double>{1, 3, 1, 3}), -0.75);        // -3 / 4
  EXPECT_EQ(lag1_autocorrelation(std::vector<double>{5, 5, 5, 5}), 0.0);          // constant: defined as 0
  EXPECT_DOUBLE_EQ(lag1_autocorrelation(std::vector<double>{1, 2, 3, 4}), 0.25);  // (1.5*0.5 - 0.25 + 0.75) / 5
}

TEST(BatchMeans, ThresholdsAreTheStatedFormulas) {
  // -1/k + z (k - 2) / (k sqrt(k - 1)) with z = Phi^-1(0.99).
  EXPECT_NEAR(correlation_threshold(20), -0.05 + 2.3263478740408408 * 18.0 / (20.0 * std::sqrt(19.0)), 1e-15);
  EXPECT_NEAR(correlation_threshold(20), 0.4303, 1e-4);
  EXPECT_NEAR(correlation_threshold(80), 0.2427, 1e-4);
  // Grubbs' two-sided 1% critical values as tabulated (ASTM E178, upper 0.5% one-sided column).
  EXPECT_NEAR(outlier_threshold(10), 2.482, 1e-3);
  EXPECT_NEAR(outlier_threshold(20), 3.001, 1e-3);
  EXPECT_NEAR(outlier_threshold(30), 3.236, 1e-3);
}

TEST(BatchMeans, OutlierStatisticByHand) {
  // {0, 0, 0, 0, 10}: mean 2, s^2 = (4 * 4 + 64) / 4 = 20, G = 8 / sqrt(20).
  EXPECT_DOUBLE_EQ(outlier_statistic(std::vector<double>{0, 0, 0, 0, 10}), 8.0 / std::sqrt(20.0));
  EXPECT_EQ(outlier_statistic(std::vector<double>{2, 2, 2}), 0.0);
}

TEST(BatchMeans, FalseFlagRatesOnIndependentNormalDataAreTheStatedLevels) {
  // 5000 windows of 400 independent standard normals in k = 20 batches (quarter batches of 5). Each check
  // is at level 1%, so the lag-1 test, the quarter test and Grubbs' test each flag about 1% (binomial
  // standard deviation 0.14%), and `correlated` (either lag-1 test) about 2%. This seed gives 0.92%, 0.78%,
  // 0.90% and 1.68%.
  std::mt19937_64 rng(7);
  int lag = 0, quarter = 0, correlated = 0, outlier = 0;
  const int trials = 5000;
  std::vector<double> w(400);
  for (int t = 0; t < trials; ++t) {
    for (double& v : w) v = queues::normal(rng);
    const BatchMeans b = batch_means(w, 20, 0.95);
    lag += b.lag1_autocorrelation > b.correlation_threshold;
    quarter += b.quarter_lag1_autocorrelation > b.quarter_correlation_threshold;
    correlated += b.correlated;
    outlier += b.outlier;
  }
  std::printf("false flags over %d windows: lag-1 %d, quarter %d, either %d, Grubbs %d\n", trials, lag, quarter,
              correlated, outlier);
  EXPECT_NEAR(lag / double(trials), 0.01, 0.005);
  EXPECT_NEAR(quarter / double(trials), 0.01, 0.005);
  EXPECT_NEAR(outlier / double(trials), 0.01, 0.005);
  EXPECT_NEAR(correlated / double(trials), 0.02, 0.007);
}

TEST(BatchMeans, FlagsCorrelatedBatches) {
  // An AR(1) series with coefficient 0.999 (correlation time about 1000 observations) in batches of 100:
  // neighbouring batch means are strongly correlated.
  std::mt19937_64 rng(11);
  std::vector<double> w(2000);
  double x = 0;
  for (double& v : w) v = x = 0.999 * x + queues::normal(rng);
  const BatchMeans b = batch_means(w, 20, 0.95);
  EXPECT_TRUE(b.correlated);
  EXPECT_GT(b.quarter_lag1_autocorrelation, b.quarter_correlation_threshold);
}

TEST(BatchMeans, FlagsAnOutlyingBatch) {
  // One spike in an otherwise flat, slightly noisy window dominates its batch.
  std::vector<double> w(400);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 1.0 + 0.01 * static_cast<double>(i % 7);
  for (std::size_t i = 200; i < 210; ++i) w[i] = 50.0;
  const BatchMeans b = batch_means(w, 20, 0.95);
  EXPECT_TRUE(b.outlier);
  EXPECT_GT(b.outlier_statistic, 4.0);
}

TEST(BatchMeans, RefusalsBesideTheirClosestAcceptedInputs) {
  const std::vector<double> w(120, 1.0);
  EXPECT_NO_THROW(batch_means(w, 10, 0.95));
  EXPECT_THROW(batch_means(w, 9, 0.95), std::invalid_argument);
  EXPECT_NO_THROW(batch_means(w, 30, 0.95));
  EXPECT_THROW(batch_means(w, 31, 0.95), std::invalid_argument);
  EXPECT_NO_THROW(batch_means(std::vector<double>(40, 1.0), 10, 0.95));
  EXPECT_THROW(batch_means(std::vector<double>(39, 1.0), 10, 0.95), std::invalid_argument);
  EXPECT_THROW(batch_means(w, 10, 1.0), std::invalid_argument);
  std::vector<double> bad = w;
  bad[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(batch_means(bad, 10, 0.95), std::invalid_argument);
  EXPECT_NO_THROW(lag1_autocorrelation(std::vector<double>{1, 2, 3}));
  EXPECT_THROW(lag1_autocorrelation(std::vector<double>{1, 2}), std::invalid_argument);
  EXPECT_NO_THROW(correlation_threshold(3));
  EXPECT_THROW(correlation_threshold(2), std::invalid_argument);
  EXPECT_NO_THROW(outlier_threshold(3));
  EXPECT_THROW(outlier_threshold(2), std::invalid_argument);
  EXPECT_NO_THROW(outlier_statistic(std::vector<double>{1, 2, 3}));
  EXPECT_THROW(outlier_statistic(std::vector<double>{1, 2}), std::invalid_argument);
  try {
    batch_means(w, 31, 0.95);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "batch_means: batches = 31: a run is split into 10 to 30 batches (design 8.8)");
  }
}

}  // namespace
