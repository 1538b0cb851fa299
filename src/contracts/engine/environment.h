// What an engine may ask of the substrate while it is built and run (design §6.3). inference-sim's
// implementation answers from the catalog, the coefficient registry and the cost model; engine tests use a
// small reference implementation that prices from fixed test values. Every function either answers or
// throws ContractError naming the input and the cause (an unknown model, chip or workload; a plan or
// move it cannot price). Nothing here resolves an engine setting: the plan and the step arrive resolved.
#pragma once

#include <string_view>

#include "contracts/engine/errors.h"
#include "contracts/engine/plan.h"
#include "contracts/engine/results.h"
#include "schema/acceptance-profile.h"
#include "schema/chip.h"
#include "schema/graph.h"

namespace blis::engine {

class Environment {
 public:
  virtual ~Environment() = default;

  // The catalog's graph of a model, by its catalog name; it lives as long as the environment.
  virtual const schema::Graph& graph(std::string_view model) const = 0;

  // The catalog's facts of a chip, by its catalog name; it lives as long as the environment.
  virtual const schema::Chip& chip(std::string_view name) const = 0;

  // The memory a partial plan needs, per stage and per node: the resident tensors and buffers it states,
  // the activations of its profiling step and the pool of the graphs it captures. The engine chooses the
  // profiling step; this only sizes the shape it is given.
  virtual MemoryBreakdown memory(const plan::PoolPlan& partial) const = 0;

  // The time of one step (one stage's StepShape) under the plan.
  virtual StepEstimate price(const plan::PoolPlan& plan, const plan::StepShape& step) const = 0;

  // The bytes each link carries for one KV move, priced against the plan of the engine that reports it.
  virtual TransferDemand transfer_demand(const plan::PoolPlan& plan, const plan::Transfer& move) const = 0;

  // The acceptance profile of a drafter for a target model on a workload (D8's lookup).
  virtual schema::AcceptanceProfileProfile acceptance(std::string_view model, std::string_view drafter,
                                                      std::string_view workload) const = 0;
};

}  // namespace blis::engine
