// inference-sim's Environment (design §6.3): what an engine asks the substrate while it is built and run,
// answered from the loaded data (the catalog's graphs, chips and storage devices, the registry's
// coefficients and acceptance profiles) and the cluster's topology, through the cost model's public
// functions. Engine tests use tests/conformance/environment.h instead, which prices from fixed values.
//
//   graph(model), chip(name)   the catalog entry of that name (a graph by its model's id, a chip by its
//                              name); an unknown name is refused, naming it and the known ones.
//   memory(partial)            cost::memory_breakdown over the registry and the catalog's storage devices
//                              (src/cost/memory.h states every term).
//   price(plan, step)          cost::price_step, with the workload the environment serves (D8: it selects
//                              the expert imbalance); plan.chip must be a catalog chip.
//   transfer_demand(plan, m)   cost::transfer_demand over the cluster's topology (src/cost/transfer.h).
//   acceptance(model, drafter, workload)
//                              the one profile of the registry whose target is `model`, whose drafter is
//                              `drafter` (its in-graph speculator's name or its checkpoint) and whose
//                              category is `workload`. Only an exact key answers: D8's borrowing steps (other
//                              K, other drafter, other target) and the thinking-mode and K keys, which this
//                              interface does not carry, are not applied, so no match and several matches
//                              are both refused, naming the key and, for several, each match.
// Every refusal is an engine::ContractError naming the input, the value and the cause; the cost model's and
// the topology's refusals are passed on as ContractErrors with their messages. Nothing here is mutable
// after construction: the environment answers the same inputs the same way.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/engine/environment.h"
#include "cost/coefficients.h"
#include "cost/memory.h"
#include "cost/topology/topology.h"
#include "data/data_set.h"

namespace blis::sim {

struct EnvironmentOptions {
  std::optional<std::string> workload;  // the workload identity whose expert imbalance prices apply (D8)
};

class SubstrateEnvironment final : public engine::Environment {
 public:
  // Reads every catalog graph, chip and storage device and every registry acceptance profile with the
  // generated readers, and the registry's coefficients through the wiring (wiring/cost_data.h). A file the
  // readers refuse is a ContractError naming it.
  SubstrateEnvironment(const data::DataSet& data, cost::Topology topology, EnvironmentOptions options = {});

  const schema::Graph& graph(std::string_view model) const override;
  const schema::Chip& chip(std::string_view name) const override;
  engine::MemoryBreakdown memory(const engine::plan::PoolPlan& partial) const override;
  engine::StepEstimate price(const engine::plan::PoolPlan& plan, const engine::plan::StepShape& step) const override;
  engine::TransferDemand transfer_demand(const engine::plan::PoolPlan& plan,
                                         const engine::plan::Transfer& move) const override;
  schema::AcceptanceProfileProfile acceptance(std::string_view model, std::string_view drafter,
                                              std::string_view workload) const override;

 private:
  struct Profile {
    std::string set;  // the profile set's name
    std::string location;
    schema::AcceptanceProfileProfile profile;
  };

  void check_chip(const engine::plan::PoolPlan& plan, const std::string& what) const;

  cost::Coefficients coefficients_;
  cost::MemoryCatalog memory_catalog_;
  cost::Topology topology_;
  EnvironmentOptions options_;
  std::map<std::string, schema::Graph> graphs_;  // by model id
  std::map<std::string, schema::Chip> chips_;    // by chip name
  std::vector<Profile> profiles_;                // in registry path order, then file order
};

}  // namespace blis::sim
