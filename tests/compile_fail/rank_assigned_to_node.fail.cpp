// expect: no match for 'operator=' || no viable overloaded '='
// A per-rank amount is not assignable to a per-node one.
#include "contracts/units.h"

using namespace blis::units;

BytesPerNode on_node(BytesPerRank r) {
  BytesPerNode n;
  n = r;
  return n;
}
