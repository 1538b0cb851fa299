// Summary statistics of a series of observations (design §8.8), in a fixed order of operations so the
// same values give the same bits everywhere. Every function refuses (std::invalid_argument, naming the
// parameter, the value and the cause) a series with a NaN or infinite value, and one too short for it.
#pragma once

#include <span>

namespace blis::sim::analysis {

// The arithmetic mean, corrected once: m = (sum x_i) / n, then m + (sum (x_i - m)) / n, both sums left to
// right. The correction removes most of the first sum's rounding (a constant series gives its value
// exactly). Needs at least one value.
double mean(std::span<const double> values);

// The sample variance sum (x_i - m)^2 / (n - 1) about the corrected mean m (two-pass, left to right).
// Needs at least two values.
double sample_variance(std::span<const double> values);

// The q-th percentile, q in [0, 100], by linear interpolation between order statistics, exactly as
// numpy.percentile's default method 'linear' (Hyndman and Fan's definition 7), which vLLM's `bench serve`
// reports through np.percentile: with x sorted ascending, p = q / 100, h = (n - 1) * p, i = floor(h),
// g = h - i: the result is x[n-1] when h >= n - 1, else lerp(x[i], x[i+1], g), where lerp(a, b, g) is
// a + (b - a) * g for g < 0.5 and b - (b - a) * (1 - g) for g >= 0.5 (numpy's _lerp, which is exact at
// g = 1 and monotone). Needs at least one value; q outside [0, 100] or NaN is refused.
double percentile(std::span<const double> values, double q);

}  // namespace blis::sim::analysis
