// The KV move as the engine reports it (plan::Transfer) turned into bytes per link against its plan
// (src/cost/transfer.h), on two H100-SXM nodes of 8 GPUs, each under its own leaf, with host DRAM and NVMe
// drives: hand-computed demands, and each refusal beside its closest accepted move.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "catalog_fixture.h"
#include "contracts/engine/errors.h"
#include "cost/transfer.h"

namespace blis::cost {
namespace {

using engine::ContractError;
using testing::ScenarioSpec;
using testing::StorageAt;
using units::Bytes;
using Demand = std::map<std::string, Bytes>;

const Topology& cluster() {
  static const Topology t = [] {
    ScenarioSpec c;
    c.chip = "H100-SXM";
    c.nodes = 2;
    c.gpus_per_node = 8;
    c.fabric = "InfiniBand-NDR";
    c.switch_groups = {{testing::group("leaf-a", {0}), testing::group("leaf-b", {1})}};
    c.storage = {StorageAt{"DDR5-4800-12ch", 2, 1000000000000}, StorageAt{"Samsung-PM1743", 4, 15360000000000}};
    return testing::build(c);
  }();
  return t;
}

schema::PoolPlan plan(std::optional<std::int64_t> ranks_per_node) {
  schema::PoolPlan p;
  p.chip = "H100-SXM";
  if (ranks_per_node) p.layout.emplace().ranks_per_node = units::CountPerNode{*ranks_per_node};
  return p;
}

schema::TransferMoveEndpoint gpu(std::int64_t node, std::optional<std::int64_t> ranks) {
  schema::TransferMoveEndpoint e;
  e.node = node;
  auto& g = e.memory.emplace().gpu.emplace();
  if (ranks) g.ranks = units::Count{*ranks};
  return e;
}

schema::TransferMoveEndpoint device(std::int64_t node, const std::string& name) {
  schema::TransferMoveEndpoint e;
  e.node = node;
  e.memory.emplace().device = name;
  return e;
}

schema::TransferMove move(std::int64_t tokens, std::int64_t bytes_per_token, schema::TransferMoveEndpoint from,
                          schema::TransferMoveEndpoint to) {
  schema::TransferMove m;
  m.tokens = units::Tokens{tokens};
  m.bytes_per_token = Bytes{bytes_per_token};
  m.source = std::move(from);
  m.destination = std::move(to);
  return m;
}

Demand demand(const schema::PoolPlan& p, const schema::TransferMove& m) { return transfer_demand(cluster(), p, m).bytes_per_link; }

std::string refusal(const schema::PoolPlan& p, const schema::TransferMove& m) {
  try {
    transfer_demand(cluster(), p, m);
    return "";
  } catch (const ContractError& e) {
    return e.what();
  }
}

TEST(PlanTransfer, EachRankOfAGpuEndMovesItsShareOverItsOwnHostLink) {
  // 10 tokens of 1001 bytes from two ranks' GPU memory to host DRAM: 5005 bytes each.
  EXPECT_EQ(demand(plan(2), move(10, 1001, gpu(0, 2), device(0, "DDR5-4800-12ch"))),
            (Demand{{"node0/DDR5-4800-12ch", Bytes{10010}},
                    {"node0/host-link/gpu0/tx", Bytes{5005}},
                    {"node0/host-link/gpu1/tx", Bytes{5005}}}));
  // 3 bytes over two ranks: the first share one byte larger.
  EXPECT_EQ(demand(plan(2), move(1, 3, gpu(0, 2), device(0, "DDR5-4800-12ch"))),
            (Demand{{"node0/DDR5-4800-12ch", Bytes{3}},
                    {"node0/host-link/gpu0/tx", Bytes{2}},
                    {"node0/host-link/gpu1/tx", Bytes{1}}}));
}

TEST(PlanTransfer, UnstatedRanksAreThePlansRanksOnTheNode) {
  const auto m = move(4, 1000, gpu(0, std::nullopt), device(0, "Samsung-PM1743"));
  EXPECT_EQ(demand(plan(4), m), (Demand{{"node0/Samsung-PM1743/write", Bytes{4000}},
                                        {"node0/host-link/gpu0/tx", Bytes{1000}},
                                        {"node0/host-link/gpu1/tx", Bytes{1000}},
                                        {"node0/host-link/gpu2/tx", Bytes{1000}},
                                        {"node0/host-link/gpu3/tx", Bytes{1000}}}));
  // No layout: one rank.
  EXPECT_EQ(demand(plan(std::nullopt), m), (Demand{{"node0/Samsung-PM1743/write", Bytes{4000}},
                                                   {"node0/host-link/gpu0/tx", Bytes{4000}}}));
}

TEST(PlanTransfer, BetweenInstancesOfDifferentWidthsEveryShareCrossesTheFabric) {
  // Two ranks on node 0 to four on node 1: four shares of 1000 bytes, from GPUs 0, 1, 0, 1 to GPUs 0..3.
  EXPECT_EQ(demand(plan(4), move(4, 1000, gpu(0, 2), gpu(1, 4))),
            (Demand{{"leaf-a/uplink/tx", Bytes{4000}},
                    {"leaf-b/uplink/rx", Bytes{4000}},
                    {"node0/nic0/tx", Bytes{2000}},
                    {"node0/nic1/tx", Bytes{2000}},
                    {"node1/nic0/rx", Bytes{1000}},
                    {"node1/nic1/rx", Bytes{1000}},
                    {"node1/nic2/rx", Bytes{1000}},
                    {"node1/nic3/rx", Bytes{1000}}}));
}

TEST(PlanTransfer, ADeviceOnAnotherNodeUsesTheNicsOfTheGpuEnd) {
  EXPECT_EQ(demand(plan(2), move(2, 500, device(1, "DDR5-4800-12ch"), gpu(0, 2))),
            (Demand{{"leaf-a/uplink/rx", Bytes{1000}},
                    {"leaf-b/uplink/tx", Bytes{1000}},
                    {"node0/nic0/rx", Bytes{500}},
                    {"node0/nic1/rx", Bytes{500}},
                    {"node1/DDR5-4800-12ch", Bytes{1000}},
                    {"node1/nic0/tx", Bytes{500}},
                    {"node1/nic1/tx", Bytes{500}}}));
}

TEST(PlanTransfer, Refusals) {
  const auto good = move(1, 64, gpu(0, 2), device(0, "DDR5-4800-12ch"));
  EXPECT_EQ(refusal(plan(2), good), "");
  auto bad = good;
  bad.tokens = units::Tokens{0};
  EXPECT_NE(refusal(plan(2), bad).find("move.tokens = 0 tokens: a move carries at least one token"), std::string::npos)
      << refusal(plan(2), bad);
  bad = good;
  bad.tokens.reset();
  EXPECT_NE(refusal(plan(2), bad).find("move.tokens: not stated"), std::string::npos);
  bad = good;
  bad.bytes_per_token.reset();
  EXPECT_NE(refusal(plan(2), bad).find("move.bytes_per_token: not stated"), std::string::npos);
  bad = good;
  bad.source->memory.reset();
  EXPECT_NE(refusal(plan(2), bad).find("move.source.memory: not stated"), std::string::npos);
  bad = good;
  bad.destination->node.reset();
  EXPECT_NE(refusal(plan(2), bad).find("move.destination.node: not stated"), std::string::npos);
  // More ranks than the plan places on a node.
  bad = move(1, 64, gpu(0, 3), device(0, "DDR5-4800-12ch"));
  EXPECT_NE(refusal(plan(2), bad).find("move.source.memory.gpu.ranks = 3: the plan places 2 rank(s)"), std::string::npos)
      << refusal(plan(2), bad);
  // The topology's refusals, as the contract's error: a node outside the cluster, a device it does not hold.
  EXPECT_EQ(refusal(plan(2), move(1, 64, gpu(1, 2), device(1, "DDR5-4800-12ch"))), "");
  const std::string node = refusal(plan(2), move(1, 64, gpu(2, 2), device(2, "DDR5-4800-12ch")));
  EXPECT_NE(node.find("transfer demand: "), std::string::npos) << node;
  EXPECT_NE(node.find("2"), std::string::npos) << node;
  const std::string dev = refusal(plan(2), move(1, 64, gpu(0, 2), device(0, "DDR4-3200")));
  EXPECT_NE(dev.find("DDR4-3200"), std::string::npos) << dev;
}

}  // namespace
}  // namespace blis::cost
