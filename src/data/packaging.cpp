#include "data/packaging.h"

#include <map>
#include <set>

#include "contracts/doc/kinds.h"

namespace blis::data {
namespace {

// Loads the catalog entry at rel with its generated reader, or refuses naming where it belongs.
template <class T>
std::optional<T> entry(const DataSet& data, const std::string& rel, const std::string& field, const std::string& name,
                       doc::Mark at, doc::Diagnostics& d,
                       std::optional<T> (*load)(std::string_view, std::string_view, doc::Diagnostics&)) {
  const FileRef file = data.catalog.find(rel);
  if (!file) {
    d.add(at, field, "'" + name + "' is not in " + data.catalog.source_text() + ": its entry belongs at " + rel);
    return std::nullopt;
  }
  doc::Diagnostics inner{file->location()};
  auto value = load(file->bytes, file->path, inner);
  if (!value) d.add(at, field, "the catalog entry " + file->location() + " does not load:\n" + inner.str());
  return value;
}

std::string count(units::Count c) { return std::to_string(c.value()); }

}  // namespace

std::optional<Packaging> resolve_packaging(const schema::ScenarioCluster& cluster, const DataSet& data,
                                           doc::Diagnostics& d) {
  const std::size_t before = d.list().size();
  Packaging p;
  const doc::Mark at = cluster.mark_;
  p.chip_file = "hardware/" + cluster.chip + ".yaml";
  auto chip = entry<schema::Chip>(data, p.chip_file, "cluster.chip", cluster.chip, at, d, &schema::load_chip);
  if (!chip) return std::nullopt;
  p.chip = *chip;
  p.nodes = cluster.nodes;
  const std::string who = cluster.chip + " (catalog " + p.chip_file + ")";

  units::Count nodes_per_fabric_domain{1};  // nodes reachable without the fabric
  if (p.chip.rack) {
    const auto& rack = *p.chip.rack;
    p.gpus_per_node = rack.gpus_per_tray.value;
    p.gpus_per_rack = rack.gpus_per_rack.value;
    p.gpus_per_nvlink_domain = rack.gpus_per_nvlink_domain.value;
    if (cluster.gpus_per_node && *cluster.gpus_per_node != rack.gpus_per_tray.value)
      d.add(at, "cluster.gpus_per_node",
            count(*cluster.gpus_per_node) + " contradicts " + who + ", whose trays hold " +
                count(rack.gpus_per_tray.value) + " GPUs (omit it, or state the catalog's value)");
    if (cluster.gpus_per_rack && *cluster.gpus_per_rack != rack.gpus_per_rack.value)
      d.add(at, "cluster.gpus_per_rack",
            count(*cluster.gpus_per_rack) + " contradicts " + who + ", whose racks hold " +
                count(rack.gpus_per_rack.value) + " GPUs (omit it, or state the catalog's value)");
    p.nvlink_switch = entry<schema::Network>(data, "networks/" + rack.nvlink_switch + ".yaml", "cluster.chip",
                                             rack.nvlink_switch, at, d, &schema::load_network);
    if (rack.gpus_per_tray.value.value() > 0)
      nodes_per_fabric_domain = units::floor_div(rack.gpus_per_nvlink_domain.value, rack.gpus_per_tray.value);
  } else {
    if (!cluster.gpus_per_node)
      d.add(at, "cluster.gpus_per_node", who + " is a " + p.chip.packaging +
                                             " part that leaves GPUs per node open: state cluster.gpus_per_node");
    else
      p.gpus_per_node = *cluster.gpus_per_node;
    if (cluster.gpus_per_rack)
      d.add(at, "cluster.gpus_per_rack",
            count(*cluster.gpus_per_rack) + " is refused: " + who + " has no rack tier, so it takes no rack size");
  }
  p.gpus = units::Count{p.nodes.value() * p.gpus_per_node.value()};
  p.host_memory_per_node = cluster.host_memory_per_node;

  const bool needs_fabric = p.nodes > nodes_per_fabric_domain;
  if (cluster.fabric) {
    p.fabric = entry<schema::Network>(data, "networks/" + *cluster.fabric + ".yaml", "cluster.fabric", *cluster.fabric,
                                      at, d, &schema::load_network);
  } else if (needs_fabric) {
    d.add(at, "cluster.fabric",
          count(p.nodes) + " nodes" + (p.chip.rack ? " span more than one NVLink domain" : "") +
              " and need a fabric between them: name one from the catalog's networks/");
  }

  if (cluster.storage) {
    for (std::size_t i = 0; i < cluster.storage->size(); ++i) {
      const auto& s = (*cluster.storage)[i];
      const std::string field = "cluster.storage[" + std::to_string(i) + "]";
      StorageAtNode at_node;
      at_node.device_file = "devices/" + s.device + ".yaml";
      auto dev = entry<schema::Device>(data, at_node.device_file, field + ".device", s.device, s.mark_, d,
                                       &schema::load_device);
      if (!dev) continue;
      at_node.device = *dev;
      at_node.per_node = s.per_node;
      if (dev->capacity) {
        at_node.capacity = dev->capacity->value;
        if (s.capacity && *s.capacity != dev->capacity->value)
          d.add(s.mark_, field + ".capacity",
                std::to_string(s.capacity->value()) + " contradicts " + s.device + " (catalog " + at_node.device_file +
                    "), whose capacity is " + std::to_string(dev->capacity->value.value()) + " bytes");
      } else {
        at_node.capacity = s.capacity;
      }
      p.storage.push_back(std::move(at_node));
    }
  }

  if (cluster.switch_groups) {
    std::map<std::int64_t, std::string> owner;  // node -> group
    std::set<std::string> names;
    for (std::size_t g = 0; g < cluster.switch_groups->size(); ++g) {
      const auto& group = (*cluster.switch_groups)[g];
      const std::string field = "cluster.switch_groups[" + std::to_string(g) + "]";
      if (!names.insert(group.name).second) d.add(group.mark_, field + ".name", "'" + group.name + "' names two groups");
      for (const auto node : group.nodes) {
        if (node >= p.nodes.value())
          d.add(group.mark_, field + ".nodes",
                "node " + std::to_string(node) + " does not exist: the cluster has nodes 0 to " +
                    std::to_string(p.nodes.value() - 1));
        else if (auto [it, fresh] = owner.emplace(node, group.name); !fresh)
          d.add(group.mark_, field + ".nodes",
                "node " + std::to_string(node) + " is already under switch group '" + it->second + "'");
      }
    }
    for (std::int64_t n = 0; n < p.nodes.value(); ++n) {
      if (!owner.count(n)) {
        d.add(at, "cluster.switch_groups", "node " + std::to_string(n) + " is under no switch group");
        break;
      }
    }
    p.switch_groups = *cluster.switch_groups;
  } else if (needs_fabric) {
    d.add(at, "cluster.switch_groups",
          count(p.nodes) + " nodes need switch groups: say which nodes sit under each switch");
  }
  if (d.list().size() != before) return std::nullopt;
  return p;
}

}  // namespace blis::data
