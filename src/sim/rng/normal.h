// The standard normal distribution function and its inverse, for the normal samplers and the Gaussian
// copula (distributions.h). IEEE double arithmetic, std::sqrt and the project's fmath::log and fmath::exp
// only, so the results are the same bits on every platform (X6).
#pragma once

namespace blis::sim::rng {

// Phi(x) = P(Z <= x) for a standard normal Z. W. J. Cody's ANORM (ACM TOMS Algorithm 715, 1993; from
// "Rational Chebyshev approximations for the error function", Math. Comp. 23, 1969): rational
// approximations on |x| <= 0.66291, |x| <= 5.656854248 (sqrt 32) and beyond, exp(-x^2 / 2) taken as
// exp(-xr^2 / 2) * exp(-(x - xr)(x + xr) / 2) with xr = trunc(16 |x|) / 16 to keep its relative error small.
// Exactly 0 for x < -37.519 and 1 for x >= 8.572; NaN gives NaN. Against 50-digit values at 22 points from
// -37 to 8 (tests/sim/rng/normal_test.cpp) the relative error is at most 3 ulp (3.3e-16).
double normal_cdf(double x);

// Phi^-1(p) for p strictly inside (0, 1): M. J. Wichura, Algorithm AS 241 (PPND16), Applied Statistics 37(3),
// 477-484, 1988; against 50-digit values at 15 points from 1e-300 to 1 - 2^-53 the relative error is at
// most 3e-16. Exactly antisymmetric on Stream::uniform01's values:
// normal_quantile(1 - u) == -normal_quantile(u). p outside (0, 1) or NaN is refused (std::invalid_argument
// naming p).
double normal_quantile(double p);

}  // namespace blis::sim::rng
