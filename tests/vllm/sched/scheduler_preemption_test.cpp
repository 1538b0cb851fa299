// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of the FCFS preemption tests of
// tests/v1/core/test_scheduler.py@6e448d0e (preemption by recompute when the KV cache is full, and the
// output of a preempted request's step in flight).
#include <gtest/gtest.h>

#include "harness.h"

namespace blis::vllm::testing {
namespace {

// test_scheduler.py@6e448d0e test_preempt_during_execution. 11 blocks: 10 usable, block 0 is the null
// block.
TEST(VllmScheduler, PreemptDuringExecution) {
  auto scheduler = create_scheduler(
      {.max_num_batched_tokens = 100, .enable_prefix_caching = false, .num_blocks = 11, .block_size = 16});
  auto requests = create_requests(2, {.num_tokens = 80, .block_size = 16});
  const auto reqs = pointers(requests);

  // Schedule the first request.
  scheduler->add_request(std::move(requests[0]));
  const SchedulerOutput scheduler_output0 = scheduler->schedule();
  EXPECT_EQ(scheduler_output0.num_scheduled_tokens.size(), 1u);
  ASSERT_EQ(scheduler_output0.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(scheduler_output0.scheduled_new_reqs[0].block_ids[0].size(), 5u);

  // Schedule the second request while the first is still running (max_concurrent_batches > 1, e.g. PP).
  scheduler->add_request(std::move(requests[1]));
  const SchedulerOutput scheduler_output1 = scheduler->schedule();
  EXPECT_EQ(scheduler_output1.num_scheduled_tokens.size(), 1u);
  ASSERT_EQ(scheduler_output1.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(scheduler_output1.scheduled_new_reqs[0].block_ids[0].size(), 5u);

  // Get the output of the first request.
  scheduler->update_from_output(scheduler_output0, model_runner_output({reqs[0]->request_id}, {{0}}));

  // Schedule the first request again: the KV cache is full, so the second request is preempted.
  (void)scheduler->schedule();
  ASSERT_EQ(scheduler->running().size(), 1u);
  EXPECT_EQ(scheduler->running()[0], reqs[0]);
  EXPECT_EQ(reqs[1]->status, RequestStatus::kPreempted);

  scheduler->update_from_output(scheduler_output1, model_runner_output({reqs[1]->request_id}, {{42}}));
  // The preempted second request is updated with the sampled token id.
  ASSERT_EQ(reqs[1]->output_token_ids().size(), 1u);
  EXPECT_EQ(reqs[1]->output_token_ids()[0], 42);
}

}  // namespace
}  // namespace blis::vllm::testing
