// Another engine kind's registration, in its own translation unit.
#include "kinds.h"
#include "test_engines.h"

namespace blis::engine::testing {

void register_beta(EngineRegistry& registry) {
  registry.add({"beta", "4.5.6"}, [](const Spec& spec, const Environment&) -> std::unique_ptr<Engine> {
    plan::PoolPlan p = minimal_partial();
    p.chip = spec.chip;
    p.in_flight = units::Count{2};
    return std::make_unique<ScriptedEngine>(std::move(p), leave_after_weights(units::BytesPerRank{2000}));
  });
}

}  // namespace blis::engine::testing
