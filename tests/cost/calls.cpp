#include "calls.h"

#include <cmath>

namespace blis::cost::testing {

std::string format_for(const std::string& dtype) { return dtype == "fp4" ? "nvfp4" : dtype; }

bool family_reads_span(const std::string& f) { return f.starts_with("collective.") || f == "p2p.send_recv" || f == "kv.transfer"; }

bool family_reads_dtype(const std::string& f) {
  for (const auto& ff : family_forms())
    if (ff.name == f) return ff.form == "roofline_max" || ff.form == "memory_only";
  return false;
}

PrimitiveCall representative_call(const std::string& family, const std::string& chip, const std::string& dtype,
                                  const std::optional<std::string>& span, double scale) {
  PrimitiveCall c;
  c.family = family;
  c.chip = chip;
  const std::string fmt = format_for(dtype);
  c.formats = {fmt, fmt, fmt, fmt};
  const double s = scale;
  auto& in = c.inputs;
  const std::string& f = family;
  if (f == "gemm") {
    in = {{"m", std::round(256 * s)}, {"n", 4096}, {"k", 4096}};
  } else if (f == "moe.grouped_gemm") {
    in = {{"routed_tokens", std::round(512 * s)}, {"active_experts", 16}, {"n", 1536}, {"k", 4096}};
  } else if (f.starts_with("attention.")) {
    const bool pre = f.ends_with("prefill");
    for (int r = 0; r < 8; ++r)
      c.requests.push_back({pre ? static_cast<std::int64_t>(std::round(512 * s)) : 1, static_cast<std::int64_t>(std::round((1024 + 128 * r) * s))});
    if (f == "attention.prefill" || f == "attention.decode") in = {{"heads_q", 32}, {"heads_kv", 8}, {"head_dim", 128}};
    else if (f == "attention.mla_prefill") in = {{"heads", 128}, {"qk_head_dim", 192}, {"v_head_dim", 128}};
    else in = {{"heads", 128}, {"kv_lora_rank", 512}, {"rope_dim", 64}};
  } else if (f == "moe.permute") {
    in = {{"tokens", std::round(256 * s)}, {"top_k", 8}, {"hidden", 4096}, {"experts", 128}};
  } else if (f == "elementwise.norm") {
    in = {{"tokens", std::round(256 * s)}, {"hidden", 4096}, {"fused_residual", 1}};
  } else if (f == "elementwise.activation") {
    in = {{"tokens", std::round(256 * s)}, {"width", 14336}, {"gated", 1}, {"flops_per_element", 5}};
  } else if (f == "elementwise.rotary") {
    in = {{"tokens", std::round(256 * s)}, {"heads_q", 32}, {"heads_kv", 8}, {"rotary_dim", 128}};
  } else if (f == "kv_cache.write") {
    in = {{"tokens", std::round(256 * s)}, {"kv_width", 2048}};
  } else if (f == "embedding") {
    in = {{"tokens", std::round(256 * s)}, {"hidden", 4096}};
  } else if (f == "sampling") {
    in = {{"requests", std::round(64 * s)}, {"vocab", 128256}, {"flops_per_logit", 4}};
  } else if (f.starts_with("collective.")) {
    in = {{"bytes", std::round(16.0 * 1024 * 1024 * s)}, {"group_size", 8}};
  } else if (f == "p2p.send_recv") {
    in = {{"bytes", std::round(8.0 * 1024 * 1024 * s)}};
  } else if (f == "kv.transfer" || f.starts_with("copy.")) {
    in = {{"bytes", std::round(64.0 * 1024 * 1024 * s)}, {"blocks", 256}};
  } else if (f == "host.step") {
    in = {{"requests", 64}, {"tokens", 512}};
  } else if (f == "host.request") {
    in = {{"prompt_tokens", 1024}};
  } else if (f == "host.token") {
    in = {{"tokens", 64}};
  } else if (f == "host.launch") {
    in = {{"kernels", 200}};
  } else if (f == "host.graph_launch") {
    in = {{"graphs", 1}};
  }
  if (family_reads_span(f)) c.span = span;
  return c;
}

}  // namespace blis::cost::testing
