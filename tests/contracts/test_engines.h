// Test doubles of the engine contracts: an environment that sizes memory from fixed values and answers
// nothing else, and an engine whose two phases a test scripts.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "contracts/engine/engine.h"

namespace blis::engine::testing {

// Sizes every partial plan with the same breakdown and records the calls it received, in order.
class FixedEnvironment : public Environment {
 public:
  explicit FixedEnvironment(MemoryBreakdown memory) : memory_(std::move(memory)) {}

  const schema::Graph& graph(std::string_view model) const override { refuse("graph", model); }
  const schema::Chip& chip(std::string_view name) const override { refuse("chip", name); }
  MemoryBreakdown memory(const plan::PoolPlan& partial) const override {
    calls.push_back(partial.kv_budget ? "memory(with kv_budget)" : "memory");
    return memory_;
  }
  StepEstimate price(const plan::PoolPlan&, const plan::StepShape&) const override { refuse("price", ""); }
  TransferDemand transfer_demand(const plan::PoolPlan&, const plan::Transfer&) const override {
    refuse("transfer_demand", "");
  }
  schema::AcceptanceProfileProfile acceptance(std::string_view model, std::string_view, std::string_view) const override {
    refuse("acceptance", model);
  }

  mutable std::vector<std::string> calls;

 private:
  [[noreturn]] static void refuse(const char* what, std::string_view arg) {
    throw ContractError(std::string("test environment: ") + what + "('" + std::string(arg) + "') is not answered here");
  }
  MemoryBreakdown memory_;
};

// An engine whose partial plan and budget rule a test states.
class ScriptedEngine : public Engine {
 public:
  using Fill = std::function<void(plan::PoolPlan& plan, const MemoryBreakdown& memory)>;
  ScriptedEngine(plan::PoolPlan partial, Fill fill, std::vector<std::string>* calls = nullptr)
      : plan_(std::move(partial)), fill_(std::move(fill)), calls_(calls) {}

  const plan::PoolPlan& plan() const override { return plan_; }
  void fill_budget(const MemoryBreakdown& memory) override {
    if (calls_) calls_->push_back("fill_budget");
    fill_(plan_, memory);
  }

 private:
  plan::PoolPlan plan_;
  Fill fill_;
  std::vector<std::string>* calls_;
};

// The smallest partial plan build_engine() accepts: one stage, a profiling step, no budget.
inline plan::PoolPlan minimal_partial() {
  plan::PoolPlan p;
  p.layout.emplace();
  p.layout->pp = units::Count{1};
  p.profiling_step.emplace();
  p.profiling_step->mode = "extend_only";
  return p;
}

// A budget rule for tests: what is left of `capacity` per rank after the first stage's weights.
inline ScriptedEngine::Fill leave_after_weights(units::BytesPerRank capacity) {
  return [capacity](plan::PoolPlan& p, const MemoryBreakdown& m) {
    const auto used = std::get<units::BytesPerRank>(m.stages.at(0).weights.bytes);
    p.kv_budget = schema::PoolPlanKVBudget{capacity - used};
  };
}

}  // namespace blis::engine::testing
