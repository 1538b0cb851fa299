// The project's pure, deterministic math (X6): the transcendental functions the cost model and the engines
// use instead of libm's, so a price is the same bits on every platform and toolchain. Implemented with IEEE
// double arithmetic only: an exponent and significand split read from the bits, a fixed polynomial from a
// Taylor series whose coefficients are exact fractions (so the compiler rounds each one the same way
// everywhere), and double-double (hi + lo) arithmetic built from Dekker's exact products (Veltkamp splits,
// no std::fma). The build's -ffp-contract=off keeps every product and sum rounded as written.
//
// Accuracy (tests/cost/fmath_test.cpp compares with libm): within 1 ulp of the correctly rounded result for
// log, log2, exp and exp2 over their whole normal domains; pow within 2 ulp where |y * log2(x)| <= 64 and
// within 8 ulp up to the overflow threshold (results in the subnormal range may be off by one subnormal
// step from double rounding). log2(2^k) == k and exp2(k) == 2^k exactly for every integer k in range.
//
// Special values (the C standard's Annex F results, which libm gives too):
//   log, log2:  NaN -> NaN; x < 0 (including -inf) -> NaN; +-0 -> -inf; +inf -> +inf; 1 -> +0.
//   exp, exp2:  NaN -> NaN; +inf -> +inf; -inf -> +0; overflow -> +inf; underflow -> +0 (or a subnormal).
//   pow(x, y):  y == +-0 -> 1 (even for NaN x); x == 1 -> 1 (even for NaN y); otherwise NaN in -> NaN;
//               x < 0 finite with y not an integer -> NaN; x < 0 with integer y -> the sign of (-1)^y;
//               +-0 with y < 0 -> +-inf, with y > 0 -> +-0 (the sign kept only for odd integer y);
//               +-inf and y = +-inf follow Annex F (e.g. pow(0.5, +inf) = +0, pow(-1, +-inf) = 1).
// None of these functions throws or sets errno; the callers that must refuse a domain (a non-positive
// input on a log2 axis) check before calling.
#pragma once

namespace blis::fmath {

double log(double x);
double log2(double x);
double exp(double x);
double exp2(double x);
double pow(double x, double y);

}  // namespace blis::fmath
