#include "sim/run/placement.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

namespace blis::sim {

namespace {

std::string name_of(const InstanceDemand& d) { return d.pool + "/" + std::to_string(d.replica); }

}  // namespace

std::vector<Placement> place_instances(std::int64_t nodes, std::int64_t gpus_per_node,
                                       const std::vector<InstanceDemand>& demands) {
  if (nodes < 1) throw std::invalid_argument("cluster.nodes: " + std::to_string(nodes) + ": a cluster has at least one node");
  if (gpus_per_node < 1) {
    throw std::invalid_argument("cluster.gpus_per_node: " + std::to_string(gpus_per_node) +
                                ": a node has at least one accelerator");
  }
  std::vector<std::size_t> order(demands.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return demands[a].accelerators > demands[b].accelerators; });
  std::vector<std::int64_t> used(static_cast<std::size_t>(nodes), 0);
  std::vector<Placement> out(demands.size());
  for (const std::size_t i : order) {
    const InstanceDemand& d = demands[i];
    if (d.accelerators < 1) {
      throw std::invalid_argument(d.field + ": instance " + name_of(d) + " occupies " + std::to_string(d.accelerators) +
                                  " accelerators; an instance occupies at least one");
    }
    if (d.accelerators > gpus_per_node) {
      throw std::invalid_argument(d.field + ": instance " + name_of(d) + " occupies " + std::to_string(d.accelerators) +
                                  " accelerators, more than one node's " + std::to_string(gpus_per_node) +
                                  " (cluster.gpus_per_node); an instance spanning nodes is not simulated by this build");
    }
    std::int64_t node = 0;
    while (node < nodes && used[static_cast<std::size_t>(node)] + d.accelerators > gpus_per_node) ++node;
    if (node == nodes) {
      std::int64_t total = 0;
      std::string free;
      for (std::int64_t n = 0; n < nodes; ++n) {
        const std::int64_t f = gpus_per_node - used[static_cast<std::size_t>(n)];
        total += f;
        free += (n == 0 ? "" : ", ") + std::string("node ") + std::to_string(n) + ": " + std::to_string(f);
      }
      throw std::invalid_argument(
          d.field + ": instance " + name_of(d) + " needs " + std::to_string(d.accelerators) +
          " accelerators on one node, and no node has them free after the larger instances were placed (free: " +
          free + (total >= d.accelerators ? "; enough in total, but split across nodes" : "") +
          "); placement is first fit, largest instance first, within cluster.nodes x cluster.gpus_per_node");
    }
    out[i] = Placement{node, used[static_cast<std::size_t>(node)]};
    used[static_cast<std::size_t>(node)] += d.accelerators;
  }
  return out;
}

std::string describe_placement(const std::vector<InstanceInfo>& instances) {
  std::map<std::int64_t, std::map<std::int64_t, const InstanceInfo*>> by_node;  // node -> first accelerator -> instance
  for (const InstanceInfo& in : instances) by_node[in.node][in.first_accelerator] = &in;
  std::string out;
  for (const auto& [node, list] : by_node) {
    out += (out.empty() ? "" : "; ") + std::string("node ") + std::to_string(node) + ":";
    bool first = true;
    for (const auto& [at, in] : list) {
      const std::int64_t last = at + in->gpus - 1;
      out += (first ? " " : ", ") + in->pool + "/" + std::to_string(in->instance) + " (" + std::to_string(at) +
             (last == at ? "" : "-" + std::to_string(last)) + ")";
      first = false;
    }
  }
  return out;
}

}  // namespace blis::sim
