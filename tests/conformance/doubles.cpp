#include "doubles.h"

#include "faulty_engines.h"
#include "pickers.h"
#include "reference_engine.h"

namespace blis::conformance {

const char* const kSimValuesText =
    "conformance environment: seconds_per_step 0.002, seconds_per_token 0.00002, seconds_per_request 0.0001";

FixedValues sim_values() {
  FixedValues v;
  v.seconds_per_step = 0.002;
  v.seconds_per_token = 0.00002;
  v.seconds_per_request = 0.0001;
  return v;
}

Doubles::Doubles() {
  register_reference_engine(registry);
  register_faulty_engines(registry);
}

sim::Wiring Doubles::wiring(sim::VisitOrder order) const {
  sim::Wiring w;
  w.engines = &registry;
  w.environment = &env;
  w.router = make_picker;
  w.order = order;
  return w;
}

}  // namespace blis::conformance
