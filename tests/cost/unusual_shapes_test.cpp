// SUB-10: the unusual model shapes price or are refused with a reason: every layer windowed, every layer
// recurrent, latent attention (MLA) only, a draft layer declared last, a single layer, no attention at
// all. No price is non-finite, and a step that runs work is priced above zero.
//
// usage: conformance-unusual-shapes-cost-test DIR   (the record's input: tests/conformance/unusual-shapes)
//
// DIR holds one directory per shape:
//   plan.yaml      the PoolPlan
//   step-*.yaml    the steps priced under it: every primitive's time finite and not negative, the step's
//                  time finite and above zero
//   expect.txt     optional, one expectation a line (`#` starts a comment):
//                    refused TEXT                  the plan's reader refuses it, its diagnostics naming TEXT
//                    cheaper-than-full-attention   each step prices below the same plan with every KV
//                                                  group at full attention
//                    drafts-add-time               each step prices above the same plan without its drafter
// The committed set must hold the statement's six shapes, whatever DIR the program is given.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cost/step.h"
#include "step_fixture.h"

namespace {

namespace fs = std::filesystem;
using namespace blis;
using namespace blis::cost;
using namespace blis::cost::testing;

std::string g_dir;  // the shapes the program is given

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error(p.string() + ": cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The step's time: every primitive's finite and not negative, the sum finite and above zero.
double priced(const schema::PoolPlan& plan, const schema::StepShape& step, const std::string& what) {
  const auto e = price_step(embedded_coefficients(), plan, step);
  double s = 0;
  for (const auto& p : e.primitives) {
    EXPECT_TRUE(std::isfinite(p.seconds.value()) && p.seconds.value() >= 0)
        << what << ": primitive " << p.family << " prices to " << p.seconds.value() << " s";
    s += p.seconds.value();
  }
  EXPECT_TRUE(std::isfinite(s)) << what << " prices to " << s << " s";
  EXPECT_GT(s, 0) << what << " prices to " << s << " s: a step that runs work costs more than zero";
  return s;
}

std::vector<std::string> expectations(const fs::path& shape) {
  std::vector<std::string> out;
  if (!fs::exists(shape / "expect.txt")) return out;
  std::istringstream in(read(shape / "expect.txt"));
  for (std::string line; std::getline(in, line);) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

void check_shape(const fs::path& shape) {
  const std::string name = shape.filename().string();
  const std::string plan_text = read(shape / "plan.yaml");
  const std::vector<std::string> expect = expectations(shape);
  doc::Diagnostics d{(shape / "plan.yaml").string()};
  const auto plan = schema::load_pool_plan(plan_text, (shape / "plan.yaml").string(), d);
  const auto refused =
      std::find_if(expect.begin(), expect.end(), [](const std::string& e) { return e.starts_with("refused "); });
  if (refused != expect.end()) {
    const std::string cause = refused->substr(8);
    EXPECT_FALSE(plan.has_value()) << name << ": the plan's reader accepts it, where a refusal naming " << cause
                                   << " is wanted";
    EXPECT_NE(d.str().find(cause), std::string::npos) << name << ": the refusal does not name " << cause << ":\n"
                                                      << d.str();
    return;
  }
  ASSERT_TRUE(plan.has_value()) << name << ": the plan's reader refuses it, and expect.txt names no refusal:\n"
                                << d.str();
  std::vector<fs::path> steps;
  for (const auto& f : fs::directory_iterator(shape)) {
    const std::string file = f.path().filename().string();
    if (file.starts_with("step-") && file.ends_with(".yaml")) steps.push_back(f.path());
  }
  std::sort(steps.begin(), steps.end());
  ASSERT_FALSE(steps.empty()) << name << ": no step-*.yaml to price and no refusal expected";
  for (const auto& sp : steps) {
    const std::string what = name + "/" + sp.filename().string();
    doc::Diagnostics sd{sp.string()};
    const auto step = schema::load_step_shape(read(sp), sp.string(), sd);
    ASSERT_TRUE(step.has_value()) << what << ": refused:\n" << sd.str();
    double seconds = 0;
    try {
      seconds = priced(*plan, *step, what);
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": the cost model refuses it, and expect.txt names no refusal: " << e.what();
      continue;
    }
    for (const auto& e : expect) {
      if (e == "cheaper-than-full-attention") {
        auto full = *plan;
        for (auto& g : *full.kv) {
          g.attention = "full";
          g.window.reset();
        }
        EXPECT_LT(seconds, priced(full, *step, what + " at full attention"))
            << what << ": the window reads no less than the full context";
      } else if (e == "drafts-add-time") {
        auto without = *plan;
        without.draft_layers.reset();
        EXPECT_GT(seconds, priced(without, *step, what + " without its drafter"))
            << what << ": the drafter's passes add no time";
      } else {
        ADD_FAILURE() << name << "/expect.txt: unknown expectation '" << e << "'";
      }
    }
  }
}

TEST(UnusualShapes, EachShapeRunsOrIsRefusedWithItsReason) {
  std::vector<fs::path> shapes;
  for (const auto& f : fs::directory_iterator(g_dir))
    if (f.is_directory()) shapes.push_back(f.path());
  std::sort(shapes.begin(), shapes.end());
  ASSERT_FALSE(shapes.empty()) << g_dir << " holds no shape";
  for (const auto& s : shapes) {
    SCOPED_TRACE(s.string());
    check_shape(s);
  }
}

// The statement's list, in the committed set (the program's own checkout, whatever DIR it is given).
TEST(UnusualShapes, TheCommittedSetHoldsEveryShapeTheStatementNames) {
  const fs::path set = fs::path(source_root()) / "tests" / "conformance" / "unusual-shapes";
  for (const char* shape : {"windowed", "recurrent", "mla-only", "draft-last", "single-layer", "no-attention"})
    EXPECT_TRUE(fs::exists(set / shape / "plan.yaml"))
        << set.string() << " holds no shape " << shape << " (SUB-10 names it)";
}

// The recurrent shape's refusal is the primitive's: the same document with a priced primitive is read.
TEST(UnusualShapes, TheReaderAcceptsTheRecurrentShapesTwinWithAPricedPrimitive) {
  doc::Diagnostics ok{"gemm.yaml"};
  EXPECT_TRUE(
      schema::load_pool_plan("chip: H100-SXM\nlayers:\n  - {layer: 0, primitive: gemm}\n", "gemm.yaml", ok).has_value())
      << ok.str();
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2 || !fs::is_directory(argv[1])) {
    std::fprintf(stderr, "usage: conformance-unusual-shapes-cost-test DIR\n");
    return 2;
  }
  g_dir = argv[1];
  // Run from its invariant record, the environment meson gives tests is absent: the committed set is the
  // checkout's, whose path the build records.
  if (std::getenv("BLIS_SOURCE_ROOT") == nullptr) setenv("BLIS_SOURCE_ROOT", BLIS_SOURCE_ROOT_BUILD, 0);
  return RUN_ALL_TESTS();
}
