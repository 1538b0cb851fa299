// A cluster's packaging, resolved once from the scenario and the catalog in use (SUB-3): what the chip's
// entry fixes (a rack-scale product's trays and NVLink domain) comes from the catalog; what it leaves
// open (GPUs per node of a module, host memory, the fabric, storage) comes from the scenario; a
// scenario value that contradicts the catalog, or a name the catalog lacks, is refused.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "contracts/doc/diagnostics.h"
#include "contracts/units.h"
#include "data/data_set.h"
#include "schema/chip.h"
#include "schema/device.h"
#include "schema/network.h"
#include "schema/scenario.h"

namespace blis::data {

struct StorageAtNode {
  schema::Device device;
  std::string device_file;  // catalog path of the entry
  units::Count per_node{};
  std::optional<units::Bytes> capacity;  // the catalog's, else the scenario's, else unknown
};

struct Packaging {
  schema::Chip chip;
  std::string chip_file;  // catalog path, e.g. hardware/H100-SXM.yaml
  units::Count nodes{};
  units::Count gpus_per_node{};
  units::Count gpus{};  // nodes * gpus_per_node
  std::optional<units::Count> gpus_per_rack;           // rack-scale products only
  std::optional<units::Count> gpus_per_nvlink_domain;  // rack-scale: the rack's NVLink domain
  std::optional<schema::Network> nvlink_switch;        // rack-scale: the NVLink switch domain's entry
  std::optional<units::BytesPerNode> host_memory_per_node;
  std::optional<schema::Network> fabric;  // between nodes (between racks on a rack-scale product)
  std::vector<StorageAtNode> storage;
  std::vector<schema::ScenarioSwitchGroup> switch_groups;
};

// Resolves cluster against the catalog of data. Refusals go to d, naming the field (cluster.*), the value,
// the catalog entry and the cause; returns nullopt when there is any.
std::optional<Packaging> resolve_packaging(const schema::ScenarioCluster& cluster, const DataSet& data,
                                           doc::Diagnostics& d);

}  // namespace blis::data
