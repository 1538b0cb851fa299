// The embedded catalog and the clusters the topology tests build on (SUB-17). A test states a cluster as
// a scenario states it (ScenarioSpec); build() resolves it through the simulator's wiring
// (src/sim/wiring/cluster.h: data::resolve_packaging, the one function that resolves packaging, SUB-3; the
// catalog entries the topology reads; the plain ClusterSpec filled from the resolved packaging).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "contracts/doc/diagnostics.h"
#include "cost/topology/topology.h"
#include "data/loader.h"
#include "data/validators.h"
#include "sim/wiring/cluster.h"

namespace blis::cost::testing {

inline data::DataSet load_catalog(data::LoadOptions options = {}) {
  data::LoadOutcome out = data::load(options, data::standard_validators());
  if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
  return *out.data;
}

inline const data::DataSet& catalog() {
  static const data::DataSet data = load_catalog();
  return data;
}

struct StorageAt {
  std::string device;
  std::int64_t per_node = 1;
  std::optional<std::int64_t> capacity;
};

// The scenario's Cluster fields.
struct ScenarioSpec {
  std::string chip;
  std::int64_t nodes = 1;
  std::optional<std::int64_t> gpus_per_node;
  std::optional<std::int64_t> gpus_per_rack;
  std::optional<std::string> fabric;
  std::vector<StorageAt> storage;
  std::optional<std::vector<SwitchGroupSpec>> switch_groups;
};

// The catalog facts and resolved cluster of a scenario's cluster, through the simulator's own wiring
// (sim::resolve_cluster); a packaging refusal is thrown as a TopologyError carrying resolve_packaging's
// diagnostics.
inline std::pair<CatalogFacts, ClusterSpec> resolve(const ScenarioSpec& s, const data::DataSet& data) {
  schema::ScenarioCluster sc;
  sc.chip = s.chip;
  sc.nodes = units::Count{s.nodes};
  if (s.gpus_per_node) sc.gpus_per_node = units::Count{*s.gpus_per_node};
  if (s.gpus_per_rack) sc.gpus_per_rack = units::Count{*s.gpus_per_rack};
  sc.fabric = s.fabric;
  if (!s.storage.empty()) {
    sc.storage.emplace();
    for (const auto& st : s.storage) {
      schema::ScenarioStorage out;
      out.device = st.device;
      out.per_node = units::Count{st.per_node};
      if (st.capacity) out.capacity = units::Bytes{*st.capacity};
      sc.storage->push_back(out);
    }
  }
  if (s.switch_groups) {
    sc.switch_groups.emplace();
    for (const auto& g : *s.switch_groups) {
      schema::ScenarioSwitchGroup out;
      out.name = g.name;
      out.nodes = g.nodes;
      out.uplink_oversubscription = units::Ratio{g.uplink_oversubscription};
      sc.switch_groups->push_back(out);
    }
  }
  return sim::resolve_cluster(sc, data);
}

inline Topology build(const ScenarioSpec& s, const data::DataSet& data = catalog()) {
  auto [facts, cluster] = resolve(s, data);
  return Topology::build(facts, cluster);
}

inline SwitchGroupSpec group(std::string name, std::vector<std::int64_t> nodes, double oversubscription = 1.0) {
  return SwitchGroupSpec{std::move(name), std::move(nodes), oversubscription};
}

inline std::vector<std::int64_t> iota(std::int64_t from, std::int64_t to) {  // [from, to)
  std::vector<std::int64_t> v;
  for (std::int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

}  // namespace blis::cost::testing
