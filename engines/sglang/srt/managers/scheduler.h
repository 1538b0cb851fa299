// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/scheduler.py@71de97b2 Scheduler (the request
// queue, get_next_batch_to_run, get_new_batch_prefill, update_running_batch, the normal and overlap event
// loops' order of scheduling and result processing, abort_request, on_idle's ratio reset) and of
// python/sglang/srt/managers/scheduler_components/batch_result_processor.py@71de97b2 (process_batch_result_prefill
// and _decode for generation requests). The event loops are not loops here: the engine core calls
// next_batch() where the loop calls get_next_batch_to_run and process_batch_result() where it pops a result
// (scheduler.h's Scheduler is driven step by step; see engines/sglang/engine_core.h).
//
// Modelled: one data-parallel rank, pp_size 1, no disaggregation, no speculative decoding, no dLLM, no LoRA,
// no hierarchical cache, no grammar, no sessions, no prefill delayer or min-free-slots delayer, no
// multimodal inputs, no logprobs. is_disable_overlap_for_batch is always False (SGLANG_DISABLE_CONSECUTIVE_PREFILL_OVERLAP
// is off by default and the engine core refuses it), so the overlap loop never processes a result before launching. The memory pools (ReqToTokenPool, the token or paged allocator) and the
// radix cache are owned here, as the model runner and scheduler own them upstream.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "srt/managers/new_token_ratio_tracker.h"
#include "srt/managers/prefill_adder.h"
#include "srt/managers/schedule_batch.h"
#include "srt/managers/schedule_policy.h"
#include "srt/managers/server_args.h"
#include "srt/mem_cache/memory_pool.h"
#include "srt/mem_cache/radix_cache.h"

namespace blis::sglang {

// What the scheduler reads at start-up: the resolved server arguments and the pool the KV budget bought
// (tp_worker.py@71de97b2 get_worker_info), and the environment variables it consults (environ.py defaults).
struct SchedulerConfig {
  std::int64_t page_size = 1;
  std::int64_t max_total_num_tokens = 0;
  std::int64_t max_running_requests = 0;
  std::int64_t context_len = 0;                      // ModelConfig.context_len
  std::optional<std::int64_t> chunked_prefill_size;  // after init_chunked_prefill (<= 0 is None)
  std::int64_t max_prefill_tokens = 16384;
  bool disable_overlap_schedule = false;
  bool enable_mixed_chunk = false;
  std::string schedule_policy = "fcfs";
  double schedule_conservativeness = 1.0;
  bool disable_radix_cache = false;
  std::string radix_eviction_policy = "lru";
  bool enable_priority_scheduling = false;
  bool disable_priority_preemption = false;
  bool abort_on_priority_when_disabled = false;
  std::int64_t priority_scheduling_preemption_threshold = 10;
  std::optional<std::int64_t> max_queued_requests;
  std::optional<std::int64_t> prefill_max_requests;
  bool allow_auto_truncate = false;
  bool enable_kv_cache_events = false;
  ServerArgs server_args;  // schedule_low_priority_values_first, retraction_policy
  // environ.py@71de97b2
  double init_new_token_ratio = 0.7;             // SGLANG_INIT_NEW_TOKEN_RATIO
  double min_new_token_ratio_factor = 0.14;      // SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR
  std::int64_t new_token_ratio_decay_steps = 600;  // SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS
  std::int64_t retract_decode_steps = 20;        // SGLANG_RETRACT_DECODE_STEPS
  SchedulePolicyEnv policy_env;
  UniformDraw random_draw;  // the "random" policy's draws (a named substream of the run)
};

// scheduler.py@71de97b2 NextBatchPlan.
struct NextBatchPlan {
  std::shared_ptr<ScheduleBatch> batch_to_run;
  std::shared_ptr<ScheduleBatch> running_batch;
};

// A launched batch as the result queue holds it (batch.copy()): the requests and the mode at launch.
struct LaunchedBatch {
  std::vector<Req*> reqs;
  ForwardMode forward_mode = ForwardMode::kIdle;
  std::vector<Req*> decoding_reqs;
  Req* chunked_req = nullptr;  // the request this extend batch runs a middle chunk of (it samples nothing)
  std::vector<std::int64_t> prefix_lens;
  std::vector<std::int64_t> extend_lens;
};

// scheduler.py@71de97b2's AbortReq to the tokenizer for a request ended outside a batch (refused or aborted in
// the queue, or aborted by retraction): its rid and finished_reason (FINISH_ABORT.to_json: type "abort", the
// message, and the HTTP status the tokenizer answers with when upstream sets one, e.g. 503
// SERVICE_UNAVAILABLE for the queue limit). An AbortReq without a finished_reason (a client's abort of a
// queued request) has an empty message and no status.
struct EndedOutsideBatch {
  std::string rid;
  std::string type = "abort";
  std::optional<int> status_code;
  std::string message;
  bool operator==(const EndedOutsideBatch&) const = default;
};

// What processing a batch result did, for the engine core's token record.
struct BatchResultRecord {
  std::vector<std::pair<std::string, std::int64_t>> emitted;    // (rid, tokens appended) in batch order
  std::vector<std::pair<std::string, std::string>> finished;    // (rid, finish reason type) in batch order
};

class Scheduler {
 public:
  explicit Scheduler(SchedulerConfig config);
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // scheduler.py@71de97b2 handle_generate_request (the scheduler's part: init_req_max_new_tokens,
  // validate_input_length, _add_request_to_queue). Takes ownership.
  void handle_generate_request(std::unique_ptr<Req> req);
  // scheduler.py@71de97b2 abort_request for one rid. Upstream matches rid.startswith(recv_req.rid); rids
  // are random hex upstream, so that is equality, and the port compares for equality (BLIS's ids are
  // "<client>/<n>", where a prefix test would abort "c/10" with "c/1").
  void abort_request(const std::string& rid);

  // scheduler.py@71de97b2 event_loop_normal / event_loop_overlap, one iteration's scheduling half:
  // get_next_batch_to_run, running_batch and last_batch updated; on no batch, on_idle's ratio reset. The
  // batch is recorded in the result queue and returned (null: nothing to run).
  const LaunchedBatch* next_batch();
  // The result half: process_batch_result for the oldest launched batch, with one sampled token per request
  // (next_token_ids, in batch order; the sampler stand-in's). Returns what the tokens did.
  BatchResultRecord process_batch_result(const std::vector<std::int64_t>& next_token_ids);
  // The oldest launched batch not yet processed.
  const LaunchedBatch* front_launched() const { return launched_.empty() ? nullptr : &launched_.front(); }
  // The launched batches not yet processed (event_loop_overlap's result_queue; at most one between iterations).
  std::size_t launched_count() const { return launched_.size(); }
  // event_loop_overlap waiting in pop_and_process: the last iteration launched nothing (last_batch is None) while
  // a launched batch's result is pending; the loop schedules again only after processing it.
  bool awaiting_last_result() const { return last_batch_ == nullptr && !launched_.empty(); }
  // The batch launched last (the one next_batch() returned).
  const LaunchedBatch* newest_launched() const { return launched_.empty() ? nullptr : &launched_.back(); }

  // scheduler.py@71de97b2 get_next_batch_to_run.
  NextBatchPlan get_next_batch_to_run(std::shared_ptr<ScheduleBatch> running_batch,
                                      std::shared_ptr<ScheduleBatch> last_batch);
  // scheduler.py@71de97b2 get_new_batch_prefill (no prefill delayer) -> _get_new_batch_prefill_raw.
  NextBatchPlan get_new_batch_prefill(std::shared_ptr<ScheduleBatch> running_batch);
  // scheduler.py@71de97b2 update_running_batch.
  std::shared_ptr<ScheduleBatch> update_running_batch(std::shared_ptr<ScheduleBatch> batch);
  // scheduler.py@71de97b2 get_num_allocatable_reqs (pp_max_micro_batch_size = max_running_requests).
  std::int64_t get_num_allocatable_reqs(std::int64_t running_bs) const;

  // State read by the engine core and the metrics.
  const SchedulerConfig& config() const { return config_; }
  const std::vector<Req*>& waiting_queue() const { return waiting_queue_; }
  const ScheduleBatch& running_batch() const { return *running_batch_; }
  const Req* request(const std::string& rid) const;
  double new_token_ratio() const { return new_token_ratio_.current; }
  std::int64_t max_req_len() const { return max_req_len_; }
  std::int64_t max_req_input_len() const { return max_req_input_len_; }
  RadixCache& tree_cache() { return *tree_cache_; }
  const RadixCache& tree_cache() const { return *tree_cache_; }
  const BaseTokenToKVPoolAllocator& allocator() const { return *allocator_; }
  // Requests ended outside a batch result (aborted in the queue, refused by the queue limit): (rid, reason).
  std::vector<std::pair<std::string, std::string>> take_ended_outside_batches();
  // The same requests with what upstream's AbortReq tells the tokenizer (message, status code). Drains the
  // same record as take_ended_outside_batches: a caller uses one or the other.
  std::vector<EndedOutsideBatch> take_ended_outside_batches_with_reasons();
  // Requests retracted since the last call, in retraction order.
  std::vector<std::string> take_retracted();
  // Whether an iteration since the last call found no batch with the scheduler fully idle (scheduler.py@71de97b2
  // on_idle past is_fully_idle), where upstream's on_idle publishes the tree cache's queued KV events.
  bool take_fully_idle() { return std::exchange(fully_idle_, false); }

 private:
  // scheduler.py@71de97b2 init_req_max_new_tokens.
  void init_req_max_new_tokens(Req& req) const;
  // scheduler.py@71de97b2 _add_request_to_queue (disaggregation mode null).
  void add_request_to_queue(Req* req, bool is_retracted = false);
  // scheduler.py@71de97b2 _set_or_validate_priority.
  bool set_or_validate_priority(Req& req);
  // scheduler.py@71de97b2 _abort_on_queued_limit.
  bool abort_on_queued_limit(Req& req);
  // scheduler.py@71de97b2 process_pending_chunked_abort.
  void process_pending_chunked_abort();
  // batch_result_processor.py@71de97b2 process_batch_result_prefill / _decode.
  void process_batch_result_prefill(const LaunchedBatch& batch, const std::vector<std::int64_t>& next_token_ids,
                                    BatchResultRecord& record);
  void process_batch_result_decode(const LaunchedBatch& batch, const std::vector<std::int64_t>& next_token_ids,
                                   BatchResultRecord& record);
  void sweep_finished();

  SchedulerConfig config_;
  bool enable_overlap_;
  bool enable_priority_preemption_;
  std::optional<std::int64_t> chunked_prefill_size_;
  bool is_mixed_chunk_;
  std::int64_t max_req_len_ = 0;
  std::int64_t max_req_input_len_ = 0;
  std::unique_ptr<ReqToTokenPool> req_to_token_pool_;
  std::unique_ptr<BaseTokenToKVPoolAllocator> allocator_;
  std::unique_ptr<RadixCache> tree_cache_;
  std::unique_ptr<SchedulePolicy> policy_;
  NewTokenRatioTracker new_token_ratio_;
  std::map<std::string, std::unique_ptr<Req>> reqs_;  // every live request, by rid
  std::vector<Req*> waiting_queue_;
  std::shared_ptr<ScheduleBatch> running_batch_;
  std::shared_ptr<ScheduleBatch> last_batch_;
  Req* chunked_req_ = nullptr;
  Req* pending_chunked_abort_req_ = nullptr;
  std::deque<LaunchedBatch> launched_;
  std::int64_t queue_entry_seq_ = 0;
  std::vector<EndedOutsideBatch> ended_outside_;
  std::vector<std::string> retracted_;
  bool fully_idle_ = false;
};

}  // namespace blis::sglang
