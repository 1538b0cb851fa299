// blis-fp-contract (X6): the source half of the FMA rule; the flag half (every compile command carries
// -ffp-contract=off) is X6's check fp-contract-flags, checks/repo/fp_contract_flags.py, not this lint.
//
// (a) In engines/, router/ and src/ (tests are outside the scope): a call of or reference to std::fma, fma,
//     fmaf, fmal (and __builtin_fma*) only on a line whose comment says `// fusion intended: <why>`. The
//     mark is read on the line of the function's name.
// (b) In src/cost/ and engines/ only (the lint restricts itself; the record's scope is the union of (a) and
//     (b)): no libm transcendental function, in std:: or global form, float/long double variants and
//     builtins included: exp, exp2, expm1, log, log2, log10, log1p, pow, sin, cos, tan, asin, acos, atan,
//     atan2, sinh, cosh, tanh, asinh, acosh, atanh, cbrt, hypot, erf, erfc, tgamma, lgamma, sincos.
//     libm does not round these correctly, and its results differ across libm versions and platforms: use
//     the project's pure fmath functions.
//     Not flagged: sqrt (IEEE 754 rounds it correctly, so every platform gives the same bits), and functions
//     whose result is exact or correctly rounded by definition: fabs, floor, ceil, trunc, round, rint,
//     nearbyint, fmod, remainder, ldexp, frexp, scalbn, ilogb, logb, modf, nextafter, copysign, fmin, fmax,
//     fdim. The C++17 special functions (std::beta, std::riemann_zeta, ...) are not listed either.
#pragma once

#include <string>

#include "lint.h"

namespace blis::lint {

class FpContract : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
