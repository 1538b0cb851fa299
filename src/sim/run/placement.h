// Placing a deployment's engine instances on the cluster's nodes (design §8.3: pools of engine instances on
// a cluster of nodes; the plan's Layout says ranks fill nodes in order).
//
//   unit       an instance occupies its plan's accelerators (tp x pp x dp) on ONE node: the engines refuse a
//              tensor-parallel group across nodes, and an instance larger than a node is refused here by name
//              (an instance spanning nodes is not simulated by this build).
//   rule       first fit decreasing: the instances, largest first (ties in build order: pool, then replica),
//              each go to the lowest-numbered node with enough free accelerators. The rule is BLIS's own: in a
//              real cluster the Kubernetes scheduler places the pods, and no upstream decision is replayed
//              here. Within a node an instance takes the lowest free accelerator indices.
//   refusal    an instance that fits on no node is refused, naming it, what it needs and each node's free
//              accelerators, also when the total would fit but no single node has room (fragmentation).
//   effect     where an instance sits changes no price in this build: every instance lies within one node,
//              and no transfer crosses nodes. It is checked so that a deployment larger than the cluster is
//              never simulated, and reported so the user sees where each instance went.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/run/replication.h"

namespace blis::sim {

struct InstanceDemand {
  std::string pool;
  std::int64_t replica = 0;
  std::string field;             // the scenario field that states the instance's size, for the refusal
  std::int64_t accelerators = 1;
};

struct Placement {
  std::int64_t node = 0;
  std::int64_t first_accelerator = 0;  // the lowest of the node-local indices it takes
};

// One Placement per demand, in the demands' order. Throws std::invalid_argument when an instance cannot be
// placed (the message names the field, the value and the cause).
std::vector<Placement> place_instances(std::int64_t nodes, std::int64_t gpus_per_node,
                                       const std::vector<InstanceDemand>& demands);

// "node 0: serve/0 (0-1), serve/1 (2-3); node 1: ..." for the human summary: each node in order, and on it
// each instance with the node-local accelerators it takes.
std::string describe_placement(const std::vector<InstanceInfo>& instances);

}  // namespace blis::sim
