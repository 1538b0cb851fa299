// The conformance Environment prices from fixed values: each answer hand-computed here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "environment.h"
#include "schema/pool-plan.h"
#include "schema/step-shape.h"

namespace {

using namespace blis;

template <class T, class Load>
T load(const std::string& rel, Load fn) {
  const std::string path = std::string(std::getenv("BLIS_SOURCE_ROOT")) + "/" + rel;
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  doc::Diagnostics d{path};
  auto v = fn(s.str(), path, d);
  if (!v) throw std::runtime_error(d.str());
  return *v;
}

conformance::FixedValues values() {
  conformance::FixedValues v;
  v.seconds_per_step = 1e-4;
  v.seconds_per_token = 1e-6;
  v.seconds_per_request = 1e-5;
  v.activation_bytes_per_token = 1000;
  v.graph_pool_bytes_per_graph = 1 << 20;
  v.outside_allocator_bytes = 500;
  return v;
}

TEST(ConformanceEnvironment, PricesFromTheFixedValues) {
  const conformance::Environment env(values());
  const auto plan = load<schema::PoolPlan>("tests/cost/fixtures/step/dense-plan.yaml", schema::load_pool_plan);
  auto step = load<schema::StepShape>("tests/cost/fixtures/step/decode.yaml", schema::load_step_shape);
  // Padded to 4 tokens and 4 requests.
  EXPECT_DOUBLE_EQ(env.price(plan, step).stages.at(0).seconds.value(), 1e-4 + 4 * 1e-6 + 4 * 1e-5);
  step.mode = "prebuilt";
  EXPECT_DOUBLE_EQ(env.price(plan, step).stages.at(0).seconds.value(), 1e-4);
}

TEST(ConformanceEnvironment, MemoryOfThePartialPlanExample) {
  const conformance::Environment env(values());
  const auto plan = load<schema::PoolPlan>("schemas/examples/pool-plan/partial.yaml", schema::load_pool_plan);
  const auto m = env.memory(plan);
  ASSERT_EQ(m.stages.size(), 1u);
  // The profiling step launches 8192 tokens; two graph buckets on stage 0.
  EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].activations.bytes).value(), 8192 * 1000);
  EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].graph_pool.bytes).value(), 2 << 20);
  EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].outside_allocator.bytes).value(), 500);
  ASSERT_EQ(m.host.size(), 1u);
}

TEST(ConformanceEnvironment, RefusesWhatTheTestDidNotGive) {
  conformance::Environment env(values());
  EXPECT_THROW(env.chip("H100-SXM"), engine::ContractError);
  schema::Chip c;
  c.name = "H100-SXM";
  env.add_chip(c);
  EXPECT_EQ(env.chip("H100-SXM").name, "H100-SXM");
  EXPECT_THROW(env.graph("blis-test/dense"), engine::ContractError);
  EXPECT_THROW(env.acceptance("a", "b", "c"), engine::ContractError);
}

TEST(ConformanceEnvironment, TransferDemandIsTokensTimesBytes) {
  const conformance::Environment env(values());
  schema::TransferMove m;
  EXPECT_THROW(env.transfer_demand({}, m), engine::ContractError);
  m.tokens = units::Tokens{32};
  m.bytes_per_token = units::Bytes{4096};
  m.source.emplace().node = 0;
  m.destination.emplace().node = 1;
  const auto d = env.transfer_demand({}, m);
  ASSERT_EQ(d.bytes_per_link.size(), 1u);
  EXPECT_EQ(d.bytes_per_link.at("node0->1").value(), 32 * 4096);
}

}  // namespace
