// The engine registry (SIM-1) and the two-phase construction (design §6.3): two kinds registered from two
// translation units into one binary, a duplicate key refused, an unknown key refused with every key
// listed, and build_engine() refusing an engine that breaks the order of the phases.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "contracts/engine/engine.h"
#include "kinds.h"
#include "test_engines.h"

namespace blis::engine::testing {
namespace {

using units::BytesPerRank;
using units::Count;

MemoryBreakdown weights_of(BytesPerRank weights) {
  MemoryBreakdown m;
  m.stages.emplace_back();
  m.stages[0].weights.bytes = weights;
  return m;
}

Spec spec_for(const std::string& kind, const std::string& version) {
  Spec s;
  s.engine.kind = kind;
  s.engine.version = version;
  s.pool = "serve";
  s.chip = "H100-SXM";
  s.nodes = Count{1};
  s.gpus_per_node = units::CountPerNode{8};
  return s;
}

EngineRegistry both_kinds() {
  EngineRegistry r;
  register_alpha(r);
  register_beta(r);
  return r;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ContractError& e) {
    return e.what();
  }
  return "(no ContractError)";
}

TEST(EngineRegistry, TwoKindsInOneBinaryEachBuildsItsOwnEngine) {
  const EngineRegistry r = both_kinds();
  ASSERT_EQ(r.keys().size(), 2U);
  EXPECT_EQ(to_string(r.keys()[0]), "alpha 1.2.3");
  EXPECT_EQ(to_string(r.keys()[1]), "beta 4.5.6");
  const FixedEnvironment env(weights_of(BytesPerRank{100}));
  auto a = build_engine(r, spec_for("alpha", "1.2.3"), env);
  auto b = build_engine(r, spec_for("beta", "4.5.6"), env);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->plan().in_flight->value(), 1);
  EXPECT_EQ(b->plan().in_flight->value(), 2);
  EXPECT_EQ(a->plan().kv_budget->at(0), BytesPerRank{900});   // alpha's own budget rule
  EXPECT_EQ(b->plan().kv_budget->at(0), BytesPerRank{1900});  // beta's
  EXPECT_EQ(*a->plan().chip, "H100-SXM");                      // the spec reached the factory
}

TEST(EngineRegistry, DuplicateKeyRefusedNamingIt) {
  EngineRegistry r = both_kinds();
  const std::string m = message_of([&] { register_alpha(r); });
  EXPECT_NE(m.find("{kind 'alpha', version '1.2.3'} is already registered"), std::string::npos) << m;
  EXPECT_EQ(r.keys().size(), 2U);
  // The same kind at another release is another key.
  r.add({"alpha", "1.2.4"}, [](const Spec&, const Environment&) { return std::unique_ptr<Engine>(); });
  EXPECT_EQ(r.keys().size(), 3U);
}

TEST(EngineRegistry, UnknownKindRefusedListingEveryKey) {
  const EngineRegistry r = both_kinds();
  const std::string m = message_of([&] { r.factory({"gamma", "1.0"}); });
  EXPECT_NE(m.find("unknown engine {kind 'gamma', version '1.0'}"), std::string::npos) << m;
  EXPECT_NE(m.find("no engine of kind 'gamma' is registered"), std::string::npos) << m;
  EXPECT_NE(m.find("(registered: alpha 1.2.3, beta 4.5.6)"), std::string::npos) << m;
  EXPECT_FALSE(r.contains({"gamma", "1.0"}));
}

TEST(EngineRegistry, OtherReleaseOfAKindRefusedNamingTheOneThisBuildRuns) {
  const EngineRegistry r = both_kinds();
  const FixedEnvironment env(weights_of(BytesPerRank{0}));
  const std::string m = message_of([&] { build_engine(r, spec_for("alpha", "9.9.9"), env); });
  EXPECT_NE(m.find("unknown engine {kind 'alpha', version '9.9.9'}"), std::string::npos) << m;
  EXPECT_NE(m.find("this build runs alpha at release 1.2.3 only"), std::string::npos) << m;
  EXPECT_NE(m.find("(registered: alpha 1.2.3, beta 4.5.6)"), std::string::npos) << m;
}

TEST(EngineRegistry, EmptyKeyOrFactoryRefused) {
  EngineRegistry r;
  const EngineFactory some = [](const Spec&, const Environment&) { return std::unique_ptr<Engine>(); };
  EXPECT_NE(message_of([&] { r.add({"", "1"}, some); }).find("kind and version must both be stated"), std::string::npos);
  EXPECT_NE(message_of([&] { r.add({"k", ""}, some); }).find("kind and version must both be stated"), std::string::npos);
  EXPECT_NE(message_of([&] { r.add({"k", "1"}, EngineFactory{}); }).find("the factory is empty"), std::string::npos);
  EXPECT_TRUE(r.keys().empty());
  EXPECT_NE(message_of([&] { r.factory({"k", "1"}); }).find("(registered: none)"), std::string::npos);
}

// A registry holding one kind whose factory builds the engine a test scripts.
struct Scripted {
  EngineRegistry registry;
  FixedEnvironment env{weights_of(BytesPerRank{250})};
  explicit Scripted(std::function<std::unique_ptr<Engine>(std::vector<std::string>*)> make) {
    registry.add({"scripted", "1.0.0-test"}, [this, make](const Spec&, const Environment&) {
      env.calls.push_back("factory");
      return make(&env.calls);
    });
  }
  std::unique_ptr<Engine> build() const { return build_engine(registry, spec_for("scripted", "1.0.0-test"), env); }
  std::string refusal() const {
    return message_of([&] { build(); });
  }
};

TEST(BuildEngine, PlanPhaseThenMemoryThenTheEnginesBudgetRule) {
  Scripted s([](std::vector<std::string>* calls) {
    return std::make_unique<ScriptedEngine>(minimal_partial(), leave_after_weights(BytesPerRank{1000}), calls);
  });
  auto e = s.build();
  EXPECT_EQ(s.env.calls, (std::vector<std::string>{"factory", "memory", "fill_budget"}));
  ASSERT_TRUE(e->plan().kv_budget.has_value());
  EXPECT_EQ(*e->plan().kv_budget, (schema::PoolPlanKVBudget{BytesPerRank{750}}));  // the breakdown reached the rule
}

TEST(BuildEngine, PartialPlanWithABudgetRefused) {
  Scripted s([](std::vector<std::string>* calls) {
    plan::PoolPlan p = minimal_partial();
    p.kv_budget = schema::PoolPlanKVBudget{BytesPerRank{1}};
    return std::make_unique<ScriptedEngine>(p, leave_after_weights(BytesPerRank{1000}), calls);
  });
  EXPECT_NE(s.refusal().find("the partial plan already states kv_budget"), std::string::npos) << s.refusal();
  EXPECT_EQ(s.env.calls.back(), "factory");  // memory is never asked for
}

TEST(BuildEngine, PartialPlanWithoutProfilingStepRefused) {
  Scripted s([](std::vector<std::string>* calls) {
    plan::PoolPlan p = minimal_partial();
    p.profiling_step.reset();
    return std::make_unique<ScriptedEngine>(p, leave_after_weights(BytesPerRank{1000}), calls);
  });
  EXPECT_NE(s.refusal().find("states no profiling_step"), std::string::npos) << s.refusal();
}

TEST(BuildEngine, BudgetLeftUnfilledRefused) {
  Scripted s([](std::vector<std::string>* calls) {
    return std::make_unique<ScriptedEngine>(minimal_partial(), [](plan::PoolPlan&, const MemoryBreakdown&) {}, calls);
  });
  EXPECT_NE(s.refusal().find("fill_budget left kv_budget unstated"), std::string::npos) << s.refusal();
}

TEST(BuildEngine, OneBudgetValuePerPipelineStage) {
  Scripted s([](std::vector<std::string>* calls) {
    plan::PoolPlan p = minimal_partial();
    p.layout->pp = Count{2};
    return std::make_unique<ScriptedEngine>(p, leave_after_weights(BytesPerRank{1000}), calls);
  });
  EXPECT_NE(s.refusal().find("kv_budget states 1 value(s), but the plan has 2 pipeline stage(s)"), std::string::npos)
      << s.refusal();
}

TEST(BuildEngine, PlanBreakingTheSchemaRefusedNamingTheField) {
  Scripted s([](std::vector<std::string>* calls) {
    plan::PoolPlan p = minimal_partial();
    p.layout->tp = Count{0};
    return std::make_unique<ScriptedEngine>(p, leave_after_weights(BytesPerRank{1000}), calls);
  });
  const std::string m = s.refusal();
  EXPECT_NE(m.find("the plan breaks the pool-plan schema"), std::string::npos) << m;
  EXPECT_NE(m.find("layout.tp: 0 is below the minimum 1"), std::string::npos) << m;
}

TEST(BuildEngine, FactoryReturningNoEngineRefused) {
  Scripted s([](std::vector<std::string>*) { return std::unique_ptr<Engine>(); });
  EXPECT_NE(s.refusal().find("engine scripted 1.0.0-test (pool 'serve'): the factory returned no engine"),
            std::string::npos)
      << s.refusal();
}

}  // namespace
}  // namespace blis::engine::testing
