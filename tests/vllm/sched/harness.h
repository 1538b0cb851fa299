// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of the fixtures of tests/v1/core/utils.py@6e448d0e (create_scheduler,
// create_requests, EOS_TOKEN_ID) and of the helpers of tests/v1/core/test_scheduler.py@6e448d0e
// (create_scheduler_with_priority, create_requests_with_priority, make_output, assert_scheduler_empty,
// _step_until_done) and tests/v1/core/test_async_scheduler.py@6e448d0e (_make_model_runner_output), shared
// by the scheduler tests. Only the text-only, connector-free arguments the port models are kept.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "config/vllm_config.h"
#include "v1/core/kv_cache_manager.h"
#include "v1/core/sched/async_scheduler.h"
#include "v1/core/sched/output.h"
#include "v1/core/sched/scheduler.h"
#include "v1/kv_cache_interface.h"
#include "v1/outputs.h"
#include "v1/request.h"

namespace blis::vllm::testing {

// utils.py@6e448d0e EOS_TOKEN_ID.
inline constexpr std::int32_t EOS_TOKEN_ID = 50256;

// The keyword arguments of utils.py@6e448d0e create_scheduler that the port models (plus `policy`, which
// create_scheduler_with_priority sets to "priority").
struct SchedulerArgs {
  std::int64_t max_num_seqs = 16;
  std::int64_t max_num_batched_tokens = 8192;
  bool enable_chunked_prefill = true;
  bool enable_prefix_caching = false;
  std::int64_t long_prefill_token_threshold = 0;
  std::int64_t num_blocks = 10000;
  std::int64_t block_size = 16;
  std::optional<std::int64_t> max_model_len = std::nullopt;
  bool async_scheduling = false;
  std::int64_t pipeline_parallel_size = 1;
  // None: envs.VLLM_USE_V2_MODEL_RUNNER, unset in upstream's test runs, so the V1 model runner.
  std::optional<bool> use_v2_model_runner = std::nullopt;
  std::string policy = "fcfs";
  // Not an argument of create_scheduler: the oracle replay (tests/vllm/oracle) turns KV-cache events on
  // with a publisher that keeps what it sends (KVEventsConfig(enable_kv_cache_events=True, publisher="zmq")).
  bool kv_events = false;
  // Not an argument of create_scheduler either (it takes one kv_cache_spec): the oracle replay's KV cache
  // groups, each of 1 head of size 1 in float32 over the one pool: kind "full", "sliding_window" (param: the
  // window) or "chunked_local" (param: the chunk size). Empty: one full-attention group, as create_scheduler.
  struct KVGroup {
    std::string kind;
    std::int64_t param = 0;
  };
  std::vector<KVGroup> kv_groups = {};
};

// utils.py@6e448d0e create_scheduler: a VllmConfig, and a KVCacheConfig of num_blocks blocks with one
// FullAttentionSpec group (block_size, 1 head of size 1, float32); log_stats=True. An AsyncScheduler when
// async_scheduling. Then `scheduler.use_v2_model_runner = use_v2_model_runner`.
std::unique_ptr<Scheduler> create_scheduler(const SchedulerArgs& args = {});
// test_scheduler.py@6e448d0e create_scheduler_with_priority (policy "priority", chunked prefill on,
// hash_block_size = block_size).
std::unique_ptr<Scheduler> create_scheduler_with_priority(SchedulerArgs args = {});

// The keyword arguments of utils.py@6e448d0e create_requests that the port models. prompt_logprobs is
// not modelled; a request asking for prompt logprobs skips reading the prefix cache
// (request.py@6e448d0e Request.__init__, get_skip_reading_prefix_cache), which is all it changes here.
struct RequestArgs {
  std::int64_t num_tokens = 10;
  bool ignore_eos = false;
  std::int64_t max_tokens = 16;
  std::vector<std::int32_t> stop_token_ids = {};
  std::optional<std::int64_t> prompt_logprobs = std::nullopt;
  bool same_prompt = false;
  std::int64_t block_size = 16;
  std::vector<std::string> req_ids = {};  // empty: "0", "1", ...
};

// utils.py@6e448d0e create_requests: request i has the prompt [i] * num_tokens ([0] * num_tokens with
// same_prompt), the sampling parameters (max_tokens, stop_token_ids, EOS_TOKEN_ID unless ignore_eos) and
// a sha256 block hasher of block_size. Upstream's arrival_time is time.time() at creation: here a
// process-wide counter that increases with every request made, which orders them the same way.
std::vector<std::unique_ptr<Request>> create_requests(std::int64_t num_requests, const RequestArgs& args = {});
// One request (create_requests(num_requests=1, ...)[0]).
std::unique_ptr<Request> create_request(const RequestArgs& args = {});

// A request as create_requests makes one, with the given id and prompt (test_async_scheduler.py's
// test_prefix_caching_for_multi_turn replaces a made request's prompt and recomputes its block hashes).
std::unique_ptr<Request> create_request_with_prompt(const std::string& req_id, std::vector<std::int32_t> prompt,
                                                    const RequestArgs& args = {});

// test_scheduler.py@6e448d0e create_requests_with_priority (arrival_times absent: 0.0, 1.0, ...).
std::vector<std::unique_ptr<Request>> create_requests_with_priority(
    std::int64_t num_requests, const std::vector<std::int64_t>& priorities,
    std::optional<std::vector<double>> arrival_times = std::nullopt, std::int64_t num_tokens = 10,
    std::int64_t max_tokens = 16, std::int64_t starting_idx = 0, bool same_prompt = false, std::int64_t block_size = 16,
    std::vector<std::string> req_ids = {});

// A request as create_requests makes one (sha256 block hasher, EOS_TOKEN_ID unless ignore_eos), with every
// field given: the oracle replay (tests/vllm/oracle) builds the requests a recorded trace names.
std::unique_ptr<Request> make_request_at(const std::string& req_id, std::vector<std::int32_t> prompt,
                                         std::int64_t max_tokens, double arrival_time, std::int64_t priority,
                                         bool ignore_eos, std::int64_t block_size,
                                         const std::vector<std::int32_t>& stop_token_ids = {});

// Raw pointers to the requests (they stay valid while the scheduler owns them; a freed request stays
// valid until the next schedule() or update_from_output()).
std::vector<Request*> pointers(const std::vector<std::unique_ptr<Request>>& requests);
// Hands every request to the scheduler, in order.
void add_requests(Scheduler& scheduler, std::vector<std::unique_ptr<Request>>& requests);

// ModelRunnerOutput(req_ids, req_id_to_index={id: i}, sampled_token_ids).
ModelRunnerOutput model_runner_output(const std::vector<std::string>& req_ids,
                                      const std::vector<std::vector<std::int32_t>>& sampled_token_ids);

// Upstream's update_from_output ends with make_stats() when log_stats is set (scheduler.py@6e448d0e
// lines 2029-2047), which drains the KV cache manager's prefix-cache stats into a fresh accumulator. The
// port's update_from_output leaves make_stats to its caller; this runs both, in upstream's order, and
// returns the outputs and the stats.
struct UpdateResult {
  std::vector<EngineCoreOutput> outputs;
  SchedulerStats stats;
};
UpdateResult update_from_output(Scheduler& scheduler, const SchedulerOutput& scheduler_output,
                                const ModelRunnerOutput& model_runner_output);

// test_scheduler.py@6e448d0e make_output: [[1000]] for every running request.
ModelRunnerOutput make_output(const Scheduler& scheduler);
// test_async_scheduler.py@6e448d0e _make_model_runner_output: request i samples [i].
ModelRunnerOutput make_model_runner_output(const SchedulerOutput& scheduler_output);

// The ids of scheduler_output.scheduled_new_reqs / of a request list / of a queue in its order.
std::vector<std::string> new_req_ids(const SchedulerOutput& scheduler_output);
std::vector<std::string> ids_of(const std::vector<Request*>& requests);
std::vector<std::string> ids_of(const RequestQueue& queue);
// `req_id in scheduler_output.num_scheduled_tokens`.
bool is_scheduled(const SchedulerOutput& scheduler_output, const std::string& req_id);

// The scheduler's internals that upstream's tests read or set directly (self.requests, self.running,
// self.finished_req_ids, ...). Reached through pointers to the protected members, named through this
// derived class (never instantiated).
struct SchedulerAccess : Scheduler {
  static std::map<std::string, std::unique_ptr<Request>>& requests(Scheduler& s) {
    return s.*(&SchedulerAccess::requests_);
  }
  static std::vector<Request*>& running(Scheduler& s) { return s.*(&SchedulerAccess::running_); }
  static RequestQueue& waiting(Scheduler& s) { return *(s.*(&SchedulerAccess::waiting_)); }
  static RequestQueue& skipped_waiting(Scheduler& s) { return *(s.*(&SchedulerAccess::skipped_waiting_)); }
  static std::set<std::string>& finished_req_ids(Scheduler& s) { return s.*(&SchedulerAccess::finished_req_ids_); }
  static std::set<std::string>& prev_step_scheduled_req_ids(Scheduler& s) {
    return s.*(&SchedulerAccess::prev_step_scheduled_req_ids_);
  }
  static bool& use_v2_model_runner(Scheduler& s) { return s.*(&SchedulerAccess::use_v2_model_runner_); }
  // scheduler.py@6e448d0e Scheduler._preempt_request.
  static void call_preempt_request(Scheduler& s, Request& request, bool drop_stale_output = false) {
    (s.*(&SchedulerAccess::preempt_request))(request, drop_stale_output);
  }
  // scheduler.py@6e448d0e Scheduler._make_cached_request_data.
  static CachedRequestData call_make_cached_request_data(
      const Scheduler& s, const std::vector<Request*>& running_reqs, const std::vector<Request*>& resumed_reqs,
      const std::map<std::string, KVCacheBlocks>& req_to_new_blocks) {
    return (s.*(&SchedulerAccess::make_cached_request_data))(running_reqs, resumed_reqs, req_to_new_blocks);
  }
  // `scheduler.requests[req.request_id] = req; scheduler.running.append(req)`: installs a request as
  // running, as upstream's test_stop_via_update_from_output does by hand. Returns it.
  static Request* install_running(Scheduler& s, std::unique_ptr<Request> request);
};

// What upstream's tests read from a request after the scheduler has freed it (Python keeps the object
// alive; the port deletes it at the next schedule() or update_from_output()). observe() must run after
// every call into the scheduler (add_request included): it snapshots each tracked request while it is
// alive, the last time while the request sits among the scheduler's just-freed requests.
struct RequestSnapshot {
  RequestStatus status = RequestStatus::kWaiting;
  std::vector<std::int32_t> output_token_ids;
  std::int64_t num_output_tokens = 0;
  std::int64_t num_prompt_tokens = 0;
  std::int64_t num_stale_output_tokens = 0;
  bool is_finished() const { return vllm::is_finished(status); }
};
class RequestTracker {
 public:
  void track(Request* request);
  void track(const std::vector<Request*>& requests);
  void observe(const Scheduler& scheduler);
  const RequestSnapshot& operator[](const std::string& req_id) const { return snapshots_.at(req_id); }

 private:
  struct Entry {
    Request* request;
    bool seen;   // held by the scheduler at some observe()
    bool alive;  // not yet freed
  };
  std::map<std::string, Entry> entries_;
  std::map<std::string, RequestSnapshot> snapshots_;
};

// test_scheduler.py@6e448d0e assert_scheduler_empty (the encoder-cache checks are not applicable: the port
// has no encoder cache).
void assert_scheduler_empty(Scheduler& scheduler);

}  // namespace blis::vllm::testing
