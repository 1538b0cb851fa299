#include "sim/engines.h"

namespace blis::sim {

void register_engines(engine::EngineRegistry& registry) {
  // No engine port is built yet: engines/vllm (issue 7) and engines/sglang (issue 9) register here.
  (void)registry;
}

}  // namespace blis::sim
