// The simulator's public API for the layers above it (MAPPING.md: src/search/ and src/score/ reach the
// simulator only through src/sim/api/; the include lint enforces it). It runs a scenario given as text in
// process, as `blis run` does (src/cli/run_cmd.cpp), and hands back the Result and the cluster-scope
// figures a caller compares or ranks.
//
// The runtime pieces: the engine kinds come from the build site (src/sim/engines.h) and the Environment
// from the loaded data (src/sim/environment.h), both built here by production_runtime(). The router is a
// parameter: the production router (the llm-d port, sim/cluster/llmd_picker.h) is plugged in by the
// caller (cli::production_runtime().router), as tests plug in the conformance pickers.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/engine/engine.h"
#include "data/data_set.h"
#include "schema/result.h"
#include "sim/cluster/router_component.h"
#include "sim/run/scenario_file.h"

namespace blis::sim::api {

using RouterFactory = std::function<std::unique_ptr<Picker>(const schema::DeploymentRouter&, std::uint64_t seed)>;

struct Runtime {
  std::function<void(engine::EngineRegistry&)> register_engines;
  RouterFactory router;
  // The Environment a scenario's engines price against. Shared: an Environment is immutable once built
  // (src/sim/environment.h), so one built for a cluster may serve every scenario on that cluster.
  std::function<std::shared_ptr<const engine::Environment>(const ScenarioFile&)> environment;
};

// The production pieces on `data` (which must outlive the Runtime): sim::register_engines, the given
// router, and a SubstrateEnvironment per distinct (cluster, workload category), built on first use with
// the scenario cluster's topology (sim/wiring/cluster.h) and then reused.
Runtime production_runtime(const data::DataSet& data, RouterFactory router);

// One figure at cluster scope, in the metric's unit (seconds for latencies).
struct Figure {
  std::optional<double> value;     // absent when withheld
  std::optional<std::string> withheld;
  std::optional<double> low, high;  // the replication interval, when the run has one
  std::optional<double> confidence;
  // Which uncertainty the interval covers (DEV-11): the Result's statement, copied as it is.
  bool random_input = false;
  std::vector<std::string> covers, leaves_out;
};

struct Summary {
  schema::Result result;
  std::map<std::string, Figure> figures;  // every cluster-scope figure without an aggregate, by metric id
  std::int64_t replications = 0;
  std::int64_t generated = 0, completed = 0, timed_out = 0, dropped = 0, unfinished = 0;
};

struct Options {
  std::optional<std::int64_t> replications;  // exactly N replications, overriding the frame's rule
  int threads = 1;
};

// Reads the scenario text (two YAML documents; `name` stands for its file in messages) and runs it.
// Refuses what `blis run` refuses, with the same messages (std::exception).
Summary run_text(const std::string& scenario_text, const std::string& name, const Runtime& runtime,
                 const Options& options = {});

}  // namespace blis::sim::api
