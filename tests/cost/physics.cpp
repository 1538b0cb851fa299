#include "physics.h"

#include <cstdio>

#include "cost_data.h"

namespace blis::cost::testing {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string shape(const PrimitiveCall& call) {
  std::string s;
  for (const auto& [k, v] : call.inputs) s += (s.empty() ? "" : ", ") + k + "=" + num(v);
  if (!call.requests.empty()) s += ", " + std::to_string(call.requests.size()) + " requests";
  return s;
}

}  // namespace

std::string compute_above_peak(const Coefficients& c, const schema::Chip& chip, const PrimitiveCall& call, const std::string& dtype) {
  const PrimitivePrice p = price(c, call);
  const double peak = dense_peak(chip, dtype);
  const double t = p.seconds.value();
  if (p.flops.value() == 0.0) return "";
  if (t <= 0.0 || p.flops.value() / t > peak * (1.0 + 1e-12))
    return "SUB-5: " + call.family + " on " + chip.name + " (" + dtype + "; " + shape(call) + ") implies " + num(p.flops.value() / t) +
           " FLOP/s, above the chip's dense " + dtype + " peak " + num(peak) + " (least trusted entry " + p.provenance.entry + ")";
  return "";
}

std::string memory_above_peak(const Coefficients& c, const schema::Chip& chip, const PrimitiveCall& call) {
  if (!chip.l2_bytes) return "";
  const PrimitivePrice p = price(c, call);
  const double l2 = static_cast<double>(chip.l2_bytes->value.value());
  if (p.bytes <= l2) return "";
  const double bw = chip.memory.bandwidth.value.value();
  const double t = p.seconds.value();
  if (t <= 0.0 || p.bytes / t > bw * (1.0 + 1e-12))
    return "SUB-5: " + call.family + " on " + chip.name + " (" + shape(call) + ") moves " + num(p.bytes) + " bytes, more than the L2's " +
           num(l2) + ", at " + num(p.bytes / t) + " B/s, above the chip's peak memory bandwidth " + num(bw) + " (least trusted entry " +
           p.provenance.entry + ")";
  return "";
}

std::string collective_faster_with_group(const Coefficients& c, PrimitiveCall call, std::int64_t n1, std::int64_t n2) {
  call.inputs["group_size"] = static_cast<double>(n1);
  const double t1 = price(c, call).seconds.value();
  call.inputs["group_size"] = static_cast<double>(n2);
  const double t2 = price(c, call).seconds.value();
  if (t2 < t1)
    return "SUB-5: " + call.family + " on " + call.chip + " (span " + call.span.value_or("-") + ", " + num(call.inputs["bytes"]) +
           " bytes per rank) gets faster as the group grows: " + num(t1) + " s at " + std::to_string(n1) + " ranks, " + num(t2) + " s at " +
           std::to_string(n2);
  return "";
}

}  // namespace blis::cost::testing
