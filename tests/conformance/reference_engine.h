// The conformance reference engine: a small continuous-batching engine that implements the Engine and
// StepEngine contracts, so the simulator's tests run requests end to end before the engine ports land
// (issue 6). It is a test double, not a model of any upstream: kind "reference", version "1".
//
// Its arguments (the deployment's engine args; any other key is refused by name):
//   max-num-seqs            requests running at once (default 8)
//   max-num-batched-tokens  tokens scheduled per step (default 512)
//   block-size              tokens per KV block (default 16)
//   num-gpu-blocks          KV blocks (default 256)
// Scheduling, first come first served: running requests first, in admission order, each taking its next
// prompt chunk (chunked prefill) or one decode token; a request whose next tokens need KV blocks that are
// not free preempts the most recently admitted running request (its blocks are freed, its progress
// recomputed later: it rejoins the front of the waiting queue), itself last. Then, if nothing was
// preempted, waiting requests are admitted in order while seats, tokens and blocks last. A step that
// finishes a prompt emits the first output token; each decode step emits one. The stop check ends a
// request at its sampled output length ("stop") or at its max tokens ("length"). A request whose prompt
// plus one token exceeds the whole cache, or whose prompt is empty, is refused at admission.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/engine/engine.h"
#include "contracts/engine/scheduling.h"

namespace blis::conformance {

struct ReferenceArgs {
  std::int64_t max_num_seqs = 8;
  std::int64_t max_num_batched_tokens = 512;
  std::int64_t block_size = 16;
  std::int64_t num_gpu_blocks = 256;
};

// Reads the args mapping (absent: every default); an unknown key or a value that is not a positive
// integer is refused with engine::ContractError naming the key and the value.
ReferenceArgs reference_args(const engine::Spec& spec);

class ReferenceEngine final : public engine::Engine, public engine::StepEngine {
 public:
  explicit ReferenceEngine(ReferenceArgs args);

  // Engine
  const engine::plan::PoolPlan& plan() const override { return plan_; }
  void fill_budget(const engine::MemoryBreakdown& memory) override;

  // StepEngine
  std::optional<engine::Refused> add_request(const engine::Request& request) override;
  void abort_request(const std::string& id) override;
  std::optional<engine::ScheduledStep> schedule() override;
  engine::StepOutcome complete(std::uint64_t step) override;
  std::int64_t in_flight_depth() const override { return 1; }
  engine::InputBoundary boundary() const override { return engine::InputBoundary::kNextSchedule; }
  engine::Published published() const override;
  engine::Residence residence(const std::string& id) const override;

  std::int64_t free_blocks() const { return free_blocks_; }

 private:
  struct Seq {
    engine::Request request;
    std::int64_t computed = 0;  // tokens whose KV is in the cache
    std::int64_t emitted = 0;   // output tokens so far
    std::int64_t blocks = 0;    // KV blocks held
    bool started = false;       // has run in a step
    std::int64_t length() const { return static_cast<std::int64_t>(request.prompt.size()) + emitted; }
  };
  struct Scheduled {
    std::string id;
    std::int64_t new_tokens = 0;
  };

  std::int64_t blocks_for(std::int64_t tokens) const { return (tokens + args_.block_size - 1) / args_.block_size; }
  void preempt(std::size_t running_index);

  ReferenceArgs args_;
  engine::plan::PoolPlan plan_;
  std::int64_t free_blocks_;
  std::deque<std::string> waiting_;
  std::vector<std::string> running_;       // in admission order
  std::map<std::string, Seq> seqs_;
  std::uint64_t next_step_ = 1;
  std::optional<std::pair<std::uint64_t, std::vector<Scheduled>>> in_flight_;
  std::vector<std::string> preempted_;     // by the step being scheduled
};

// Registers kind "reference" version "1" (the simulator's build site calls each kind's registration).
void register_reference_engine(engine::EngineRegistry& registry);

}  // namespace blis::conformance
