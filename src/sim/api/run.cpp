#include "sim/api/run.h"

#include <mutex>
#include <utility>
#include <vector>

#include "sim/engines.h"
#include "sim/environment.h"
#include "sim/run/run.h"
#include "sim/wiring/cluster.h"

namespace blis::sim::api {

Runtime production_runtime(const data::DataSet& data, RouterFactory router) {
  Runtime r;
  r.register_engines = sim::register_engines;
  r.router = std::move(router);
  // Built as src/cli/run_runtime.cpp builds the environment of `blis run`: the workload category of the
  // scenario's clients (the last one stated) selects the expert imbalance (D8).
  struct Cache {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<const engine::Environment>> by_key;
  };
  auto cache = std::make_shared<Cache>();
  const data::DataSet* d = &data;
  r.environment = [cache, d](const ScenarioFile& file) -> std::shared_ptr<const engine::Environment> {
    EnvironmentOptions options;
    for (const auto& c : file.scenario.workload.clients.value_or(std::vector<schema::ScenarioClient>{})) {
      if (c.category) options.workload = *c.category;
    }
    const std::string key = schema::to_json(file.scenario.cluster).dump() + "\n" + options.workload.value_or("");
    std::lock_guard lock(cache->mutex);
    auto& slot = cache->by_key[key];
    if (!slot) slot = std::make_shared<SubstrateEnvironment>(*d, cluster_topology(file.scenario.cluster, *d), options);
    return slot;
  };
  return r;
}

Summary run_text(const std::string& scenario_text, const std::string& name, const Runtime& runtime,
                 const Options& options) {
  const ScenarioFile file = read_scenario_text(scenario_text, name);
  engine::EngineRegistry engines;
  runtime.register_engines(engines);
  const std::shared_ptr<const engine::Environment> env = runtime.environment(file);
  Wiring wiring;
  wiring.engines = &engines;
  wiring.environment = env.get();
  wiring.router = runtime.router;
  RunOptions run_options;
  run_options.replications = options.replications;
  run_options.threads = options.threads;
  RunOutput run = run_scenario(file, wiring, run_options, RunContext{});

  Summary s;
  s.replications = static_cast<std::int64_t>(run.replications.size());
  const auto& f = run.result.fates;
  s.generated = f.generated.value();
  s.completed = f.completed.value();
  s.timed_out = f.timed_out.value();
  for (const auto& dr : f.dropped) s.dropped += dr.count.value();
  s.unfinished = f.in_flight_at_horizon.value() + f.queued_at_horizon.value() + f.not_started.value();
  for (const auto& m : run.result.metrics) {
    if (m.scope.level != "cluster" || m.aggregate) continue;
    Figure fig;
    fig.value = m.value;
    fig.withheld = m.withheld;
    if (m.interval) {
      fig.low = m.interval->low;
      fig.high = m.interval->high;
      fig.confidence = m.interval->confidence.value();
    }
    fig.random_input = m.uncertainty.random_input;
    fig.covers = m.uncertainty.covers;
    fig.leaves_out = m.uncertainty.leaves_out;
    s.figures[m.metric] = fig;
  }
  s.result = std::move(run.result);
  return s;
}

}  // namespace blis::sim::api
