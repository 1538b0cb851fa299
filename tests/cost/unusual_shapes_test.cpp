// SUB-10: the unusual model shapes price or are refused with a reason: every layer windowed, every layer
// recurrent, latent attention (MLA) only, a draft layer declared last, a single layer, no attention at
// all. No price is non-finite, and a step that runs work is priced above zero.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cost/step.h"
#include "step_fixture.h"

namespace {

using namespace blis;
using namespace blis::cost;
using namespace blis::cost::testing;

double priced(const schema::PoolPlan& plan, const schema::StepShape& step) {
  const auto e = price_step(embedded_coefficients(), plan, step);
  double s = 0;
  for (const auto& p : e.primitives) {
    EXPECT_TRUE(std::isfinite(p.seconds.value()) && p.seconds.value() >= 0) << p.family;
    s += p.seconds.value();
  }
  EXPECT_TRUE(std::isfinite(s));
  EXPECT_GT(s, 0);
  return s;
}

template <class Keep>
schema::PoolPlan only(schema::PoolPlan plan, Keep keep) {
  auto& l = *plan.layers;
  l.erase(std::remove_if(l.begin(), l.end(), [&](const auto& x) { return !keep(x); }), l.end());
  return plan;
}

TEST(UnusualShapes, EveryLayerWindowedReadsAtMostTheWindow) {
  auto plan = plan_fixture("dense-plan.yaml");
  const auto step = step_fixture("decode.yaml");
  const double full = priced(plan, step);
  auto& g = (*plan.kv)[0];
  g.attention = "sliding_window";
  g.window = units::Tokens{64};
  const double windowed = priced(plan, step);
  EXPECT_LT(windowed, full) << "a 64-token window reads less than contexts of up to 4000 tokens";
}

TEST(UnusualShapes, EveryLayerRecurrentIsRefusedWithItsReason) {
  // No primitive family prices a state-space or linear-attention scan yet (registry/README.md, families
  // not yet listed): the plan's reader refuses the layer, naming the field.
  doc::Diagnostics d{"recurrent.yaml"};
  const auto plan = schema::load_pool_plan("chip: H100-SXM\nlayers:\n  - {layer: 0, primitive: ssm.scan}\n", "recurrent.yaml", d);
  EXPECT_FALSE(plan.has_value());
  EXPECT_NE(d.str().find("primitive"), std::string::npos) << d.str();
  doc::Diagnostics ok{"gemm.yaml"};
  EXPECT_TRUE(schema::load_pool_plan("chip: H100-SXM\nlayers:\n  - {layer: 0, primitive: gemm}\n", "gemm.yaml", ok).has_value())
      << ok.str();
}

TEST(UnusualShapes, LatentAttentionOnly) {
  const auto plan = only(plan_fixture("moe-mla-plan.yaml"), [](const auto& l) { return l.primitive.starts_with("attention.mla"); });
  ASSERT_EQ(plan.layers->size(), 2u);
  priced(plan, step_fixture("draft-mixed.yaml"));
  priced(plan, step_fixture("decode.yaml"));
}

TEST(UnusualShapes, ADraftLayerDeclaredLast) {
  auto plan = plan_fixture("moe-mla-plan.yaml");
  const auto step = step_fixture("draft-mixed.yaml");
  const double with = priced(plan, step);
  plan.draft_layers.reset();
  EXPECT_LT(priced(plan, step), with) << "the drafter's passes add time";
}

TEST(UnusualShapes, ASingleLayer) {
  const auto plan = only(plan_fixture("dense-plan.yaml"), [](const auto& l) { return l.primitive == "gemm" && l.layer == 0; });
  priced(only(plan, [first = true](const auto&) mutable { return std::exchange(first, false); }), step_fixture("prefill.yaml"));
}

TEST(UnusualShapes, NoAttentionAtAll) {
  auto plan = only(plan_fixture("dense-plan.yaml"), [](const auto& l) { return !l.primitive.starts_with("attention."); });
  plan.kv.reset();
  priced(plan, step_fixture("mixed.yaml"));
}

}  // namespace
