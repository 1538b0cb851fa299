// Two test engine kinds, each registered from its own translation unit into one registry.
#pragma once

#include "contracts/engine/engine.h"

namespace blis::engine::testing {

void register_alpha(EngineRegistry& registry);  // {alpha, 1.2.3}: in_flight 1, 1000 bytes per rank in all
void register_beta(EngineRegistry& registry);   // {beta, 4.5.6}: in_flight 2, 2000 bytes per rank in all

}  // namespace blis::engine::testing
