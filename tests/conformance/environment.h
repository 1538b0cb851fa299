// The conformance Environment (design §6.3): a small reference implementation of engine::Environment
// that prices from fixed test values, for engine tests. It reads no catalog or registry: the test gives
// the chips, graphs and acceptance profiles it needs and the fixed values below, so an engine test's
// expected times are hand-computable. Nothing is guessed: a model, chip or profile the test did not
// give, and a plan or move missing a field the fixed form reads, is a ContractError naming it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

#include "contracts/engine/environment.h"

namespace blis::conformance {

struct FixedValues {
  double seconds_per_step = 0;         // every step, prebuilt and idle ones included
  double seconds_per_token = 0;        // per launched token of the slowest lockstep rank (forward passes only)
  double seconds_per_request = 0;      // per launched request of that rank (forward passes only)
  std::int64_t activation_bytes_per_token = 0;  // of the profiling step's launched tokens, per rank
  std::int64_t graph_pool_bytes_per_graph = 0;  // per captured graph bucket, per rank
  std::int64_t outside_allocator_bytes = 0;     // per rank
};

class Environment final : public engine::Environment {
 public:
  explicit Environment(FixedValues values) : values_(values) {}

  void add_chip(schema::Chip chip) { chips_[chip.name] = std::move(chip); }
  void add_graph(const std::string& model, schema::Graph graph) { graphs_[model] = std::move(graph); }
  void add_acceptance(const std::string& model, const std::string& drafter, const std::string& workload,
                      schema::AcceptanceProfileProfile profile) {
    profiles_[{model, drafter, workload}] = std::move(profile);
  }

  const schema::Graph& graph(std::string_view model) const override;
  const schema::Chip& chip(std::string_view name) const override;
  // Per stage: weights = the stored bytes of the device-resident tensors of the stage (a tensor without a
  // stage is on every stage); engine buffers = the device buffers' bytes (node and group bases are each
  // rank's even share, as the plan states them); activations = activation_bytes_per_token x the profiling
  // step's largest launched tokens; graph pool = graph_pool_bytes_per_graph x the stage's buckets;
  // outside the allocator = outside_allocator_bytes. Host: per node, host tensors, the pinned and the
  // pageable host buffers times the plan's ranks per node, and the host KV tier (shared tiers once per node).
  engine::MemoryBreakdown memory(const engine::plan::PoolPlan& partial) const override;
  // seconds_per_step + (mode other than prebuilt) max over ranks of seconds_per_token x launched tokens
  // + seconds_per_request x launched requests; launched = the padded shape where stated, else scheduled.
  engine::StepEstimate price(const engine::plan::PoolPlan& plan, const engine::plan::StepShape& step) const override;
  // tokens x bytes_per_token on one link named "node<src>-><dst>" (or "node<n>:<src memory>-><dst memory>"
  // within a node).
  engine::TransferDemand transfer_demand(const engine::plan::PoolPlan& plan,
                                         const engine::plan::Transfer& move) const override;
  schema::AcceptanceProfileProfile acceptance(std::string_view model, std::string_view drafter,
                                              std::string_view workload) const override;

 private:
  FixedValues values_;
  std::map<std::string, schema::Chip> chips_;
  std::map<std::string, schema::Graph> graphs_;
  std::map<std::tuple<std::string, std::string, std::string>, schema::AcceptanceProfileProfile> profiles_;
};

}  // namespace blis::conformance
