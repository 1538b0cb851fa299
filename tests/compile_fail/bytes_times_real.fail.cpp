// expect: no match for 'operator*' || invalid operands to binary expression
// An integer unit is not scaled by a real: the result would have to round.
#include "contracts/units.h"

blis::units::Bytes half(blis::units::Bytes b) { return b * 0.5; }
