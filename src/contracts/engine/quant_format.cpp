#include "contracts/engine/quant_format.h"

#include <string>

#include "contracts/engine/errors.h"

namespace blis::engine {

namespace {

units::Bytes bits_to_bytes(units::Count bits) { return units::Bytes{units::ceil_div(bits, units::Count{8}).value()}; }

}  // namespace

units::Bytes stored_bytes(const QuantFormat& format, const std::vector<units::Count>& shape) {
  if (!format.payload_bits) throw ContractError("quantised format: payload_bits is not stated");
  units::Count elements{1};
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].value() < 1)
      throw ContractError("quantised format: shape[" + std::to_string(i) + "] is " + std::to_string(shape[i].value()) +
                          ": every dimension holds at least one element");
    elements = elements * shape[i];
  }
  units::Bytes bytes = bits_to_bytes(elements * *format.payload_bits);
  if (!format.scale_bits) {
    if (format.block)
      throw ContractError("quantised format: block is stated without scale_bits: a block shares a scale");
    return bytes;
  }
  units::Count blocks{1};
  if (format.block) {
    const auto& block = *format.block;
    if (block.size() > shape.size())
      throw ContractError("quantised format: block has " + std::to_string(block.size()) + " extents, but the shape has " +
                          std::to_string(shape.size()) + " dimensions");
    const std::size_t lead = shape.size() - block.size();
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (i < lead) {
        blocks = blocks * shape[i];
        continue;
      }
      const units::Count extent = block[i - lead];
      if (extent.value() < 1)
        throw ContractError("quantised format: block[" + std::to_string(i - lead) + "] is " +
                            std::to_string(extent.value()) + ": an extent holds at least one element");
      blocks = blocks * units::ceil_div(shape[i], extent);
    }
  }
  return bytes + bits_to_bytes(blocks * *format.scale_bits);
}

}  // namespace blis::engine
