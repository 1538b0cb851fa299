#include "sim/analysis/statistics.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/analysis/checks.h"

namespace blis::sim::analysis {
namespace {

double corrected_mean(std::span<const double> values) {
  const double n = static_cast<double>(values.size());
  double sum = 0.0;
  for (double x : values) sum += x;
  const double m = sum / n;
  double residual = 0.0;
  for (double x : values) residual += x - m;
  return m + residual / n;
}

}  // namespace

double mean(std::span<const double> values) {
  detail::require_size("mean", "values", values, 1, "a mean of no values is undefined");
  detail::require_finite("mean", "values", values);
  return corrected_mean(values);
}

double sample_variance(std::span<const double> values) {
  detail::require_size("sample_variance", "values", values, 2, "the sample variance divides by n - 1");
  detail::require_finite("sample_variance", "values", values);
  const double m = corrected_mean(values);
  double ss = 0.0;
  for (double x : values) {
    const double d = x - m;
    ss += d * d;
  }
  return ss / static_cast<double>(values.size() - 1);
}

double percentile(std::span<const double> values, double q) {
  detail::require_size("percentile", "values", values, 1, "a percentile of an empty series is undefined");
  detail::require_finite("percentile", "values", values);
  if (!(q >= 0.0 && q <= 100.0)) {
    detail::refuse("percentile", "q", detail::number(q), "a percentile must lie in [0, 100]");
  }
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double h = static_cast<double>(n - 1) * (q / 100.0);
  if (h >= static_cast<double>(n - 1)) return sorted[n - 1];
  const double floor_h = std::floor(h);
  const auto i = static_cast<std::size_t>(floor_h);
  const double g = h - floor_h;
  const double a = sorted[i];
  const double b = sorted[i + 1];
  const double diff = b - a;
  if (g >= 0.5) return b - diff * (1.0 - g);
  return a + diff * g;
}

}  // namespace blis::sim::analysis
