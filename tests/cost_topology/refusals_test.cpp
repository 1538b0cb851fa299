// SUB-17 refusals, each beside the closest input that is accepted (SIM-9): a rank outside the cluster, a
// node under no switch group, a catalog fact the path needs and the catalog does not state, and the
// malformed groups and moves around them.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "catalog_fixture.h"
#include "cost/topology/demand.h"

#ifndef BLIS_SOURCE_ROOT
#error "BLIS_SOURCE_ROOT must name the source tree (the overlay fixtures live there)"
#endif

namespace blis::cost {
namespace {

using testing::build;
using testing::catalog;
using testing::group;
using testing::iota;
using testing::ScenarioSpec;
using testing::StorageAt;
using units::Bytes;
using units::BytesPerRank;

// The refusal's message, or "" when f is accepted.
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const TopologyError& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_REFUSED(call, text)                                              \
  do {                                                                          \
    const std::string why = refusal([&] { call; });                             \
    EXPECT_NE(why.find(text), std::string::npos) << "refusal: '" << why << "'"; \
  } while (0)
#define EXPECT_ACCEPTED(call) EXPECT_EQ(refusal([&] { call; }), "")

ScenarioSpec h100(std::int64_t nodes) {
  ScenarioSpec c;
  c.chip = "H100-SXM";
  c.nodes = nodes;
  c.gpus_per_node = 8;
  c.fabric = "InfiniBand-NDR";
  c.switch_groups = {{group("leaf-a", iota(0, nodes))}};
  return c;
}

TEST(Refusals, RankOutsideTheCluster) {
  const Topology t = build(h100(2));
  EXPECT_REFUSED(collective_demand(t, Collective::all_reduce, {0, 16}, BytesPerRank{8}),
                 "rank 16 is outside the cluster: H100-SXM, 2 nodes of 8 GPUs, has ranks 0 to 15");
  EXPECT_ACCEPTED(collective_demand(t, Collective::all_reduce, {0, 15}, BytesPerRank{8}));
  EXPECT_REFUSED(t.path(-1, 3), "rank -1 is outside the cluster");
  EXPECT_ACCEPTED(t.path(0, 3));
}

TEST(Refusals, NodeUnderNoSwitchGroup) {
  ScenarioSpec c = h100(3);
  c.switch_groups = {{group("leaf-a", {0, 1}), group("leaf-b", {2})}};
  auto [facts, cluster] = testing::resolve(c, catalog());
  EXPECT_ACCEPTED(Topology::build(facts, cluster));
  cluster.switch_groups = {group("leaf-a", {0, 1})};
  EXPECT_REFUSED(Topology::build(facts, cluster), "cluster.switch_groups: node 2 is under no switch group");
  // The scenario's own form is refused where it is resolved, before any topology.
  c.switch_groups = {{group("leaf-a", {0, 1})}};
  EXPECT_REFUSED(build(c), "cluster.switch_groups: node 2 is under no switch group");
}

TEST(Refusals, ResolvedClusterThatContradictsItsChip) {
  ScenarioSpec c;
  c.chip = "GB200-NVL72";
  c.nodes = 2;
  auto [facts, cluster] = testing::resolve(c, catalog());
  EXPECT_ACCEPTED(Topology::build(facts, cluster));
  ClusterSpec wrong = cluster;
  wrong.gpus_per_node = 8;
  EXPECT_REFUSED(Topology::build(facts, wrong),
                 "cluster.gpus_per_node: 8 contradicts GB200-NVL72 (catalog hardware/GB200-NVL72.yaml), whose trays "
                 "hold 4 GPUs");
  wrong = cluster;
  wrong.nodes = 19;  // a second rack, and no fabric between the racks
  EXPECT_REFUSED(Topology::build(facts, wrong),
                 "cluster.fabric: absent, but the cluster's 19 nodes span 2 NVLink domains");
}

TEST(Refusals, CatalogFactTheCallerDidNotLoad) {
  auto [facts, cluster] = testing::resolve(h100(2), catalog());
  EXPECT_ACCEPTED(Topology::build(facts, cluster));
  facts.networks.erase("PCIe-Gen5-x16");
  EXPECT_REFUSED(Topology::build(facts, cluster),
                 "H100-SXM (catalog hardware/H100-SXM.yaml) host_link.network: network 'PCIe-Gen5-x16' is not among "
                 "the catalog facts given");
}

TEST(Refusals, HostLinkTheChipDoesNotState) {
  ScenarioSpec gb;
  gb.chip = "GB200-NVL72";
  gb.nodes = 2;
  gb.storage = {StorageAt{"DDR5-4800-12ch", 1, 500000000000}};
  const Topology t = build(gb);
  const KvTransfer offload{units::Tokens{16}, Bytes{4096}, Endpoint{0, 0, "gpu", 1},
                           Endpoint{0, 0, "DDR5-4800-12ch", std::nullopt}};
  EXPECT_REFUSED(transfer_demand(t, offload),
                 "GB200-NVL72 (catalog hardware/GB200-NVL72.yaml) states no host_link: a path through the GPU's "
                 "host link cannot be priced");
  ScenarioSpec h = h100(1);
  h.storage = gb.storage;
  EXPECT_ACCEPTED(transfer_demand(build(h), offload));
}

TEST(Refusals, FabricPortRateTheCatalogDoesNotState) {
  // The overlay replaces RoCE-400GbE with the same entry less its port_bandwidth_per_direction.
  data::LoadOptions overlay;
  overlay.catalog_overlays = {std::string(BLIS_SOURCE_ROOT) + "/tests/cost_topology/fixtures/roce-without-port-rate"};
  const data::DataSet without = testing::load_catalog(overlay);
  ScenarioSpec c = h100(2);
  c.fabric = "RoCE-400GbE";
  EXPECT_REFUSED(build(c, without),
                 "RoCE-400GbE (catalog networks/RoCE-400GbE.yaml) states no port_bandwidth_per_direction, and "
                 "H100-SXM (catalog hardware/H100-SXM.yaml) states no nic: the NIC rate cannot be set");
  EXPECT_ACCEPTED(build(c));
}

TEST(Refusals, FabricThatIsNotBetweenNodes) {
  ScenarioSpec c = h100(2);
  c.fabric = "NVLink-4";
  EXPECT_REFUSED(build(c), "cluster.fabric: 'NVLink-4' is a nvlink network, not one between nodes");
  c.fabric = "RoCE-400GbE";
  EXPECT_ACCEPTED(build(c));
}

TEST(Refusals, FabricOtherThanTheChipsNic) {
  ScenarioSpec c;
  c.chip = "GB300-NVL72";
  c.nodes = 36;
  c.fabric = "InfiniBand-NDR";
  c.switch_groups = {{group("rack-a", iota(0, 18)), group("rack-b", iota(18, 36))}};
  EXPECT_REFUSED(
      build(c), "cluster.fabric: 'InfiniBand-NDR' differs from the network InfiniBand-XDR that the NIC of GB300-NVL72");
  c.fabric = "InfiniBand-XDR";
  EXPECT_ACCEPTED(build(c));
}

TEST(Refusals, OversubscriptionBelowOne) {
  ScenarioSpec c = h100(2);
  c.switch_groups = {{group("leaf-a", {0, 1}, 0.5)}};
  EXPECT_REFUSED(build(c), "cluster.switch_groups[0].uplink_oversubscription: 0.5 is refused");
  c.switch_groups = {{group("leaf-a", {0, 1}, 1.0)}};
  EXPECT_ACCEPTED(build(c));
}

TEST(Refusals, GroupsThatAreNotGroups) {
  const Topology t = build(h100(2));
  EXPECT_REFUSED(collective_demand(t, Collective::all_gather, {}, BytesPerRank{8}), "a group of no ranks is refused");
  EXPECT_ACCEPTED(collective_demand(t, Collective::all_gather, {4}, BytesPerRank{8}));
  EXPECT_REFUSED(collective_demand(t, Collective::all_gather, {4, 5, 4}, BytesPerRank{8}), "rank 4 appears twice");
  EXPECT_ACCEPTED(collective_demand(t, Collective::all_gather, {4, 5, 6}, BytesPerRank{8}));
  EXPECT_REFUSED(collective_demand(t, Collective::send_recv, {1, 2, 3}, BytesPerRank{8}),
                 "send_recv: 3 ranks are refused");
  EXPECT_ACCEPTED(collective_demand(t, Collective::send_recv, {1, 2}, BytesPerRank{8}));
  EXPECT_REFUSED(collective_demand(t, Collective::all_reduce, {1, 2}, BytesPerRank{-1}), "is refused: negative");
  EXPECT_ACCEPTED(collective_demand(t, Collective::all_reduce, {1, 2}, BytesPerRank{0}));
}

TEST(Refusals, MovesThatDoNotSayEnough) {
  ScenarioSpec c = h100(2);
  c.storage = {StorageAt{"DDR5-4800-12ch", 2, 1000000000000}};
  const Topology t = build(c);
  const auto move = [](Endpoint a, Endpoint b) { return KvTransfer{units::Tokens{4}, Bytes{64}, a, b}; };
  const Endpoint host0{0, std::nullopt, "DDR5-4800-12ch", std::nullopt};
  EXPECT_REFUSED(transfer_demand(t, move(Endpoint{0, std::nullopt, "gpu", std::nullopt}, host0)),
                 "transfer.source.gpu: absent, but the endpoint is a GPU");
  EXPECT_ACCEPTED(transfer_demand(t, move(Endpoint{0, std::nullopt, "gpu", 3}, host0)));
  EXPECT_REFUSED(transfer_demand(t, move(host0, Endpoint{1, std::nullopt, "gpu", 3})),
                 "transfer.source.gpu: absent, but the move leaves node 0");
  EXPECT_ACCEPTED(
      transfer_demand(t, move(Endpoint{0, std::nullopt, "DDR5-4800-12ch", 2}, Endpoint{1, std::nullopt, "gpu", 3})));
  EXPECT_REFUSED(
      transfer_demand(t, move(Endpoint{0, std::nullopt, "gpu", 3}, Endpoint{0, std::nullopt, "DDR5-4800-12ch", 3})),
      "transfer.destination.gpu: refused");
  EXPECT_REFUSED(transfer_demand(t, move(Endpoint{0, 1, "gpu", 3}, host0)),
                 "transfer.source.rack: 1 disagrees with node 0, which is in rack 0 (the chip has no rack tier)");
  EXPECT_ACCEPTED(transfer_demand(t, move(Endpoint{0, 0, "gpu", 3}, host0)));
  EXPECT_REFUSED(transfer_demand(t, move(Endpoint{0, 0, "gpu", 3}, Endpoint{0, 0, "Samsung-PM1743", std::nullopt})),
                 "device 'Samsung-PM1743' is not among cluster.storage (it holds DDR5-4800-12ch)");
  EXPECT_REFUSED(transfer_demand(t, move(Endpoint{1, 0, "gpu", 3}, Endpoint{1, 0, "gpu", 3})), "nothing moves");
  EXPECT_ACCEPTED(transfer_demand(t, move(Endpoint{1, 0, "gpu", 3}, Endpoint{1, 0, "gpu", 4})));
  KvTransfer none = move(Endpoint{1, 0, "gpu", 3}, Endpoint{1, 0, "gpu", 4});
  none.tokens = units::Tokens{0};
  EXPECT_REFUSED(transfer_demand(t, none), "transfer.tokens: 0 tokens is refused");
  EXPECT_REFUSED(transfer_demand(t, move(Endpoint{2, 0, "gpu", 3}, host0)), "node 2 is outside the cluster");
}

}  // namespace
}  // namespace blis::cost
