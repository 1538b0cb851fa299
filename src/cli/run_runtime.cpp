// The production runtime of `blis run`: the engine kinds of the build site, the router port, and the
// SubstrateEnvironment on the data the flags name and the scenario's cluster topology.
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "cli/data_cmd.h"
#include "cli/run_cmd.h"
#include "sim/cluster/llmd_picker.h"
#include "sim/engines.h"
#include "sim/environment.h"
#include "sim/wiring/cluster.h"

namespace blis::cli {
namespace {

schema::ResultDataSource source_record(const data::TreeData& t) {
  schema::ResultDataSource s;
  const data::Layer& base = t.layers.front();
  s.source = std::string(data::source_name(base.source));
  if (base.source == data::Source::path) s.path = base.directory;
  s.content_hash = base.hash;
  for (std::size_t i = 1; i < t.layers.size(); ++i) {
    schema::ResultOverlay o;
    o.path = t.layers[i].directory;
    o.hash = t.layers[i].hash;
    s.overlays.push_back(std::move(o));
  }
  s.combined_hash = t.combined_hash;
  return s;
}

}  // namespace

Runtime production_runtime() {
  Runtime r;
  // The data the environment loaded, kept for naming the entries the prices used.
  auto loaded = std::make_shared<std::optional<data::DataSet>>();
  r.register_engines = sim::register_engines;
  r.router = sim::make_llmd_picker;
  r.environment = [loaded](const sim::ScenarioFile& file, const data::LoadOptions& flags,
                           schema::ResultData& record) -> std::unique_ptr<engine::Environment> {
    auto& data = *loaded;
    data = load(flags);
    if (!data) throw std::invalid_argument("the data named by the flags could not be loaded (diagnostics above)");
    record.catalog = source_record(data->catalog);
    record.registry = source_record(data->registry);
    record.released = false;
    record.experimental_because.push_back("unreleased_build");
    if (data->has_overlays()) record.experimental_because.push_back("overlay_used");
    sim::EnvironmentOptions options;
    for (const auto& c : file.scenario.workload.clients.value_or(std::vector<schema::ScenarioClient>{})) {
      if (c.category) options.workload = *c.category;
    }
    return std::make_unique<sim::SubstrateEnvironment>(*data, sim::cluster_topology(file.scenario.cluster, *data), options);
  };
  r.selected = [loaded](const std::set<std::string>& identities) {
    std::vector<schema::ResultSelectedEntry> out;
    if (!loaded->has_value()) return out;
    for (const auto& c : (*loaded)->coefficients) {
      if (!identities.contains(c.id.text())) continue;
      schema::ResultSelectedEntry e;
      e.reader = "coefficient";
      e.file = c.file ? c.file->path : "";
      e.set = c.id.set;
      e.name = c.id.name;
      e.scope.emplace();
      for (const auto& item : c.id.scope) (*e.scope)[item.key] = item.value;
      e.method = c.id.method;
      out.push_back(std::move(e));
    }
    // Sorted by file, then name (the schema's order).
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return std::tie(a.file, a.name) < std::tie(b.file, b.name); });
    return out;
  };
  return r;
}

}  // namespace blis::cli
