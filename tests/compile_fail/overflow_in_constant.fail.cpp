// expect: refuse_overflow
// Integer overflow is refused; in a constant expression the refusal is a compile error.
#include <cstdint>
#include <limits>

#include "contracts/units.h"

using namespace blis::units;

constexpr Bytes kTooMuch = Bytes{std::numeric_limits<std::int64_t>::max()} + Bytes{1};
