// SUB-5's collective property on its known-bad fixture (tests/cost/fixtures/collective-faster-with-group):
// an all-reduce efficiency that rises with the group must be found; on the embedded registry, its twin,
// nothing is found. (The compute and memory properties' known-bad run is the record's, through
// cost-physics-test.)
#include <gtest/gtest.h>

#include "calls.h"
#include "cost_data.h"
#include "physics.h"

namespace {

using namespace blis::cost;
using namespace blis::cost::testing;

TEST(PhysicsKnownBad, ACollectiveThatSpeedsUpWithItsGroupIsFound) {
  blis::data::LoadOptions o;
  o.registry_overlays.push_back(source_root() + "/tests/cost/fixtures/collective-faster-with-group");
  const auto bad = load_data(o);
  const Coefficients c = blis::cost::testing::floor_coefficients(bad);  // the fixture against the floor
  const PrimitiveCall call = representative_call("collective.all_reduce", "H100-SXM", "bf16", std::string("node"));
  const std::string v = collective_faster_with_group(c, call, 4, 8);
  EXPECT_NE(v.find("gets faster as the group grows"), std::string::npos) << v;
  // Below and above the group-size-8 entry the efficiency is flat again: no finding.
  EXPECT_EQ(collective_faster_with_group(c, call, 2, 4), "");
  EXPECT_EQ(collective_faster_with_group(c, call, 16, 32), "");
}

TEST(PhysicsKnownBad, TheEmbeddedRegistryIsClean) {
  const auto good = load_data();
  const Coefficients c = blis::cost::testing::coefficients(good);
  const PrimitiveCall call = representative_call("collective.all_reduce", "H100-SXM", "bf16", std::string("node"));
  EXPECT_EQ(collective_faster_with_group(c, call, 4, 8), "");
}

}  // namespace
