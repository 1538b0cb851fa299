// expect: no match for 'operator+' || invalid operands to binary expression
// Known-bad input of units-compile-fail (X18): a twin that compiles, mistakenly marked .fail.
#include "contracts/units.h"

blis::units::Bytes sum(blis::units::Bytes b, blis::units::Bytes c) { return b + c; }
