#include "sim/analysis/interval.h"

#include <cmath>
#include <limits>

#include "sim/analysis/checks.h"
#include "sim/analysis/statistics.h"
#include "sim/analysis/student_t.h"

namespace blis::sim::analysis {

namespace detail {

Interval interval_of(std::string_view function, std::string_view parameter, std::span<const double> values,
                     double confidence, IntervalSource source) {
  require_size(function, parameter, values, 2, "an interval needs a spread, with n - 1 >= 1 degrees of freedom");
  require_finite(function, parameter, values);
  require_confidence(function, "confidence", confidence);
  Interval r;
  r.source = source;
  r.n = values.size();
  r.confidence = confidence;
  r.mean = mean(values);
  r.standard_deviation = std::sqrt(sample_variance(values));
  r.critical_value = student_t_critical(confidence, static_cast<double>(r.n - 1));
  r.half_width = r.critical_value * r.standard_deviation / std::sqrt(static_cast<double>(r.n));
  if (r.mean != 0.0) {
    r.relative_half_width = r.half_width / std::fabs(r.mean);
  } else {
    r.relative_half_width = r.half_width == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  }
  return r;
}

}  // namespace detail

Interval t_interval(std::span<const double> values, double confidence, IntervalSource source) {
  return detail::interval_of("t_interval", "values", values, confidence, source);
}

Interval replication_interval(std::span<const double> estimates, double confidence) {
  return detail::interval_of("replication_interval", "estimates", estimates, confidence, IntervalSource::replications);
}

}  // namespace blis::sim::analysis
