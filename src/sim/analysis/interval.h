// A confidence interval for a mean from n independent, roughly normal values (design §8.8): replication
// estimates, batch means, or paired differences. The interval is mean +- t * s / sqrt(n), where s is the
// sample standard deviation of the n values and t = student_t_critical(confidence, n - 1).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace blis::sim::analysis {

// What the n values are, and so which uncertainty the interval covers (DEV-11): the spread between
// independent replications (different scenario seeds), between the batch means of one run after its
// warm-up, or between the paired differences of two configurations run on common random numbers.
enum class IntervalSource { replications, batch_means, paired_differences };

struct Interval {
  IntervalSource source = IntervalSource::replications;
  std::size_t n = 0;                // the number of values
  double confidence = 0.0;          // the two-sided confidence level, in (0, 1)
  double mean = 0.0;                // analysis::mean of the values
  double standard_deviation = 0.0;  // sqrt(sample_variance), the spread of one value
  double critical_value = 0.0;      // t with P(|T| <= t) = confidence, n - 1 degrees of freedom
  double half_width = 0.0;          // critical_value * standard_deviation / sqrt(n)
  // half_width / |mean|; +infinity when the mean is 0 and the half-width is not, 0 when both are 0.
  double relative_half_width = 0.0;

  double lower() const { return mean - half_width; }
  double upper() const { return mean + half_width; }
};

// The t interval of the values' mean. Refuses (std::invalid_argument) fewer than two values, a NaN or
// infinite value, and a confidence outside (0, 1).
Interval t_interval(std::span<const double> values, double confidence, IntervalSource source);

// The interval of a terminating run's estimate from independent replications: t_interval with source
// replications. Same refusals.
Interval replication_interval(std::span<const double> estimates, double confidence);

namespace detail {
// t_interval with its refusals naming `function` and `parameter` (for the callers in this directory).
Interval interval_of(std::string_view function, std::string_view parameter, std::span<const double> values,
                     double confidence, IntervalSource source);
}  // namespace detail

}  // namespace blis::sim::analysis
