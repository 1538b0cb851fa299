// Twin of flops_over_bandwidth.fail.cpp: FLOPs divided by a FLOP rate are a time.
#include "contracts/units.h"

using namespace blis::units;

Seconds priced(Flops f, FlopsPerS peak) { return f / peak; }
