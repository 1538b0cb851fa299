// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/engine/core.py@6e448d0e EngineCore (its construction:
// _initialize_kv_caches; its batch queue: step_with_batch_queue; add_request / abort_requests) behind
// BLIS's engine contracts (src/contracts/engine/engine.h, scheduling.h). The executor and model runner are
// the simulator: a scheduled step's time is priced by the Environment, and its sampled tokens come from
// the sampler stand-in (engines/vllm/stop_check.h). Input validation ports
// vllm/v1/engine/input_processor.py@6e448d0e _validate_prompt_len.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/vllm_config.h"
#include "contracts/engine/engine.h"
#include "contracts/engine/scheduling.h"
#include "model_executor/lowering.h"
#include "v1/engine/lowering_bridge.h"
#include "v1/core/sched/scheduler.h"
#include "v1/kv_cache_interface.h"

namespace blis::vllm {

// core.py@6e448d0e EngineCore.
class EngineCore final : public engine::Engine, public engine::StepEngine {
 public:
  // Phase 1: resolves the configuration as `vllm serve` does and lowers the model (throws
  // std::invalid_argument with upstream's messages, or naming what the port does not model).
  EngineCore(const engine::Spec& spec, const engine::Environment& env);

  // engine::Engine
  const engine::plan::PoolPlan& plan() const override { return plan_; }
  // core.py@6e448d0e EngineCore._initialize_kv_caches: the budget rule, the KV cache config (pool
  // sizing, get_kv_cache_configs), then the scheduler (AsyncScheduler when async scheduling resolved on).
  void fill_budget(const engine::MemoryBreakdown& memory) override;

  // engine::StepEngine
  std::optional<engine::Refused> add_request(const engine::Request& request) override;
  void abort_request(const std::string& id) override;
  std::optional<engine::ScheduledStep> schedule() override;
  engine::StepOutcome complete(std::uint64_t step) override;
  // core.py@6e448d0e step_with_batch_queue: a schedule of no tokens (or with no requests) while a batch is in
  // flight blocks on the oldest batch (its step of no tokens fills the queue); the engine then schedules again
  // only after that batch completes.
  std::int64_t in_flight_depth() const override { return awaiting_oldest_ ? 1 : config_.max_concurrent_batches(); }
  engine::InputBoundary boundary() const override { return engine::InputBoundary::kNextSchedule; }
  engine::Published published() const override;
  engine::Residence residence(const std::string& id) const override;

  const VllmConfig& config() const { return config_; }
  const KVCacheConfig& kv_cache_config() const { return kv_cache_config_; }
  const Scheduler& scheduler() const { return *scheduler_; }
  // The scheduler output of a step in the batch queue (scheduled, not yet completed), or null: what the
  // coupled replay (tests/vllm/oracle/coupled_replay.cpp, FID-9) compares with upstream's.
  const SchedulerOutput* in_flight_output(std::uint64_t step) const;

 private:
  struct InFlight {
    std::uint64_t id = 0;
    SchedulerOutput output;
    std::vector<bool> samples;  // per scheduled request (num_scheduled_tokens order): the step samples a token
  };
  engine::plan::StepShape shape_of(const SchedulerOutput& out, const std::vector<bool>& samples,
                                   std::vector<std::string>& first_scheduled);

  const engine::Environment& env_;
  std::string chip_name_;
  VllmConfig config_;
  LoweringConfig lowering_;
  ResolvedCompilation compilation_;
  std::vector<LayerKVSpec> layer_specs_;
  std::vector<std::int64_t> attention_layers_;
  engine::plan::PoolPlan plan_;
  KVCacheConfig kv_cache_config_;
  std::unique_ptr<Scheduler> scheduler_;
  std::map<std::string, engine::Request> requests_;  // the contract's requests, for the sampler (DEV-13)
  std::map<std::string, bool> started_;              // a request has been scheduled once
  std::deque<InFlight> batch_queue_;
  bool awaiting_oldest_ = false;  // the last schedule found no tokens with a batch in flight
  std::uint64_t next_step_ = 1;
  std::int64_t prefix_cache_queries_ = 0;
  std::int64_t prefix_cache_hits_ = 0;
  std::string none_hash_seed_;
  BlockHasher block_hasher_;
};

// Registers kind "vllm", version "0.27.1" (the simulator's build site calls it, SIM-1).
void register_vllm_engine(engine::EngineRegistry& registry);

}  // namespace blis::vllm
