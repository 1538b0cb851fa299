// Not a public header: the cost model's own; its functions take what the cost model builds.
#pragma once

#include <string>

namespace blis::cost {

struct PrimitiveCall {
  std::string family;
  double m = 0;
};
double price(const PrimitiveCall& call);  // near-miss: not a public header, so not an entry point

}  // namespace blis::cost
