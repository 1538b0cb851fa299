// Proves the build does not fuse a*b+c (X6): with these operands the fused result is -2^-60 and the
// separately rounded one is exactly 0. Built with -mfma so the compiler could fuse if it were allowed.
#include <cstdio>

#include "operands.h"

int main() {
  const double x = fp_probe::a;
  const double y = fp_probe::b;
  const double z = fp_probe::c;
  const double r = x * y + z;
  if (r != 0.0) {
    std::printf("fp-probe: a*b+c = %a: the multiply and add were fused [X6]\n", r);
    return 1;
  }
  std::printf("fp-probe: a*b+c = 0: multiply and add rounded separately\n");
  return 0;
}
