// The conformance doubles the simulator's tests run on, set up once: an engine registry with the reference
// engine and the known-bad engines, the conformance Environment at the fixed values below, and a Wiring
// that plugs them and the conformance pickers into a run. Every step is priced at
//   2 ms + 20 us per scheduled token + 100 us per scheduled request.
#pragma once

#include <string>

#include "environment.h"
#include "sim/run/replication.h"

namespace blis::conformance {

// The fixed values, and the same as text (the data record's hash is taken over it).
FixedValues sim_values();
extern const char* const kSimValuesText;

struct Doubles {
  engine::EngineRegistry registry;
  Environment env{sim_values()};
  Doubles();
  sim::Wiring wiring(sim::VisitOrder order = sim::VisitOrder::kAscending) const;
};

}  // namespace blis::conformance
