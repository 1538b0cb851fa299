// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/scheduler.py@6e448d0e (Scheduler) for a text-only,
// connector-free decoder: schedule() (running requests, then waiting ones, preemption by recompute),
// _update_after_schedule, update_from_output, add_request, finish_requests, reset_prefix_cache, the free
// paths and the counts the metrics read. Split by phase: scheduler.cpp (construction, requests, freeing),
// scheduler_schedule.cpp (schedule), scheduler_update.cpp (update_from_output). Not ported, and refused at
// configuration: KV connectors and encoder/multimodal inputs, structured output, speculative decoding,
// LoRA, streaming sessions, pause states, Mamba block-aligned splits, DP prefill throttling, deferred
// block frees (only with a consumer connector), routed-expert capture.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/vllm_config.h"
#include "distributed/kv_event_publisher.h"
#include "v1/core/kv_cache_manager.h"
#include "v1/core/sched/output.h"
#include "v1/core/sched/request_queue.h"
#include "v1/kv_cache_interface.h"
#include "v1/outputs.h"
#include "v1/request.h"

namespace blis::vllm {

// vllm/v1/metrics/stats.py@6e448d0e SchedulerStats (the gauges llm-d scrapes, and prefix-cache counts).
struct SchedulerStats {
  std::int64_t num_running_reqs = 0;
  std::int64_t num_waiting_reqs = 0;
  std::int64_t num_skipped_waiting_reqs = 0;
  double kv_cache_usage = 0;
  std::int64_t prefix_cache_queries = 0;  // PrefixCacheStats.queries since the previous stats
  std::int64_t prefix_cache_hits = 0;     // PrefixCacheStats.hits since the previous stats
};

// scheduler.py@6e448d0e Scheduler.
class Scheduler {
 public:
  // scheduler.py@6e448d0e Scheduler.__init__ (block_size: the scheduler's block size; hash_block_size:
  // absent = block_size).
  Scheduler(const VllmConfig& vllm_config, const KVCacheConfig& kv_cache_config, std::int64_t block_size,
            std::optional<std::int64_t> hash_block_size = std::nullopt, bool log_stats = false);
  virtual ~Scheduler() = default;
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // scheduler.py@6e448d0e Scheduler.schedule (throttle_prefills: DP prefill balancing, not ported: false).
  SchedulerOutput schedule();
  // scheduler.py@6e448d0e Scheduler.update_from_output: the outputs of the one client.
  std::vector<EngineCoreOutput> update_from_output(const SchedulerOutput& scheduler_output,
                                                   const ModelRunnerOutput& model_runner_output);
  // scheduler.py@6e448d0e Scheduler.add_request: the scheduler takes ownership.
  void add_request(std::unique_ptr<Request> request);
  // scheduler.py@6e448d0e Scheduler.finish_requests (ids in the given order); returns the requests it
  // finished (pointers stay valid until the next call into the scheduler).
  std::vector<std::string> finish_requests(const std::vector<std::string>& request_ids, RequestStatus finished_status);

  // scheduler.py@6e448d0e Scheduler.get_request_counts: (running, waiting + skipped waiting).
  std::pair<std::int64_t, std::int64_t> get_request_counts() const;
  // scheduler.py@6e448d0e Scheduler.get_kv_cache_usage.
  double get_kv_cache_usage() const;
  // scheduler.py@6e448d0e Scheduler.get_num_unfinished_requests / has_unfinished_requests.
  std::int64_t get_num_unfinished_requests() const;
  bool has_unfinished_requests() const { return get_num_unfinished_requests() > 0; }
  // scheduler.py@6e448d0e Scheduler.has_finished_requests.
  bool has_finished_requests() const { return !finished_req_ids_.empty(); }
  // scheduler.py@6e448d0e Scheduler.has_requests (no connector: unfinished or finished requests).
  bool has_requests() const { return has_unfinished_requests() || has_finished_requests(); }
  // scheduler.py@6e448d0e Scheduler.reset_prefix_cache (reset_connector: no connector is ported).
  bool reset_prefix_cache(bool reset_running_requests = false);
  // scheduler.py@6e448d0e Scheduler.make_stats (prefix-cache counts drained since the last call).
  SchedulerStats make_stats();

  // The KV-event batches the publisher sent since the last call, with their sequence numbers, and its topic
  // (the engine core hands them to the simulator, which stands for the publisher's socket).
  std::vector<std::pair<std::uint64_t, KVEventBatch>> take_sent_kv_events() { return kv_event_publisher_->take_sent(); }
  const std::string& kv_events_topic() const { return kv_event_publisher_->topic(); }

  const Request* request(const std::string& id) const;
  const std::vector<Request*>& running() const { return running_; }
  const RequestQueue& waiting() const { return *waiting_; }
  const RequestQueue& skipped_waiting() const { return *skipped_waiting_; }
  KVCacheManager& kv_cache_manager() { return *kv_cache_manager_; }
  const KVCacheManager& kv_cache_manager() const { return *kv_cache_manager_; }
  std::int64_t max_num_scheduled_tokens() const { return max_num_scheduled_tokens_; }
  std::int64_t current_step() const { return current_step_; }

 protected:
  // scheduler.py@6e448d0e Scheduler._update_after_schedule (AsyncScheduler extends it).
  virtual void update_after_schedule(SchedulerOutput& scheduler_output);
  // scheduler.py@6e448d0e Scheduler._update_request_with_output (AsyncScheduler extends it): the tokens
  // kept (trimmed at a stop) and whether the request stopped.
  virtual std::pair<std::vector<std::int32_t>, bool> update_request_with_output(Request& request,
                                                                                std::vector<std::int32_t> new_token_ids,
                                                                                bool is_stale);

  Request& request_at(const std::string& id);

  const VllmConfig vllm_config_;
  const SchedulerConfig& scheduler_config_;
  const CacheConfig& cache_config_;
  KVCacheConfig kv_cache_config_;
  bool log_stats_ = false;
  std::int64_t max_num_running_reqs_ = 0;
  std::int64_t max_num_scheduled_tokens_ = 0;
  std::int64_t max_model_len_ = 0;
  std::int64_t num_sampled_tokens_per_step_ = 1;
  std::int64_t block_size_ = 0;
  std::int64_t hash_block_size_ = 0;
  SchedulingPolicy policy_ = SchedulingPolicy::kFcfs;
  std::int64_t num_spec_tokens_ = 0;
  std::int64_t num_lookahead_tokens_ = 0;
  bool use_pp_ = false;
  bool use_v2_model_runner_ = false;
  std::int64_t current_step_ = 0;

  std::map<std::string, std::unique_ptr<Request>> requests_;
  std::unique_ptr<RequestQueue> waiting_;
  std::unique_ptr<RequestQueue> skipped_waiting_;
  std::vector<Request*> running_;
  std::set<std::string> finished_req_ids_;
  std::set<std::string> reset_preempted_req_ids_;
  std::set<std::string> prev_step_scheduled_req_ids_;
  std::set<Request*> inflight_prefills_;
  std::unique_ptr<KVCacheManager> kv_cache_manager_;
  std::unique_ptr<EventPublisher> kv_event_publisher_;
  std::vector<std::unique_ptr<Request>> retired_;  // freed requests, kept alive until the next call

 protected:
  // scheduler.py@6e448d0e Scheduler._preempt_request (protected: the transcribed upstream tests call it).
  void preempt_request(Request& request, bool drop_stale_output);
  // scheduler.py@6e448d0e Scheduler._make_cached_request_data (protected: the transcribed upstream tests
  // call it). The PP-only new_token_ids are not ported, so num_scheduled_tokens and spec_decode_tokens,
  // which only they read, are not parameters.
  CachedRequestData make_cached_request_data(const std::vector<Request*>& running_reqs,
                                             const std::vector<Request*>& resumed_reqs,
                                             const std::map<std::string, KVCacheBlocks>& req_to_new_blocks) const;

 private:
  // scheduler.py@6e448d0e Scheduler._free_request / _free_blocks / _free_request_blocks.
  void free_request(Request& request);
  void free_blocks(Request& request);
  // scheduler.py@6e448d0e Scheduler._enqueue_waiting_request / _select_waiting_queue_for_scheduling /
  // _is_blocked_waiting_status.
  void enqueue_waiting_request(Request* request);
  RequestQueue* select_waiting_queue_for_scheduling();
  static bool is_blocked_waiting_status(RequestStatus status);
};

}  // namespace blis::vllm
