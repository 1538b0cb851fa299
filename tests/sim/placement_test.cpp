// Placing instances on the cluster's nodes (src/sim/run/placement.h): first fit, largest first, every
// instance within one node; each refusal beside the closest input that is accepted (SIM-9).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/run/placement.h"

namespace blis::sim {
namespace {

std::vector<InstanceDemand> demands(const std::vector<std::pair<std::string, std::int64_t>>& pools_sizes) {
  std::vector<InstanceDemand> out;
  std::int64_t replica = 0;
  std::string last;
  for (const auto& [pool, size] : pools_sizes) {
    replica = pool == last ? replica + 1 : 0;
    last = pool;
    out.push_back(InstanceDemand{pool, replica, "pools[x].engine.args", size});
  }
  return out;
}

std::string refusal(std::int64_t nodes, std::int64_t per_node, const std::vector<InstanceDemand>& d) {
  try {
    place_instances(nodes, per_node, d);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Placement, LargestFirstEachOnTheLowestNodeWithRoomInBuildOrderAmongEquals) {
  // Build order a/0 (1), a/1 (1), b/0 (4), c/0 (2) on 2 nodes of 4: b/0 goes first (node 0, all of it);
  // c/0 next (node 1, 0-1); then a/0 and a/1, equal sizes, in build order (node 1, 2 and 3).
  const auto d = demands({{"a", 1}, {"a", 1}, {"b", 4}, {"c", 2}});
  ASSERT_EQ(d[1].replica, 1);
  const std::vector<Placement> p = place_instances(2, 4, d);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[2].node, 0);
  EXPECT_EQ(p[2].first_accelerator, 0);
  EXPECT_EQ(p[3].node, 1);
  EXPECT_EQ(p[3].first_accelerator, 0);
  EXPECT_EQ(p[0].node, 1);
  EXPECT_EQ(p[0].first_accelerator, 2);
  EXPECT_EQ(p[1].node, 1);
  EXPECT_EQ(p[1].first_accelerator, 3);
  std::vector<InstanceInfo> infos;
  for (std::size_t i = 0; i < d.size(); ++i) {
    InstanceInfo in;
    in.pool = d[i].pool;
    in.instance = d[i].replica;
    in.gpus = d[i].accelerators;
    in.node = p[i].node;
    in.first_accelerator = p[i].first_accelerator;
    infos.push_back(in);
  }
  EXPECT_EQ(describe_placement(infos), "node 0: b/0 (0-3); node 1: c/0 (0-1), a/0 (2), a/1 (3)");
}

TEST(Placement, LargestFirstFitsWhatBuildOrderWouldNot) {
  // Why largest first: in build order 2, 2, 4, 4 on 2 nodes of 6 would put both 2s on node 0 and the first 4
  // on node 1, leaving 2 free on each for the second 4. Largest first places 4, 4, then 2, 2: all fit.
  const auto d = demands({{"s", 2}, {"s", 2}, {"l", 4}, {"l", 4}});
  const std::vector<Placement> p = place_instances(2, 6, d);
  EXPECT_EQ(p[2].node, 0);
  EXPECT_EQ(p[3].node, 1);
  EXPECT_EQ(p[0].node, 0);
  EXPECT_EQ(p[0].first_accelerator, 4);
  EXPECT_EQ(p[1].node, 1);
  EXPECT_EQ(p[1].first_accelerator, 4);
}

// Refused: three 4-accelerator instances on 2 nodes of 6 (12 in total, 12 needed, but 2 left on each node);
// accepted: two 4s and two 2s on the same nodes.
TEST(RefusalPairs, AnInstanceNeedsRoomOnOneNodeNotInTotal) {
  const std::string why = refusal(2, 6, demands({{"big", 4}, {"big", 4}, {"big", 4}}));
  EXPECT_NE(why.find("pools[x].engine.args: instance big/2 needs 4 accelerators on one node"), std::string::npos) << why;
  EXPECT_NE(why.find("free: node 0: 2, node 1: 2; enough in total, but split across nodes"), std::string::npos) << why;
  const auto p = place_instances(2, 6, demands({{"big", 4}, {"big", 4}, {"small", 2}, {"small", 2}}));
  EXPECT_EQ(p[2].node, 0);
  EXPECT_EQ(p[2].first_accelerator, 4);
  EXPECT_EQ(p[3].node, 1);
}

// Refused: an instance of 8 on nodes of 4 (it would span nodes); accepted: the same 8 accelerators as two 4s.
TEST(RefusalPairs, AnInstanceLargerThanANodeIsRefusedByName) {
  const std::string why = refusal(2, 4, demands({{"tp8", 8}}));
  EXPECT_NE(why.find("instance tp8/0 occupies 8 accelerators, more than one node's 4 (cluster.gpus_per_node); an "
                     "instance spanning nodes is not simulated by this build"),
            std::string::npos)
      << why;
  EXPECT_EQ(refusal(2, 4, demands({{"tp4", 4}, {"tp4", 4}})), "");
}

// Refused: a fifth instance of 2 where 2 nodes of 4 hold four; accepted: four.
TEST(RefusalPairs, MoreInstancesThanTheNodesHoldAreRefused) {
  const std::string why = refusal(2, 4, demands({{"s", 2}, {"s", 2}, {"s", 2}, {"s", 2}, {"s", 2}}));
  EXPECT_NE(why.find("instance s/4 needs 2 accelerators on one node"), std::string::npos) << why;
  EXPECT_EQ(why.find("enough in total"), std::string::npos) << why;
  EXPECT_EQ(refusal(2, 4, demands({{"s", 2}, {"s", 2}, {"s", 2}, {"s", 2}})), "");
}

TEST(Placement, TheClusterItselfMustHoldANodeAndAnAccelerator) {
  EXPECT_NE(refusal(0, 4, demands({{"a", 1}})).find("cluster.nodes: 0"), std::string::npos);
  EXPECT_NE(refusal(1, 0, demands({{"a", 1}})).find("cluster.gpus_per_node: 0"), std::string::npos);
  EXPECT_EQ(refusal(1, 1, demands({{"a", 1}})), "");
}

}  // namespace
}  // namespace blis::sim
