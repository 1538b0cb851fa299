// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own unit tests of Scheduler.schedule (engines/vllm/v1/core/sched/
// scheduler_schedule.cpp), each pinning what vllm/v1/core/sched/scheduler.py@6e448d0e Scheduler.schedule
// gives where the transcribed upstream tests leave it unchecked (design T7's mutation sweep): the priority
// victim and its scheduled tokens, the V2+PP+async decode cadence, the max_model_len clamp, and the lifetime
// of freed requests.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness.h"

namespace blis::vllm::testing {
namespace {

using Scheduled = std::vector<std::pair<std::string, std::int64_t>>;

}  // namespace

// scheduler.py@6e448d0e Scheduler._free_blocks: `del self.requests[request.request_id]`, after which the
// scheduler holds no reference to a finished request. The port keeps it alive until the next call into the
// scheduler (scheduler.h): schedule() releases it.
TEST(VllmSchedulerStep, ScheduleReleasesFreedRequests) {
  auto scheduler = create_scheduler();
  auto token = std::make_shared<int>(0);
  BlockHasher hasher = [token](const Request&) { return std::vector<BlockHash>{}; };
  scheduler->add_request(std::make_unique<Request>("0", std::vector<std::int32_t>(10, 0), 16, 1.0, 0, std::nullopt,
                                                   std::nullopt, std::move(hasher)));
  EXPECT_EQ(token.use_count(), 2);
  EXPECT_EQ(scheduler->finish_requests({"0"}, RequestStatus::kFinishedAborted), std::vector<std::string>({"0"}));
  EXPECT_EQ(scheduler->request("0"), nullptr);
  EXPECT_EQ(token.use_count(), 2);  // alive until the next call (the port's contract)
  scheduler->schedule();
  EXPECT_EQ(token.use_count(), 1);
}

// scheduler.py@6e448d0e Scheduler.schedule, priority preemption of a request already scheduled in this step
// (`preempted_req in scheduled_running_reqs`): its scheduled tokens are taken back
// (`num_scheduled_tokens.pop(preempted_req.request_id)`), the others' stay, and the pass goes on with the
// request after the one that needed the block (`req_index -= 1` for the victim removed before it). Running
// [H, L, X, Y] (L, priority 1, admitted before X and Y); X needs a new block when none is free: L is the
// victim, H, X and Y run.
TEST(VllmSchedulerStep, PriorityPreemptionTakesBackTheVictimsTokens) {
  // 4 usable blocks of 16.
  auto scheduler = create_scheduler_with_priority({.num_blocks = 5, .block_size = 16});
  auto first = create_requests_with_priority(2, {0, 1}, std::vector<double>{0.0, 1.0}, /*num_tokens=*/5,
                                             /*max_tokens=*/16, 0, false, 16, {"H", "L"});
  add_requests(*scheduler, first);
  SchedulerOutput out = scheduler->schedule();
  scheduler->update_from_output(out, make_output(*scheduler));
  auto x = create_requests_with_priority(1, {0}, std::vector<double>{2.0}, /*num_tokens=*/16, 16, 0, false, 16, {"X"});
  auto y = create_requests_with_priority(1, {0}, std::vector<double>{3.0}, /*num_tokens=*/5, 16, 0, false, 16, {"Y"});
  add_requests(*scheduler, x);
  add_requests(*scheduler, y);
  out = scheduler->schedule();
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"H", 1}, {"L", 1}, {"X", 16}, {"Y", 5}}));
  scheduler->update_from_output(out, make_output(*scheduler));
  out = scheduler->schedule();
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"H", 1}, {"X", 1}, {"Y", 1}}));
  EXPECT_EQ(out.total_num_scheduled_tokens, 3);
  EXPECT_EQ(out.preempted_req_ids, std::set<std::string>({"L"}));
  EXPECT_EQ(ids_of(scheduler->running()), std::vector<std::string>({"H", "X", "Y"}));
  EXPECT_EQ(ids_of(scheduler->waiting()), std::vector<std::string>({"L"}));
}

// scheduler.py@6e448d0e Scheduler.schedule: waiting requests are scheduled only `if not preempted_reqs`.
// The victim L frees 2 blocks, H needs 1: the other is free, but W (priority -5, 1 block) still waits.
TEST(VllmSchedulerStep, NoWaitingRequestIsScheduledInAStepThatPreempts) {
  // 6 usable blocks of 16.
  auto scheduler = create_scheduler_with_priority({.num_blocks = 7, .block_size = 16, .max_model_len = 100});
  auto h = create_requests_with_priority(1, {0}, std::vector<double>{0.0}, /*num_tokens=*/15, 16, 0, false, 16, {"H"});
  auto l = create_requests_with_priority(1, {1}, std::vector<double>{1.0}, /*num_tokens=*/20, 16, 0, false, 16, {"L"});
  add_requests(*scheduler, h);
  add_requests(*scheduler, l);
  SchedulerOutput out = scheduler->schedule();
  scheduler->update_from_output(out, make_output(*scheduler));
  auto x = create_requests_with_priority(1, {0}, std::vector<double>{2.0}, /*num_tokens=*/40, 16, 0, false, 16, {"X"});
  add_requests(*scheduler, x);
  out = scheduler->schedule();
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"H", 1}, {"L", 1}, {"X", 40}}));
  EXPECT_EQ(scheduler->kv_cache_manager().block_pool->get_num_free_blocks(), 0);
  scheduler->update_from_output(out, make_output(*scheduler));
  auto w = create_requests_with_priority(1, {-5}, std::vector<double>{3.0}, /*num_tokens=*/5, 16, 0, false, 16, {"W"});
  add_requests(*scheduler, w);
  out = scheduler->schedule();
  EXPECT_EQ(out.preempted_req_ids, std::set<std::string>({"L"}));
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"H", 1}, {"X", 1}}));
  EXPECT_EQ(scheduler->kv_cache_manager().block_pool->get_num_free_blocks(), 1);
  EXPECT_EQ(ids_of(scheduler->waiting()), std::vector<std::string>({"W", "L"}));
}

// scheduler.py@6e448d0e Scheduler.schedule: the victim's scheduled tokens return to the budget
// (`token_budget += num_scheduled_tokens.pop(preempted_req.request_id)`), which the request that needed the
// block then uses. A budget of 20 and 5 usable blocks: H (15 tokens) and L (5 tokens, priority 1) decode,
// X's prefill chunk takes the other 18 tokens and needs a third block after H took the last free one; L is
// preempted and X still gets its 18 tokens.
TEST(VllmSchedulerStep, PriorityPreemptionReturnsTheVictimsBudget) {
  auto scheduler = create_scheduler_with_priority(
      {.max_num_batched_tokens = 20, .num_blocks = 6, .block_size = 16, .max_model_len = 100});
  auto h = create_requests_with_priority(1, {0}, std::vector<double>{0.0}, /*num_tokens=*/15, 16, 0, false, 16, {"H"});
  auto l = create_requests_with_priority(1, {1}, std::vector<double>{1.0}, /*num_tokens=*/5, 16, 0, false, 16, {"L"});
  add_requests(*scheduler, h);
  add_requests(*scheduler, l);
  SchedulerOutput out = scheduler->schedule();
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"H", 15}, {"L", 5}}));
  scheduler->update_from_output(out, model_runner_output({"H", "L"}, {{1000}, {1000}}));
  auto x = create_requests_with_priority(1, {0}, std::vector<double>{2.0}, /*num_tokens=*/40, 16, 0, false, 16, {"X"});
  add_requests(*scheduler, x);
  out = scheduler->schedule();
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"H", 1}, {"L", 1}, {"X", 18}}));
  scheduler->update_from_output(out, model_runner_output({"H", "L"}, {{1000}, {1000}}));  // X is mid-prefill
  out = scheduler->schedule();
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"H", 1}, {"X", 18}}));
  EXPECT_EQ(out.total_num_scheduled_tokens, 19);
  EXPECT_EQ(out.preempted_req_ids, std::set<std::string>({"L"}));
}

// scheduler.py@6e448d0e Scheduler.schedule: `max(self.running, key=lambda r: (r.priority, r.arrival_time))`
// returns the first of equal maxima. Two running requests of equal priority and arrival time, both needing
// a new block when none is free: the first (A) is the victim; being the request that could not be scheduled,
// the running pass stops there (and no waiting request is scheduled after a preemption).
TEST(VllmSchedulerStep, PriorityVictimIsTheFirstOfEqualMaxima) {
  // 2 usable blocks of 16.
  auto scheduler = create_scheduler_with_priority({.num_blocks = 3, .block_size = 16});
  auto requests = create_requests_with_priority(2, {0, 0}, std::vector<double>{5.0, 5.0}, /*num_tokens=*/15,
                                                /*max_tokens=*/16, 0, false, 16, {"A", "B"});
  add_requests(*scheduler, requests);
  SchedulerOutput out = scheduler->schedule();
  EXPECT_EQ(ids_of(scheduler->running()), std::vector<std::string>({"A", "B"}));
  scheduler->update_from_output(out, make_output(*scheduler));
  out = scheduler->schedule();  // position 15: still in the first block
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"A", 1}, {"B", 1}}));
  scheduler->update_from_output(out, make_output(*scheduler));
  out = scheduler->schedule();  // position 16: a new block each, none free
  EXPECT_EQ(out.preempted_req_ids, std::set<std::string>({"A"}));
  EXPECT_TRUE(out.num_scheduled_tokens.empty());
  EXPECT_EQ(ids_of(scheduler->running()), std::vector<std::string>({"B"}));
  EXPECT_EQ(ids_of(scheduler->waiting()), std::vector<std::string>({"A"}));
}

// scheduler.py@6e448d0e Scheduler.schedule: a waiting request's prefix-cache hit (get_computed_blocks) is
// handed to allocate_slots as new_computed_blocks, so the request's blocks begin with the cached ones.
TEST(VllmSchedulerStep, PrefixCacheHitReusesTheCachedBlocks) {
  auto scheduler = create_scheduler({.enable_prefix_caching = true, .num_blocks = 100});
  auto requests = create_requests(2, {.num_tokens = 40, .same_prompt = true});
  scheduler->add_request(std::move(requests[0]));
  SchedulerOutput out = scheduler->schedule();
  ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
  const std::vector<std::int64_t> first = out.scheduled_new_reqs[0].block_ids.at(0);
  ASSERT_EQ(first.size(), 3u);
  scheduler->update_from_output(out, make_output(*scheduler));
  scheduler->add_request(std::move(requests[1]));
  out = scheduler->schedule();
  ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(out.scheduled_new_reqs[0].num_computed_tokens, 32);
  EXPECT_EQ(out.scheduled_tokens_of("1"), 8);
  const std::vector<std::int64_t>& second = out.scheduled_new_reqs[0].block_ids.at(0);
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(second[0], first[0]);
  EXPECT_EQ(second[1], first[1]);
  EXPECT_NE(second[2], first[2]);
  EXPECT_EQ(scheduler->kv_cache_manager().block_pool->blocks.at(static_cast<std::size_t>(first[0])).ref_cnt, 2);
}

// scheduler.py@6e448d0e Scheduler.schedule: num_common_prefix_blocks is [0] per group with no running request,
// else the running requests' common prefix blocks (single_type_kv_cache_manager.py@6e448d0e
// FullAttentionManager.get_num_common_prefix_blocks: the leading blocks every request holds). And the new
// request's data (output.py@6e448d0e NewRequestData.from_request): its id, prompt and computed tokens.
TEST(VllmSchedulerStep, NewRequestDataAndCommonPrefixBlocks) {
  auto scheduler = create_scheduler({.enable_prefix_caching = true, .num_blocks = 100});
  EXPECT_EQ(scheduler->schedule().num_common_prefix_blocks, std::vector<std::int64_t>({0}));
  auto requests = create_requests(2, {.num_tokens = 40, .same_prompt = true});
  scheduler->add_request(std::move(requests[0]));
  SchedulerOutput out = scheduler->schedule();
  EXPECT_EQ(out.num_common_prefix_blocks, std::vector<std::int64_t>({3}));  // one request: all its blocks
  scheduler->update_from_output(out, make_output(*scheduler));
  scheduler->add_request(std::move(requests[1]));
  out = scheduler->schedule();
  EXPECT_EQ(out.num_common_prefix_blocks, std::vector<std::int64_t>({2}));
  ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(out.scheduled_new_reqs[0].req_id, "1");
  EXPECT_EQ(out.scheduled_new_reqs[0].prompt_token_ids, std::vector<std::int32_t>(40, 0));
  EXPECT_EQ(out.scheduled_new_reqs[0].num_computed_tokens, 32);
  scheduler->finish_requests({"0", "1"}, RequestStatus::kFinishedAborted);
  EXPECT_EQ(scheduler->schedule().num_common_prefix_blocks, std::vector<std::int64_t>({0}));
}

// scheduler.py@6e448d0e Scheduler.schedule: with the V2 model runner a resumed request is sent as a new one
// (`scheduled_new_reqs.extend(scheduled_resumed_reqs)`), with its prefill token ids.
TEST(VllmSchedulerStep, V2ModelRunnerSendsResumedRequestsAsNew) {
  auto scheduler = create_scheduler({.use_v2_model_runner = true});
  scheduler->add_request(create_request({.num_tokens = 10}));
  SchedulerOutput out = scheduler->schedule();
  scheduler->update_from_output(out, make_output(*scheduler));
  EXPECT_TRUE(scheduler->reset_prefix_cache(/*reset_running_requests=*/true));
  out = scheduler->schedule();
  EXPECT_EQ(out.scheduled_cached_reqs.num_reqs(), 0u);
  ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(out.scheduled_new_reqs[0].req_id, "0");
  std::vector<std::int32_t> all(10, 0);
  all.push_back(1000);
  ASSERT_TRUE(out.scheduled_new_reqs[0].prefill_token_ids.has_value());
  EXPECT_EQ(*out.scheduled_new_reqs[0].prefill_token_ids, all);
  EXPECT_EQ(out.scheduled_tokens_of("0"), 11);
}

// scheduler.py@6e448d0e Scheduler.schedule: a request taken from the waiting queue must be WAITING or
// PREEMPTED (`raise RuntimeError(f"Invalid request status: {request.status}")`); add_request does not check
// the status of the request it is given.
TEST(VllmSchedulerStep, ScheduleRefusesAWaitingRequestOfAnotherStatus) {
  auto scheduler = create_scheduler();
  auto request = create_request({.num_tokens = 10});
  request->status = RequestStatus::kRunning;
  scheduler->add_request(std::move(request));
  EXPECT_THROW(scheduler->schedule(), std::logic_error);
}

// scheduler.py@6e448d0e Scheduler.schedule: a running request's draft tokens are scheduled with it
// (num_tokens_with_spec) and then cleared (`request.spec_token_ids = []`; new ones would come from
// update_draft_token_ids, not ported).
TEST(VllmSchedulerStep, DraftTokensAreClearedOnceScheduled) {
  auto scheduler = create_scheduler();
  scheduler->add_request(create_request({.num_tokens = 10}));
  SchedulerOutput out = scheduler->schedule();
  scheduler->update_from_output(out, make_output(*scheduler));
  Request* r = SchedulerAccess::running(*scheduler).at(0);
  r->spec_token_ids = {5, 6};
  out = scheduler->schedule();
  EXPECT_EQ(out.scheduled_tokens_of("0"), 3);
  EXPECT_TRUE(r->spec_token_ids.empty());
  EXPECT_EQ(r->num_tokens_with_spec(), 11);
}

// scheduler.py@6e448d0e Scheduler.schedule: `if self.current_step < request.next_decode_eligible_step`,
// set by async_scheduler.py@6e448d0e AsyncScheduler._update_after_schedule to current_step + pp_size for the
// V2 model runner: with PP 2 a decoding request runs every other step, and the requests behind it still run.
TEST(VllmSchedulerStep, V2PipelineDecodesEveryPpSizeSteps) {
  auto scheduler = create_scheduler(
      {.async_scheduling = true, .pipeline_parallel_size = 2, .use_v2_model_runner = true});
  auto requests = create_requests(2, {.num_tokens = 10});
  scheduler->add_request(std::move(requests[0]));
  SchedulerOutput out = scheduler->schedule();  // step 1: the prefill; decode eligible at step 3
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"0", 10}}));
  scheduler->add_request(std::move(requests[1]));
  out = scheduler->schedule();  // step 2: "0" waits, "1" is prefilled
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"1", 10}}));
  out = scheduler->schedule();  // step 3: "0" decodes, "1" waits until step 4
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"0", 1}}));
  out = scheduler->schedule();  // step 4
  EXPECT_EQ(out.num_scheduled_tokens, Scheduled({{"1", 1}}));
}

// scheduler.py@6e448d0e Scheduler.schedule: `num_new_tokens = min(num_new_tokens, self.max_model_len -
// request.num_computed_tokens - self.num_sampled_tokens_per_step)`. Async scheduling runs a step ahead of
// the outputs; the clamp keeps the last computed position below max_model_len - 1 (the request stops on
// length at max_model_len tokens), scheduling nothing once it is reached.
TEST(VllmSchedulerStep, AsyncSchedulingStopsAtMaxModelLen) {
  auto scheduler = create_scheduler({.max_model_len = 20, .async_scheduling = true});
  scheduler->add_request(create_request({.num_tokens = 10, .ignore_eos = true, .max_tokens = 100}));
  RequestTracker tracker;
  tracker.track(SchedulerAccess::requests(*scheduler).at("0").get());
  std::vector<std::int64_t> computed;
  std::int64_t empty_steps = 0;
  SchedulerOutput prev = scheduler->schedule();
  computed.push_back(scheduler->request("0")->num_computed_tokens);
  tracker.observe(*scheduler);
  for (int step = 0; step < 30 && scheduler->has_unfinished_requests(); ++step) {
    SchedulerOutput next = scheduler->schedule();
    if (next.num_scheduled_tokens.empty()) ++empty_steps;
    if (const Request* r = scheduler->request("0")) computed.push_back(r->num_computed_tokens);
    tracker.observe(*scheduler);
    scheduler->update_from_output(prev, make_model_runner_output(prev));
    tracker.observe(*scheduler);
    prev = std::move(next);
  }
  EXPECT_FALSE(scheduler->has_unfinished_requests());
  EXPECT_EQ(tracker["0"].status, RequestStatus::kFinishedLengthCapped);
  EXPECT_EQ(tracker["0"].num_output_tokens, 10);  // 20 tokens in all
  ASSERT_FALSE(computed.empty());
  EXPECT_EQ(computed.back(), 19);  // max_model_len - num_sampled_tokens_per_step
  for (std::int64_t c : computed) EXPECT_LE(c, 19);
  EXPECT_EQ(empty_steps, 1);  // the step scheduled while the last output is in flight
}

}  // namespace blis::vllm::testing
