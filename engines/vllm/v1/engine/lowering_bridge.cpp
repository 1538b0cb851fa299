// Original to BLIS: see lowering_bridge.h.
#include "v1/engine/lowering_bridge.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace blis::vllm {

LoweringConfig lowering_config_of(const VllmConfig& c, const engine::Spec& spec) {
  LoweringConfig l;
  l.model = c.model_config.model;
  l.chip = spec.chip;
  l.fabric = spec.fabric;
  l.tp = c.parallel_config.tensor_parallel_size;
  l.pp = c.parallel_config.pipeline_parallel_size;
  l.dp = c.parallel_config.data_parallel_size;
  l.nodes = spec.nodes.value();
  l.gpus_per_node = spec.gpus_per_node.value();
  l.dtype = c.model_config.dtype;
  l.kv_cache_dtype = c.cache_config.cache_dtype;
  l.block_size = c.cache_config.block_size;
  l.max_num_batched_tokens = c.scheduler_config.max_num_batched_tokens;
  l.max_num_seqs = c.scheduler_config.max_num_seqs;
  l.enforce_eager = c.model_config.enforce_eager;
  l.cudagraph_capture_sizes = c.cudagraph_capture_sizes;
  l.max_cudagraph_capture_size = c.max_cudagraph_capture_size;
  l.async_scheduling = c.scheduler_config.async_scheduling.value_or(false);
  return l;
}

namespace {

// The attention fields every spec's Args shares, from one layer's lowering.
template <class Args>
Args attention_args(const LayerKVSpec& s) {
  Args a;
  a.block_size = s.block_size;
  a.num_kv_heads = s.num_kv_heads;
  a.head_size = s.head_size;
  a.dtype = s.dtype;
  return a;
}

}  // namespace

KVCacheSpecDict kv_cache_spec_dict(const std::vector<LayerKVSpec>& layers) {
  KVCacheSpecDict d;
  for (const LayerKVSpec& s : layers) {
    const std::string name = "model.layers." + std::to_string(s.layer) + ".self_attn.attn";
    if (s.use_mla) {
      d.set(name, std::make_shared<MLAAttentionSpec>(attention_args<MLAAttentionSpec::Args>(s)));
    } else if (s.attention == "sliding_window") {
      auto a = attention_args<SlidingWindowSpec::Args>(s);
      a.sliding_window = s.window.value_or(0);
      d.set(name, std::make_shared<SlidingWindowSpec>(a));
    } else if (s.attention == "full") {
      auto a = attention_args<FullAttentionSpec::Args>(s);
      a.head_size_v = s.head_size_v;
      d.set(name, std::make_shared<FullAttentionSpec>(a));
    } else {
      throw std::invalid_argument("vllm: layer " + std::to_string(s.layer) + " needs a KV cache spec for attention '" +
                                  s.attention + "', which this port does not model");
    }
  }
  return d;
}

std::vector<std::int64_t> attention_layers(const std::vector<LayerKVSpec>& layers) {
  std::vector<std::int64_t> out;
  for (const LayerKVSpec& s : layers) out.push_back(s.layer);
  return out;
}

}  // namespace blis::vllm
