// Twin of overflow_in_constant.fail.cpp: the largest sum that fits is a constant.
#include <cstdint>
#include <limits>

#include "contracts/units.h"

using namespace blis::units;

constexpr Bytes kMost = Bytes{std::numeric_limits<std::int64_t>::max() - 1} + Bytes{1};
static_assert(kMost.value() == std::numeric_limits<std::int64_t>::max());
