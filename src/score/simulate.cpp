#include "score/simulate.h"

#include <stdexcept>

namespace blis::score {

Runner api_runner(const sim::api::Runtime& runtime, std::optional<std::int64_t> replications) {
  return [runtime, replications](const std::string& scenario, const std::string& name) {
    sim::api::Options o;
    o.replications = replications;
    const sim::api::Summary sum = sim::api::run_text(scenario, name, runtime, o);
    auto figure = [&](const std::string& metric) -> const sim::api::Figure& {
      const auto it = sum.figures.find(metric);
      if (it == sum.figures.end()) throw std::runtime_error(name + ": the run reported no " + metric);
      if (!it->second.value) {
        throw std::runtime_error(name + ": " + metric + " withheld (" + it->second.withheld.value_or("no reason given") + ")");
      }
      return it->second;
    };
    const auto& ttft = figure("ttft.mean");
    const auto& tpot = figure("tpot.mean");
    Simulated s;
    s.ttft_ms = *ttft.value * 1000.0;
    s.tpot_ms = *tpot.value * 1000.0;
    if (ttft.low && ttft.high) {
      s.ttft_low_ms = *ttft.low * 1000.0;
      s.ttft_high_ms = *ttft.high * 1000.0;
    }
    if (tpot.low && tpot.high) {
      s.tpot_low_ms = *tpot.low * 1000.0;
      s.tpot_high_ms = *tpot.high * 1000.0;
    }
    s.random_input = ttft.random_input;
    s.covers = ttft.covers;
    s.leaves_out = ttft.leaves_out;
    s.replications = sum.replications;
    s.generated = sum.generated;
    s.completed = sum.completed;
    return s;
  };
}

CatalogNames catalog_names(const data::DataSet& data) {
  CatalogNames out;
  std::set<std::string> with_graph, entries;
  for (const auto& f : data.catalog.files) {
    const std::string& p = f->path;
    if (p.starts_with("models/")) {
      const auto slash = p.find('/', 7);
      if (slash == std::string::npos) continue;
      std::string id = p.substr(7, slash - 7);
      const auto dash = id.find("--");
      if (dash == std::string::npos) continue;
      id = id.substr(0, dash) + "/" + id.substr(dash + 2);
      const std::string file = p.substr(slash + 1);
      if (file == "model.yaml") entries.insert(id);
      if (file == "graph.yaml") with_graph.insert(id);
    } else if (p.starts_with("hardware/") && p.ends_with(".yaml") && p.find('/', 9) == std::string::npos) {
      out.chips.insert(p.substr(9, p.size() - 9 - 5));
    }
  }
  for (const auto& id : entries) (with_graph.contains(id) ? out.models : out.models_no_graph).insert(id);
  return out;
}

}  // namespace blis::score
