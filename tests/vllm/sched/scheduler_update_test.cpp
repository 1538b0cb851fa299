// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own unit tests of Scheduler.update_from_output (engines/vllm/v1/core/sched/
// scheduler_update.cpp), each pinning what vllm/v1/core/sched/scheduler.py@6e448d0e Scheduler.update_from_output
// gives where the transcribed upstream tests leave it unchecked (design T7's mutation sweep): stale output
// that stops a preempted request, and the lifetime of freed requests.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness.h"

namespace blis::vllm::testing {
namespace {

// An async scheduler with one request "0" (10 prompt tokens, max_tokens 1) scheduled once and then preempted
// keeping its in-flight output (drop_stale_output=False, as scheduler.py@6e448d0e Scheduler.schedule
// preempts without a connector). Returns the first step's output.
SchedulerOutput schedule_then_preempt(Scheduler& scheduler) {
  scheduler.add_request(create_request({.num_tokens = 10, .ignore_eos = true, .max_tokens = 1}));
  SchedulerOutput out = scheduler.schedule();
  Request* r = SchedulerAccess::running(scheduler).at(0);
  std::erase(SchedulerAccess::running(scheduler), r);
  SchedulerAccess::call_preempt_request(scheduler, *r, /*drop_stale_output=*/false);
  return out;
}

}  // namespace

// scheduler.py@6e448d0e Scheduler.update_from_output: the in-flight output of a preempted request is still
// delivered; when it stops the request (here max_tokens 1), the request is finished, freed and removed from
// the waiting queue (`self.waiting.remove_requests(stopped_preempted_reqs)`).
TEST(VllmSchedulerUpdate, StaleOutputStopsAPreemptedWaitingRequest) {
  auto scheduler = create_scheduler({.async_scheduling = true});
  const SchedulerOutput out = schedule_then_preempt(*scheduler);
  EXPECT_EQ(ids_of(scheduler->waiting()), std::vector<std::string>({"0"}));
  const auto outputs = scheduler->update_from_output(out, make_model_runner_output(out));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].new_token_ids, std::vector<std::int32_t>({0}));
  EXPECT_EQ(outputs[0].finish_reason, std::optional<std::string>("length"));
  EXPECT_EQ(scheduler->waiting().size(), 0u);
  EXPECT_EQ(scheduler->request("0"), nullptr);
  EXPECT_FALSE(scheduler->has_unfinished_requests());
  EXPECT_TRUE(SchedulerAccess::finished_req_ids(*scheduler).contains("0"));
  EXPECT_TRUE(scheduler->schedule().num_scheduled_tokens.empty());
}

// The same with a step in between, which moves the request with undrained deliverable output to
// skipped_waiting (scheduler.py@6e448d0e Scheduler.schedule): it is removed from there
// (`self.skipped_waiting.remove_requests(stopped_preempted_reqs)`).
TEST(VllmSchedulerUpdate, StaleOutputStopsAPreemptedSkippedRequest) {
  auto scheduler = create_scheduler({.async_scheduling = true});
  const SchedulerOutput out = schedule_then_preempt(*scheduler);
  EXPECT_TRUE(scheduler->schedule().num_scheduled_tokens.empty());
  EXPECT_EQ(ids_of(scheduler->skipped_waiting()), std::vector<std::string>({"0"}));
  const auto outputs = scheduler->update_from_output(out, make_model_runner_output(out));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].finish_reason, std::optional<std::string>("length"));
  EXPECT_EQ(scheduler->skipped_waiting().size(), 0u);
  EXPECT_EQ(scheduler->get_request_counts(), std::make_pair(std::int64_t{0}, std::int64_t{0}));
  EXPECT_FALSE(scheduler->has_unfinished_requests());
}

// async_scheduler.py@6e448d0e AsyncScheduler._update_request_with_output: the new tokens of a running request
// are cached (`cache_blocks(request, num_computed_tokens - num_output_placeholders)`). A 14-token prompt and
// max_tokens 3: the last output fills the first block, which no later step allocates for, so only this
// caching makes it a prefix hit for a request sharing those 16 tokens.
TEST(VllmSchedulerUpdate, AsyncCachesTheBlockTheLastOutputFills) {
  auto scheduler = create_scheduler({.enable_prefix_caching = true, .async_scheduling = true});
  scheduler->add_request(create_request({.num_tokens = 14, .ignore_eos = true, .max_tokens = 3}));
  SchedulerOutput prev = scheduler->schedule();
  for (int step = 0; step < 10 && scheduler->has_unfinished_requests(); ++step) {
    SchedulerOutput next = scheduler->schedule();
    scheduler->update_from_output(prev, make_model_runner_output(prev));  // request "0" samples token 0
    prev = std::move(next);
  }
  EXPECT_FALSE(scheduler->has_unfinished_requests());
  auto second = create_request_with_prompt("1", std::vector<std::int32_t>(20, 0));
  scheduler->add_request(std::move(second));
  const SchedulerOutput out = scheduler->schedule();
  ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(out.scheduled_new_reqs[0].num_computed_tokens, 16);
}

// scheduler.py@6e448d0e Scheduler._free_blocks: `del self.requests[request.request_id]`, after which the
// scheduler holds no reference to a finished request. The port keeps it alive until the next call into the
// scheduler (scheduler.h): update_from_output releases it.
TEST(VllmSchedulerUpdate, UpdateFromOutputReleasesFreedRequests) {
  auto scheduler = create_scheduler();
  auto token = std::make_shared<int>(0);
  BlockHasher hasher = [token](const Request&) { return std::vector<BlockHash>{}; };
  scheduler->add_request(std::make_unique<Request>("0", std::vector<std::int32_t>(10, 0), 16, 1.0, 0, std::nullopt,
                                                   std::nullopt, std::move(hasher)));
  const SchedulerOutput out = scheduler->schedule();
  EXPECT_EQ(scheduler->finish_requests({"0"}, RequestStatus::kFinishedAborted), std::vector<std::string>({"0"}));
  EXPECT_EQ(token.use_count(), 2);  // alive until the next call (the port's contract)
  const auto outputs = scheduler->update_from_output(out, make_model_runner_output(out));
  EXPECT_TRUE(outputs.empty());  // the request was aborted while its step ran
  EXPECT_EQ(token.use_count(), 1);
}

}  // namespace blis::vllm::testing
