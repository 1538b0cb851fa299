// Representative primitive calls for the cost tests: every family with plausible inputs, in one data type.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cost/primitive.h"

namespace blis::cost::testing {

// The data format that computes in `dtype` (bf16, fp16, tf32, fp8, int8; fp4 -> nvfp4).
std::string format_for(const std::string& dtype);

// A call of `family` on `chip` whose tensors are all in the format of `dtype`, scaled by `scale` (1: a
// mid-sized decode step of an 8B-class model). `span` for families that read one.
PrimitiveCall representative_call(const std::string& family, const std::string& chip, const std::string& dtype,
                                  const std::optional<std::string>& span, double scale = 1.0);

// Whether the family's price depends on the data type (compute and memory families), or a span (collectives,
// p2p and kv.transfer).
bool family_reads_dtype(const std::string& family);
bool family_reads_span(const std::string& family);

}  // namespace blis::cost::testing
