#include "cost/topology/topology.h"

#include <cmath>

#include "contracts/doc/diagnostics.h"
#include "schema/device.h"
#include "schema/network.h"
#include "schema/scenario.h"

namespace blis::cost {
namespace {

using units::BytesPerS;
using units::Count;

std::string num(std::int64_t v) { return std::to_string(v); }

schema::ScenarioCluster to_scenario(const ClusterSpec& c) {
  if (c.nodes < 1) throw TopologyError("cluster.nodes: " + num(c.nodes) + " is refused: a cluster has at least one node");
  if (c.gpus_per_node && *c.gpus_per_node < 1)
    throw TopologyError("cluster.gpus_per_node: " + num(*c.gpus_per_node) + " is refused: at least one GPU per node");
  if (c.gpus_per_rack && *c.gpus_per_rack < 1)
    throw TopologyError("cluster.gpus_per_rack: " + num(*c.gpus_per_rack) + " is refused: at least one GPU per rack");
  schema::ScenarioCluster s;
  s.chip = c.chip;
  s.nodes = Count{c.nodes};
  if (c.gpus_per_node) s.gpus_per_node = Count{*c.gpus_per_node};
  if (c.gpus_per_rack) s.gpus_per_rack = Count{*c.gpus_per_rack};
  s.fabric = c.fabric;
  if (!c.storage.empty()) {
    s.storage.emplace();
    for (std::size_t i = 0; i < c.storage.size(); ++i) {
      const auto& st = c.storage[i];
      if (st.per_node < 1)
        throw TopologyError("cluster.storage[" + num(static_cast<std::int64_t>(i)) + "].per_node: " + num(st.per_node) +
                            " is refused: a node holds at least one");
      schema::ScenarioStorage out;
      out.device = st.device;
      out.per_node = Count{st.per_node};
      if (st.capacity) out.capacity = units::Bytes{*st.capacity};
      s.storage->push_back(std::move(out));
    }
  }
  if (c.switch_groups) {
    s.switch_groups.emplace();
    for (std::size_t g = 0; g < c.switch_groups->size(); ++g) {
      const auto& grp = (*c.switch_groups)[g];
      const double o = grp.uplink_oversubscription;
      if (!std::isfinite(o) || o < 1.0)
        throw TopologyError("cluster.switch_groups[" + num(static_cast<std::int64_t>(g)) +
                            "].uplink_oversubscription: " + units::detail::number_text(o) +
                            " is refused: downlink to uplink is a finite ratio of at least 1");
      schema::ScenarioSwitchGroup out;
      out.name = grp.name;
      out.nodes = grp.nodes;
      out.uplink_oversubscription = units::Ratio{o};
      s.switch_groups->push_back(std::move(out));
    }
  }
  return s;
}

std::optional<schema::Network> network(const data::DataSet& data, const std::string& name, std::string& why) {
  const std::string rel = "networks/" + name + ".yaml";
  const data::FileRef file = data.catalog.find(rel);
  if (!file) {
    why = "'" + name + "' is not in " + data.catalog.source_text() + ": its entry belongs at " + rel;
    return std::nullopt;
  }
  doc::Diagnostics d{file->location()};
  auto n = schema::load_network(file->bytes, file->path, d);
  if (!n) why = "the catalog entry " + file->location() + " does not load:\n" + d.str();
  return n;
}

std::string net_where(const std::string& name) { return name + " (catalog networks/" + name + ".yaml)"; }

bool scale_out(const std::string& kind) { return kind == "infiniband" || kind == "roce" || kind == "ethernet"; }

}  // namespace

const char* span_name(Span s) {
  switch (s) {
    case Span::node: return "node";
    case Span::rack: return "rack";
    case Span::fabric: return "fabric";
  }
  return "?";
}

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

std::string Topology::where(const std::string& field) const {
  return p_.chip.name + " (catalog " + p_.chip_file + ") states no " + field;
}

Topology Topology::build(const ClusterSpec& cluster, const data::DataSet& data) {
  doc::Diagnostics d{"cluster"};
  auto resolved = data::resolve_packaging(to_scenario(cluster), data, d);
  if (!resolved) throw TopologyError(d.str());
  Topology t;
  t.p_ = std::move(*resolved);
  const auto& chip = t.p_.chip;
  const std::int64_t nodes = t.p_.nodes.value();
  const std::int64_t per_node = t.p_.gpus_per_node.value();

  std::optional<BytesPerS> nvlink_rate;
  if (chip.nvlink) nvlink_rate = chip.nvlink->bandwidth_per_direction.value;

  std::int64_t racks = 0;
  if (chip.rack) {
    const std::int64_t rack_gpus = t.p_.gpus_per_rack->value();
    if (rack_gpus % per_node != 0)
      throw TopologyError(t.where("whole trays per rack") + ": rack.gpus_per_rack " + num(rack_gpus) +
                          " is not a multiple of rack.gpus_per_tray " + num(per_node));
    if (t.p_.gpus_per_nvlink_domain->value() != rack_gpus)
      throw TopologyError(chip.name + " (catalog " + t.p_.chip_file + "): rack.gpus_per_nvlink_domain " +
                          num(t.p_.gpus_per_nvlink_domain->value()) + " differs from rack.gpus_per_rack " +
                          num(rack_gpus) + ": an NVLink domain other than the rack is not modelled");
    if (!nvlink_rate) throw TopologyError(t.where("nvlink") + ", which its rack tier's NVLink domain needs");
    const schema::Network& sw = *t.p_.nvlink_switch;
    if (!sw.domain_gpus)
      throw TopologyError(net_where(sw.name) + " states no domain_gpus: the capacity of the rack's NVLink switch of " +
                          chip.name + " cannot be set");
    t.nodes_per_rack_ = rack_gpus / per_node;
    racks = (nodes + *t.nodes_per_rack_ - 1) / *t.nodes_per_rack_;
    for (std::int64_t r = 0; r < racks; ++r)
      t.capacity_[rack_switch_link(r)] = *nvlink_rate * sw.domain_gpus->value;
  }

  std::optional<BytesPerS> host_rate;
  if (!chip.host_link) {
    t.host_link_gap_ = t.where("host_link");
  } else {
    std::string why;
    auto net = network(data, chip.host_link->network, why);
    if (!net) throw TopologyError("host_link.network of " + chip.name + ": " + why);
    if (!net->port_bandwidth_per_direction)
      t.host_link_gap_ = net_where(net->name) + " states no port_bandwidth_per_direction (the host link of " +
                         chip.name + ")";
    else
      host_rate = net->port_bandwidth_per_direction->value;
  }

  std::optional<BytesPerS> nic_rate;
  if (!t.p_.fabric) {
    t.nic_gap_ = "the cluster names no fabric, so it has no NICs";
  } else {
    const schema::Network& fab = *t.p_.fabric;
    if (!scale_out(fab.kind))
      throw TopologyError("cluster.fabric: '" + fab.name + "' is a " + fab.kind +
                          " network, not one between nodes (infiniband, roce or ethernet)");
    if (chip.nic) {
      if (chip.nic->network != fab.name)
        throw TopologyError("cluster.fabric: '" + fab.name + "' differs from the network " + chip.nic->network +
                            " that the NIC of " + chip.name + " (catalog " + t.p_.chip_file + ", nic.network) speaks");
      nic_rate = chip.nic->bandwidth_per_direction.value;
    } else if (!fab.port_bandwidth_per_direction) {
      throw TopologyError(net_where(fab.name) + " states no port_bandwidth_per_direction, and " + chip.name +
                          " (catalog " + t.p_.chip_file + ") states no nic: the NIC rate cannot be set");
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

  for (const auto& st : t.p_.storage) {
    const schema::Device& dev = st.device;
    const std::string where = dev.name + " (catalog " + st.device_file + ") states no ";
    auto& sides = t.devices_[dev.name];
    const auto side = [&](const char* dir, const std::optional<schema::DeviceCitedBytesPerS>& rate,
                          const std::string& field, const std::string& suffix) {
      if (!rate) {
        sides[dir].gap = where + field;
        return;
      }
      sides[dir].suffix = suffix;
      for (std::int64_t n = 0; n < nodes; ++n)
        t.capacity_["node" + num(n) + "/" + dev.name + suffix] = rate->value * st.per_node;
    };
    if (dev.kind == "host_dram") {
      side("read", dev.bandwidth, "bandwidth", "");
      side("write", dev.bandwidth, "bandwidth", "");
    } else if (dev.kind == "nvme") {
      side("read", dev.sequential_read, "sequential_read", "/read");
      side("write", dev.sequential_write, "sequential_write", "/write");
    } else {
      throw TopologyError(dev.name + " (catalog " + st.device_file + "): kind '" + dev.kind +
                          "' has no link rule (host_dram or nvme)");
    }
  }

  for (const auto& grp : t.p_.switch_groups) {
    for (const auto n : grp.nodes) t.group_of_[n] = grp.name;
    if (!nic_rate) continue;
    const BytesPerS downlink = *nic_rate * Count{static_cast<std::int64_t>(grp.nodes.size()) * per_node};
    for (const bool tx : {true, false}) t.capacity_[uplink_link(grp.name, tx)] = downlink / grp.uplink_oversubscription;
  }
  return t;
}

Placement Topology::place(std::int64_t rank) const {
  if (rank < 0 || rank >= ranks())
    throw TopologyError("rank " + num(rank) + " is outside the cluster: " + p_.chip.name + ", " + num(p_.nodes.value()) +
                        " nodes of " + num(p_.gpus_per_node.value()) + " GPUs, has ranks 0 to " + num(ranks() - 1));
  Placement pl;
  pl.node = rank / p_.gpus_per_node.value();
  pl.gpu = rank % p_.gpus_per_node.value();
  pl.rack = nodes_per_rack_ ? pl.node / *nodes_per_rack_ : 0;
  return pl;
}

std::int64_t Topology::rank_of(std::int64_t node, std::int64_t gpu) const {
  if (node < 0 || node >= p_.nodes.value())
    throw TopologyError("node " + num(node) + " is outside the cluster: it has nodes 0 to " +
                        num(p_.nodes.value() - 1));
  if (gpu < 0 || gpu >= p_.gpus_per_node.value())
    throw TopologyError("gpu " + num(gpu) + " is outside node " + num(node) + ": it has GPUs 0 to " +
                        num(p_.gpus_per_node.value() - 1));
  return node * p_.gpus_per_node.value() + gpu;
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
  if (p_.chip.nvlink) return {nvlink_link(pa.node, pa.gpu, true), nvlink_link(pb.node, pb.gpu, false)};
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
