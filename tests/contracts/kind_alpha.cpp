// One engine kind's registration, in its own translation unit as an engine directory would have it.
#include "kinds.h"
#include "test_engines.h"

namespace blis::engine::testing {

void register_alpha(EngineRegistry& registry) {
  registry.add({"alpha", "1.2.3"}, [](const Spec& spec, const Environment&) -> std::unique_ptr<Engine> {
    plan::PoolPlan p = minimal_partial();
    p.chip = spec.chip;
    p.in_flight = units::Count{1};
    return std::make_unique<ScriptedEngine>(std::move(p), leave_after_weights(units::BytesPerRank{1000}));
  });
}

}  // namespace blis::engine::testing
