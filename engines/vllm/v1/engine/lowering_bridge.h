// Original to BLIS: what the vLLM port's EngineCore hands between the resolved configuration
// (config/vllm_config.h), the lowering (model_executor/lowering.h) and the KV-cache specs
// (v1/kv_cache_interface.h): each a plain translation of resolved values, citing where upstream reads them.
#pragma once

#include <cstdint>
#include <vector>

#include "config/vllm_config.h"
#include "contracts/engine/engine.h"
#include "model_executor/lowering.h"
#include "v1/kv_cache_interface.h"

namespace blis::vllm {

// The lowering's inputs from the resolved VllmConfig and the pool's placement.
LoweringConfig lowering_config_of(const VllmConfig& config, const engine::Spec& spec);

// The per-layer KV cache specs vLLM's attention layers report (gpu_model_runner.py@6e448d0e
// get_kv_cache_spec: FullAttentionSpec, SlidingWindowSpec, MLAAttentionSpec), in layer order, keyed by the
// layer's module name ("model.layers.<i>.self_attn.attn").
KVCacheSpecDict kv_cache_spec_dict(const std::vector<LayerKVSpec>& layers);

// The graph layers whose attention a piecewise launch runs eagerly (every attention layer, stage 0).
std::vector<std::int64_t> attention_layers(const std::vector<LayerKVSpec>& layers);

}  // namespace blis::vllm
