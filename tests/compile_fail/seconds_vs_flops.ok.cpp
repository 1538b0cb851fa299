// Twin of seconds_vs_flops.fail.cpp: FLOPs priced at a rate are seconds, which compare with seconds.
#include "contracts/units.h"

using namespace blis::units;

bool within(Seconds budget, Flops work) { return work / FlopsPerS{1e15} < budget; }
