// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/server_args.py@71de97b2 (ServerArgs._get_default_attn_backend,
// _handle_attention_backend_compatibility, _handle_page_size, the chunked-prefill check of
// _handle_other_validations) and python/sglang/srt/arg_groups/overrides.py@71de97b2 (_attention_backend_default,
// _mla_backend_page_constraints, _attention_backend_fa3_fp8_fallback, _fa4_page_constraint, _page_size_default,
// _pipeline_parallel_overlap_disable) on CUDA (12.8 or later, with FlashInfer installed); the device is read
// from the configuration (the catalog chip's architecture is a label). MLA models, attention sinks, sliding windows, models without
// attention and user-chosen backends other than the default are refused: the model-specific overrides of
// overrides.py@71de97b2 that pick their backends key on the architecture name, which the catalog graph keeps
// for people only.
#include <stdexcept>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

using internal::not_modelled;

const schema::GraphAttention& internal::uniform_attention(const schema::Graph& graph) {
  const schema::GraphAttention* first = nullptr;
  if (graph.layers.empty()) throw std::invalid_argument("model " + graph.model + ": layers is empty");
  for (std::size_t i = 0; i < graph.layers.size(); ++i) {
    const std::string& name = graph.layers[i];
    const auto it = graph.layer_kinds.find(name);
    if (it == graph.layer_kinds.end())
      throw std::invalid_argument("layers[" + std::to_string(i) + "]=" + name + ": not a key of layer_kinds");
    const std::string at = "layer_kinds." + name + ".mixer.attention";
    if (!it->second.mixer.attention)
      not_modelled("layer_kinds." + name + " (no attention mixer)",
                   "layers without softmax attention (recurrent or empty mixers) need the hybrid pools");
    const schema::GraphAttention& a = *it->second.mixer.attention;
    if (a.kind == "MLA")
      not_modelled(at + ".kind=MLA",
                   "the MLA backends are chosen by model-specific overrides keyed on the architecture name");
    if (a.window.kind != "full")
      not_modelled(at + ".window.kind=" + a.window.kind,
                   "sliding-window and chunked attention use the hybrid SWA pools, which are not ported");
    if (a.sinks)
      not_modelled(at + ".sinks=true",
                   "attention sinks change the backend (FlashInfer does not support them) and come with "
                   "model-specific overrides");
    if (a.indexer) not_modelled(at + ".indexer", "sparse attention (DSA) is not ported");
    if (a.kv_heads.value() < 1 || a.head_dim.value() < 1 || a.v_head_dim.value() < 1)
      throw std::invalid_argument(at + ": kv_heads, head_dim and v_head_dim are at least 1");
    if (!first) {
      first = &a;
    } else if (a.kv_heads.value() != first->kv_heads.value() || a.head_dim.value() != first->head_dim.value() ||
               a.v_head_dim.value() != first->v_head_dim.value()) {
      not_modelled(at, "layers with different KV layouts (one MHATokenToKVPool geometry) are not ported");
    }
  }
  return *first;
}

// server_args.py@71de97b2 ServerArgs._get_default_attn_backend (MHA branch), reached through
// overrides.py@71de97b2 _attention_backend_default; then the page-size passes of
// ServerArgs._handle_attention_backend_compatibility in their order (_mla_backend_page_constraints for
// trtllm_mha, _attention_backend_fa3_fp8_fallback, _fa4_page_constraint) and ServerArgs._handle_page_size
// (overrides.py@71de97b2 _page_size_default: 1 on CUDA when unset).
AttentionChoice resolve_attention_backend(const schema::Graph& graph, const schema::Chip& chip,
                                          const LoweringConfig& cfg) {
  internal::check_supported(cfg);
  if (cfg.page_size && *cfg.page_size < 1)
    throw std::invalid_argument("page_size=" + std::to_string(*cfg.page_size) + ": a page holds at least one token");
  const std::string& kvd = cfg.kv_cache_dtype;
  if (kvd != "auto" && kvd != "bf16" && kvd != "bfloat16" && kvd != "fp8_e4m3" && kvd != "fp8_e5m2")
    not_modelled("kv_cache_dtype=" + kvd, "only auto, bf16, bfloat16, fp8_e4m3 and fp8_e5m2 are ported");
  const schema::GraphAttention& a = internal::uniform_attention(graph);
  if (!cfg.capability)
    throw std::invalid_argument("capability: absent; chip " + chip.name +
                                " states no compute capability in the catalog, so the configuration gives it");
  const DeviceCapability cc = *cfg.capability;
  AttentionChoice r;
  r.use_mla_backend = false;
  // ModelConfig.has_asymmetric_kv: K and V rows differ in width.
  const bool has_asymmetric_kv = a.head_dim.value() != a.v_head_dim.value();
  std::string backend;
  if (cc.major == 9) {
    // is_hopper_with_cuda_12_3() and is_no_spec_infer_or_topk_one (no speculative decoding).
    backend = "fa3";
  } else if (cc.major == 10) {
    // is_sm100_supported() (capability major 10, CUDA >= 12.8), no speculative decoding.
    backend = has_asymmetric_kv ? "fa4" : "trtllm_mha";
  } else if (cc.major >= 8) {
    // is_flashinfer_available() and not has_attention_sinks (sinks are refused above).
    backend = "flashinfer";
  } else {
    not_modelled("capability " + std::to_string(cc.major) + "." + std::to_string(cc.minor) + " (chip " + chip.name + ")",
                 "compute capability below 8.0");
  }
  if (cfg.attention_backend && *cfg.attention_backend != backend)
    not_modelled("attention_backend=" + *cfg.attention_backend,
                 "only the backend SGLang selects by default on " + chip.name + " (" + backend + ") is ported");

  std::optional<std::int64_t> page_size = cfg.page_size;
  // overrides.py@71de97b2 _mla_backend_page_constraints: trtllm_mha takes 16, 32, 64 or 128 (None included
  // in "not in": the default page size is not set yet), else 64.
  if (backend == "trtllm_mha") {
    if (!page_size || (*page_size != 16 && *page_size != 32 && *page_size != 64 && *page_size != 128)) page_size = 64;
  }
  // overrides.py@71de97b2 _attention_backend_fa3_fp8_fallback.
  if (backend == "fa3" && kvd == "fp8_e5m2") backend = "triton";
  // overrides.py@71de97b2 _fa4_page_constraint (not MLA, SM100, no EAGLE top-k above 1).
  if (backend == "fa4" && cc.major == 10) page_size = 128;
  // overrides.py@71de97b2 _page_size_default: 1 on CUDA.
  if (!page_size) page_size = 1;
  r.attention_backend = backend;
  r.page_size = *page_size;
  return r;
}

ResolvedServerArgs resolve_server_args(const schema::Graph& graph, const schema::Chip& chip,
                                       const LoweringConfig& cfg) {
  if (cfg.model != graph.model) throw std::invalid_argument("model=" + cfg.model + ": the graph given is " + graph.model);
  if (cfg.chip != chip.name) throw std::invalid_argument("chip=" + cfg.chip + ": the chip given is " + chip.name);
  if (!graph.omitted.empty())
    not_modelled("model " + graph.model + " (omitted: " + graph.omitted[0].component + ")",
                 "the graph leaves out part of the checkpoint (a multimodal tower among them), and multimodal models "
                 "adjust mem_fraction_static (adjust_mem_fraction_for_vlm)");
  ResolvedServerArgs r;
  // server_args.py@71de97b2 ServerArgs._run_resolution_pipeline: _handle_gpu_memory_settings runs before
  // _handle_attention_backend_compatibility and _handle_page_size; use_mla_backend is False for every graph
  // resolve_attention_backend accepts.
  r.attention = resolve_attention_backend(graph, chip, cfg);
  r.memory = resolve_memory_defaults(gpu_memory_mib(chip), cfg, r.attention.use_mla_backend);
  // server_args.py@71de97b2 ServerArgs._handle_other_validations: "chunked_prefill_size must be divisible by
  // page_size" (an assertion upstream).
  if (r.memory.chunked_prefill_size > 0 && r.memory.chunked_prefill_size % r.attention.page_size != 0)
    throw std::invalid_argument("chunked_prefill_size=" + std::to_string(r.memory.chunked_prefill_size) +
                                ": chunked_prefill_size must be divisible by page_size (" +
                                std::to_string(r.attention.page_size) + ")");
  // overrides.py@71de97b2 _pipeline_parallel_overlap_disable: pipeline parallelism disables the overlap
  // schedule.
  r.disable_overlap_schedule = cfg.disable_overlap_schedule || cfg.pp > 1;
  // ModelConfig.context_len (get_context_length reads the config's max_position_embeddings scaled by the rope
  // factor); the graph states max_position_embeddings only, so a rope-scaled context is given explicitly.
  if (cfg.context_length) {
    if (*cfg.context_length < 1)
      throw std::invalid_argument("context_length=" + std::to_string(*cfg.context_length) + ": expected at least 1");
    r.context_len = *cfg.context_length;
  } else if (graph.dims.max_position_embeddings) {
    r.context_len = graph.dims.max_position_embeddings->value();
  } else {
    throw std::invalid_argument("model " + graph.model +
                                ": dims.max_position_embeddings is absent; give context_length explicitly");
  }
  return r;
}

}  // namespace blis::sglang::model_executor
