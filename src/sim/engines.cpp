#include "sim/engines.h"

#include "v1/engine/core.h"  // engines/vllm: the vLLM port

namespace blis::sim {

void register_engines(engine::EngineRegistry& registry) {
  blis::vllm::register_vllm_engine(registry);
  // engines/sglang (issue 9) registers here.
}

}  // namespace blis::sim
