// The links between ranks (SUB-17, design §6.2): a cluster's GPUs, NVLink domains, NICs, switch groups
// and host links, built from the catalog's chip and network facts, with the path between two ranks and
// the tier a group of ranks spans. Pure and deterministic: every map is ordered by link name.
//
// Links and their capacity per direction (bytes/s), each named deterministically:
//   node<n>/gpu<g>/nvlink/{tx,rx}      the GPU's NVLink ports: the chip's nvlink.bandwidth_per_direction
//   rack<r>/nvlink-switch              a rack-scale product's NVLink switch domain: domain_gpus of the
//                                      chip's rack.nvlink_switch network times the GPU's NVLink rate
//   node<n>/host-link/gpu<g>/{tx,rx}   the GPU's host link (tx: GPU to host): the port rate of the chip's
//                                      host_link network
//   node<n>/nic<g>/{tx,rx}             one NIC per GPU: the chip's nic rate, or absent that, the port rate
//                                      of the cluster's fabric
//   <group>/uplink/{tx,rx}             a switch group's uplink (tx: leaving the group): the group's
//                                      aggregate NIC downlink divided by its uplink_oversubscription
//   node<n>/<device>                   a host_dram storage device of the cluster (reads and writes share
//                                      it): per_node times the entry's bandwidth
//   node<n>/<device>/{read,write}      an nvme storage device: per_node times its sequential_read or
//                                      sequential_write (the node stripes a tier over all its drives)
// Ranks are placed as the layout places them: rank r sits on node r / gpus_per_node as GPU
// r % gpus_per_node; on a rack-scale product node n (a tray) is in rack n / (gpus_per_rack / gpus_per_tray).
//
// Paths. Within one NVLink domain (a node with NVLink, or a rack-scale product's rack): the sender's NVLink
// tx, the rack's NVLink switch on a rack-scale product, the receiver's NVLink rx. Within a node without
// NVLink: the sender's host link tx, the receiver's host link rx (PCIe peer to peer). Otherwise over the
// fabric: the sender's NIC tx, its group's uplink tx and the receiver group's uplink rx when the groups
// differ, the receiver's NIC rx. A leaf switch is non-blocking below its uplink (the scenario states
// oversubscription only at the uplink), so it is not a link of its own.
//
// A fact the catalog does not state is refused, naming the entry and the field: at build for the NVLink
// switch and the NIC rate, and when a path needs it for a host link or a storage device's rate (a chip
// without host_link builds, and refuses a path through its host link). Nothing is guessed.
//
// src/cost reads no data tree (X3's include rule): the caller passes the catalog entries it loaded
// (CatalogFacts) and the cluster as data::resolve_packaging resolved it (ClusterSpec);
// src/sim/wiring/cluster.h fills both from a scenario's cluster (the tests through it too).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "contracts/units.h"
#include "schema/chip.h"
#include "schema/device.h"
#include "schema/network.h"

namespace blis::cost {

// A refusal: the message names the field or catalog entry, the value and the cause.
class TopologyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The catalog entries a topology reads, as the generated readers load them (src/cost reads no data tree:
// the caller loads them from the DataSet it resolved the cluster against).
struct CatalogFacts {
  schema::Chip chip;
  std::string chip_file;                            // its catalog path, for messages: hardware/<chip>.yaml
  std::map<std::string, schema::Network> networks;  // by name: those the chip names, and the fabric
  std::map<std::string, schema::Device> devices;    // by name: the cluster's storage devices
};

// The scenario's SwitchGroup, as a plain struct.
struct SwitchGroupSpec {
  std::string name;
  std::vector<std::int64_t> nodes;
  double uplink_oversubscription = 1.0;
};

// The scenario's Storage, as a plain struct (its capacity does not bear on links).
struct StorageSpec {
  std::string device;  // catalog device name
  std::int64_t per_node = 1;
};

// The scenario's Cluster after data::resolve_packaging (SUB-3: the one function that resolves packaging),
// as plain fields the simulator fills from the resolved Packaging: GPUs per node and per rack are the
// resolved values, so a rack-scale chip's come from its catalog entry. The topology checks them against
// the chip and refuses a contradiction; it resolves nothing itself.
struct ClusterSpec {
  std::int64_t nodes = 1;
  std::int64_t gpus_per_node = 1;
  std::optional<std::int64_t> gpus_per_rack;  // rack-scale products only
  std::optional<std::string> fabric;          // required when the cluster spans more than one NVLink domain
  std::vector<StorageSpec> storage;
  std::vector<SwitchGroupSpec> switch_groups;  // every node in exactly one, when the cluster has a fabric
};

enum class Span : std::uint8_t { node, rack, fabric };
const char* span_name(Span s);  // the registry's scope values: node, rack, fabric

struct Placement {
  std::int64_t node = 0;
  std::int64_t gpu = 0;   // index on the node
  std::int64_t rack = 0;  // the node's rack on a rack-scale product; 0 otherwise
};

class Topology {
 public:
  // Builds the links of cluster from the catalog facts; throws TopologyError naming the refusal.
  static Topology build(const CatalogFacts& facts, const ClusterSpec& cluster);

  const ClusterSpec& cluster() const { return c_; }
  std::int64_t ranks() const { return c_.nodes * c_.gpus_per_node; }
  bool has_rack_tier() const { return nodes_per_rack_.has_value(); }

  Placement place(std::int64_t rank) const;  // throws for a rank outside the cluster
  std::int64_t rank_of(std::int64_t node, std::int64_t gpu) const;
  // The switch group a node sits under (throws when the cluster states none).
  const std::string& group_of(std::int64_t node) const;

  // Whether two ranks share an NVLink domain (a node without NVLink counts as one domain).
  bool same_domain(std::int64_t a, std::int64_t b) const;

  // The links from rank a to rank b, in order; empty when a == b.
  std::vector<std::string> path(std::int64_t a, std::int64_t b) const;
  // The fabric leg from node a's NIC `gpu_a` to node b's NIC `gpu_b` (nodes differ).
  std::vector<std::string> fabric_path(std::int64_t node_a, std::int64_t gpu_a, std::int64_t node_b,
                                       std::int64_t gpu_b) const;
  // The highest tier the ranks span; throws for an empty list.
  Span span(const std::vector<std::int64_t>& ranks) const;

  // A GPU's host link in one direction (to_host: tx); throws when the chip states no host_link.
  std::string host_link(std::int64_t node, std::int64_t gpu, bool to_host) const;

  // The link a storage device of the cluster on `node` reads (reading) or writes through; throws for a
  // device the cluster does not hold or a rate its catalog entry does not state.
  std::string device_link(std::int64_t node, const std::string& device, bool reading) const;

  // Capacity per direction of a named link; throws for a name this topology does not have.
  units::BytesPerS capacity(const std::string& link) const;
  const std::map<std::string, units::BytesPerS>& links() const { return capacity_; }

  // Names a catalog fact the topology lacks, for the refusal of a path that needs it.
  std::string where(const std::string& field) const;

 private:
  ClusterSpec c_;
  std::string chip_;       // the chip's name
  std::string chip_file_;  // its catalog path
  bool nvlink_ = false;    // whether the chip has NVLink ports
  std::optional<std::int64_t> nodes_per_rack_;
  std::map<std::int64_t, std::string> group_of_;  // node -> switch group
  std::map<std::string, units::BytesPerS> capacity_;
  std::optional<std::string> host_link_gap_;  // why host links are absent, when they are
  std::optional<std::string> nic_gap_;        // why NICs are absent, when they are
  // Per storage device, per direction ("read"/"write"): the link suffix ("" when reads and writes share
  // one link), or the refusal when the entry lacks the rate.
  struct DeviceSide {
    std::optional<std::string> suffix;
    std::string gap;
  };
  std::map<std::string, std::map<std::string, DeviceSide>> devices_;
};

// The link names above, from the indices of a place: the topology's own spelling, used by its members
// (which return names) and by tests. Not entry points of the cost model (SUB-6: they take indices and
// directions, not plans or handles), hence detail.
namespace detail {
std::string nvlink_link(std::int64_t node, std::int64_t gpu, bool tx);
std::string host_link_name(std::int64_t node, std::int64_t gpu, bool tx);
std::string nic_link(std::int64_t node, std::int64_t gpu, bool tx);
std::string uplink_link(const std::string& group, bool tx);
std::string rack_switch_link(std::int64_t rack);
}  // namespace detail

}  // namespace blis::cost
