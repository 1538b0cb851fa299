// SUB-17: paths, spans and capacities on three packagings (an NVLink module, a rack-scale product, a PCIe
// card), the demand of collectives and KV moves on them, against hand-computed expectations.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalog_fixture.h"
#include "cost/topology/demand.h"

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
using units::BytesPerS;
using Links = std::vector<std::string>;

// Two H100-SXM nodes of 8 GPUs on InfiniBand NDR (50e9 B/s a port), each node under its own leaf.
ScenarioSpec h100(double oversubscription = 2.0) {
  ScenarioSpec c;
  c.chip = "H100-SXM";
  c.nodes = 2;
  c.gpus_per_node = 8;
  c.fabric = "InfiniBand-NDR";
  c.switch_groups = {{group("leaf-a", {0}, oversubscription), group("leaf-b", {1}, oversubscription)}};
  return c;
}

// Two GB200-NVL72 racks (36 trays of 4 GPUs) on InfiniBand XDR, one switch group per rack.
ScenarioSpec gb200() {
  ScenarioSpec c;
  c.chip = "GB200-NVL72";
  c.nodes = 36;
  c.fabric = "InfiniBand-XDR";
  c.switch_groups = {{group("rack-a", iota(0, 18)), group("rack-b", iota(18, 36))}};
  return c;
}

// Two L40S nodes of 4 GPUs (no NVLink) on RoCE 400GbE under one switch.
ScenarioSpec l40s() {
  ScenarioSpec c;
  c.chip = "L40S";
  c.nodes = 2;
  c.gpus_per_node = 4;
  c.fabric = "RoCE-400GbE";
  c.switch_groups = {{group("leaf", {0, 1})}};
  return c;
}

TEST(TopologyH100, PathsInsideTheNodeUseNvlinkAndAcrossNodesTheNicsAndUplinks) {
  const Topology t = build(h100());
  EXPECT_EQ(t.path(0, 5), (Links{"node0/gpu0/nvlink/tx", "node0/gpu5/nvlink/rx"}));
  EXPECT_EQ(t.path(3, 12), (Links{"node0/nic3/tx", "leaf-a/uplink/tx", "leaf-b/uplink/rx", "node1/nic4/rx"}));
  EXPECT_EQ(t.path(4, 4), Links{});
  EXPECT_EQ(t.capacity("node0/gpu0/nvlink/tx"), BytesPerS{450e9});
  EXPECT_EQ(t.capacity("node1/nic4/rx"), BytesPerS{50e9});
  // One node of 8 NICs at 50e9 below the leaf, oversubscribed 2:1.
  EXPECT_EQ(t.capacity("leaf-a/uplink/tx"), BytesPerS{200e9});
  EXPECT_EQ(t.capacity("node0/host-link/gpu7/rx"), BytesPerS{64e9});  // PCIe Gen5 x16
  EXPECT_EQ(t.span(iota(0, 8)), Span::node);
  EXPECT_EQ(t.span({7, 8}), Span::fabric);
}

TEST(TopologyH100, NodesUnderOneSwitchSkipTheUplink) {
  ScenarioSpec c = h100();
  c.switch_groups = {{group("leaf", {0, 1})}};
  const Topology t = build(c);
  EXPECT_EQ(t.path(3, 12), (Links{"node0/nic3/tx", "node1/nic4/rx"}));
  EXPECT_EQ(t.capacity("leaf/uplink/rx"), BytesPerS{800e9});
}

TEST(TopologyGb200, TheRackIsOneNvlinkDomainThroughItsSwitch) {
  const Topology t = build(gb200());
  const Placement p = t.place(75);
  EXPECT_EQ(p.node, 18);
  EXPECT_EQ(p.gpu, 3);
  EXPECT_EQ(p.rack, 1);
  EXPECT_EQ(t.path(0, 1), (Links{"node0/gpu0/nvlink/tx", "rack0/nvlink-switch", "node0/gpu1/nvlink/rx"}));
  EXPECT_EQ(t.path(0, 5), (Links{"node0/gpu0/nvlink/tx", "rack0/nvlink-switch", "node1/gpu1/nvlink/rx"}));
  EXPECT_EQ(t.path(71, 72), (Links{"node17/nic3/tx", "rack-a/uplink/tx", "rack-b/uplink/rx", "node18/nic0/rx"}));
  EXPECT_EQ(t.capacity("node5/gpu2/nvlink/rx"), BytesPerS{900e9});
  EXPECT_EQ(t.capacity("rack1/nvlink-switch"), BytesPerS{72 * 900e9});
  EXPECT_EQ(t.capacity("node0/nic0/tx"), BytesPerS{100e9});  // no NIC in the chip entry: XDR's port rate
  EXPECT_EQ(t.capacity("rack-b/uplink/rx"), BytesPerS{72 * 100e9});
  EXPECT_EQ(t.span(iota(0, 4)), Span::node);
  EXPECT_EQ(t.span({0, 4}), Span::rack);
  EXPECT_EQ(t.span({0, 72}), Span::fabric);
  EXPECT_TRUE(t.same_domain(0, 71));
  EXPECT_FALSE(t.same_domain(71, 72));
}

TEST(TopologyL40s, WithoutNvlinkGpusOfANodeTalkOverTheirHostLinks) {
  const Topology t = build(l40s());
  EXPECT_EQ(t.path(0, 3), (Links{"node0/host-link/gpu0/tx", "node0/host-link/gpu3/rx"}));
  EXPECT_EQ(t.path(1, 6), (Links{"node0/nic1/tx", "node1/nic2/rx"}));
  EXPECT_EQ(t.capacity("node0/host-link/gpu0/tx"), BytesPerS{32e9});  // PCIe Gen4 x16
  EXPECT_EQ(t.capacity("node1/nic2/rx"), BytesPerS{50e9});
  EXPECT_EQ(t.links().count("node0/gpu0/nvlink/tx"), 0U);
  EXPECT_EQ(t.span({0, 3}), Span::node);
  EXPECT_EQ(t.span({0, 4}), Span::fabric);

  const CollectiveDemand d = collective_demand(t, Collective::all_gather, iota(0, 4), BytesPerRank{4000});
  EXPECT_EQ(d.per_edge, Bytes{3000});  // ceil(3/4 * 4000)
  EXPECT_EQ(d.links.bytes.size(), 8U);
  EXPECT_EQ(d.links.bytes.at("node0/host-link/gpu2/rx"), Bytes{3000});
  EXPECT_EQ(d.bottleneck->link, "node0/host-link/gpu0/rx");
}

TEST(CollectiveDemand, RingInsideANodeLoadsEachNvlinkPortOnce) {
  const Topology t = build(h100());
  const CollectiveDemand d = collective_demand(t, Collective::all_reduce, iota(0, 8), BytesPerRank{1000});
  EXPECT_EQ(d.span, Span::node);
  EXPECT_EQ(d.per_edge, Bytes{1750});  // 2 * 7/8 * 1000
  EXPECT_EQ(d.cross_domain_edges, 0);
  EXPECT_EQ(d.links.bytes.size(), 16U);
  for (const auto& [link, bytes] : d.links.bytes) {
    EXPECT_NE(link.find("/nvlink/"), std::string::npos) << link;
    EXPECT_EQ(bytes, Bytes{1750}) << link;
  }
  ASSERT_TRUE(d.bottleneck);
  EXPECT_EQ(d.bottleneck->link, "node0/gpu0/nvlink/rx");  // equal times: the first by name
  EXPECT_EQ(d.bottleneck->time, Bytes{1750} / BytesPerS{450e9});
}

TEST(CollectiveDemand, RingAcrossNodesLoadsTheNicsAndUplinksItsEdgesCross) {
  // Ring 0 -> 1 -> 8 -> 9 -> 0: edges 1->8 and 9->0 leave their node.
  const std::vector<std::int64_t> ranks{0, 1, 8, 9};
  const CollectiveDemand d = collective_demand(build(h100(2.0)), Collective::all_reduce, ranks, BytesPerRank{1000});
  EXPECT_EQ(d.span, Span::fabric);
  EXPECT_EQ(d.per_edge, Bytes{1500});  // 2 * 3/4 * 1000
  EXPECT_EQ(d.cross_domain_edges, 2);
  const std::map<std::string, Bytes> expected{
      {"leaf-a/uplink/rx", Bytes{1500}},     {"leaf-a/uplink/tx", Bytes{1500}},
      {"leaf-b/uplink/rx", Bytes{1500}},     {"leaf-b/uplink/tx", Bytes{1500}},
      {"node0/gpu0/nvlink/tx", Bytes{1500}}, {"node0/gpu1/nvlink/rx", Bytes{1500}},
      {"node0/nic0/rx", Bytes{1500}},        {"node0/nic1/tx", Bytes{1500}},
      {"node1/gpu0/nvlink/tx", Bytes{1500}}, {"node1/gpu1/nvlink/rx", Bytes{1500}},
      {"node1/nic0/rx", Bytes{1500}},        {"node1/nic1/tx", Bytes{1500}}};
  EXPECT_EQ(d.links.bytes, expected);
  EXPECT_EQ(d.bottleneck->link, "node0/nic0/rx");  // 1500 / 50e9 against the uplinks' 1500 / 200e9

  // Oversubscribed 16:1 the uplinks (400e9 / 16 = 25e9) become the bottleneck.
  const CollectiveDemand o = collective_demand(build(h100(16.0)), Collective::all_reduce, ranks, BytesPerRank{1000});
  EXPECT_EQ(o.links.bytes, expected);
  EXPECT_EQ(o.links.capacity.at("leaf-a/uplink/tx"), BytesPerS{25e9});
  EXPECT_EQ(o.bottleneck->link, "leaf-a/uplink/rx");
  EXPECT_EQ(o.bottleneck->time, Bytes{1500} / BytesPerS{25e9});
}

TEST(CollectiveDemand, AllToAllSplitsEachRanksBytesIntoOneChunkPerPeer) {
  const Topology t = build(h100());
  // 10 bytes over 3 ranks: chunks of 4, 3, 3; the rank whose own chunk is 3 sends 7.
  const CollectiveDemand d = collective_demand(t, Collective::all_to_all, {0, 1, 8}, BytesPerRank{10});
  EXPECT_EQ(d.per_edge, Bytes{7});
  EXPECT_EQ(d.cross_domain_edges, 4);
  EXPECT_EQ(d.links.bytes.at("node0/gpu0/nvlink/tx"), Bytes{3});  // 0 -> 1: chunk 1
  EXPECT_EQ(d.links.bytes.at("node0/gpu1/nvlink/rx"), Bytes{3});
  EXPECT_EQ(d.links.bytes.at("node0/gpu1/nvlink/tx"), Bytes{4});  // 1 -> 0: chunk 0
  EXPECT_EQ(d.links.bytes.at("node0/nic0/tx"), Bytes{3});         // 0 -> 8: chunk 2
  EXPECT_EQ(d.links.bytes.at("node1/nic0/tx"), Bytes{4 + 3});     // 8 -> 0 and 8 -> 1
  EXPECT_EQ(d.links.bytes.at("leaf-a/uplink/tx"), Bytes{3 + 3});  // 0 -> 8 and 1 -> 8
  EXPECT_EQ(d.links.bytes.at("leaf-b/uplink/rx"), Bytes{3 + 3});
}

TEST(CollectiveDemand, SendRecvMovesTheWholeMessageOneWay) {
  const Topology t = build(h100());
  const CollectiveDemand d = collective_demand(t, Collective::send_recv, {2, 10}, BytesPerRank{12345});
  EXPECT_EQ(d.links.bytes, (std::map<std::string, Bytes>{{"leaf-a/uplink/tx", Bytes{12345}},
                                                         {"leaf-b/uplink/rx", Bytes{12345}},
                                                         {"node0/nic2/tx", Bytes{12345}},
                                                         {"node1/nic2/rx", Bytes{12345}}}));
}

TEST(CollectiveDemand, OneRankMovesNothing) {
  const Topology t = build(h100());
  const CollectiveDemand d = collective_demand(t, Collective::all_reduce, {3}, BytesPerRank{1000});
  EXPECT_EQ(d.per_edge, Bytes{0});
  EXPECT_TRUE(d.links.bytes.empty());
  EXPECT_FALSE(d.bottleneck.has_value());
}

// ---- KV moves ----

ScenarioSpec h100_with_storage() {
  ScenarioSpec c = h100();
  c.storage = {StorageAt{"DDR5-4800-12ch", 2, 1000000000000}, StorageAt{"Samsung-PM1743", 4, 15360000000000}};
  return c;
}

Endpoint gpu(std::int64_t node, std::int64_t g) { return Endpoint{node, std::nullopt, "gpu", g}; }
Endpoint dev(std::int64_t node, std::string name, std::optional<std::int64_t> slot = std::nullopt) {
  return Endpoint{node, std::nullopt, std::move(name), slot};
}
KvTransfer move(Endpoint from, Endpoint to) {
  return KvTransfer{units::Tokens{100}, Bytes{1000}, std::move(from), std::move(to)};
}

TEST(TransferDemand, GpuToHostMemoryCrossesTheHostLinkAndTheMemory) {
  const Topology t = build(h100_with_storage());
  const LinkDemand d = transfer_demand(t, move(gpu(0, 2), dev(0, "DDR5-4800-12ch")));
  EXPECT_EQ(d.bytes, (std::map<std::string, Bytes>{{"node0/DDR5-4800-12ch", Bytes{100000}},
                                                   {"node0/host-link/gpu2/tx", Bytes{100000}}}));
  EXPECT_EQ(d.capacity.at("node0/DDR5-4800-12ch"), BytesPerS{2 * 460.8e9});  // two sockets
  EXPECT_EQ(d.capacity.at("node0/host-link/gpu2/tx"), BytesPerS{64e9});
}

TEST(TransferDemand, StorageReadsAndWritesUseTheDrivesOwnRates) {
  const Topology t = build(h100_with_storage());
  const LinkDemand down = transfer_demand(t, move(dev(1, "DDR5-4800-12ch"), dev(1, "Samsung-PM1743")));
  EXPECT_EQ(down.bytes, (std::map<std::string, Bytes>{{"node1/DDR5-4800-12ch", Bytes{100000}},
                                                      {"node1/Samsung-PM1743/write", Bytes{100000}}}));
  EXPECT_EQ(down.capacity.at("node1/Samsung-PM1743/write"), BytesPerS{4 * 6.6e9});
  const LinkDemand up = transfer_demand(t, move(dev(1, "Samsung-PM1743"), gpu(1, 6)));
  EXPECT_EQ(up.bytes, (std::map<std::string, Bytes>{{"node1/Samsung-PM1743/read", Bytes{100000}},
                                                    {"node1/host-link/gpu6/rx", Bytes{100000}}}));
  EXPECT_EQ(up.capacity.at("node1/Samsung-PM1743/read"), BytesPerS{4 * 13e9});
}

TEST(TransferDemand, BetweenNodesTheMoveCrossesNicsAndUplinks) {
  const Topology t = build(h100_with_storage());
  const LinkDemand g = transfer_demand(t, move(gpu(0, 1), gpu(1, 3)));
  EXPECT_EQ(g.bytes, (std::map<std::string, Bytes>{{"leaf-a/uplink/tx", Bytes{100000}},
                                                   {"leaf-b/uplink/rx", Bytes{100000}},
                                                   {"node0/nic1/tx", Bytes{100000}},
                                                   {"node1/nic3/rx", Bytes{100000}}}));
  const LinkDemand h = transfer_demand(t, move(dev(1, "DDR5-4800-12ch", 5), gpu(0, 0)));
  EXPECT_EQ(h.bytes, (std::map<std::string, Bytes>{{"leaf-a/uplink/rx", Bytes{100000}},
                                                   {"leaf-b/uplink/tx", Bytes{100000}},
                                                   {"node0/nic0/rx", Bytes{100000}},
                                                   {"node1/DDR5-4800-12ch", Bytes{100000}},
                                                   {"node1/nic5/tx", Bytes{100000}}}));
}

TEST(TransferDemand, GpuToGpuInARackGoesOverNvlink) {
  const Topology t = build(gb200());
  KvTransfer m = move(gpu(2, 1), gpu(17, 0));
  m.source.rack = 0;
  m.destination.rack = 0;
  EXPECT_EQ(transfer_demand(t, m).bytes, (std::map<std::string, Bytes>{{"node17/gpu0/nvlink/rx", Bytes{100000}},
                                                                       {"node2/gpu1/nvlink/tx", Bytes{100000}},
                                                                       {"rack0/nvlink-switch", Bytes{100000}}}));
}

TEST(Topology, SameInputsGiveTheSameLinksAndBytes) {
  const Topology a = build(gb200());
  const Topology b = build(gb200());
  EXPECT_EQ(a.links(), b.links());
  const auto ranks = std::vector<std::int64_t>{70, 3, 140, 75, 9};
  EXPECT_EQ(collective_demand(a, Collective::reduce_scatter, ranks, BytesPerRank{999}).links.bytes,
            collective_demand(b, Collective::reduce_scatter, ranks, BytesPerRank{999}).links.bytes);
}

}  // namespace
}  // namespace blis::cost
