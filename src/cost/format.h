// Quantised data formats (forms.md "Data formats"): how many bytes a tensor of a format occupies, and the
// data type it computes in. One type for every format: payload bits per element, plus an optional scale
// of scale_bits shared by each block of `block` elements.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "contracts/units.h"

namespace blis::cost {

struct DataFormat {
  std::string_view name;
  int payload_bits = 0;
  int scale_bits = 0;  // 0: no per-block scale
  int block = 0;       // elements sharing one scale; 0 when scale_bits is 0
  // The compute data type (a registry scope `dtype`, a chip's dense_peak key); empty for a weight-only
  // format, which computes in its activation's data type, and for fp32, which has none.
  std::string_view compute_dtype;
  bool weight_only = false;

  // ceil(elements * payload_bits / 8) + ceil(elements / block) * scale_bits / 8, in integers. Refuses a
  // negative count and an overflow (std::invalid_argument, std::overflow_error), naming the format.
  units::Bytes stored_bytes(std::int64_t elements) const;
  // b(x) of the family formulas: payload_bits / 8 + scale_bits / (8 * block).
  double bytes_per_element() const;
};

// Every format of forms.md, in its order.
std::span<const DataFormat> data_formats();

// The format of that name; std::invalid_argument naming the unknown name and the known ones.
const DataFormat& data_format(std::string_view name);

// The data type a primitive computes in when `operand` is its weight-side (or only) operand and
// `activation` its activation: the operand's own compute dtype, or for a weight-only format the
// activation's. Refuses (std::invalid_argument) a format with no compute data type (fp32, or a weight-only
// activation).
std::string compute_dtype(const DataFormat& operand, const DataFormat& activation);

}  // namespace blis::cost
