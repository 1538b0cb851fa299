#include "sim/analysis/trend.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/analysis/checks.h"
#include "sim/analysis/statistics.h"
#include "sim/analysis/student_t.h"

namespace blis::sim::analysis {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check(std::string_view function, std::span<const double> means, double level) {
  detail::require_size(function, "means", means, 3, "the test has k - 2 degrees of freedom, at least 1");
  detail::require_finite(function, "means", means);
  if (!(level > 0.0 && level < 1.0)) {
    detail::refuse(function, "level", detail::number(level), "a test's level must lie in the open interval (0, 1)");
  }
}

}  // namespace

SlopeTest slope_test(std::span<const double> means, double level) {
  check("slope_test", means, level);
  const std::size_t k = means.size();
  const double kd = static_cast<double>(k);
  SlopeTest r;
  r.level = level;
  r.degrees_of_freedom = kd - 2.0;
  const auto [lo, hi] = std::minmax_element(means.begin(), means.end());
  if (*lo == *hi) {  // a constant window: no slope
    r.slope = 0.0;
    r.t_statistic = 0.0;
    r.p_value = 1.0;
    r.trend = false;
    return r;
  }
  const double ybar = mean(means);
  const double xbar = (kd + 1.0) / 2.0;
  double sxx = 0.0;
  double sxy = 0.0;
  for (std::size_t j = 0; j < k; ++j) {
    const double dx = static_cast<double>(j + 1) - xbar;
    sxx += dx * dx;
    sxy += dx * (means[j] - ybar);
  }
  r.slope = sxy / sxx;
  double rss = 0.0;
  for (std::size_t j = 0; j < k; ++j) {
    const double e = means[j] - ybar - r.slope * (static_cast<double>(j + 1) - xbar);
    rss += e * e;
  }
  const double se = std::sqrt(rss / r.degrees_of_freedom / sxx);
  if (se == 0.0) {
    r.t_statistic = r.slope > 0.0 ? kInf : (r.slope < 0.0 ? -kInf : 0.0);
    r.p_value = r.slope == 0.0 ? 1.0 : 0.0;
  } else {
    r.t_statistic = r.slope / se;
    r.p_value = std::min(1.0, 2.0 * student_t_upper_tail(std::fabs(r.t_statistic), r.degrees_of_freedom));
  }
  r.trend = r.p_value < level;
  return r;
}

GrowthTest growth_test(std::span<const double> means, double level) {
  check("growth_test", means, level);
  const std::size_t k = means.size();
  std::vector<double> d(k - 1);
  for (std::size_t j = 0; j + 1 < k; ++j) d[j] = means[j + 1] - means[j];
  GrowthTest r;
  r.level = level;
  r.degrees_of_freedom = static_cast<double>(k) - 2.0;
  r.mean_increment = mean(d);
  const double sd = std::sqrt(sample_variance(d));
  if (sd == 0.0) {
    if (r.mean_increment > 0.0) {
      r.t_statistic = kInf;
      r.p_value = 0.0;
    } else if (r.mean_increment < 0.0) {
      r.t_statistic = -kInf;
      r.p_value = 1.0;
    } else {
      r.t_statistic = 0.0;
      r.p_value = 0.5;
    }
  } else {
    r.t_statistic = r.mean_increment / (sd / std::sqrt(static_cast<double>(k - 1)));
    r.p_value = student_t_upper_tail(r.t_statistic, r.degrees_of_freedom);
  }
  r.grows = r.p_value < level;
  return r;
}

}  // namespace blis::sim::analysis
