// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/scheduler.py@71de97b2 run_scheduler_process and
// event_loop_normal / event_loop_overlap (the order in which one iteration schedules, launches and processes),
// of python/sglang/srt/managers/scheduler_components/metrics_reporter.py@71de97b2 (when the gauges and KV
// events are published) and of python/sglang/srt/managers/tokenizer_manager.py@71de97b2
// _validate_one_request (the refusal of an over-long input), behind BLIS's engine contracts
// (src/contracts/engine/engine.h, scheduling.h). The model worker is the simulator: a launched batch's time is
// priced by the Environment and its sampled tokens come from the sampler stand-in (engines/sglang/stop_check.h).
//
// One loop iteration maps onto the step contract as the overlap loop runs it: schedule() is the scheduling
// half (get_next_batch_to_run and the launch), complete() the processing of the oldest launched batch. With the
// overlap schedule the engine keeps two batches in flight (the next is scheduled before the last one's result
// is processed); without it, one.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "contracts/engine/engine.h"
#include "contracts/engine/scheduling.h"
#include "srt/entrypoints/kv_cache_selection.h"
#include "srt/entrypoints/server_args_cli.h"
#include "srt/managers/scheduler.h"
#include "srt/model_executor/lowering.h"

namespace blis::sglang {

class EngineCore final : public engine::Engine, public engine::StepEngine {
 public:
  // Phase 1: parses the server arguments as launch_server does, selects the KV-cache types (memory pool,
  // allocator, tree cache) and refuses any this port does not model by name (SGL-6), resolves the arguments for
  // the chip and model (ServerArgs._run_resolution_pipeline) and lowers the model. Throws std::invalid_argument
  // naming what is refused.
  EngineCore(const engine::Spec& spec, const engine::Environment& env);

  // engine::Engine
  const engine::plan::PoolPlan& plan() const override { return plan_; }
  // model_runner.py@71de97b2 alloc_memory_pool (KVCacheConfigurator.configure: the pool the budget buys), then
  // the CUDA graphs the decode runner captures for that pool's request slots, then the Scheduler.
  void fill_budget(const engine::MemoryBreakdown& memory) override;

  // engine::StepEngine
  std::optional<engine::Refused> add_request(const engine::Request& request) override;
  void abort_request(const std::string& id) override;
  std::optional<engine::ScheduledStep> schedule() override;
  engine::StepOutcome complete(std::uint64_t step) override;
  // scheduler.py@71de97b2 on_idle: when schedule() found the scheduler fully idle, the KV events it published.
  std::vector<engine::KvEventMessage> take_idle_publications() override { return std::exchange(idle_kv_events_, {}); }
  // scheduler.py@71de97b2 event_loop_overlap: two batches in flight, except after an iteration that launched
  // nothing while the last batch's result was pending: the loop then waits in pop_and_process for that forward
  // and schedules again only after processing it (one in flight until complete()). event_loop_normal: one.
  std::int64_t in_flight_depth() const override {
    return parsed_.scheduler.disable_overlap_schedule || (scheduler_ && scheduler_->awaiting_last_result()) ? 1 : 2;
  }
  engine::InputBoundary boundary() const override { return engine::InputBoundary::kNextSchedule; }
  // The gauges as the last report logged them (metrics_collector.py@71de97b2 SchedulerMetricsCollector), served
  // as SGLang's metrics endpoint serves them.
  engine::Published published() const override;
  engine::Residence residence(const std::string& id) const override;

  const ParsedServerArgs& server_args() const { return parsed_; }
  const model_executor::ResolvedServerArgs& resolved() const { return resolved_; }
  const model_executor::MemoryPool& memory_pool() const { return pool_; }
  // The memory pool, allocator and tree cache the engine runs, by upstream class name.
  const KVCacheTypes& kv_cache_types() const { return kv_types_; }
  const Scheduler& scheduler() const { return *scheduler_; }

 private:
  engine::plan::StepShape shape_of(const LaunchedBatch& batch, std::vector<std::string>& first_scheduled);
  // metrics_collector.py@71de97b2 SchedulerStats: the gauges llm-d reads, as the last report set them.
  struct SchedulerStats {
    std::int64_t num_running_reqs = 0;
    std::int64_t num_queue_reqs = 0;
    double token_usage = 0;
  };
  // metrics_reporter.py@71de97b2 report_prefill_stats / report_decode_stats: the gauges' new values.
  void log_stats(std::int64_t num_running_reqs);
  // scheduler_components/kv_events_publisher.py@71de97b2 publish_kv_events: into `out`, when there is a batch.
  void publish_kv_events(std::vector<engine::KvEventMessage>& out);

  const engine::Environment& env_;
  std::string chip_name_;
  ParsedServerArgs parsed_;
  model_executor::ResolvedServerArgs resolved_;
  KVCacheTypes kv_types_;
  model_executor::MemoryPool pool_;
  std::int64_t cell_size_ = 0;
  engine::plan::PoolPlan plan_;
  std::unique_ptr<Scheduler> scheduler_;
  std::map<std::string, engine::Request> requests_;  // the contract's requests, for the sampler (DEV-13)
  std::set<std::string> started_;                    // requests scheduled at least once
  std::set<std::string> client_aborted_;             // ended by abort_request: in no step's record
  std::deque<std::uint64_t> in_flight_;  // the launched steps' ids, oldest first (the Scheduler holds their batches)
  std::uint64_t next_step_ = 1;
  std::int64_t forward_ct_decode_ = 0;
  std::uint64_t kv_event_seq_ = 0;
  std::vector<std::string> pending_preempted_;
  std::vector<engine::KvEventMessage> idle_kv_events_;  // published by on_idle, until the simulator takes them
  SchedulerStats stats_;
};

// Registers kind "sglang", version "0.5.18" (the simulator's build site calls it, SIM-1).
void register_sglang_engine(engine::EngineRegistry& registry);

}  // namespace blis::sglang
