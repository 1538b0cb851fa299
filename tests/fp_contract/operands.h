// Operands for which a*b+c is exactly 0 when the product is rounded first and -2^-60 when fused.
// Volatile so the compiler cannot fold the expression at compile time.
#pragma once

namespace fp_probe {
inline volatile double a = 1.0 + 0x1p-30;
inline volatile double b = 1.0 - 0x1p-30;
inline volatile double c = -1.0;
constexpr double kFused = -0x1p-60;
}  // namespace fp_probe
