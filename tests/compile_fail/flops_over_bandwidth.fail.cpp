// expect: no match for 'operator/' || invalid operands to binary expression
// FLOPs divided by a byte rate are not a time.
#include "contracts/units.h"

using namespace blis::units;

Seconds priced(Flops f, BytesPerS bw) { return f / bw; }
