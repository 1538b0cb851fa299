// The embedded catalog and the clusters the topology tests build on (SUB-17). A test states a cluster as
// a scenario states it (ScenarioSpec); build() resolves it with data::resolve_packaging, the one function
// that resolves packaging (SUB-3), loads the catalog entries the topology reads and fills the plain
// ClusterSpec from the resolved packaging, as the simulator's build site will.
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
#include "data/packaging.h"
#include "data/validators.h"

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

inline schema::Network load_network(const data::DataSet& data, const std::string& name) {
  const data::FileRef file = data.catalog.find("networks/" + name + ".yaml");
  if (!file) throw std::runtime_error("no catalog entry networks/" + name + ".yaml");
  doc::Diagnostics d{file->location()};
  auto n = schema::load_network(file->bytes, file->path, d);
  if (!n) throw std::runtime_error(d.str());
  return *n;
}

// The catalog facts and resolved cluster of a scenario's cluster; a packaging refusal is thrown as a
// TopologyError carrying resolve_packaging's diagnostics.
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
  doc::Diagnostics d{"scenario"};
  auto p = data::resolve_packaging(sc, data, d);
  if (!p) throw TopologyError(d.str());

  CatalogFacts facts;
  facts.chip = p->chip;
  facts.chip_file = p->chip_file;
  if (p->chip.nvlink) facts.networks[p->chip.nvlink->network] = load_network(data, p->chip.nvlink->network);
  if (p->chip.host_link) facts.networks[p->chip.host_link->network] = load_network(data, p->chip.host_link->network);
  if (p->nvlink_switch) facts.networks[p->nvlink_switch->name] = *p->nvlink_switch;
  if (p->fabric) facts.networks[p->fabric->name] = *p->fabric;
  ClusterSpec c;
  c.nodes = p->nodes.value();
  c.gpus_per_node = p->gpus_per_node.value();
  if (p->gpus_per_rack) c.gpus_per_rack = p->gpus_per_rack->value();
  if (p->fabric) c.fabric = p->fabric->name;
  for (const auto& st : p->storage) {
    facts.devices[st.device.name] = st.device;
    c.storage.push_back(StorageSpec{st.device.name, st.per_node.value()});
  }
  for (const auto& g : p->switch_groups)
    c.switch_groups.push_back(SwitchGroupSpec{g.name, g.nodes, g.uplink_oversubscription.value()});
  return {std::move(facts), std::move(c)};
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
