// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of the prefix-caching tests of tests/v1/core/test_scheduler.py@6e448d0e
// that go through the scheduler: prefix-cache stats at admission and on resumption, and
// reset_prefix_cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "harness.h"

namespace blis::vllm::testing {
namespace {

using Counts = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

Counts requests_queries_hits(const PrefixCacheStats& s) { return {s.requests, s.queries, s.hits}; }

// test_scheduler.py@6e448d0e test_preemption_re_records_prefix_cache_query
TEST(VllmScheduler, PreemptionReRecordsPrefixCacheQuery) {
  auto scheduler = create_scheduler({.enable_prefix_caching = true});
  auto request_owned = create_request();
  Request* request = request_owned.get();
  scheduler->add_request(std::move(request_owned));

  const SchedulerOutput scheduler_output = scheduler->schedule();
  {
    const auto& stats = scheduler->kv_cache_manager().prefix_cache_stats;
    ASSERT_TRUE(stats.has_value());
    EXPECT_EQ(stats->requests, 1);
    EXPECT_EQ(stats->preempted_requests, 0);
  }

  auto& running = SchedulerAccess::running(*scheduler);
  running.erase(std::find(running.begin(), running.end(), request));
  SchedulerAccess::call_preempt_request(*scheduler, *request);
  EXPECT_EQ(request->status, RequestStatus::kPreempted);

  update_from_output(*scheduler, scheduler_output, model_runner_output({request->request_id}, {{1000}}));
  EXPECT_EQ(request->num_stale_output_tokens, 0);
  ASSERT_TRUE(scheduler->kv_cache_manager().prefix_cache_stats.has_value());

  (void)scheduler->schedule();
  EXPECT_EQ(request->status, RequestStatus::kRunning);
  EXPECT_EQ(scheduler->kv_cache_manager().prefix_cache_stats->preempted_requests, 1);
}

// test_scheduler.py@6e448d0e test_prefix_cache_stats_not_recorded_when_caching_disabled
TEST(VllmScheduler, PrefixCacheStatsNotRecordedWhenCachingDisabled) {
  auto scheduler = create_scheduler({.enable_prefix_caching = false});
  auto requests = create_requests(2);
  add_requests(*scheduler, requests);

  (void)scheduler->schedule();

  const auto& stats = scheduler->kv_cache_manager().prefix_cache_stats;
  ASSERT_TRUE(stats.has_value());
  EXPECT_EQ(requests_queries_hits(*stats), Counts(0, 0, 0));
}

// test_scheduler.py@6e448d0e _step_until_done (no connector): update, then schedule and update until every
// output of a step carries a finish reason.
void step_until_done(Scheduler& scheduler, const SchedulerOutput& output,
                     const ModelRunnerOutput& model_runner_output) {
  bool all_finished = false;
  update_from_output(scheduler, output, model_runner_output);
  for (int guard = 0; !all_finished && guard < 1000; ++guard) {
    const SchedulerOutput next = scheduler.schedule();
    ASSERT_FALSE(scheduler.running().empty());
    // We should be in the decode phase now.
    for (const auto& [id, n] : next.num_scheduled_tokens) EXPECT_EQ(n, 1);
    const UpdateResult r = update_from_output(scheduler, next, model_runner_output);
    bool all_done = true;
    for (const EngineCoreOutput& eco : r.outputs) {
      if (!eco.finish_reason) all_done = false;
    }
    all_finished = all_done;
  }
  ASSERT_TRUE(all_finished);
}

// test_scheduler.py@6e448d0e test_prefix_cache_stats_counted_once_for_retried_then_scheduled_request.
// Upstream replaces kv_cache_manager.allocate_slots with a spy that rejects the first call and delegates
// the next ones to the real method. The port's allocate_slots cannot be replaced, so the first rejection
// is made real instead: before the first attempt, every free block but the two that hold the seeded
// prefix (the last freed, at the tail of the free queue) is taken from the block pool, so the real
// allocate_slots finds no block for the request's new tokens; they are given back before the second
// attempt. The hit count asserted at the end (two blocks) confirms the seeded prefix stayed cached.
TEST(VllmScheduler, PrefixCacheStatsCountedOnceForRetriedThenScheduledRequest) {
  constexpr std::int64_t block_size = 16;
  auto scheduler =
      create_scheduler({.enable_chunked_prefill = false, .enable_prefix_caching = true, .block_size = block_size});

  // Seed the cache so the next request with the same prompt hits it.
  scheduler->add_request(create_request({.num_tokens = block_size * 2,
                                         .max_tokens = 2,
                                         .same_prompt = true,
                                         .block_size = block_size,
                                         .req_ids = {"seed"}}));
  const SchedulerOutput seed_output = scheduler->schedule();
  step_until_done(*scheduler, seed_output, model_runner_output({"seed"}, {{1000}}));

  // The seeding step swapped in a fresh accumulator: the retried request is the only thing recorded next.
  KVCacheManager& kv = scheduler->kv_cache_manager();
  ASSERT_TRUE(kv.prefix_cache_stats.has_value());
  EXPECT_EQ(requests_queries_hits(*kv.prefix_cache_stats), Counts(0, 0, 0));

  auto retried_owned = create_request({.num_tokens = block_size * 3,
                                       .max_tokens = 1,
                                       .same_prompt = true,
                                       .block_size = block_size,
                                       .req_ids = {"retried"}});
  Request* retried = retried_owned.get();
  scheduler->add_request(std::move(retried_owned));

  // Reject the first allocation attempt.
  std::vector<KVCacheBlock*> held = kv.block_pool->get_new_blocks(kv.block_pool->get_num_free_blocks() - 2);
  EXPECT_TRUE(scheduler->schedule().scheduled_new_reqs.empty());
  EXPECT_EQ(requests_queries_hits(*kv.prefix_cache_stats), Counts(0, 0, 0));

  // Then let the real allocation through.
  kv.block_pool->free_blocks(held);
  EXPECT_TRUE(is_scheduled(scheduler->schedule(), "retried"));
  EXPECT_EQ(requests_queries_hits(*kv.prefix_cache_stats), Counts(1, retried->num_tokens(), block_size * 2));
}

// test_scheduler.py@6e448d0e test_scheduler_reset_prefix_cache
TEST(VllmScheduler, SchedulerResetPrefixCache) {
  auto scheduler = create_scheduler({.enable_prefix_caching = true});
  auto requests = create_requests(10);
  const auto reqs = pointers(requests);
  add_requests(*scheduler, requests);

  // Initial scheduling: the requests are running now.
  (void)scheduler->schedule();
  EXPECT_EQ(scheduler->waiting().size(), 0u);
  EXPECT_EQ(scheduler->running(), reqs);

  // Reset fails: the running requests still hold KV cache.
  EXPECT_FALSE(scheduler->reset_prefix_cache());
  // With reset_running_requests=True, the running requests go back to waiting and the cache is freed.
  EXPECT_TRUE(scheduler->reset_prefix_cache(/*reset_running_requests=*/true));
  EXPECT_EQ(scheduler->waiting().size(), reqs.size());
  EXPECT_EQ(scheduler->running().size(), 0u);
  EXPECT_EQ(scheduler->waiting().in_order(), reqs);
}

}  // namespace
}  // namespace blis::vllm::testing
