// Fixture of blis-fp-contract (X6), as src/sim/summary.cpp: the fusion mark applies everywhere in scope,
// the libm rule only to src/cost/ and engines/.
#include <cmath>

namespace fixture {

double summary(double a, double b, double c) {
  double x = std::fma(a, b, c);                  // expect: fused multiply-add without a fusion-intended comment on its line
  double y = std::fma(a, b, c);  // fusion intended: near-miss: marked
  double z = std::exp(a) + std::log(b);          // near-miss: libm is judged only in src/cost/ and engines/
  return x + y + z;
}

}  // namespace fixture
