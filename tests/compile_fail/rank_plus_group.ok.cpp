// Twin of rank_plus_group.fail.cpp: the per-rank amount is converted to per-group, stating the rank count.
#include "contracts/units.h"

using namespace blis::units;

BytesPerGroup total(BytesPerRank r, BytesPerGroup g) { return to_group(r, Count{8}) + g; }
