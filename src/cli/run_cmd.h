// `blis run SCENARIO` and `blis metrics` (issue 6). run_main is written against a Runtime, the engines,
// router and environment a binary plugs in: `blis` plugs in the production ones (the engine ports'
// registrations, the llm-d router port, the SubstrateEnvironment on the loaded data); the conformance
// runner in tests/ plugs in the reference engine, its pickers and the conformance Environment, so the
// byte gate runs this same command code.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <vector>
#include <span>
#include <string_view>

#include "contracts/engine/engine.h"
#include "data/loader.h"
#include "schema/result.h"
#include "sim/cluster/router_component.h"
#include "sim/run/run.h"
#include "sim/run/scenario_file.h"

namespace blis::cli {

struct Runtime {
  std::function<void(engine::EngineRegistry&)> register_engines;
  std::function<std::unique_ptr<sim::Picker>(const schema::DeploymentRouter&, std::uint64_t seed)> router;
  // The environment engines price against, for this scenario and these data flags; fills the Result's data
  // record. Throws (with the diagnostics) when the data cannot be loaded.
  std::function<std::unique_ptr<engine::Environment>(const sim::ScenarioFile&, const data::LoadOptions&,
                                                     schema::ResultData&)>
      environment;
  // The Result's selected entries (§3.3) for the entry identities the prices used; absent: none to name.
  std::function<std::vector<schema::ResultSelectedEntry>(const std::set<std::string>& identities)> selected;
};

// The production runtime of `blis`.
Runtime production_runtime();

// Runs a scenario file on the runtime's engines, router and environment (built for these data flags), with
// the build record and `inputs` in the Result's context: what `blis run` and `blis compare` run.
sim::RunOutput run_file(const sim::ScenarioFile& file, const Runtime& runtime, const data::LoadOptions& flags,
                        const sim::RunOptions& options, std::vector<schema::ResultInput> inputs = {});

// `blis run` (replay false) and `blis replay` (replay true: SCENARIO TRACE).
int run_main(std::span<const std::string_view> args, const Runtime& runtime, bool replay = false);
int metrics_main(std::span<const std::string_view> args);

}  // namespace blis::cli
