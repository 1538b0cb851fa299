// The router component's picker when the deployment runs llm-d (design §8.2, X4): the router port's entry
// point (router/embed/) on the simulated runtime. Each pick hands llm-d the request and every endpoint's
// last delivered publication (DEV-4), converted to what llm-d's data layer reads, and returns llm-d's choice.
#pragma once

#include <cstdint>
#include <memory>

#include "contracts/router/router.h"
#include "schema/deployment.h"
#include "sim/cluster/router_component.h"
#include "sim/cluster/router_runtime.h"

namespace blis::sim {

class LlmdPicker final : public Picker {
 public:
  LlmdPicker(std::unique_ptr<SimRouterRuntime> runtime, std::unique_ptr<router::Router> router);
  std::string_view name() const override { return "llm-d"; }
  std::size_t pick(SimTime now, const engine::Request& request, const std::vector<EndpointView>& endpoints) override;
  void response(SimTime now, const std::string& id, bool start_of_stream, bool end_of_stream) override;
  // Hands the message to llm-d's KV-event subscribers under the endpoint's pod identity ("<pool>/<instance>").
  void kv_events(SimTime now, const EndpointView& endpoint, const engine::KvEventMessage& message) override;
  // llm-d's --refresh-metrics-interval (router.flags; its default, 50ms, otherwise).
  std::optional<SimTime> scrape_interval() const override { return scrape_interval_; }
  // The loader's and the flags' warnings (deprecated plugin types, flags accepted without effect).
  std::vector<std::string> warnings() const override;
  const SimRouterRuntime& runtime() const { return *runtime_; }

 private:
  std::unique_ptr<SimRouterRuntime> runtime_;  // outlives router_, which holds references into it
  std::unique_ptr<router::Router> router_;
  SimTime scrape_interval_;
};

// llm-d's router as the deployment's router block configures it, on the replication's seed. Refuses (std::
// invalid_argument naming the field) what the port does not read yet.
std::unique_ptr<Picker> make_llmd_picker(const schema::DeploymentRouter& config, std::uint64_t seed);

}  // namespace blis::sim
