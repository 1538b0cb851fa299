// The simulator's one build site for engine kinds (X3, SIM-1): every engine port's registration function is
// called here, so several kinds live in one binary. The ports register as they land (engines/vllm with
// issue 7, engines/sglang with issue 9); until then this build registers no kind, and a scenario naming one
// is refused with the registry's message naming the kinds it has.
#pragma once

#include "contracts/engine/engine.h"

namespace blis::sim {

void register_engines(engine::EngineRegistry& registry);

}  // namespace blis::sim
