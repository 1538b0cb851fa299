// Batch means (design §8.8): one long steady-state run, after its warm-up, split into k equal batches
// (10 <= k <= 30); the batch means are treated as k independent values, so the mean's interval is the
// t interval of the batch means with k - 1 degrees of freedom. That holds only when the batches are long
// enough that neighbouring means are not correlated, so the lag-1 autocorrelation of the batch means is
// reported with a threshold, and batches above it are flagged as correlated rather than silently used.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "sim/analysis/interval.h"

namespace blis::sim::analysis {

inline constexpr std::size_t kMinBatches = 10;
inline constexpr std::size_t kMaxBatches = 30;

// The correlation test's one-sided level and its normal quantile z = Phi^-1(1 - level).
inline constexpr double kCorrelationLevel = 0.01;
inline constexpr double kCorrelationZ = 2.3263478740408408;  // Phi^-1(0.99)
// The batches are also tested at a quarter of their size (4k batches of floor(n / 4k)), see BatchMeans.
inline constexpr std::size_t kQuarterBatches = 4;

// r1 = sum_{j=1..k-1} (Y_j - Ybar)(Y_{j+1} - Ybar) / sum_{j=1..k} (Y_j - Ybar)^2, Ybar = analysis::mean(Y).
// A constant series (zero denominator) has r1 = 0: no correlation is measurable. Refuses fewer than three
// values and a NaN or infinite value.
double lag1_autocorrelation(std::span<const double> values);

// The level-kCorrelationLevel critical value of r1 for k independent normal batch means, from Moran's
// moments of r1 under independence (Moran, "Some theorems on time series II", Biometrika 35, 1948):
// E r1 = -1/k and Var r1 = (k - 2)^2 / (k^2 (k - 1)), so threshold = -1/k + kCorrelationZ * (k - 2) /
// (k sqrt(k - 1)): about 0.43 for k = 20 and 0.24 for k = 80. Batches whose r1 exceeds it are
// "correlated". The normal approximation's false-flag rate under independence is measured in
// tests/sim/analysis/batch_means_test.cpp (about 1%).
// Refuses k < 3.
double correlation_threshold(std::size_t k);

// Grubbs' two-sided test for one outlying value among k normal values (Grubbs, "Procedures for detecting
// outlying observations in samples", Technometrics 11, 1969): G = max_j |Y_j - Ybar| / s, with s the
// sample standard deviation, is an outlier at level a when G > ((k - 1) / sqrt(k)) sqrt(t^2 / (k - 2 + t^2)),
// t the upper a / (2k) quantile of Student's t with k - 2 degrees of freedom. A batch-mean series with an
// outlier is not the normal sample the t interval assumes: one event (a heavy-tailed service's backlog
// spike) dominates the window's mean.
inline constexpr double kOutlierLevel = 0.01;
double outlier_statistic(std::span<const double> values);  // G; 0 for a constant series. Needs >= 3 values.
double outlier_threshold(std::size_t k);                   // the level-kOutlierLevel critical G; k >= 3.

struct BatchMeans {
  std::size_t batch_size = 0;          // b = floor(n / k) observations per batch
  std::size_t dropped = 0;             // the window's first n - k b observations, which enter no batch
  std::vector<double> means;           // Y_1..Y_k, each the mean of b consecutive observations
  Interval interval;                   // t_interval of Y (source batch_means, k - 1 degrees of freedom)
  double lag1_autocorrelation = 0.0;   // r1 of Y
  double correlation_threshold = 0.0;  // correlation_threshold(k)
  // r1 of the 4k quarter batches: the window's last 4k floor(n / 4k) observations in batches of
  // floor(n / 4k), and its threshold correlation_threshold(4k).
  double quarter_lag1_autocorrelation = 0.0;
  double quarter_correlation_threshold = 0.0;
  // r1 > correlation_threshold, or quarter r1 > quarter_correlation_threshold. The second test is the
  // stronger: k = 10..30 means are too few to see a lag-1 correlation below about 0.4, but the 4k quarter
  // batches estimate theirs about twice as precisely, and a positively correlated output's batch-mean
  // correlation falls as batches lengthen (for correlation time tau much shorter than a batch of b, about
  // tau / (2b)); so batches whose quarters are already uncorrelated are safely long.
  bool correlated = false;
  double outlier_statistic = 0.0;  // Grubbs' G of Y
  double outlier_threshold = 0.0;  // outlier_threshold(k)
  bool outlier = false;            // G > outlier_threshold
};

// Splits the window (the series after its warm-up) into k batches of b = floor(n / k) observations,
// dropping the first n - k b (those nearest the warm-up, fewer than k). Refuses (std::invalid_argument)
// k outside [10, 30], fewer than 4k observations (a quarter batch needs one), a NaN or infinite value, and a
// confidence outside (0, 1).
BatchMeans batch_means(std::span<const double> window, std::size_t batches, double confidence);

}  // namespace blis::sim::analysis
