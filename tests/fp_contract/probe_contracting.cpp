// fusion intended: this twin is built with -ffp-contract=fast on purpose, to show the probe can see fusion.
// It exits 0 when the compiler fused a*b+c (the probe is sensitive on this machine) and 1 when it did not.
#include <cstdio>

#include "operands.h"

int main() {
  if (!__builtin_cpu_supports("fma")) {
    std::printf("fp-probe-contracting: this CPU has no FMA; fusion cannot occur, so sensitivity is moot\n");
    return 0;
  }
  const double x = fp_probe::a;
  const double y = fp_probe::b;
  const double z = fp_probe::c;
  const double r = x * y + z;
  if (r == fp_probe::kFused) {
    std::printf("fp-probe-contracting: fused (%a): the probe detects contraction\n", r);
    return 0;
  }
  std::printf("fp-probe-contracting: not fused (%a): the probe could not see contraction\n", r);
  return 1;
}
