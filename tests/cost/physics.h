// SUB-5's physics properties of prices, as functions that return what they find (empty: none), shared by
// the property run (physics_check.cpp) and the tests of its known-bad fixtures.
#pragma once

#include <map>
#include <string>

#include "cost/coefficients.h"
#include "cost/primitive.h"
#include "schema/chip.h"

namespace blis::cost::testing {

// A compute primitive (gemm, moe.grouped_gemm, attention.*) whose price implies more FLOP/s than the
// chip's dense datasheet peak for its data type; `dtype` is the call's compute data type.
std::string compute_above_peak(const Coefficients& c, const schema::Chip& chip, const PrimitiveCall& call, const std::string& dtype);

// A compute or memory primitive whose bytes exceed the chip's L2 and whose price implies more bytes per
// second than the chip's peak memory bandwidth. Empty when the chip states no L2 size (nothing to judge).
std::string memory_above_peak(const Coefficients& c, const schema::Chip& chip, const PrimitiveCall& call);

// A collective (or p2p) at fixed bytes per rank and span that gets faster from group size n1 to n2 > n1.
std::string collective_faster_with_group(const Coefficients& c, PrimitiveCall call, std::int64_t n1, std::int64_t n2);

}  // namespace blis::cost::testing
