// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/server_args.py@71de97b2 (ServerArgs._handle_gpu_memory_settings,
// _generate_decode_cuda_graph_batch_sizes, _generate_prefill_cuda_graph_batch_sizes, reserve_for_graph_mb,
// reserve_for_deepep_a2a_mb, the disable flags of _parse_cuda_graph_config) and
// python/sglang/srt/model_executor/cuda_graph_config.py@71de97b2 (the per-phase defaults) on CUDA; the CPU
// graph path, PD disaggregation, DP attention, DeepEP, speculative decoding, post-capture KV sizing (off by
// default: SGLANG_ENABLE_POST_CAPTURE_KV_SIZING) and the multimodal mem_fraction_static adjustment are refused
// rather than ported. nvidia-smi's memory.total is read from the catalog chip.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

namespace internal {

void not_modelled(const std::string& what, const std::string& reason) {
  throw std::invalid_argument(what + " is not modelled by this port: " + reason);
}

// Python's round(x, 3) for a float: the double rounded to three decimals from its exact binary value, ties to
// even (float_round's _Py_dg_dtoa mode 3), then read back. glibc's printf rounds the exact value the same way.
double py_round3(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  return std::strtod(buf, nullptr);
}

std::string py_float(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // Python's repr is the shortest round-tripping form; try shorter precisions first.
  for (int p = 1; p <= 17; ++p) {
    char s[64];
    std::snprintf(s, sizeof s, "%.*g", p, v);
    if (std::strtod(s, nullptr) == v) {
      std::string out = s;
      if (out.find_first_of(".en") == std::string::npos) out += ".0";
      return out;
    }
  }
  return buf;
}

}  // namespace internal

using internal::not_modelled;

// utils/common.py@71de97b2 get_nvgpu_memory_capacity: nvidia-smi --query-gpu=memory.total in MiB (the
// minimum over the node's GPUs; one chip type here). nvidia-smi prints whole MiB; the catalog states the
// vendor's capacity in bytes, which stands in for the driver's figure.
double gpu_memory_mib(const schema::Chip& chip) {
  const std::int64_t bytes = chip.memory.bytes.value.value();
  if (bytes <= 0)
    throw std::invalid_argument("chip " + chip.name + ": memory.bytes=" + std::to_string(bytes) +
                                ": a GPU has a positive memory capacity");
  return static_cast<double>(bytes / (std::int64_t{1} << 20));
}

namespace {

// server_args.py@71de97b2 ServerArgs._generate_decode_cuda_graph_batch_sizes (speculative_algorithm None;
// speculative decoding is refused before this runs).
std::vector<std::int64_t> generate_decode_cuda_graph_batch_sizes(std::int64_t max_bs, bool disable_padding) {
  std::vector<std::int64_t> capture_bs;
  if (disable_padding) {
    for (std::int64_t i = 1; i < max_bs + 1; ++i) capture_bs.push_back(i);
  } else {
    for (const std::int64_t i : {1, 2, 4, 8, 12}) capture_bs.push_back(i);
    for (std::int64_t i = 16; i < 257; i += 8) capture_bs.push_back(i);
    for (std::int64_t i = 272; i < 512; i += 16) capture_bs.push_back(i);
    for (std::int64_t i = 512; i < max_bs + 1; i += 32) capture_bs.push_back(i);
  }
  std::vector<std::int64_t> out;
  for (const std::int64_t bs : capture_bs)
    if (bs <= max_bs) out.push_back(bs);
  bool has = false;
  for (const std::int64_t bs : out) has = has || bs == max_bs;
  if (!has) out.push_back(max_bs);
  return out;
}

// server_args.py@71de97b2 ServerArgs._generate_prefill_cuda_graph_batch_sizes: token buckets up to max_bs.
std::vector<std::int64_t> generate_prefill_cuda_graph_batch_sizes(std::int64_t max_bs) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t i = 4; i < 33; i += 4) sizes.push_back(i);
  for (std::int64_t i = 48; i < 257; i += 16) sizes.push_back(i);
  for (std::int64_t i = 288; i < 513; i += 32) sizes.push_back(i);
  for (std::int64_t i = 576; i < 1024 + 1; i += 64) sizes.push_back(i);
  for (std::int64_t i = 1280; i < 4096 + 1; i += 256) sizes.push_back(i);
  for (std::int64_t i = 4608; i < max_bs + 1; i += 512) sizes.push_back(i);
  std::vector<std::int64_t> out;
  for (const std::int64_t s : sizes)
    if (s <= max_bs) out.push_back(s);
  return out;
}

}  // namespace

// The refusals every resolution shares: what changes these defaults upstream but is not ported.
void internal::check_supported(const LoweringConfig& cfg) {
  for (const auto& [name, v] : {std::pair<const char*, std::int64_t>{"tp_size", cfg.tp}, {"pp_size", cfg.pp},
                                {"dp_size", cfg.dp}, {"max_prefill_tokens", cfg.max_prefill_tokens}})
    if (v < 1) throw std::invalid_argument(std::string(name) + "=" + std::to_string(v) + ": expected at least 1");
  if (cfg.speculative_algorithm)
    not_modelled("speculative_algorithm=" + *cfg.speculative_algorithm,
                 "speculative decoding (its draft KV, capture sizes and max_running_requests reset) is not ported");
  if (cfg.disaggregation_mode != "null")
    not_modelled("disaggregation_mode=" + cfg.disaggregation_mode,
                 "PD disaggregation changes the CUDA-graph phases and the memory reserve; only \"null\" is ported");
  if (cfg.enable_dp_attention)
    not_modelled("enable_dp_attention=true", "DP attention (its graph reserve and batch alignment) is not ported");
  if (cfg.dp > 1)
    not_modelled("dp_size=" + std::to_string(cfg.dp),
                 "data parallelism (_handle_data_parallelism divides chunked_prefill_size) is not ported");
  if (cfg.mem_fraction_static && !(*cfg.mem_fraction_static > 0.0 && *cfg.mem_fraction_static < 1.0))
    throw std::invalid_argument("mem_fraction_static=" + internal::py_float(*cfg.mem_fraction_static) +
                                ": expected a fraction in (0, 1)");
  if (cfg.cuda_graph_max_bs && *cfg.cuda_graph_max_bs < 1)
    throw std::invalid_argument("cuda_graph_max_bs=" + std::to_string(*cfg.cuda_graph_max_bs) +
                                ": expected at least 1");
  if (cfg.cuda_graph_bs) {
    if (cfg.cuda_graph_bs->empty())
      throw std::invalid_argument("cuda_graph_bs=[]: expected at least one batch size");
    for (const std::int64_t bs : *cfg.cuda_graph_bs)
      if (bs < 1)
        throw std::invalid_argument("cuda_graph_bs: " + std::to_string(bs) + " is not a positive batch size");
  }
}

// server_args.py@71de97b2 ServerArgs._handle_gpu_memory_settings.
// The decode and prefill CUDA-graph backends start from cuda_graph_config.py@71de97b2 CudaGraphConfig's
// defaults (decode full, prefill breakable on CUDA) after _parse_cuda_graph_config's disable flags; the
// breakable compatibility rules (_disable_breakable_cudagraph_if_incompatible) fire only for models and
// features this port refuses.
MemoryDefaults resolve_memory_defaults(std::optional<double> gpu_mem, const LoweringConfig& cfg,
                                       bool use_mla_backend) {
  internal::check_supported(cfg);
  MemoryDefaults m;
  m.gpu_mem_mib = gpu_mem;
  // server_args.py@71de97b2 ServerArgs._parse_cuda_graph_config: legacy --disable-cuda-graph, then the
  // per-phase off-switch.
  m.decode_cuda_graph_backend = cfg.disable_cuda_graph ? "disabled" : "full";
  m.prefill_cuda_graph_backend = cfg.disable_cuda_graph || cfg.disable_prefill_cuda_graph ? "disabled" : "breakable";

  std::optional<std::int64_t> chunked_prefill_size = cfg.chunked_prefill_size;
  std::optional<std::int64_t> max_bs = cfg.cuda_graph_max_bs;
  const std::int64_t tp_size = cfg.tp;
  if (gpu_mem) {
    const double g = *gpu_mem;
    if (g < 20 * 1024) {
      // T4, 4080
      if (!chunked_prefill_size) chunked_prefill_size = 2048;
      if (!max_bs) max_bs = 8;
    } else if (g < 35 * 1024) {
      // A10, 4090, 5090
      if (!chunked_prefill_size) chunked_prefill_size = 2048;
      if (!max_bs) max_bs = tp_size < 4 ? 24 : 80;
    } else if (g < 60 * 1024) {
      // A100 (40GB), L40
      if (!chunked_prefill_size) chunked_prefill_size = 4096;
      if (!max_bs) max_bs = tp_size < 4 ? 32 : 160;
    } else if (g < 90 * 1024) {
      // H100, A100
      if (!chunked_prefill_size) chunked_prefill_size = 8192;
      if (!max_bs) max_bs = tp_size < 4 ? 256 : 512;
    } else if (g < 160 * 1024) {
      // H20, H200
      if (!chunked_prefill_size) chunked_prefill_size = 8192;
      if (!max_bs) max_bs = tp_size < 4 ? 256 : 512;
    } else {
      // B200, MI300
      if (!chunked_prefill_size) chunked_prefill_size = 16384;
      if (!max_bs) max_bs = 512;
    }
  } else {
    if (!chunked_prefill_size) chunked_prefill_size = 4096;
    if (!max_bs) max_bs = 160;
  }
  m.chunked_prefill_size = *chunked_prefill_size;

  // Set cuda graph batch sizes (device "cuda").
  if (!cfg.cuda_graph_bs) {
    m.decode_bs = generate_decode_cuda_graph_batch_sizes(*max_bs, cfg.disable_cuda_graph_padding);
    m.decode_max_bs = *max_bs;
  } else {
    m.decode_bs = *cfg.cuda_graph_bs;
    std::int64_t mx = m.decode_bs.front();
    for (const std::int64_t bs : m.decode_bs) mx = bs > mx ? bs : mx;
    m.decode_max_bs = mx;
  }

  // prefill max_bs: the chunked prefill size (2048 for MLA), capped by max_total_tokens.
  std::int64_t prefill_max_bs = use_mla_backend ? 2048 : m.chunked_prefill_size;
  if (cfg.max_total_tokens) prefill_max_bs = std::min(prefill_max_bs, *cfg.max_total_tokens);
  // Upstream caps it at 4096 when the model path names the Llama-2 series (a substring test on
  // model_path); SUB-3 keeps model names out of the lowering, so the cap is the caller's model_path_prefill_cap.
  if (cfg.model_path_prefill_cap) prefill_max_bs = std::min(prefill_max_bs, *cfg.model_path_prefill_cap);
  m.prefill_max_bs = prefill_max_bs;
  m.prefill_bs = generate_prefill_cuda_graph_batch_sizes(prefill_max_bs);

  if (!cfg.mem_fraction_static) {
    // post_capture_kv_sizing_planned() is False: SGLANG_ENABLE_POST_CAPTURE_KV_SIZING defaults to False.
    // disaggregation_mode is "null" (check_supported), so the activation tokens follow the chunk.
    const std::int64_t activation_tokens = m.chunked_prefill_size > 0
                                               ? std::max<std::int64_t>(m.chunked_prefill_size, 2048)
                                               : std::max<std::int64_t>(cfg.max_prefill_tokens, 2048);
    // Constant meta data (e.g., from attention backend) + activation slack.
    double reserved_mem = 512;
    reserved_mem += static_cast<double>(activation_tokens) * 1.5;
    // Some adjustments for large parallel size: tp_size * pp_size / 8 * 1024 (true division).
    reserved_mem += static_cast<double>(cfg.tp * cfg.pp) / 8 * 1024;
    // reserve_for_graph_mb (no DP attention, not a prefill-only PD role).
    double graph = 0.0;
    if (m.decode_cuda_graph_backend != "disabled") graph += static_cast<double>(m.decode_max_bs * 2);
    if (m.prefill_cuda_graph_backend != "disabled") {
      if (!use_mla_backend) graph += static_cast<double>(static_cast<std::int64_t>(m.prefill_bs.size()) * 8);
      else graph += 1.5 * 1024;
    }
    reserved_mem += graph;
    if (gpu_mem && *gpu_mem > 60 * 1024) reserved_mem = std::max(reserved_mem, 10.0 * 1024);
    // reserve_for_deepep_a2a_mb: 0 without the DeepEP a2a backend.
    reserved_mem += 0.0;
    m.reserved_mem_mib = reserved_mem;
    m.mem_fraction_static = gpu_mem ? internal::py_round3((*gpu_mem - reserved_mem) / *gpu_mem) : 0.88;
  } else {
    m.mem_fraction_static = *cfg.mem_fraction_static;
  }
  return m;
}

}  // namespace blis::sglang::model_executor
