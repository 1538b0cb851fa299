// One replication of a scenario (design §8.6): the build site that turns the Deployment and Scenario
// into components (one generator, the router, each pool's engine instances and their scrape lines),
// runs the coordinator until the stop rule ends the run, and writes the fates of requests left
// unfinished at the horizon. Engines are built through the engine registry and the Environment the
// caller supplies (the production SubstrateEnvironment, or the conformance one in tests); the router's
// decision code is the picker the caller's factory makes from the Deployment's router block.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "contracts/engine/engine.h"
#include "sim/cluster/engine_component.h"
#include "sim/cluster/router_component.h"
#include "sim/devs/coordinator.h"
#include "sim/observe/observation_trace.h"
#include "sim/observe/observations.h"
#include "sim/run/scenario_file.h"
#include "sim/trace/trace.h"

namespace blis::sim {

struct Wiring {
  const engine::EngineRegistry* engines = nullptr;
  const engine::Environment* environment = nullptr;
  // The router's decision code for the deployment's router block (a fresh picker per replication).
  std::function<std::unique_ptr<Picker>(const schema::DeploymentRouter&, std::uint64_t seed)> router;
  SimTime scrape_interval{50000};  // how often the router reads each engine's metrics
  SimTime scrape_delay{0};         // and how late it sees them
  Limits limits;
  VisitOrder order = VisitOrder::kAscending;  // the same-instant permutation test varies this
  bool steady_state = false;                   // keep inter-token gaps until the warm-up is cut
};

struct InstanceInfo {
  std::string pool;
  std::int64_t instance = 0;
  std::int64_t gpus = 0;  // accelerators the instance uses
  std::int64_t steps = 0;
  // The engine's prefix-cache counters at the end of the replication (its published metrics): prompt
  // tokens looked up, and of those found cached.
  std::int64_t prefix_cache_queries = 0;
  std::int64_t prefix_cache_hits = 0;
  // Where placement put it (placement.h): its node and its first node-local accelerator.
  std::int64_t node = 0;
  std::int64_t first_accelerator = 0;
};

struct ReplicationOutput {
  std::uint64_t seed = 0;
  Observations observations;
  std::int64_t generated = 0;  // the generator's own count (DEV-9)
  SimTime end{};               // when the run ended
  std::vector<InstanceInfo> instances;
  PricingTally pricing;
  CoordinatorStats stats;
  // Steady-state runs only (set by run_scenario from the detector, DEV-10).
  std::string state = "terminating";        // settled, overloaded or incomplete
  std::vector<std::string> reasons;         // the detector's reasons, when not settled
  std::optional<double> saturation_rps;     // overloaded runs whose departures show no trend
  SimTime warmup_end{};
  // The scrape interval the replication ran with, and whether the router's configuration stated it.
  SimTime scrape_interval{};
  bool scrape_interval_from_router = false;
  std::vector<std::string> router_warnings;  // the router's configuration warnings (Picker::warnings)
};

// Refuses (std::invalid_argument or engine::ContractError, naming the field) what the build cannot run.
// Throws SimulationError when the run breaks a rule (DEV-5, SIM-7, a repeated message key).
// `trace`, when given, records every request the generator creates (DEV-7); `replay`, when given, is the
// workload instead of the scenario's clients (the scenario's workload.replay, read by the caller).
// `observations`, when given, records every publication and what each routing decision saw (DEV-4's trace).
ReplicationOutput run_replication(const ScenarioFile& file, const Wiring& wiring, std::uint64_t seed,
                                  TraceWriter* trace = nullptr, const Trace* replay = nullptr,
                                  ObservationTrace* observations = nullptr);

}  // namespace blis::sim
