// expect: no match for 'operator+' || invalid operands to binary expression
// Tokens and bytes are different units: their sum does not compile.
#include "contracts/units.h"

blis::units::Bytes sum(blis::units::Bytes b, blis::units::Tokens t) { return b + t; }
