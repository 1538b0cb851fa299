// Fixture of blis-fp-contract (X6), as src/cost/fmath.h: stands for the project's pure fmath functions.
#pragma once

namespace fmath {
inline double exp(double x) { return 1.0 + x; }
inline double log(double x) { return x - 1.0; }
}  // namespace fmath
