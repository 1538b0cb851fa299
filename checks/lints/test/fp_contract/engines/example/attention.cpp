// Fixture of blis-fp-contract (X6), as engines/example/attention.cpp: unmarked fused multiply-adds and
// libm's transcendental functions are flagged in engine code; marked fusions, the project's fmath
// functions and correctly rounded libm functions are not.
#include <cmath>
#include <complex>

#include "src/cost/fmath.h"

namespace fixture {

using std::exp;

template <class T>
T later(T x) {
  return std::pow(x, 2);                         // expect: libm transcendental function in cost or engine code; use the pure fmath functions
}

double flagged(double a, double b, double c, float f) {
  double x = std::fma(a, b, c);                  // expect: fused multiply-add without a fusion-intended comment on its line
  double y = fma(a, b, c);                       // expect: fused multiply-add without a fusion-intended comment on its line
  float z = fmaf(f, f, f);                       // expect: fused multiply-add without a fusion-intended comment on its line
  auto fused = &fmal;                            // expect: fused multiply-add without a fusion-intended comment on its line
  double e = std::exp(a);                        // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  double e2 = exp(b);                            // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  double l = std::log1p(a) + std::expm1(b);      // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  double p = pow(a, 1.5);                        // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  float t = std::tanh(f);                        // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  float lf = logf(f);                            // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  double (*softplus)(double) = std::log;         // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  std::complex<double> w = std::exp(std::complex<double>(a, b));  // expect: libm transcendental function in cost or engine code; use the pure fmath functions
  double m = std::fma(a, b, std::log(c));        // expect: fused multiply-add without a fusion-intended comment on its line || libm transcendental function in cost or engine code; use the pure fmath functions
  return x + y + z + e + e2 + l + p + t + lf + softplus(a) + w.real() + m + (fused ? 1 : 0) + later(a);
}

double near_misses(double a, double b, double c) {
  double x = std::fma(a, b, c);  // fusion intended: near-miss: the softmax rescale matches upstream's fused kernel
  double r = std::sqrt(a);                       // near-miss: IEEE 754 rounds sqrt correctly
  double q = std::floor(a) + std::fabs(b) + std::ldexp(c, 3) + std::fmod(a, b);  // near-miss: exact functions
  double s = fmath::exp(a) + fmath::log(b);      // near-miss: the project's pure fmath functions
  double t = a * b + c;                          // near-miss: -ffp-contract=off keeps this unfused
  return x + r + q + s + t;
}

}  // namespace fixture
