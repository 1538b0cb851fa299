#include "cost/format.h"

#include <array>
#include <stdexcept>

namespace blis::cost {
namespace {

// forms.md's table: name, payload bits, scale bits, block, compute dtype.
constexpr std::array<DataFormat, 10> kFormats = {{
    {"bf16", 16, 0, 0, "bf16"},
    {"fp16", 16, 0, 0, "fp16"},
    {"tf32", 32, 0, 0, "tf32"},  // stored as fp32
    {"fp32", 32, 0, 0, ""},      // no tensor-core dtype: only a storage and accumulation format
    {"fp8", 8, 0, 0, "fp8"},     // one scale per tensor (not stored per element)
    {"fp8_block", 8, 32, 128, "fp8"},
    {"int8", 8, 0, 0, "int8"},
    {"nvfp4", 4, 8, 16, "fp4"},
    {"mxfp4", 4, 8, 32, "fp4"},
    {"int4_group128", 4, 16, 128, "", true},  // weight-only: computes in the activation's dtype
}};

std::int64_t checked_mul(std::int64_t a, std::int64_t b, std::string_view name, std::int64_t elements) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw std::overflow_error("format " + std::string(name) + ": stored bytes of " + std::to_string(elements) +
                              " elements overflow int64");
  return r;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace

units::Bytes DataFormat::stored_bytes(std::int64_t elements) const {
  if (elements < 0)
    throw std::invalid_argument("format " + std::string(name) + ": elements " + std::to_string(elements) +
                                " is negative; a tensor has zero or more elements");
  std::int64_t bytes = ceil_div(checked_mul(elements, payload_bits, name, elements), 8);
  if (scale_bits > 0) bytes += checked_mul(ceil_div(elements, block), scale_bits / 8, name, elements);
  return units::Bytes{bytes};
}

double DataFormat::bytes_per_element() const {
  const double payload = static_cast<double>(payload_bits) / 8.0;
  if (scale_bits == 0) return payload;
  return payload + static_cast<double>(scale_bits) / (8.0 * static_cast<double>(block));
}

std::span<const DataFormat> data_formats() { return kFormats; }

const DataFormat& data_format(std::string_view name) {
  for (const auto& f : kFormats)
    if (f.name == name) return f;
  std::string known;
  for (const auto& f : kFormats) known += (known.empty() ? "" : ", ") + std::string(f.name);
  throw std::invalid_argument("unknown data format '" + std::string(name) + "' (known: " + known + ")");
}

std::string compute_dtype(const DataFormat& operand, const DataFormat& activation) {
  const DataFormat& f = operand.weight_only ? activation : operand;
  if (f.compute_dtype.empty())
    throw std::invalid_argument("format " + std::string(f.name) +
                                " has no compute data type (the registry's dtype keys: tf32, bf16, fp16, fp8, fp4, int8)" +
                                (operand.weight_only ? ", and the weight-only format " + std::string(operand.name) +
                                                           " computes in its activation's"
                                                     : std::string()));
  return std::string(f.compute_dtype);
}

}  // namespace blis::cost
