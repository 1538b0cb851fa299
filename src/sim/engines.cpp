#include "sim/engines.h"

#include "srt/entrypoints/engine_core.h"  // engines/sglang: the SGLang port
#include "v1/engine/core.h"  // engines/vllm: the vLLM port

namespace blis::sim {

void register_engines(engine::EngineRegistry& registry) {
  blis::vllm::register_vllm_engine(registry);
  blis::sglang::register_sglang_engine(registry);
}

}  // namespace blis::sim
