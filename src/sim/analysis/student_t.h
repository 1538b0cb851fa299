// Student's t distribution with `df` degrees of freedom (df >= 1, real): its CDF and its quantiles, for
// the intervals and tests of output analysis (design §8.8). Computed with IEEE double arithmetic and the
// project's fmath log and exp only (no libm transcendental), so every platform gives the same bits (X6).
//
// Method (standard formulas, written here from their definitions):
//   upper tail  P(T > t) = I_x(df/2, 1/2) / 2 for t >= 0, with x = df / (df + t^2) and I the regularized
//               incomplete beta function (Abramowitz & Stegun 26.7.1); P(T <= -t) = P(T > t).
//   I_x(a, b)   x^a (1-x)^b / (a B(a, b)) times the continued fraction of A&S 26.5.8, evaluated by the
//               modified Lentz method; for x >= (a+1)/(a+b+2) through I_x(a, b) = 1 - I_{1-x}(b, a).
//   log B(a, b) Lanczos' log-gamma (g = 7, 9 terms, Godfrey's coefficients) where both arguments are below
//               10; otherwise Stirling's series for log-gamma's remainder (terms to x^-13) with the leading
//               terms combined through log1p, so log B(df/2, 1/2) keeps ~1e-15 absolute error for large df.
//   quantile    Newton's method on the upper tail, kept inside a bracket by bisection, to a relative
//               step below 4e-16.
// Accuracy (tests/sim/analysis/student_t_test.cpp, against closed forms for df = 1 and 2, high-precision
// values for even df and the Cornish-Fisher expansion for large df): quantiles within 2e-15 relative for
// df <= 1e4; the continued fraction's rounding grows like sqrt(df), to about 1e-11 at df = 1e6 and 6e-11 at
// df = 1e7, the largest df accepted.
#pragma once

namespace blis::sim::analysis {

// P(T <= t). Refuses (std::invalid_argument) a NaN t and a df that is NaN, below 1 or above 1e7.
// t = -inf gives 0 and t = +inf gives 1.
double student_t_cdf(double t, double df);

// P(T > t), computed directly (not as 1 - cdf) so a small tail keeps its relative precision; for p-values.
// The same refusals as student_t_cdf.
double student_t_upper_tail(double t, double df);

// The t with P(T <= t) = probability, for probability in (0, 1) (refused otherwise, and df as above).
// Symmetric: quantile(1 - p) = -quantile(p). For probabilities so extreme that the quantile exceeds the
// largest double (df = 1 below about 1e-308) the result is +-infinity.
double student_t_quantile(double probability, double df);

// The two-sided critical value for a confidence level c in (0, 1): the t with P(|T| <= t) = c, that is
// quantile((1 + c) / 2), computed from the tail (1 - c) / 2 so a level near 1 keeps its precision.
double student_t_critical(double confidence, double df);

}  // namespace blis::sim::analysis
