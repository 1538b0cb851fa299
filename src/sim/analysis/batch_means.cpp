#include "sim/analysis/batch_means.h"

#include <algorithm>
#include <cmath>

#include "sim/analysis/checks.h"
#include "sim/analysis/statistics.h"
#include "sim/analysis/student_t.h"

namespace blis::sim::analysis {
namespace {

double r1_of(std::span<const double> y) {
  const double m = mean(y);
  double num = 0.0;
  double den = 0.0;
  for (std::size_t j = 0; j < y.size(); ++j) {
    const double d = y[j] - m;
    den += d * d;
    if (j + 1 < y.size()) num += d * (y[j + 1] - m);
  }
  if (den == 0.0) return 0.0;
  return num / den;
}

}  // namespace

double lag1_autocorrelation(std::span<const double> values) {
  detail::require_size("lag1_autocorrelation", "values", values, 3,
                       "a lag-1 autocorrelation about the mean needs two neighbouring pairs");
  detail::require_finite("lag1_autocorrelation", "values", values);
  return r1_of(values);
}

double correlation_threshold(std::size_t k) {
  if (k < 3) {
    detail::refuse("correlation_threshold", "k", detail::number(k), "Moran's moments of r1 need at least three values");
  }
  const double kd = static_cast<double>(k);
  return -1.0 / kd + kCorrelationZ * (kd - 2.0) / (kd * std::sqrt(kd - 1.0));
}

double outlier_statistic(std::span<const double> values) {
  detail::require_size("outlier_statistic", "values", values, 3, "Grubbs' test needs a spread about the mean");
  detail::require_finite("outlier_statistic", "values", values);
  const double m = mean(values);
  const double s = std::sqrt(sample_variance(values));
  if (s == 0.0) return 0.0;
  double g = 0.0;
  for (double v : values) g = std::max(g, std::fabs(v - m));
  return g / s;
}

double outlier_threshold(std::size_t k) {
  if (k < 3) {
    detail::refuse("outlier_threshold", "k", detail::number(k), "Grubbs' test needs a spread about the mean");
  }
  const double kd = static_cast<double>(k);
  const double t = -student_t_quantile(kOutlierLevel / (2.0 * kd), kd - 2.0);
  return (kd - 1.0) / std::sqrt(kd) * std::sqrt(t * t / (kd - 2.0 + t * t));
}

BatchMeans batch_means(std::span<const double> window, std::size_t batches, double confidence) {
  constexpr std::string_view kFn = "batch_means";
  if (batches < kMinBatches || batches > kMaxBatches) {
    detail::refuse(kFn, "batches", detail::number(batches), "a run is split into 10 to 30 batches (design 8.8)");
  }
  detail::require_size(kFn, "window", window, kQuarterBatches * batches,
                       "each of the 4k quarter batches needs at least one observation");
  detail::require_finite(kFn, "window", window);
  detail::require_confidence(kFn, "confidence", confidence);
  BatchMeans r;
  r.batch_size = window.size() / batches;
  r.dropped = window.size() - batches * r.batch_size;
  r.means.resize(batches);
  for (std::size_t j = 0; j < batches; ++j) {
    r.means[j] = mean(window.subspan(r.dropped + j * r.batch_size, r.batch_size));
  }
  r.interval = detail::interval_of(kFn, "batch means", r.means, confidence, IntervalSource::batch_means);
  r.lag1_autocorrelation = r1_of(r.means);
  r.correlation_threshold = correlation_threshold(batches);
  const std::size_t fine = kQuarterBatches * batches;
  const std::size_t fine_size = window.size() / fine;
  const std::size_t fine_dropped = window.size() - fine * fine_size;
  std::vector<double> quarter(fine);
  for (std::size_t j = 0; j < fine; ++j) quarter[j] = mean(window.subspan(fine_dropped + j * fine_size, fine_size));
  r.quarter_lag1_autocorrelation = r1_of(quarter);
  r.quarter_correlation_threshold = correlation_threshold(fine);
  r.correlated = r.lag1_autocorrelation > r.correlation_threshold ||
                 r.quarter_lag1_autocorrelation > r.quarter_correlation_threshold;
  r.outlier_statistic = outlier_statistic(r.means);
  r.outlier_threshold = outlier_threshold(batches);
  r.outlier = r.outlier_statistic > r.outlier_threshold;
  return r;
}

}  // namespace blis::sim::analysis
