// A public header (the record lists it): the coefficient-registry handle.
#pragma once

#include <cstdint>

namespace blis::cost {

enum class Method : std::uint8_t { measured = 1, assumed = 7 };
int method_rank(Method m);  // near-miss: a registry method

struct RegistryInput {};

class Coefficients {
 public:
  static Coefficients read(RegistryInput input);  // near-miss: the loaded registry
  double at(int index) const;                     // near-miss: a query of a value already built

 private:
  int entries_ = 0;
};

}  // namespace blis::cost
