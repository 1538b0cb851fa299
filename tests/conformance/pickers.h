// Conformance pickers: simple, fully specified decision code for the simulator's own tests (the production router is
// the llm-d port, src/sim/cluster/llmd_picker.h).
//   round-robin    endpoints in turn, from endpoint 0
//   least-waiting  the endpoint whose newest delivered publication shows the fewest waiting, then running,
//                  requests; an endpoint with no publication yet counts as empty; ties go to the lowest index
#pragma once

#include <memory>
#include <string>

#include "schema/deployment.h"
#include "sim/cluster/router_component.h"

namespace blis::conformance {

class RoundRobin final : public sim::Picker {
 public:
  std::string_view name() const override { return "round-robin"; }
  std::size_t pick(sim::SimTime, const engine::Request&, const std::vector<sim::EndpointView>& endpoints) override {
    return next_++ % endpoints.size();
  }

 private:
  std::size_t next_ = 0;
};

class LeastWaiting final : public sim::Picker {
 public:
  std::string_view name() const override { return "least-waiting"; }
  std::size_t pick(sim::SimTime, const engine::Request&, const std::vector<sim::EndpointView>& endpoints) override;
};

// The picker a conformance deployment names with the router flag `conformance-picker` (absent: round-robin);
// any other router setting is refused, since no llm-d code reads it here.
std::unique_ptr<sim::Picker> make_picker(const schema::DeploymentRouter& router, std::uint64_t seed);

}  // namespace blis::conformance
