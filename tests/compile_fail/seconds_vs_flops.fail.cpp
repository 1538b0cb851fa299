// expect: no match for 'operator<' || invalid operands to binary expression
// Seconds do not compare with FLOPs.
#include "contracts/units.h"

using namespace blis::units;

bool within(Seconds budget, Flops work) { return work < budget; }
