// The stored bytes of a tensor in a quantised format (SUB-16: a quantised format is one type, with one
// function for its stored bytes). The format is the plan's QuantFormat: payload bits per element, and
// optionally scale bits per block of elements.
#pragma once

#include <vector>

#include "contracts/engine/errors.h"
#include "contracts/engine/plan.h"
#include "contracts/units.h"

namespace blis::engine {

using QuantFormat = blis::schema::PoolPlanQuantFormat;

// The bytes a tensor of `shape` (outermost dimension first; empty: one element) takes in `format`:
//   payload  ceil(elements * payload_bits / 8)
//   scales   ceil(blocks * scale_bits / 8), blocks = prod_i ceil(shape[i] / extent[i]), the block's extents
//            aligned with the trailing dimensions (leading ones have extent 1); no block: one scale for the
//            tensor; no scale_bits: no scales.
// Payload and scales are stored as separate arrays, each rounded up to whole bytes. Throws ContractError
// naming the field when payload_bits is unstated, a dimension or extent is below 1, the block has more
// extents than the shape has dimensions, or a block is stated without scale_bits; std::overflow_error when
// the size does not fit in int64 bytes.
units::Bytes stored_bytes(const QuantFormat& format, const std::vector<units::Count>& shape);

}  // namespace blis::engine
