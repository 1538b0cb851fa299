#include "sim/wiring/cluster.h"

#include <string>

#include "contracts/doc/diagnostics.h"
#include "data/packaging.h"
#include "schema/network.h"

namespace blis::sim {

namespace {

schema::Network load_network(const data::DataSet& data, const std::string& name) {
  const data::FileRef file = data.catalog.find("networks/" + name + ".yaml");
  if (!file) throw cost::TopologyError("no catalog entry networks/" + name + ".yaml");
  doc::Diagnostics d{file->location()};
  auto n = schema::load_network(file->bytes, file->path, d);
  if (!n) throw cost::TopologyError(d.str());
  return *n;
}

}  // namespace

std::pair<cost::CatalogFacts, cost::ClusterSpec> resolve_cluster(const schema::ScenarioCluster& cluster,
                                                                 const data::DataSet& data) {
  doc::Diagnostics d{"scenario"};
  auto p = data::resolve_packaging(cluster, data, d);
  if (!p) throw cost::TopologyError(d.str());

  cost::CatalogFacts facts;
  facts.chip = p->chip;
  facts.chip_file = p->chip_file;
  if (p->chip.nvlink) facts.networks[p->chip.nvlink->network] = load_network(data, p->chip.nvlink->network);
  if (p->chip.host_link) facts.networks[p->chip.host_link->network] = load_network(data, p->chip.host_link->network);
  if (p->nvlink_switch) facts.networks[p->nvlink_switch->name] = *p->nvlink_switch;
  if (p->fabric) facts.networks[p->fabric->name] = *p->fabric;
  cost::ClusterSpec c;
  c.nodes = p->nodes.value();
  c.gpus_per_node = p->gpus_per_node.value();
  if (p->gpus_per_rack) c.gpus_per_rack = p->gpus_per_rack->value();
  if (p->fabric) c.fabric = p->fabric->name;
  for (const auto& st : p->storage) {
    facts.devices[st.device.name] = st.device;
    c.storage.push_back(cost::StorageSpec{st.device.name, st.per_node.value()});
  }
  for (const auto& g : p->switch_groups)
    c.switch_groups.push_back(cost::SwitchGroupSpec{g.name, g.nodes, g.uplink_oversubscription.value()});
  return {std::move(facts), std::move(c)};
}

cost::Topology cluster_topology(const schema::ScenarioCluster& cluster, const data::DataSet& data) {
  auto [facts, spec] = resolve_cluster(cluster, data);
  return cost::Topology::build(facts, spec);
}

}  // namespace blis::sim
