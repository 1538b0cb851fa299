// The production Environment (src/sim/environment.h) on the embedded catalog and registry, over two
// H100-SXM nodes with host DRAM: each method answers as the part it delegates to does, and refuses an
// unknown name naming it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "contracts/engine/errors.h"
#include "cost/step.h"
#include "data/loader.h"
#include "data/validators.h"
#include "sim/environment.h"
#include "sim/wiring/cluster.h"
#include "sim/wiring/cost_data.h"

namespace {

using namespace blis;
using engine::ContractError;

const data::DataSet& embedded() {
  static const data::DataSet d = [] {
    data::LoadOutcome out = data::load({}, data::standard_validators());
    if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
    return std::move(*out.data);
  }();
  return d;
}

schema::ScenarioCluster two_nodes() {
  schema::ScenarioCluster c;
  c.chip = "H100-SXM";
  c.nodes = units::Count{2};
  c.gpus_per_node = units::Count{8};
  c.fabric = "InfiniBand-NDR";
  schema::ScenarioStorage dram;
  dram.device = "DDR5-4800-12ch";
  dram.per_node = units::Count{2};
  dram.capacity = units::Bytes{1000000000000};
  c.storage.emplace().push_back(dram);
  schema::ScenarioSwitchGroup a, b;
  a.name = "leaf-a";
  a.nodes = {0};
  a.uplink_oversubscription = units::Ratio{1.0};
  b.name = "leaf-b";
  b.nodes = {1};
  b.uplink_oversubscription = units::Ratio{1.0};
  c.switch_groups.emplace() = {a, b};
  return c;
}

sim::SubstrateEnvironment environment(const data::DataSet& data = embedded()) {
  return sim::SubstrateEnvironment(data, sim::cluster_topology(two_nodes(), data));
}

template <class T, class Load>
T fixture(const std::string& name, Load load) {
  const std::string path = std::string(std::getenv("BLIS_SOURCE_ROOT")) + "/tests/cost/fixtures/step/" + name;
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  doc::Diagnostics d{path};
  auto v = load(s.str(), path, d);
  if (!v) throw std::runtime_error(d.str());
  return *v;
}

schema::PoolPlan dense() { return fixture<schema::PoolPlan>("dense-plan.yaml", schema::load_pool_plan); }

// The refusal's message, or "" when f answers.
template <class F>
std::string refusal(F f) {
  try {
    f();
    return "";
  } catch (const ContractError& e) {
    return e.what();
  }
}

TEST(SubstrateEnvironment, GraphsAndChipsAreTheCatalogs) {
  const auto env = environment();
  EXPECT_EQ(env.graph("Qwen/Qwen3-8B").model, "Qwen/Qwen3-8B");
  EXPECT_EQ(env.graph("Qwen/Qwen3-8B").dims.hidden_size.value(), 4096);
  EXPECT_EQ(env.chip("H100-SXM").name, "H100-SXM");
  const std::string model = refusal([&] { env.graph("nobody/model"); });
  EXPECT_NE(model.find("graph: model 'nobody/model' is not in the catalog"), std::string::npos) << model;
  EXPECT_NE(model.find("Qwen/Qwen3-8B"), std::string::npos) << "the known models are listed: " << model;
  const std::string chip = refusal([&] { env.chip("H900"); });
  EXPECT_NE(chip.find("chip: 'H900' is not in the catalog"), std::string::npos) << chip;
}

TEST(SubstrateEnvironment, MemoryIsTheCostModelsBreakdown) {
  const auto env = environment();
  const auto m = env.memory(dense());
  ASSERT_EQ(m.stages.size(), 2u);
  // tests/cost/fixtures/memory/dense.yaml's figures.
  EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].weights.bytes).value(), 1404051456);
  EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].activations.bytes).value(), 209715200);
  EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].graph_pool.bytes).value(), 86179840);
  EXPECT_EQ(m.stages[0].outside_allocator.sources,
            std::vector<std::string>{"(set floor, name memory.outside_allocator.bytes, scope {chip: H100-SXM}, method assumed)"});
  ASSERT_EQ(m.host.size(), 1u);
  EXPECT_EQ(std::get<units::BytesPerNode>(m.host[0].kv_tier.bytes).value(), 4294967296);  // the catalog's DDR5 is host memory

  auto plan = dense();
  plan.chip = "H900";
  const std::string chip = refusal([&] { env.memory(plan); });
  EXPECT_NE(chip.find("memory: plan.chip = H900: not a catalog chip"), std::string::npos) << chip;
  plan = dense();
  (*plan.tiers)[0].device = "DDR4-3200";
  const std::string tier = refusal([&] { env.memory(plan); });
  EXPECT_NE(tier.find("plan.tiers[0].device = DDR4-3200"), std::string::npos) << tier;
}

TEST(SubstrateEnvironment, PriceIsTheCostModelsStepPrice) {
  const auto env = environment();
  const auto step = fixture<schema::StepShape>("decode.yaml", schema::load_step_shape);
  const auto e = env.price(dense(), step);
  const auto direct = cost::price_step(sim::coefficients(embedded()), dense(), step);
  ASSERT_EQ(e.stages.size(), 1u);
  EXPECT_GT(e.stages[0].seconds.value(), 0.0);
  EXPECT_EQ(e.stages[0].seconds.value(), direct.stages[0].seconds.value());
  EXPECT_EQ(e.entries_used, direct.entries_used);

  auto plan = dense();
  plan.chip = "H900";
  const std::string chip = refusal([&] { env.price(plan, step); });
  EXPECT_NE(chip.find("price: plan.chip = H900: not a catalog chip"), std::string::npos) << chip;
  plan = dense();
  (*plan.layers)[2].shape->n.reset();  // the cost model's own refusal, as the contract's error
  const std::string field = refusal([&] { env.price(plan, step); });
  EXPECT_NE(field.find("environment: price: price step: plan.layers[2].shape.n"), std::string::npos) << field;
}

TEST(SubstrateEnvironment, TransferDemandIsTheTopologysPerLinkBytes) {
  const auto env = environment();
  schema::TransferMove m;
  m.tokens = units::Tokens{8};
  m.bytes_per_token = units::Bytes{1000};
  m.source.emplace().node = 0;
  m.source->memory.emplace().gpu.emplace().ranks = units::Count{2};
  m.destination.emplace().node = 0;
  m.destination->memory.emplace().device = "DDR5-4800-12ch";
  EXPECT_EQ(env.transfer_demand(dense(), m).bytes_per_link,
            (std::map<std::string, units::Bytes>{{"node0/DDR5-4800-12ch", units::Bytes{8000}},
                                                 {"node0/host-link/gpu0/tx", units::Bytes{4000}},
                                                 {"node0/host-link/gpu1/tx", units::Bytes{4000}}}));
  m.destination->memory->device = "Samsung-PM1743";  // not a storage device of this cluster
  const std::string dev = refusal([&] { env.transfer_demand(dense(), m); });
  EXPECT_NE(dev.find("Samsung-PM1743"), std::string::npos) << dev;
}

// The embedded registry holds no acceptance profile; these tests add a set to a copy of the data.
data::DataSet with_profiles(const std::string& yaml) {
  data::DataSet d = embedded();
  auto f = std::make_shared<data::LoadedFile>();
  f->tree = data::Tree::registry;
  f->path = "acceptance/test.yaml";
  f->kind = "acceptance-profile";
  f->bytes = yaml;
  d.registry.files.push_back(f);
  return d;
}

std::string profile(const std::string& thinking, double al) {
  return "  - target: Qwen/Qwen3-8B\n    drafter: {checkpoint: example/eagle3-qwen3-8b}\n    method: eagle3\n    k: 3\n"
         "    category: coding\n    thinking: '" + thinking + "'\n    sampling: {temperature: 0}\n    rejection: exact\n"
         "    mean_acceptance_length: " + std::to_string(al) + "\n"
         "    provenance: {cited: {cite: {source: example, quote: 'AL " + std::to_string(al) + "'}, location: Table 1}}\n";
}

const char* kHead =
    "set: test\nwritten_by: registry/scripts/write_acceptance.py\n"
    "sources:\n  example: {kind: published, title: An example, url: 'https://example.org/', publisher: Example}\n"
    "profiles:\n";

TEST(SubstrateEnvironment, AcceptanceAnswersOnlyAnExactKey) {
  const std::string none = refusal([&] { environment().acceptance("Qwen/Qwen3-8B", "example/eagle3-qwen3-8b", "coding"); });
  EXPECT_NE(none.find("no profile of the registry has the exact key model 'Qwen/Qwen3-8B', drafter "
                      "'example/eagle3-qwen3-8b', workload category 'coding'"),
            std::string::npos)
      << none;

  const data::DataSet one = with_profiles(std::string(kHead) + profile("off", 2.5));
  const auto env = environment(one);
  EXPECT_DOUBLE_EQ(env.acceptance("Qwen/Qwen3-8B", "example/eagle3-qwen3-8b", "coding").mean_acceptance_length, 2.5);
  EXPECT_NE(refusal([&] { env.acceptance("Qwen/Qwen3-8B", "example/eagle3-qwen3-8b", "chat"); }), "");
  EXPECT_NE(refusal([&] { env.acceptance("Qwen/Qwen3-8B", "example/other", "coding"); }), "");

  const data::DataSet two = with_profiles(std::string(kHead) + profile("off", 2.5) + profile("on", 2.0));
  const std::string both = refusal([&] { environment(two).acceptance("Qwen/Qwen3-8B", "example/eagle3-qwen3-8b", "coding"); });
  EXPECT_NE(both.find("2 profiles have the key"), std::string::npos) << both;
  EXPECT_NE(both.find("thinking off"), std::string::npos) << both;
  EXPECT_NE(both.find("thinking on"), std::string::npos) << both;
}

}  // namespace
