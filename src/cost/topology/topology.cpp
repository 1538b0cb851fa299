#include "cost/topology/topology.h"

#include <cmath>

namespace blis::cost {
namespace {

using units::BytesPerS;
using units::Count;

std::string num(std::int64_t v) { return std::to_string(v); }

std::string net_where(const std::string& name) { return name + " (catalog networks/" + name + ".yaml)"; }

const schema::Network& network(const CatalogFacts& f, const std::string& name, const std::string& named_by) {
  auto it = f.networks.find(name);
  if (it == f.networks.end())
    throw TopologyError(named_by + ": network '" + name + "' is not among the catalog facts given (its entry is at " +
                        "networks/" + name + ".yaml)");
  return it->second;
}

bool scale_out(const std::string& kind) { return kind == "infiniband" || kind == "roce" || kind == "ethernet"; }

// The cluster's own consistency: counts, switch groups that place every node once.
void check_cluster(const ClusterSpec& c) {
  if (c.nodes < 1)
    throw TopologyError("cluster.nodes: " + num(c.nodes) + " is refused: a cluster has at least one node");
  if (c.gpus_per_node < 1)
    throw TopologyError("cluster.gpus_per_node: " + num(c.gpus_per_node) + " is refused: at least one GPU per node");
  for (std::size_t i = 0; i < c.storage.size(); ++i)
    if (c.storage[i].per_node < 1)
      throw TopologyError("cluster.storage[" + num(static_cast<std::int64_t>(i)) +
                          "].per_node: " + num(c.storage[i].per_node) + " is refused: a node holds at least one");
  std::map<std::int64_t, std::string> owner;
  std::map<std::string, bool> names;
  for (std::size_t g = 0; g < c.switch_groups.size(); ++g) {
    const auto& grp = c.switch_groups[g];
    const std::string field = "cluster.switch_groups[" + num(static_cast<std::int64_t>(g)) + "]";
    if (names.count(grp.name)) throw TopologyError(field + ".name: '" + grp.name + "' names two groups");
    names[grp.name] = true;
    const double o = grp.uplink_oversubscription;
    if (!std::isfinite(o) || o < 1.0)
      throw TopologyError(field + ".uplink_oversubscription: " + units::detail::number_text(o) +
                          " is refused: downlink to uplink is a finite ratio of at least 1");
    for (const auto n : grp.nodes) {
      if (n < 0 || n >= c.nodes)
        throw TopologyError(field + ".nodes: node " + num(n) + " does not exist: the cluster has nodes 0 to " +
                            num(c.nodes - 1));
      if (auto [it, fresh] = owner.emplace(n, grp.name); !fresh)
        throw TopologyError(field + ".nodes: node " + num(n) + " is already under switch group '" + it->second + "'");
    }
  }
  if (!c.switch_groups.empty())
    for (std::int64_t n = 0; n < c.nodes; ++n)
      if (!owner.count(n)) throw TopologyError("cluster.switch_groups: node " + num(n) + " is under no switch group");
}

}  // namespace

const char* span_name(Span s) {
  switch (s) {
    case Span::node:
      return "node";
    case Span::rack:
      return "rack";
    case Span::fabric:
      return "fabric";
  }
  return "?";
}

namespace detail {
std::string nvlink_link(std::int64_t node, std::int64_t gpu, bool tx) {
  return "node" + num(node) + "/gpu" + num(gpu) + "/nvlink/" + (tx ? "tx" : "rx");
}
std::string host_link_name(std::int64_t node, std::int64_t gpu, bool tx) {
  return "node" + num(node) + "/host-link/gpu" + num(gpu) + "/" + (tx ? "tx" : "rx");
}
std::string nic_link(std::int64_t node, std::int64_t gpu, bool tx) {
  return "node" + num(node) + "/nic" + num(gpu) + "/" + (tx ? "tx" : "rx");
}
std::string uplink_link(const std::string& group, bool tx) { return group + "/uplink/" + (tx ? "tx" : "rx"); }
std::string rack_switch_link(std::int64_t rack) { return "rack" + num(rack) + "/nvlink-switch"; }
}  // namespace detail

using detail::host_link_name;
using detail::nic_link;
using detail::nvlink_link;
using detail::rack_switch_link;
using detail::uplink_link;

std::string Topology::where(const std::string& field) const {
  return chip_ + " (catalog " + chip_file_ + ") states no " + field;
}

Topology Topology::build(const CatalogFacts& facts, const ClusterSpec& cluster) {
  check_cluster(cluster);
  Topology t;
  t.c_ = cluster;
  const schema::Chip& chip = facts.chip;
  t.chip_ = chip.name;
  t.chip_file_ = facts.chip_file;
  t.nvlink_ = chip.nvlink.has_value();
  const std::int64_t nodes = cluster.nodes;
  const std::int64_t per_node = cluster.gpus_per_node;
  const std::string who = chip.name + " (catalog " + facts.chip_file + ")";

  std::optional<BytesPerS> nvlink_rate;
  if (chip.nvlink) nvlink_rate = chip.nvlink->bandwidth_per_direction.value;

  std::int64_t domains = nodes;  // NVLink domains: nodes, or racks on a rack-scale product
  if (chip.rack) {
    const auto& rack = *chip.rack;
    const std::int64_t tray = rack.gpus_per_tray.value.value();
    const std::int64_t rack_gpus = rack.gpus_per_rack.value.value();
    if (per_node != tray)
      throw TopologyError("cluster.gpus_per_node: " + num(per_node) + " contradicts " + who + ", whose trays hold " +
                          num(tray) + " GPUs (resolve the cluster with data::resolve_packaging)");
    if (cluster.gpus_per_rack && *cluster.gpus_per_rack != rack_gpus)
      throw TopologyError("cluster.gpus_per_rack: " + num(*cluster.gpus_per_rack) + " contradicts " + who +
                          ", whose racks hold " + num(rack_gpus) + " GPUs");
    if (rack_gpus % tray != 0)
      throw TopologyError(who + ": rack.gpus_per_rack " + num(rack_gpus) + " is not a whole number of trays of " +
                          num(tray));
    if (rack.gpus_per_nvlink_domain.value.value() != rack_gpus)
      throw TopologyError(who + ": rack.gpus_per_nvlink_domain " + num(rack.gpus_per_nvlink_domain.value.value()) +
                          " differs from rack.gpus_per_rack " + num(rack_gpus) +
                          ": an NVLink domain other than the rack is not modelled");
    if (!nvlink_rate) throw TopologyError(t.where("nvlink") + ", which its rack tier's NVLink domain needs");
    const schema::Network& sw = network(facts, rack.nvlink_switch, who + " rack.nvlink_switch");
    if (!sw.domain_gpus)
      throw TopologyError(net_where(sw.name) + " states no domain_gpus: the capacity of the rack's NVLink switch of " +
                          chip.name + " cannot be set");
    t.nodes_per_rack_ = rack_gpus / tray;
    domains = (nodes + *t.nodes_per_rack_ - 1) / *t.nodes_per_rack_;
    for (std::int64_t r = 0; r < domains; ++r) t.capacity_[rack_switch_link(r)] = *nvlink_rate * sw.domain_gpus->value;
  } else if (cluster.gpus_per_rack) {
    throw TopologyError("cluster.gpus_per_rack: " + num(*cluster.gpus_per_rack) + " is refused: " + who +
                        " has no rack tier");
  }

  std::optional<BytesPerS> host_rate;
  if (!chip.host_link) {
    t.host_link_gap_ = t.where("host_link");
  } else {
    const schema::Network& net = network(facts, chip.host_link->network, who + " host_link.network");
    if (!net.port_bandwidth_per_direction)
      t.host_link_gap_ =
          net_where(net.name) + " states no port_bandwidth_per_direction (the host link of " + chip.name + ")";
    else
      host_rate = net.port_bandwidth_per_direction->value;
  }

  std::optional<BytesPerS> nic_rate;
  if (!cluster.fabric) {
    if (domains > 1)
      throw TopologyError("cluster.fabric: absent, but the cluster's " + num(nodes) + " nodes span " + num(domains) +
                          " NVLink domains: name the network between them");
    t.nic_gap_ = "the cluster names no fabric, so it has no NICs";
  } else {
    const schema::Network& fab = network(facts, *cluster.fabric, "cluster.fabric");
    if (!scale_out(fab.kind))
      throw TopologyError("cluster.fabric: '" + fab.name + "' is a " + fab.kind +
                          " network, not one between nodes (infiniband, roce or ethernet)");
    if (domains > 1 && cluster.switch_groups.empty())
      throw TopologyError("cluster.switch_groups: absent, but the fabric joins " + num(domains) +
                          " NVLink domains: say which nodes sit under each switch");
    if (chip.nic) {
      if (chip.nic->network != fab.name)
        throw TopologyError("cluster.fabric: '" + fab.name + "' differs from the network " + chip.nic->network +
                            " that the NIC of " + who + " (nic.network) speaks");
      nic_rate = chip.nic->bandwidth_per_direction.value;
    } else if (!fab.port_bandwidth_per_direction) {
      throw TopologyError(net_where(fab.name) + " states no port_bandwidth_per_direction, and " + who +
                          " states no nic: the NIC rate cannot be set");
    } else {
      nic_rate = fab.port_bandwidth_per_direction->value;
    }
  }

  for (std::int64_t n = 0; n < nodes; ++n) {
    for (std::int64_t g = 0; g < per_node; ++g) {
      for (const bool tx : {true, false}) {
        if (nvlink_rate) t.capacity_[nvlink_link(n, g, tx)] = *nvlink_rate;
        if (host_rate) t.capacity_[host_link_name(n, g, tx)] = *host_rate;
        if (nic_rate) t.capacity_[nic_link(n, g, tx)] = *nic_rate;
      }
    }
  }

  for (const auto& st : cluster.storage) {
    auto found = facts.devices.find(st.device);
    if (found == facts.devices.end())
      throw TopologyError("cluster.storage: device '" + st.device +
                          "' is not among the catalog facts given (its entry is at devices/" + st.device + ".yaml)");
    const schema::Device& dev = found->second;
    const std::string where = dev.name + " (catalog devices/" + dev.name + ".yaml) states no ";
    auto& sides = t.devices_[dev.name];
    const auto side = [&](const char* dir, const std::optional<schema::DeviceCitedBytesPerS>& rate,
                          const std::string& field, const std::string& suffix) {
      if (!rate) {
        sides[dir].gap = where + field;
        return;
      }
      sides[dir].suffix = suffix;
      for (std::int64_t n = 0; n < nodes; ++n)
        t.capacity_["node" + num(n) + "/" + dev.name + suffix] = rate->value * Count{st.per_node};
    };
    if (dev.kind == "host_dram") {
      side("read", dev.bandwidth, "bandwidth", "");
      side("write", dev.bandwidth, "bandwidth", "");
    } else if (dev.kind == "nvme") {
      side("read", dev.sequential_read, "sequential_read", "/read");
      side("write", dev.sequential_write, "sequential_write", "/write");
    } else {
      throw TopologyError(dev.name + " (catalog devices/" + dev.name + ".yaml): kind '" + dev.kind +
                          "' has no link rule (host_dram or nvme)");
    }
  }

  for (const auto& grp : cluster.switch_groups) {
    for (const auto n : grp.nodes) t.group_of_[n] = grp.name;
    if (!nic_rate) continue;
    const BytesPerS downlink = *nic_rate * Count{static_cast<std::int64_t>(grp.nodes.size()) * per_node};
    for (const bool tx : {true, false})
      t.capacity_[uplink_link(grp.name, tx)] = downlink / units::Ratio{grp.uplink_oversubscription};
  }
  return t;
}

Placement Topology::place(std::int64_t rank) const {
  if (rank < 0 || rank >= ranks())
    throw TopologyError("rank " + num(rank) + " is outside the cluster: " + chip_ + ", " + num(c_.nodes) +
                        " nodes of " + num(c_.gpus_per_node) + " GPUs, has ranks 0 to " + num(ranks() - 1));
  Placement pl;
  pl.node = rank / c_.gpus_per_node;
  pl.gpu = rank % c_.gpus_per_node;
  pl.rack = nodes_per_rack_ ? pl.node / *nodes_per_rack_ : 0;
  return pl;
}

std::int64_t Topology::rank_of(std::int64_t node, std::int64_t gpu) const {
  if (node < 0 || node >= c_.nodes)
    throw TopologyError("node " + num(node) + " is outside the cluster: it has nodes 0 to " + num(c_.nodes - 1));
  if (gpu < 0 || gpu >= c_.gpus_per_node)
    throw TopologyError("gpu " + num(gpu) + " is outside node " + num(node) + ": it has GPUs 0 to " +
                        num(c_.gpus_per_node - 1));
  return node * c_.gpus_per_node + gpu;
}

const std::string& Topology::group_of(std::int64_t node) const {
  auto it = group_of_.find(node);
  if (it == group_of_.end())
    throw TopologyError("node " + num(node) + " is under no switch group: cluster.switch_groups must place it");
  return it->second;
}

bool Topology::same_domain(std::int64_t a, std::int64_t b) const {
  const Placement pa = place(a);
  const Placement pb = place(b);
  if (nodes_per_rack_) return pa.rack == pb.rack;
  return pa.node == pb.node;
}

std::string Topology::host_link(std::int64_t node, std::int64_t gpu, bool to_host) const {
  if (host_link_gap_) throw TopologyError(*host_link_gap_ + ": a path through the GPU's host link cannot be priced");
  rank_of(node, gpu);
  return host_link_name(node, gpu, to_host);
}

std::vector<std::string> Topology::fabric_path(std::int64_t node_a, std::int64_t gpu_a, std::int64_t node_b,
                                               std::int64_t gpu_b) const {
  rank_of(node_a, gpu_a);
  rank_of(node_b, gpu_b);
  if (nic_gap_)
    throw TopologyError(*nic_gap_ + ": a path from node " + num(node_a) + " to node " + num(node_b) +
                        " cannot be priced");
  std::vector<std::string> links{nic_link(node_a, gpu_a, true)};
  const std::string& ga = group_of(node_a);
  const std::string& gb = group_of(node_b);
  if (ga != gb) {
    links.push_back(uplink_link(ga, true));
    links.push_back(uplink_link(gb, false));
  }
  links.push_back(nic_link(node_b, gpu_b, false));
  return links;
}

std::vector<std::string> Topology::path(std::int64_t a, std::int64_t b) const {
  const Placement pa = place(a);
  const Placement pb = place(b);
  if (a == b) return {};
  if (!same_domain(a, b)) return fabric_path(pa.node, pa.gpu, pb.node, pb.gpu);
  if (nodes_per_rack_)
    return {nvlink_link(pa.node, pa.gpu, true), rack_switch_link(pa.rack), nvlink_link(pb.node, pb.gpu, false)};
  if (nvlink_) return {nvlink_link(pa.node, pa.gpu, true), nvlink_link(pb.node, pb.gpu, false)};
  return {host_link(pa.node, pa.gpu, true), host_link(pb.node, pb.gpu, false)};
}

Span Topology::span(const std::vector<std::int64_t>& ranks) const {
  if (ranks.empty()) throw TopologyError("a group of no ranks spans nothing: name at least one rank");
  const Placement first = place(ranks.front());
  bool one_node = true;
  bool one_rack = true;
  for (const auto r : ranks) {
    const Placement p = place(r);
    one_node = one_node && p.node == first.node;
    one_rack = one_rack && p.rack == first.rack;
  }
  if (one_node) return Span::node;
  if (nodes_per_rack_ && one_rack) return Span::rack;
  return Span::fabric;
}

std::string Topology::device_link(std::int64_t node, const std::string& device, bool reading) const {
  rank_of(node, 0);
  auto it = devices_.find(device);
  if (it == devices_.end()) {
    std::string held;
    for (const auto& [name, sides] : devices_) held += (held.empty() ? "" : ", ") + name;
    throw TopologyError("device '" + device + "' is not among cluster.storage (it holds " +
                        (held.empty() ? std::string("none") : held) + ")");
  }
  const DeviceSide& s = it->second.at(reading ? "read" : "write");
  if (!s.suffix)
    throw TopologyError(s.gap + ": a " + std::string(reading ? "read from" : "write to") + " it cannot be priced");
  return "node" + num(node) + "/" + device + *s.suffix;
}

BytesPerS Topology::capacity(const std::string& link) const {
  auto it = capacity_.find(link);
  if (it == capacity_.end()) throw TopologyError("link '" + link + "' is not in this cluster's topology");
  return it->second;
}

}  // namespace blis::cost
