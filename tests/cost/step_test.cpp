// Step pricing (src/cost/step.h): the form's rules, each with a case that fails if the rule is broken,
// and refusals in pairs (SIM-9): the smallest input refused and the closest one accepted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "cost/step.h"
#include "step_fixture.h"

namespace {

using namespace blis;
using namespace blis::cost;
using namespace blis::cost::testing;

double seconds(const engine::StepEstimate& e) {
  double s = 0;
  for (const auto& st : e.stages) s += st.seconds.value();
  return s;
}

std::set<std::string> families(const engine::StepEstimate& e) {
  std::set<std::string> out;
  for (const auto& p : e.primitives) out.insert(p.family);
  return out;
}

TEST(StepPrice, TheStageIsTheSumOfItsTermsAndEveryTermIsFinite) {
  for (const char* step : {"prefill.yaml", "mixed.yaml", "decode.yaml"}) {
    const auto e = price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step_fixture(step));
    ASSERT_EQ(e.stages.size(), 1u) << step;
    double sum = 0;
    for (const auto& p : e.primitives) {
      EXPECT_TRUE(std::isfinite(p.seconds.value()) && p.seconds.value() >= 0) << step << " " << p.family;
      sum += p.seconds.value();
    }
    EXPECT_DOUBLE_EQ(sum, seconds(e)) << step;
    EXPECT_GT(seconds(e), 0) << step;
    EXPECT_EQ(e.least_trusted.effective_rank, 7) << step << ": the floor's assumed efficiencies are the least trusted";
    EXPECT_TRUE(std::is_sorted(e.entries_used.begin(), e.entries_used.end()));
    EXPECT_FALSE(e.entries_used.empty());
  }
}

TEST(StepPrice, OnlyTheStepsStageIsPriced) {
  auto plan = plan_fixture("dense-plan.yaml");
  auto step = step_fixture("prefill.yaml");
  const auto e0 = price_step(embedded_coefficients(), plan, step);
  for (const auto& p : e0.primitives) EXPECT_NE(p.layer.value_or(-1), 1) << "layer 1 runs on stage 1";
  step.stage = 1;
  const auto e1 = price_step(embedded_coefficients(), plan, step);
  ASSERT_EQ(e1.stages.front().stage, 1);
  EXPECT_TRUE(families(e1).contains("gemm"));
  EXPECT_LT(seconds(e1), seconds(e0));
}

TEST(StepPrice, MixedStepsSplitRequestsBetweenPrefillAndDecodeAttention) {
  const auto e = price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step_fixture("mixed.yaml"));
  EXPECT_TRUE(families(e).contains("attention.prefill"));
  EXPECT_TRUE(families(e).contains("attention.decode"));
  const auto d = price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step_fixture("decode.yaml"));
  EXPECT_FALSE(families(d).contains("attention.prefill")) << "a decode-only step has no prompt chunk";
}

TEST(StepPrice, LaunchModeSelectsTheHostLaunchTerms) {
  const auto graph = price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step_fixture("decode.yaml"));
  EXPECT_TRUE(families(graph).contains("host.graph_launch"));
  EXPECT_FALSE(families(graph).contains("host.launch"));
  auto step = step_fixture("decode.yaml");
  (*step.padded)[0].launch = "eager";
  const auto eager = price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step);
  EXPECT_FALSE(families(eager).contains("host.graph_launch"));
  EXPECT_TRUE(families(eager).contains("host.launch"));
}

TEST(StepPrice, PrebuiltRunsNoForwardPass) {
  auto step = step_fixture("decode.yaml");
  step.mode = "prebuilt";
  const auto e = price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step);
  for (const auto& f : families(e)) EXPECT_TRUE(f.starts_with("host.")) << f;
}

TEST(StepPrice, LockstepRanksTakeTheSlowestRank) {
  auto one = step_fixture("decode.yaml");
  auto big = step_fixture("prefill.yaml");
  const double t_one = seconds(price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), one));
  const double t_big = seconds(price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), big));
  auto both = big;
  auto r1 = (*one.ranks)[0];
  r1.rank = 1;
  auto p1 = (*one.padded)[0];
  p1.rank = 1;
  both.ranks->push_back(r1);
  both.padded->push_back(p1);
  const double t_both = seconds(price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), both));
  EXPECT_DOUBLE_EQ(t_both, std::max(t_one, t_big));
}

TEST(StepPrice, PaddingMoreTokensCostsMore) {
  auto step = step_fixture("decode.yaml");
  const double t4 = seconds(price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step));
  (*step.padded)[0].tokens = units::Tokens{64};
  (*step.padded)[0].requests = units::Count{64};
  const double t64 = seconds(price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step));
  EXPECT_GT(t64, t4);
}

// SIM-9 pairs.
TEST(StepPriceRefusals, PaddingBelowTheScheduledTokens) {
  auto step = step_fixture("decode.yaml");
  (*step.padded)[0].tokens = units::Tokens{2};
  try {
    price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step);
    FAIL() << "two launched tokens for three scheduled ones were accepted";
  } catch (const CostError& e) {
    EXPECT_NE(std::string(e.what()).find("padded[rank 0].tokens"), std::string::npos) << e.what();
  }
  (*step.padded)[0].tokens = units::Tokens{3};
  EXPECT_NO_THROW(price_step(embedded_coefficients(), plan_fixture("dense-plan.yaml"), step));
}

TEST(StepPriceRefusals, ALayerWithoutTheInputItsFamilyReads) {
  auto plan = plan_fixture("dense-plan.yaml");
  (*plan.layers)[2].shape->n.reset();
  try {
    price_step(embedded_coefficients(), plan, step_fixture("decode.yaml"));
    FAIL() << "a gemm without n was priced";
  } catch (const CostError& e) {
    EXPECT_NE(std::string(e.what()).find("plan.layers[2].shape.n"), std::string::npos) << e.what();
  }
  (*plan.layers)[2].shape->n = units::Count{1};
  EXPECT_NO_THROW(price_step(embedded_coefficients(), plan, step_fixture("decode.yaml")));
}

TEST(StepPriceRefusals, AFormatTheCostModelDoesNotKnow) {
  auto plan = plan_fixture("dense-plan.yaml");
  (*plan.layers)[2].shape->dtypes->weight->payload_bits = units::Count{12};
  EXPECT_THROW(price_step(embedded_coefficients(), plan, step_fixture("decode.yaml")), CostError);
  (*plan.layers)[2].shape->dtypes->weight->payload_bits = units::Count{8};
  (*plan.layers)[2].shape->dtypes->weight->dtype = "fp8";
  EXPECT_NO_THROW(price_step(embedded_coefficients(), plan, step_fixture("decode.yaml")));
}

}  // namespace
