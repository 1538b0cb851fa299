// SUB-14: the memory breakdown (src/cost/memory.h) on the step fixtures. Two parts:
//   - the term check (Figures): every *.yaml of a directory (tests/cost/fixtures/memory/ by default, or
//     the program's one argument) names a plan and states its breakdown term by term, each figure with
//     its basis and sources, computed by hand in the file's comments. Each term of the breakdown must
//     have exactly its figure there, and each figure there must be a term of the breakdown, so a term
//     folded into another, or one missing, fails (the record's known-bad input is such a file);
//   - the rules, each beside the input closest to it that the rule does not touch, and the refusals, each
//     the smallest refused input beside the closest accepted one.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "contracts/engine/errors.h"
#include "cost/memory.h"
#include "schema/device.h"
#include "step_fixture.h"

namespace {

using namespace blis;
using namespace blis::cost;
using namespace blis::cost::testing;
using engine::ContractError;

std::string g_dir;  // the term check's directory, when given

const MemoryCatalog& catalog() {
  static const MemoryCatalog c = [] {
    const data::DataSet data = load_data();
    MemoryCatalog out;
    for (const auto& f : data.catalog.of_kind("device")) {
      doc::Diagnostics d{f->location()};
      auto dev = schema::load_device(f->bytes, f->path, d);
      if (!dev) throw std::runtime_error(d.str());
      out.devices.emplace(dev->name, std::move(*dev));
    }
    return out;
  }();
  return c;
}

engine::MemoryBreakdown breakdown(const schema::PoolPlan& plan) {
  return memory_breakdown(embedded_coefficients(), catalog(), plan);
}

std::int64_t bytes(const engine::MemoryTerm& t) {
  return std::visit([](const auto& q) { return q.value(); }, t.bytes);
}

// The refusal's message, or "" when the breakdown answers.
std::string refusal(const schema::PoolPlan& plan) {
  try {
    breakdown(plan);
    return "";
  } catch (const ContractError& e) {
    return e.what();
  }
}

// ---- the term check ----

std::vector<std::pair<std::string, const engine::MemoryTerm*>> terms(const engine::StageMemory& m) {
  std::vector<std::pair<std::string, const engine::MemoryTerm*>> out{
      {"weights", &m.weights}, {"activations", &m.activations}, {"graph_pool", &m.graph_pool},
      {"engine_buffers", &m.engine_buffers}, {"outside_allocator", &m.outside_allocator}};
  for (const auto& [name, t] : m.remainder) out.emplace_back("remainder." + name, &t);
  return out;
}

std::vector<std::pair<std::string, const engine::MemoryTerm*>> terms(const engine::HostNodeMemory& h) {
  return {{"weights", &h.weights}, {"kv_tier", &h.kv_tier}, {"pinned_buffers", &h.pinned_buffers},
          {"pageable_buffers", &h.pageable_buffers}};
}

// Compares one stage's or node's terms with the expected node `want` (its keys other than `key`).
void compare(const std::string& where, const std::vector<std::pair<std::string, const engine::MemoryTerm*>>& have,
             const YAML::Node& want, const std::string& key, std::int64_t tolerance, std::vector<std::string>& problems) {
  std::vector<std::string> seen;
  for (const auto& [name, term] : have) {
    seen.push_back(name);
    const std::string figure = std::to_string(bytes(*term)) + " bytes/" + std::string(engine::basis_name(term->bytes));
    const YAML::Node w = want[name];
    if (!w) {
      problems.push_back(where + ": the breakdown's " + name + " term (" + figure +
                         ") has no figure in the expected file: a term folded into another, or missing");
      continue;
    }
    const std::int64_t expected = w["bytes"].as<std::int64_t>();
    if (std::llabs(bytes(*term) - expected) > tolerance)
      problems.push_back(where + ": " + name + " is " + figure + ", the expected file states " +
                         std::to_string(expected) + " (tolerance " + std::to_string(tolerance) + " bytes)");
    if (w["basis"].as<std::string>() != engine::basis_name(term->bytes))
      problems.push_back(where + ": " + name + " has basis " + std::string(engine::basis_name(term->bytes)) +
                         ", the expected file states " + w["basis"].as<std::string>());
    const auto sources = w["sources"].as<std::vector<std::string>>();
    if (sources != term->sources) {
      std::string got;
      for (const auto& s : term->sources) got += (got.empty() ? "" : ", ") + s;
      problems.push_back(where + ": " + name + " has sources [" + got + "], not those the expected file states");
    }
  }
  for (const auto& kv : want) {
    const std::string name = kv.first.as<std::string>();
    if (name != key && std::find(seen.begin(), seen.end(), name) == seen.end())
      problems.push_back(where + ": the expected file states a term '" + name + "' the breakdown does not have");
  }
}

schema::PoolPlan load_plan(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  doc::Diagnostics d{path};
  auto plan = schema::load_pool_plan(text.str(), path, d);
  if (!plan) throw std::runtime_error(path + ": refused:\n" + d.str());
  return *plan;
}

std::vector<std::string> check_figures(const std::string& file) {
  const YAML::Node doc = YAML::LoadFile(file);
  const auto plan = load_plan(source_root() + "/" + doc["plan"].as<std::string>());
  const std::int64_t tolerance = doc["tolerance_bytes"].as<std::int64_t>();
  const engine::MemoryBreakdown m = breakdown(plan);
  std::vector<std::string> problems;
  const auto check_list = [&](const std::string& list, const std::string& key, const auto& have) {
    const YAML::Node want = doc[list];
    if (want.size() != have.size())
      problems.push_back(list + ": the breakdown has " + std::to_string(have.size()) + ", the expected file " +
                         std::to_string(want.size()));
    for (std::size_t i = 0; i < std::min<std::size_t>(want.size(), have.size()); ++i)
      compare(key + " " + want[i][key].as<std::string>(), terms(have[i]), want[i], key, tolerance, problems);
  };
  check_list("stages", "stage", m.stages);
  check_list("host", "node", m.host);
  return problems;
}

TEST(Figures, EveryTermHasExactlyTheExpectedFigure) {
  const std::string dir = g_dir.empty() ? source_root() + "/tests/cost/fixtures/memory" : g_dir;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << dir << " holds no expected figures";
  for (const auto& f : files)
    for (const auto& p : check_figures(f)) ADD_FAILURE() << f << ": " << p;
}

// ---- the rules ----

TEST(Memory, ActivationsAreTheLargestLockstepRanksPeak) {
  auto plan = plan_fixture("moe-mla-plan.yaml");
  EXPECT_EQ(bytes(breakdown(plan).stages[0].activations), 67110912);  // rank 1: 1024 tokens
  plan.profiling_step->ranks->pop_back();  // rank 0 alone: 256 tokens, the all-to-all 2*(32768*256 + 1024)
  const auto m = breakdown(plan);
  EXPECT_EQ(bytes(m.stages[0].activations), 16779264);
  EXPECT_EQ(m.stages[0].activations.sources.front(), "plan.profiling_step.ranks[0]");
}

TEST(Memory, TheDrafterSetsThePeakWhenItsPassIsWider) {
  auto plan = plan_fixture("moe-mla-plan.yaml");
  plan.profiling_step->drafts->requests = units::Count{8192};  // the drafter's gemm: 8192*4096*2*2 = 134217728
  const auto m = breakdown(plan);
  EXPECT_EQ(bytes(m.stages[0].activations), 134217728);
  EXPECT_EQ(m.stages[0].activations.sources,
            (std::vector<std::string>{"plan.profiling_step.drafts", "plan.draft_layers[0] (gemm)"}));
  plan.profiling_step->drafts->passes = units::Count{0};  // no drafting pass: the target's peak
  EXPECT_EQ(bytes(breakdown(plan).stages[0].activations), 67110912);
}

TEST(Memory, PaddingSizesTheProfilingStep) {
  auto plan = plan_fixture("dense-plan.yaml");
  (*plan.profiling_step->padded)[0].tokens = units::Tokens{8192};  // twice the tokens: twice the peak
  EXPECT_EQ(bytes(breakdown(plan).stages[0].activations), 2 * 209715200);
}

TEST(Memory, TheGraphPoolIsItsLargestBucket) {
  auto plan = plan_fixture("dense-plan.yaml");
  auto& buckets = *plan.graphs->buckets;
  buckets.erase(buckets.begin() + 1);  // without the 512-token bucket: the 4-request one, 640512 + 32768
  EXPECT_EQ(bytes(breakdown(plan).stages[0].graph_pool), 673280);
  buckets[0].query_tokens_per_request = units::Tokens{3};  // 4 requests of 3 tokens: 12*(4096+75968)*2 + 12*4096*2
  EXPECT_EQ(bytes(breakdown(plan).stages[0].graph_pool), 2019840);
  plan.graphs.reset();  // no graphs captured: no pool
  const auto m = breakdown(plan);
  EXPECT_EQ(bytes(m.stages[0].graph_pool), 0);
  EXPECT_TRUE(m.stages[0].graph_pool.sources.empty());
}

TEST(Memory, ABufferWithoutAStageIsOnEveryStageAndHostOnesAreNotOnTheGpu) {
  auto plan = plan_fixture("dense-plan.yaml");
  (*plan.buffers)[0].stage = 1;  // the all-reduce staging on stage 1 only
  const auto m = breakdown(plan);
  EXPECT_EQ(bytes(m.stages[0].engine_buffers), 1048576);
  EXPECT_EQ(bytes(m.stages[1].engine_buffers), 8388608);
}

TEST(Memory, AnUnstatedLocationIsTheGpu) {
  auto plan = plan_fixture("dense-plan.yaml");
  (*plan.weights)[6].location.reset();  // layers.1.proj, device as stated or not
  EXPECT_EQ(bytes(breakdown(plan).stages[1].weights), 33554432);
}

TEST(Memory, HostFiguresAreCountedPerNode) {
  auto plan = plan_fixture("dense-plan.yaml");
  plan.layout->nodes = units::Count{2};
  plan.layout->ranks_per_node = units::CountPerNode{2};
  const auto m = breakdown(plan);
  ASSERT_EQ(m.host.size(), 2u);
  for (std::int64_t n = 0; n < 2; ++n) {
    EXPECT_EQ(m.host[n].node, n);
    EXPECT_EQ(bytes(m.host[n].kv_tier), 2 * 1073741824LL);  // two ranks' shares of the node's copy
    EXPECT_EQ(bytes(m.host[n].weights), 2 * 1048576);
    EXPECT_EQ(engine::basis_name(m.host[n].kv_tier.bytes), "node");
  }
}

// ---- the outside-allocator coefficient, from a registry of one entry ----

Coefficients one_entry(const std::string& value) {
  RegistryInput in;
  in.documents.push_back(SetDocument{"memory.yaml", "sets/test/memory.outside_allocator.yaml",
                                     "set: test\nfamily: memory.outside_allocator\nwritten_by: registry/scripts/write_floor.py\n"
                                     "entries:\n- name: memory.outside_allocator.bytes\n  scope: {chip: H100-SXM}\n"
                                     "  value: " + value + "\n  unit: bytes/rank\n  boundary: {time: device, execution: independent}\n"
                                     "  method:\n    assumed: {reason: a test value, price_bound: none}\n"});
  in.entries.push_back(EntryOrigin{0, 0, "(test entry)", "memory.yaml:5"});
  in.precedence = [](std::size_t, std::size_t) { return ScopeOrder::disjoint; };
  return Coefficients::read(std::move(in));
}

TEST(Memory, OutsideTheAllocatorIsTheChipsCoefficient) {
  auto plan = plan_fixture("moe-mla-plan.yaml");
  const auto m = memory_breakdown(one_entry("536870912"), catalog(), plan);
  EXPECT_EQ(bytes(m.stages[0].outside_allocator), 536870912);
  EXPECT_EQ(m.stages[0].outside_allocator.sources, std::vector<std::string>{"(test entry)"});
  // Refused: a fraction of a byte, and a negative amount; accepted: the closest whole amount.
  EXPECT_NO_THROW(memory_breakdown(one_entry("2.0"), catalog(), plan));
  try {
    memory_breakdown(one_entry("1.5"), catalog(), plan);
    ADD_FAILURE() << "1.5 bytes was accepted";
  } catch (const ContractError& e) {
    EXPECT_NE(std::string(e.what()).find("memory.outside_allocator.bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1.5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("whole, non-negative number of bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(memory_breakdown(one_entry("-1"), catalog(), plan), ContractError);
  EXPECT_NO_THROW(memory_breakdown(one_entry("0"), catalog(), plan));
  // Another chip has no entry in this registry: the lookup's refusal, as the contract's error.
  plan.chip = "H200-SXM";
  EXPECT_THROW(memory_breakdown(one_entry("0"), catalog(), plan), ContractError);
}

// ---- refusals: each beside the closest accepted input ----

void expect_refused(const schema::PoolPlan& bad, const schema::PoolPlan& good, const std::vector<std::string>& parts) {
  EXPECT_EQ(refusal(good), "") << "the accepted twin is refused";
  const std::string why = refusal(bad);
  ASSERT_NE(why, "") << "accepted, but must be refused";
  for (const auto& p : parts) EXPECT_NE(why.find(p), std::string::npos) << "'" << p << "' not in: " << why;
}

TEST(MemoryRefusals, AStageOutsideThePipeline) {
  auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  (*good.weights)[6].stage = 1;
  (*bad.weights)[6].stage = 2;
  expect_refused(bad, good, {"plan.weights[6].stage = 2", "2 pipeline stage(s)"});
  bad = good;
  (*bad.layers)[11].stage = 2;
  expect_refused(bad, good, {"plan.layers[11].stage = 2", "layout.pp"});
  bad = good;
  (*bad.graphs->buckets)[2].stage = 2;
  expect_refused(bad, good, {"plan.graphs.buckets[2].stage = 2"});
}

TEST(MemoryRefusals, ATensorThatCannotBeSized) {
  const auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  (*bad.weights)[0].format.reset();
  expect_refused(bad, good, {"plan.weights[0].format", "not stated", "stored bytes"});
  bad = good;
  (*bad.weights)[0].shape.reset();
  expect_refused(bad, good, {"plan.weights[0].shape", "not stated"});
  bad = good;
  (*bad.weights)[0].format->payload_bits.reset();
  expect_refused(bad, good, {"plan.weights[0]", "payload_bits is not stated"});
}

TEST(MemoryRefusals, ALayerWhoseWorkingSetCannotBeSized) {
  const auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  (*bad.layers)[2].shape->k.reset();
  expect_refused(bad, good, {"plan.layers[2].shape.k", "not stated", "gemm working set"});
  bad = good;
  (*bad.layers)[2].shape->dtypes->output.reset();
  expect_refused(bad, good, {"plan.layers[2].shape.dtypes.output", "not stated"});
  bad = good;
  (*bad.layers)[8].collective.reset();
  expect_refused(bad, good, {"plan.layers[8].collective", "not stated"});
  bad = good;
  (*bad.layers)[13].primitive = "host.step";
  expect_refused(bad, good, {"plan.layers[13].primitive = host.step", "not a family a lowered layer runs"});
  bad = good;
  (*bad.layers)[2].shape->rows = "pages";
  expect_refused(bad, good, {"plan.layers[2].shape.rows", "'pages' is not a row count"});
}

TEST(MemoryRefusals, AProfilingStepThatIsMissingOrInconsistent) {
  const auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  bad.profiling_step.reset();
  expect_refused(bad, good, {"plan.profiling_step", "not stated", "profiling step"});
  bad = good;
  auto fewer = good;
  (*bad.profiling_step->padded)[0].tokens = units::Tokens{4095};
  (*fewer.profiling_step->padded)[0].tokens = units::Tokens{4096};
  expect_refused(bad, fewer, {"plan.profiling_step.padded[rank 0].tokens", "4095 is fewer than the 4096"});
}

TEST(MemoryRefusals, AGraphOrBufferWithoutItsSize) {
  const auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  (*bad.graphs->buckets)[1].size.reset();
  expect_refused(bad, good, {"plan.graphs.buckets[1].size", "not stated"});
  bad = good;
  (*bad.buffers)[1].bytes.reset();
  expect_refused(bad, good, {"plan.buffers[1].bytes", "not stated"});
}

TEST(MemoryRefusals, ATierOnAnUnknownDeviceOrWithoutBytes) {
  const auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  (*bad.tiers)[0].device = "DDR5-9999";
  expect_refused(bad, good, {"plan.tiers[0].device = DDR5-9999", "not a catalog device"});
  bad = good;
  (*bad.tiers)[0].bytes.reset();
  expect_refused(bad, good, {"plan.tiers[0].bytes", "not stated"});
  // A drive's tier is not host memory: its bytes are not read.
  auto drive = good;
  (*drive.tiers)[1].bytes.reset();
  EXPECT_EQ(refusal(drive), "");
}

TEST(MemoryRefusals, HostFiguresThatDifferBetweenStages) {
  const auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  (*bad.weights)[8].shape = std::vector<units::Count>{units::Count{1024}, units::Count{512}};  // stage 1: half
  expect_refused(bad, good, {"plan.layout.pp = 2", "differ between stages", "which stage's ranks sit on which node"});
  auto one_stage = bad;  // one stage, the same tensors: nothing to place
  one_stage.layout->pp = units::Count{1};
  for (auto& l : *one_stage.layers) l.stage = 0;
  for (auto& w : *one_stage.weights) w.stage = 0;
  for (auto& b : *one_stage.graphs->buckets) b.stage = 0;
  EXPECT_EQ(refusal(one_stage), "");
  EXPECT_EQ(bytes(breakdown(one_stage).host[0].weights), 4 * (1048576 + 524288));
}

TEST(MemoryRefusals, APlanWithoutAChip) {
  const auto good = plan_fixture("dense-plan.yaml");
  auto bad = good;
  bad.chip.reset();
  expect_refused(bad, good, {"plan.chip", "not stated", "coefficient per chip"});
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 2) {
    std::fprintf(stderr, "usage: cost-memory-test [DIR]\n");
    return 2;
  }
  if (argc == 2) g_dir = argv[1];
  // Run from its invariant record, the environment meson gives tests is absent: the fixtures are the
  // checkout's, whose path the build records.
  if (std::getenv("BLIS_SOURCE_ROOT") == nullptr) setenv("BLIS_SOURCE_ROOT", BLIS_SOURCE_ROOT_BUILD, 0);
  return RUN_ALL_TESTS();
}
