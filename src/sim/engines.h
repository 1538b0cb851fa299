// The simulator's one build site for engine kinds (X3, SIM-1): every engine port's registration function is
// called here, so several kinds live in one binary: engines/vllm (the vLLM release its Upstream record pins) now, engines/sglang with
// issue 9. A scenario naming another kind or release is refused with the registry's message naming the
// kinds it has and the release this build runs (SIM-1, LIF-6).
#pragma once

#include "contracts/engine/engine.h"

namespace blis::sim {

void register_engines(engine::EngineRegistry& registry);

}  // namespace blis::sim
