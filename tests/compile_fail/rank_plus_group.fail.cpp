// expect: no match for 'operator+' || invalid operands to binary expression
// A per-rank amount added to a per-group one does not compile.
#include "contracts/units.h"

using namespace blis::units;

BytesPerGroup total(BytesPerRank r, BytesPerGroup g) { return r + g; }
