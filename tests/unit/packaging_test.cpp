// SUB-3: one function resolves a cluster's packaging from the scenario and the catalog. Each refusal is
// tested beside the closest cluster that resolves (SIM-9), against the embedded catalog.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "data/loader.h"
#include "data/packaging.h"

namespace blis::data {
namespace {

using units::Count;

const DataSet& catalog() {
  static const DataSet data = [] {
    LoadOutcome out = load(LoadOptions{}, standard_validators());
    if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
    return *out.data;
  }();
  return data;
}

schema::ScenarioCluster module_cluster(std::int64_t nodes = 1) {
  schema::ScenarioCluster c;
  c.chip = "H100-SXM";
  c.nodes = Count{nodes};
  c.gpus_per_node = Count{8};
  return c;
}

schema::ScenarioSwitchGroup group(std::string name, std::vector<std::int64_t> nodes) {
  schema::ScenarioSwitchGroup g;
  g.name = std::move(name);
  g.nodes = std::move(nodes);
  g.uplink_oversubscription = units::Ratio{1.0};
  return g;
}

// The refusal's text, or "" when the cluster resolves.
std::string refusal(const schema::ScenarioCluster& c) {
  doc::Diagnostics d{"scenario.yaml"};
  auto p = resolve_packaging(c, catalog(), d);
  EXPECT_EQ(p.has_value(), d.ok()) << d.str();
  return d.str();
}

TEST(Packaging, ChipNotInCatalogIsRefusedWithWhereItBelongs) {
  auto c = module_cluster();
  c.chip = "H100-SXMX";
  EXPECT_NE(refusal(c).find("cluster.chip: 'H100-SXMX' is not in the embedded catalog: its entry belongs at "
                            "hardware/H100-SXMX.yaml"),
            std::string::npos)
      << refusal(c);
  EXPECT_EQ(refusal(module_cluster()), "");
}

TEST(Packaging, ModuleNeedsGpusPerNode) {
  auto c = module_cluster();
  c.gpus_per_node.reset();
  EXPECT_NE(refusal(c).find("cluster.gpus_per_node: H100-SXM (catalog hardware/H100-SXM.yaml) is a sxm part that "
                            "leaves GPUs per node open"),
            std::string::npos);
  doc::Diagnostics d;
  auto p = resolve_packaging(module_cluster(2 - 1), catalog(), d);
  ASSERT_TRUE(p) << d.str();
  EXPECT_EQ(p->gpus, Count{8});
  EXPECT_FALSE(p->gpus_per_rack.has_value());
}

TEST(Packaging, ModuleTakesNoRackSize) {
  auto c = module_cluster();
  c.gpus_per_rack = Count{32};
  EXPECT_NE(refusal(c).find("cluster.gpus_per_rack: 32 is refused: H100-SXM (catalog hardware/H100-SXM.yaml) has "
                            "no rack tier"),
            std::string::npos);
  EXPECT_EQ(refusal(module_cluster()), "");
}

TEST(Packaging, RackProductFixesTraysAndRacks) {
  schema::ScenarioCluster c;
  c.chip = "GB200-NVL72";
  c.nodes = Count{18};
  doc::Diagnostics d;
  auto p = resolve_packaging(c, catalog(), d);  // one NVLink domain: no fabric, no switch groups
  ASSERT_TRUE(p) << d.str();
  EXPECT_EQ(p->gpus_per_node, Count{4});
  EXPECT_EQ(p->gpus, Count{72});
  EXPECT_EQ(p->gpus_per_rack, Count{72});
  ASSERT_TRUE(p->nvlink_switch.has_value());

  auto wrong_tray = c;
  wrong_tray.gpus_per_node = Count{8};
  EXPECT_NE(refusal(wrong_tray).find("cluster.gpus_per_node: 8 contradicts GB200-NVL72"), std::string::npos);
  auto same_tray = c;
  same_tray.gpus_per_node = Count{4};
  EXPECT_EQ(refusal(same_tray), "");

  auto wrong_rack = c;
  wrong_rack.gpus_per_rack = Count{64};
  EXPECT_NE(refusal(wrong_rack).find("cluster.gpus_per_rack: 64 contradicts GB200-NVL72"), std::string::npos);
  auto same_rack = c;
  same_rack.gpus_per_rack = Count{72};
  EXPECT_EQ(refusal(same_rack), "");
}

TEST(Packaging, NodesBeyondOneDomainNeedAFabricAndSwitchGroups) {
  auto two = module_cluster(2);
  const std::string r = refusal(two);
  EXPECT_NE(r.find("cluster.fabric: 2 nodes and need a fabric"), std::string::npos) << r;
  EXPECT_NE(r.find("cluster.switch_groups: 2 nodes need switch groups"), std::string::npos) << r;
  two.fabric = "InfiniBand-NDR";
  two.switch_groups = {{group("leaf-a", {0, 1})}};
  EXPECT_EQ(refusal(two), "");

  schema::ScenarioCluster rack;
  rack.chip = "GB200-NVL72";
  rack.nodes = Count{19};  // one tray past the NVLink domain
  EXPECT_NE(refusal(rack).find("cluster.fabric: 19 nodes span more than one NVLink domain"), std::string::npos);
}

TEST(Packaging, UnknownFabricOrDeviceIsRefused) {
  auto c = module_cluster(2);
  c.fabric = "InfiniBand-QDR";
  c.switch_groups = {{group("leaf-a", {0, 1})}};
  EXPECT_NE(refusal(c).find("cluster.fabric: 'InfiniBand-QDR' is not in the embedded catalog: its entry belongs at "
                            "networks/InfiniBand-QDR.yaml"),
            std::string::npos);
  c.fabric = "InfiniBand-NDR";
  schema::ScenarioStorage s;
  s.device = "Samsung-PM9999";
  s.per_node = Count{2};
  c.storage = {{s}};
  EXPECT_NE(refusal(c).find("cluster.storage[0].device: 'Samsung-PM9999' is not in the embedded catalog"),
            std::string::npos);
  (*c.storage)[0].device = "Samsung-PM1743";
  EXPECT_EQ(refusal(c), "");
}

TEST(Packaging, SwitchGroupsCoverEveryNodeOnce) {
  auto c = module_cluster(3);
  c.fabric = "InfiniBand-NDR";
  c.switch_groups = {{group("a", {0, 1}), group("b", {2})}};
  EXPECT_EQ(refusal(c), "");
  auto missing = c;
  missing.switch_groups = {{group("a", {0, 1})}};
  EXPECT_NE(refusal(missing).find("node 2 is under no switch group"), std::string::npos);
  auto twice = c;
  twice.switch_groups = {{group("a", {0, 1}), group("b", {1, 2})}};
  EXPECT_NE(refusal(twice).find("node 1 is already under switch group 'a'"), std::string::npos);
  auto beyond = c;
  beyond.switch_groups = {{group("a", {0, 1}), group("b", {2, 3})}};
  EXPECT_NE(refusal(beyond).find("node 3 does not exist: the cluster has nodes 0 to 2"), std::string::npos);
  auto same_name = c;
  same_name.switch_groups = {{group("a", {0, 1}), group("a", {2})}};
  EXPECT_NE(refusal(same_name).find("'a' names two groups"), std::string::npos);
}

}  // namespace
}  // namespace blis::data
