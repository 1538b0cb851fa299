// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_async_scheduler.py@6e448d0e (stop by max
// tokens, aborts with steps in flight, prefix caching under async scheduling, and KV-pressure preemption
// with in-flight output driven by the PipelinedEngine batch-queue emulation).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "harness.h"

namespace blis::vllm::testing {
namespace {

// test_async_scheduler.py@6e448d0e test_stop_by_max_tokens, max_tokens in [1, 2, 3, 5].
TEST(VllmAsyncScheduler, StopByMaxTokens) {
  for (const std::int64_t max_tokens : {1, 2, 3, 5}) {
    SCOPED_TRACE(max_tokens);
    auto scheduler = create_scheduler({.async_scheduling = true});
    auto requests = create_requests(2, {.max_tokens = max_tokens});
    Request* req0 = requests[0].get();
    Request* req1 = requests[1].get();
    RequestTracker tracker;
    tracker.track({req0, req1});

    std::int64_t expected_total_num_scheduled_tokens = 0;
    std::deque<SchedulerOutput> sched_outputs;
    scheduler->add_request(std::move(requests[0]));
    sched_outputs.push_back(scheduler->schedule());
    tracker.observe(*scheduler);
    expected_total_num_scheduled_tokens += req0->num_prompt_tokens + max_tokens - 1;

    scheduler->add_request(std::move(requests[1]));
    sched_outputs.push_back(scheduler->schedule());
    tracker.observe(*scheduler);
    expected_total_num_scheduled_tokens += req1->num_prompt_tokens + max_tokens - 1;

    std::int64_t total_num_scheduled_tokens = 0;
    while (!sched_outputs.empty()) {
      SchedulerOutput sched_output = std::move(sched_outputs.front());
      sched_outputs.pop_front();
      total_num_scheduled_tokens += sched_output.total_num_scheduled_tokens;
      update_from_output(*scheduler, sched_output, make_model_runner_output(sched_output));
      tracker.observe(*scheduler);

      sched_output = scheduler->schedule();
      tracker.observe(*scheduler);
      if (!sched_output.num_scheduled_tokens.empty()) sched_outputs.push_back(std::move(sched_output));
    }

    EXPECT_EQ(scheduler->get_num_unfinished_requests(), 0);
    EXPECT_EQ(tracker["0"].num_output_tokens, max_tokens);
    EXPECT_EQ(tracker["1"].num_output_tokens, max_tokens);
    // Ensure we aren't scheduling more tokens than necessary.
    EXPECT_EQ(total_num_scheduled_tokens, expected_total_num_scheduled_tokens);
  }
}

// The body shared by test_abort and test_preempt (upstream's two functions are identical): 10 requests,
// two steps in flight, one request aborted before each step's output is processed.
void abort_one_per_step() {
  auto scheduler = create_scheduler({.async_scheduling = true});
  auto requests = create_requests(10, {.max_tokens = 20});
  const std::vector<Request*> reqs = pointers(requests);
  RequestTracker tracker;
  tracker.track(reqs);
  add_requests(*scheduler, requests);
  tracker.observe(*scheduler);

  std::deque<SchedulerOutput> sched_outputs;
  sched_outputs.push_back(scheduler->schedule());
  sched_outputs.push_back(scheduler->schedule());
  tracker.observe(*scheduler);

  std::deque<std::size_t> abort_order{0, 8, 3, 1, 6, 4, 2, 5, 7, 9};
  const std::vector<std::size_t> abort_order_copy(abort_order.begin(), abort_order.end());
  auto abort_request = [&] {
    if (abort_order.empty()) return;
    const std::string req_id = std::to_string(abort_order.front());
    abort_order.pop_front();
    scheduler->finish_requests({req_id}, RequestStatus::kFinishedAborted);
    tracker.observe(*scheduler);
  };

  while (!sched_outputs.empty()) {
    // Abort a scheduled request.
    abort_request();
    SchedulerOutput sched_output = std::move(sched_outputs.front());
    sched_outputs.pop_front();
    update_from_output(*scheduler, sched_output, make_model_runner_output(sched_output));
    tracker.observe(*scheduler);

    sched_output = scheduler->schedule();
    tracker.observe(*scheduler);
    if (!sched_output.num_scheduled_tokens.empty()) sched_outputs.push_back(std::move(sched_output));
  }

  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const RequestSnapshot& req = tracker[std::to_string(i)];
    EXPECT_EQ(req.status, RequestStatus::kFinishedAborted) << i;
    const auto index = std::find(abort_order_copy.begin(), abort_order_copy.end(), i) - abort_order_copy.begin();
    EXPECT_EQ(req.num_output_tokens, index) << i;
  }
}

// test_async_scheduler.py@6e448d0e test_abort
TEST(VllmAsyncScheduler, Abort) { abort_one_per_step(); }

// test_async_scheduler.py@6e448d0e test_preempt (upstream's body is test_abort's)
TEST(VllmAsyncScheduler, Preempt) { abort_one_per_step(); }

// test_async_scheduler.py@6e448d0e test_prefix_caching_for_prefill_dedup
TEST(VllmAsyncScheduler, PrefixCachingForPrefillDedup) {
  constexpr std::int64_t CHUNK_SIZE = 1000;
  constexpr std::int64_t BLOCK_SIZE = 16;
  constexpr std::int64_t num_prompt_tokens = 100;
  auto scheduler = create_scheduler({.max_num_batched_tokens = CHUNK_SIZE,
                                     .enable_prefix_caching = true,
                                     .block_size = BLOCK_SIZE,
                                     .async_scheduling = true});
  auto requests = create_requests(
      5, {.num_tokens = num_prompt_tokens, .max_tokens = 3, .same_prompt = true, .block_size = BLOCK_SIZE});
  std::deque<std::unique_ptr<Request>> pending;
  for (auto& r : requests) pending.push_back(std::move(r));

  // Two requests with the same prompt.
  const std::string req0 = pending.front()->request_id;
  scheduler->add_request(std::move(pending.front()));
  pending.pop_front();
  const std::string req1 = pending.front()->request_id;
  scheduler->add_request(std::move(pending.front()));
  pending.pop_front();

  std::deque<SchedulerOutput> sched_outputs;
  SchedulerOutput sched_output = scheduler->schedule();
  // Prefix caching de-duplicates the prompts in the same step: all blocks but the last are shared.
  EXPECT_EQ(sched_output.num_scheduled_tokens.size(), 2u);
  EXPECT_EQ(sched_output.scheduled_tokens_of(req0), num_prompt_tokens);
  EXPECT_EQ(sched_output.scheduled_tokens_of(req1), num_prompt_tokens % BLOCK_SIZE);
  sched_outputs.push_back(std::move(sched_output));

  sched_outputs.push_back(scheduler->schedule());
  while (!sched_outputs.empty()) {
    std::optional<std::string> added_req;
    if (!pending.empty()) {
      added_req = pending.front()->request_id;
      scheduler->add_request(std::move(pending.front()));
      pending.pop_front();
    }
    sched_output = std::move(sched_outputs.front());
    sched_outputs.pop_front();
    scheduler->update_from_output(sched_output, make_model_runner_output(sched_output));
    sched_output = scheduler->schedule();
    if (!sched_output.num_scheduled_tokens.empty()) {
      if (added_req) {
        EXPECT_EQ(sched_output.scheduled_tokens_of(*added_req), num_prompt_tokens % BLOCK_SIZE);
      }
      sched_outputs.push_back(std::move(sched_output));
    }
  }
  EXPECT_EQ(scheduler->get_num_unfinished_requests(), 0);
}

// test_async_scheduler.py@6e448d0e test_prefix_caching_for_multi_turn. Upstream overwrites the next-turn
// requests' prompts (and recomputes their block hashes); here they are made with those prompts.
TEST(VllmAsyncScheduler, PrefixCachingForMultiTurn) {
  constexpr std::int64_t CHUNK_SIZE = 1000;
  constexpr std::int64_t BLOCK_SIZE = 16;
  constexpr std::int64_t num_prompt_tokens = 100;
  constexpr std::int64_t num_output_tokens = 200;
  auto scheduler = create_scheduler({.max_num_batched_tokens = CHUNK_SIZE,
                                     .enable_prefix_caching = true,
                                     .block_size = BLOCK_SIZE,
                                     .async_scheduling = true});
  auto requests =
      create_requests(5, {.num_tokens = num_prompt_tokens, .max_tokens = num_output_tokens, .block_size = BLOCK_SIZE});
  const std::vector<Request*> reqs = pointers(requests);
  std::vector<std::vector<std::int32_t>> prompts;
  for (const Request* r : reqs) prompts.push_back(r->prompt_token_ids);
  RequestTracker tracker;
  tracker.track(reqs);
  add_requests(*scheduler, requests);
  tracker.observe(*scheduler);

  std::deque<SchedulerOutput> sched_outputs;
  sched_outputs.push_back(scheduler->schedule());
  sched_outputs.push_back(scheduler->schedule());
  tracker.observe(*scheduler);
  // Process the requests.
  while (!sched_outputs.empty()) {
    SchedulerOutput sched_output = std::move(sched_outputs.front());
    sched_outputs.pop_front();
    scheduler->update_from_output(sched_output, make_model_runner_output(sched_output));
    tracker.observe(*scheduler);
    sched_output = scheduler->schedule();
    tracker.observe(*scheduler);
    if (!sched_output.num_scheduled_tokens.empty()) sched_outputs.push_back(std::move(sched_output));
  }
  EXPECT_EQ(scheduler->get_num_unfinished_requests(), 0);

  // Next-turn requests whose prompts are the full output of the previous turn.
  std::vector<std::unique_ptr<Request>> next_turn_requests;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    std::vector<std::int32_t> prompt = prompts[i];
    const auto& outputs = tracker[std::to_string(i)].output_token_ids;
    prompt.insert(prompt.end(), outputs.begin(), outputs.end());
    ASSERT_EQ(static_cast<std::int64_t>(prompt.size()), num_prompt_tokens + num_output_tokens);
    next_turn_requests.push_back(create_request_with_prompt(
        std::to_string(i), std::move(prompt), {.max_tokens = num_output_tokens, .block_size = BLOCK_SIZE}));
  }
  const std::vector<Request*> next = pointers(next_turn_requests);

  // Schedule the next-turn requests: they hit the prefix cache of the previous ones.
  add_requests(*scheduler, next_turn_requests);
  const SchedulerOutput sched_output = scheduler->schedule();
  for (const Request* req : next) {
    EXPECT_EQ(sched_output.scheduled_tokens_of(req->request_id), req->num_prompt_tokens % BLOCK_SIZE);
  }
}

// test_async_scheduler.py@6e448d0e PipelinedEngine: drives an AsyncScheduler like
// EngineCore.step_with_batch_queue (schedule until the batch queue is full, then process the oldest step)
// and emulates the V2 model runner's own bookkeeping from what the scheduler serializes to it. Every
// sample is a globally unique token tagged with the sequence position it was sampled for. No draft
// tokens: the port does not model speculative decoding (accept_drafts is never consulted).
class PipelinedEngine {
 public:
  PipelinedEngine(Scheduler& scheduler, std::size_t queue_size, RequestTracker& tracker)
      : scheduler_(scheduler), queue_size_(queue_size), tracker_(tracker) {}

  std::map<std::string, std::vector<std::int32_t>> emitted;
  std::map<std::int32_t, std::int64_t> emitted_position;
  // Preemptions of a request with in-flight output (upstream counts them by wrapping _preempt_request;
  // a preempted request's num_stale_output_tokens is its num_in_flight_tokens at the preemption).
  std::int64_t preempts_with_inflight_output = 0;

  template <class BeforeStep>
  void run(BeforeStep before_step, int max_steps = 2000) {
    for (int i = 0; i < max_steps; ++i) {
      if (!scheduler_.has_requests() && queue_.empty()) return;
      before_step(i);
      const bool scheduled = scheduler_.has_requests() && queue_.size() < queue_size_ && schedule();
      if (scheduled && queue_.size() < queue_size_) continue;  // queue not yet full: no blocking
      if (!queue_.empty()) process_oldest_step();
    }
    FAIL() << "engine loop did not converge";
  }

 private:
  struct Step {
    SchedulerOutput output;
    std::vector<std::tuple<std::string, std::int64_t, std::int64_t>> new_reqs;
  };

  bool schedule() {
    SchedulerOutput out = scheduler_.schedule();
    tracker_.observe(scheduler_);
    for (const std::string& id : out.preempted_req_ids) {
      const Request* r = scheduler_.request(id);
      if (r != nullptr && r->num_stale_output_tokens > 0) ++preempts_with_inflight_output;
    }
    step_idx_ += 1;
    // Snapshot what NewRequestData serializes at schedule time (new and resumed requests for V2).
    Step step;
    for (const NewRequestData& r : out.scheduled_new_reqs) {
      step.new_reqs.emplace_back(r.req_id, static_cast<std::int64_t>(r.prefill_token_ids.value().size()),
                                 r.num_computed_tokens);
    }
    step.output = std::move(out);
    // Empty steps are enqueued too: the runner still observes their preempted/finished ids in order.
    queue_.push_front(std::move(step));
    return true;
  }

  void process_oldest_step() {
    Step step = std::move(queue_.back());
    queue_.pop_back();
    const SchedulerOutput& scheduler_output = step.output;
    // Worker-side state updates in step order: flush preempted/finished slots, then (re-)add new ones.
    for (const std::string& id : scheduler_output.preempted_req_ids) runner_view_.erase(id);
    for (const std::string& id : scheduler_output.finished_req_ids) runner_view_.erase(id);
    for (const auto& [id, seq_len, num_computed] : step.new_reqs) runner_view_[id] = {seq_len, num_computed};

    std::vector<std::string> req_ids;
    std::vector<std::vector<std::int32_t>> sampled_token_ids;
    for (const auto& [req_id, num_scheduled] : scheduler_output.num_scheduled_tokens) {
      req_ids.push_back(req_id);
      auto it = runner_view_.find(req_id);
      if (it == runner_view_.end()) {  // slot already flushed (finished/aborted mid-flight)
        sampled_token_ids.emplace_back();
        continue;
      }
      auto& [seq_len, num_computed] = it->second;
      const std::int64_t end = num_computed + num_scheduled;
      if (end < seq_len) {  // partial prefill by the runner's own bookkeeping: no sample
        num_computed = end;
        sampled_token_ids.emplace_back();
        continue;
      }
      const std::int64_t num_accepted = 0;  // no drafts
      std::vector<std::int32_t> tokens;
      for (std::int64_t k = 0; k < 1 + num_accepted; ++k) tokens.push_back(next_token_++);
      auto& e = emitted[req_id];
      e.insert(e.end(), tokens.begin(), tokens.end());
      sampled_token_ids.push_back(tokens);
      num_computed = end;
      seq_len = num_computed + 1;
      for (std::size_t offset = 0; offset < tokens.size(); ++offset) {
        emitted_position[tokens[offset]] =
            seq_len - static_cast<std::int64_t>(tokens.size()) + static_cast<std::int64_t>(offset);
      }
    }
    scheduler_.update_from_output(scheduler_output, model_runner_output(req_ids, sampled_token_ids));
    tracker_.observe(scheduler_);
  }

  Scheduler& scheduler_;
  std::size_t queue_size_;
  RequestTracker& tracker_;
  std::deque<Step> queue_;
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> runner_view_;  // [seq_len, num_computed]
  std::int64_t step_idx_ = 0;
  std::int32_t next_token_ = 1000;
};

// test_async_scheduler.py@6e448d0e test_kv_pressure_preemption_with_inflight_output, the num_spec=0
// parameter set (num_spec=3 runs speculative decoding, which the port does not model).
// _create_async_pp_scheduler(num_spec=0): async, the V2 model runner, 5 blocks of 16, a 512-token budget,
// PP=3 (upstream sets scheduler.pp_size after construction to avoid needing GPUs; the port's scheduler
// reads pipeline_parallel_size from its config, so it is configured there), a batch queue of 4.
TEST(VllmAsyncScheduler, KvPressurePreemptionWithInflightOutput) {
  constexpr std::int64_t max_tokens = 24;
  auto scheduler = create_scheduler({.max_num_batched_tokens = 512,
                                     .num_blocks = 5,
                                     .block_size = 16,
                                     .async_scheduling = true,
                                     .pipeline_parallel_size = 3,
                                     .use_v2_model_runner = true});
  auto requests = create_requests(8, {.num_tokens = 8, .ignore_eos = true, .max_tokens = max_tokens});
  const std::vector<Request*> reqs = pointers(requests);  // dangling once freed: read through the tracker
  RequestTracker tracker;
  tracker.track(reqs);
  std::deque<std::unique_ptr<Request>> pending;
  for (auto& r : requests) pending.push_back(std::move(r));
  for (int k = 0; k < 2; ++k) {
    scheduler->add_request(std::move(pending.front()));
    pending.pop_front();
  }
  tracker.observe(*scheduler);

  PipelinedEngine engine(*scheduler, /*queue_size=*/4, tracker);
  engine.run([&](int) {
    if (!pending.empty()) {
      scheduler->add_request(std::move(pending.front()));
      pending.pop_front();
      tracker.observe(*scheduler);
    }
  });

  EXPECT_GT(engine.preempts_with_inflight_output, 0) << "test did not exercise preemption with in-flight output";
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const std::string id = std::to_string(i);
    const RequestSnapshot& req = tracker[id];
    EXPECT_TRUE(req.is_finished()) << id;
    EXPECT_EQ(req.num_output_tokens, max_tokens) << id;
    // Lossless: delivered tokens are exactly the sampled tokens, in order.
    const auto& emitted = engine.emitted[id];
    ASSERT_GE(emitted.size(), static_cast<std::size_t>(max_tokens)) << id;
    EXPECT_EQ(req.output_token_ids, std::vector<std::int32_t>(emitted.begin(), emitted.begin() + max_tokens)) << id;
    // _assert_positions_consistent: the i-th delivered token was sampled for position prompt_len + i.
    for (std::size_t k = 0; k < req.output_token_ids.size(); ++k) {
      EXPECT_EQ(engine.emitted_position.at(req.output_token_ids[k]),
                req.num_prompt_tokens + static_cast<std::int64_t>(k))
          << "output " << k << " of " << id;
    }
  }
}

}  // namespace
}  // namespace blis::vllm::testing
