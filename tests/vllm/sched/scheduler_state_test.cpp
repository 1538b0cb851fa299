// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own unit tests of the Scheduler's bookkeeping (engines/vllm/v1/core/sched/
// scheduler.cpp), each pinning what vllm/v1/core/sched/scheduler.py@6e448d0e gives: construction, preemption,
// the cached-request data, the waiting-queue choice, the stop trim, finish_requests, reset_prefix_cache, the
// counts and make_stats. They cover what the transcribed upstream tests leave unchecked (design T7).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.h"

namespace blis::vllm::testing {
namespace {

// The configuration utils.py@6e448d0e create_scheduler builds (see harness.cpp), for a scheduler this file
// constructs itself: num_blocks blocks, max_model_len 8192.
VllmConfig own_config(std::int64_t block_size, std::optional<std::int64_t> num_gpu_blocks, bool prefix_caching) {
  VllmConfig c;
  c.model_config.max_model_len = 8192;
  c.scheduler_config.max_num_seqs = 16;
  c.scheduler_config.max_num_batched_tokens = 8192;
  c.scheduler_config.enable_chunked_prefill = true;
  c.scheduler_config.watermark = 0.0;
  c.scheduler_config.verify_max_model_len(8192);
  c.cache_config.block_size = block_size;
  c.cache_config.user_specified_block_size = true;
  c.cache_config.enable_prefix_caching = prefix_caching;
  c.cache_config.num_gpu_blocks = num_gpu_blocks;
  return c;
}

std::shared_ptr<FullAttentionSpec> full_attention(std::int64_t block_size, std::int64_t head_size) {
  FullAttentionSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = 1;
  a.head_size = head_size;
  a.dtype = "float32";
  return std::make_shared<FullAttentionSpec>(a);
}

KVCacheConfig one_group(std::int64_t num_blocks, std::int64_t block_size) {
  KVCacheConfig k;
  k.num_blocks = num_blocks;
  k.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer"}, full_attention(block_size, 1)});
  return k;
}

// Takes a running request out of the running list, as upstream's callers do before _preempt_request.
void pop_running(Scheduler& s, Request* r) { std::erase(SchedulerAccess::running(s), r); }

}  // namespace

// scheduler.py@6e448d0e Scheduler.__init__: `assert num_gpu_blocks is not None and num_gpu_blocks > 0`.
TEST(VllmSchedulerState, ConstructionRequiresPositiveGpuBlocks) {
  EXPECT_THROW(Scheduler(own_config(16, std::nullopt, false), one_group(100, 16), 16), std::invalid_argument);
  EXPECT_THROW(Scheduler(own_config(16, 0, false), one_group(100, 16), 16), std::invalid_argument);
  EXPECT_NO_THROW(Scheduler(own_config(16, 100, false), one_group(100, 16), 16));
}

// scheduler.py@6e448d0e Scheduler.__init__ passes block_size to KVCacheManager as scheduler_block_size,
// which a hybrid model's cache hits are aligned to (kv_cache_coordinator.py@6e448d0e
// HybridKVCacheCoordinator._cache_hit_alignment_tokens). Two full-attention groups of block 16 under a
// scheduler block of 32: a 56-token prompt has 3 cached blocks of 16 (48 tokens), a hit of 32 once aligned.
TEST(VllmSchedulerState, SchedulerBlockSizeAlignsHybridCacheHits) {
  KVCacheConfig k;
  k.num_blocks = 200;
  k.kv_cache_groups.push_back(KVCacheGroupSpec{{"a"}, full_attention(16, 1)});
  k.kv_cache_groups.push_back(KVCacheGroupSpec{{"b"}, full_attention(16, 2)});
  Scheduler scheduler(own_config(32, 200, true), k, /*block_size=*/32, /*hash_block_size=*/16, /*log_stats=*/true);
  auto reqs = create_requests(2, {.num_tokens = 56, .same_prompt = true, .block_size = 16});
  Request* r0 = reqs[0].get();
  scheduler.add_request(std::move(reqs[0]));
  SchedulerOutput out = scheduler.schedule();
  ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(out.scheduled_new_reqs[0].num_computed_tokens, 0);
  scheduler.update_from_output(out, model_runner_output({r0->request_id}, {{1000}}));
  scheduler.add_request(std::move(reqs[1]));
  out = scheduler.schedule();
  ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
  EXPECT_EQ(out.scheduled_new_reqs[0].req_id, "1");
  EXPECT_EQ(out.scheduled_new_reqs[0].num_computed_tokens, 32);
  EXPECT_EQ(out.scheduled_tokens_of("1"), 24);
}

// scheduler.py@6e448d0e Scheduler.__init__: `self.use_v2_model_runner = vllm_config.use_v2_model_runner`
// (config/vllm.py@6e448d0e VllmConfig.use_v2_model_runner: a dense model runs the V2 runner, here a MoE one
// V1); schedule() then fills NewRequestData.prefill_token_ids only for the V2 runner
// (output.py@6e448d0e NewRequestData.from_request).
TEST(VllmSchedulerState, ModelRunnerVersionComesFromTheConfig) {
  for (const bool is_moe : {false, true}) {
    VllmConfig c = own_config(16, 100, false);
    c.model_config.is_moe = is_moe;
    Scheduler scheduler(c, one_group(100, 16), 16);
    scheduler.add_request(create_request({.num_tokens = 10}));
    const SchedulerOutput out = scheduler.schedule();
    ASSERT_EQ(out.scheduled_new_reqs.size(), 1u);
    if (is_moe) {
      EXPECT_FALSE(out.scheduled_new_reqs[0].prefill_token_ids.has_value());
    } else {
      ASSERT_TRUE(out.scheduled_new_reqs[0].prefill_token_ids.has_value());
      EXPECT_EQ(*out.scheduled_new_reqs[0].prefill_token_ids, std::vector<std::int32_t>(10, 0));
    }
  }
}

// scheduler.py@6e448d0e Scheduler._preempt_request: the draft tokens are cleared, the output placeholders
// reset, the in-flight tokens become stale, and an undrained drop-mode share stays dropped
// (`drop_stale_output or (request.drop_stale_output and request.num_stale_output_tokens > 0)`).
TEST(VllmSchedulerState, PreemptRequestResetsTheRequest) {
  auto scheduler = create_scheduler({.async_scheduling = true});
  scheduler->add_request(create_request({.num_tokens = 10}));
  scheduler->schedule();
  Request* r = SchedulerAccess::running(*scheduler).at(0);
  EXPECT_EQ(r->num_output_placeholders, 1);
  r->spec_token_ids = {7, 8};
  pop_running(*scheduler, r);
  SchedulerAccess::call_preempt_request(*scheduler, *r, /*drop_stale_output=*/false);
  EXPECT_EQ(r->status, RequestStatus::kPreempted);
  EXPECT_TRUE(r->spec_token_ids.empty());
  EXPECT_EQ(r->num_tokens_with_spec(), 10);
  EXPECT_EQ(r->num_output_placeholders, 0);
  EXPECT_EQ(r->num_stale_output_tokens, 10);
  EXPECT_FALSE(r->drop_stale_output);
  EXPECT_EQ(r->num_preemptions, 1);
}

TEST(VllmSchedulerState, PreemptRequestKeepsOnlyAnUndrainedDropShare) {
  struct Case {
    bool was_dropping;
    std::int64_t stale;
    bool drop_arg;
    bool expected;
  };
  for (const Case c : {Case{true, 0, false, false}, Case{true, 3, false, true}, Case{false, 3, false, false},
                       Case{false, 0, true, true}}) {
    auto scheduler = create_scheduler();
    scheduler->add_request(create_request({.num_tokens = 10}));
    scheduler->schedule();
    Request* r = SchedulerAccess::running(*scheduler).at(0);
    r->drop_stale_output = c.was_dropping;
    r->num_stale_output_tokens = c.stale;
    pop_running(*scheduler, r);
    SchedulerAccess::call_preempt_request(*scheduler, *r, c.drop_arg);
    EXPECT_EQ(r->drop_stale_output, c.expected) << c.was_dropping << " " << c.stale << " " << c.drop_arg;
    EXPECT_EQ(r->num_stale_output_tokens, r->num_in_flight_tokens);
  }
}

// scheduler.py@6e448d0e Scheduler._make_cached_request_data: per running request, in order, its
// num_computed_tokens and num_output_tokens + num_output_placeholders; resumed only past the running ones.
TEST(VllmSchedulerState, CachedRequestDataOfRunningRequests) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(2, {.num_tokens = 10});
  add_requests(*scheduler, requests);
  SchedulerOutput out = scheduler->schedule();
  scheduler->update_from_output(out, make_output(*scheduler));
  out = scheduler->schedule();
  const CachedRequestData& d = out.scheduled_cached_reqs;
  EXPECT_EQ(d.req_ids, std::vector<std::string>({"0", "1"}));
  EXPECT_TRUE(d.resumed_req_ids.empty());
  EXPECT_EQ(d.num_computed_tokens, std::vector<std::int64_t>({10, 10}));
  EXPECT_EQ(d.num_output_tokens, std::vector<std::int64_t>({1, 1}));
  EXPECT_TRUE(d.all_token_ids.empty());  // both were scheduled in the previous step
}

TEST(VllmSchedulerState, CachedRequestDataCountsOutputPlaceholders) {
  auto scheduler = create_scheduler({.async_scheduling = true});
  auto requests = create_requests(2, {.num_tokens = 10});
  add_requests(*scheduler, requests);
  scheduler->schedule();
  // The first step's output is still in flight: one placeholder each, no output token yet.
  const SchedulerOutput out = scheduler->schedule();
  const CachedRequestData& d = out.scheduled_cached_reqs;
  EXPECT_EQ(d.req_ids, std::vector<std::string>({"0", "1"}));
  EXPECT_EQ(d.num_computed_tokens, std::vector<std::int64_t>({10, 10}));
  EXPECT_EQ(d.num_output_tokens, std::vector<std::int64_t>({1, 1}));
}

// scheduler.py@6e448d0e Scheduler._select_waiting_queue_for_scheduling: FCFS takes skipped_waiting first,
// whatever the requests' order; a request with deliverable stale output is skipped
// (scheduler.py@6e448d0e Scheduler.schedule) until update_from_output drains it.
TEST(VllmSchedulerState, FcfsSchedulesSkippedWaitingFirst) {
  auto scheduler = create_scheduler({.async_scheduling = true});
  auto requests = create_requests(2, {.num_tokens = 10, .req_ids = {"early", "late"}});
  Request* early = requests[0].get();  // created first: earlier arrival
  scheduler->add_request(std::move(requests[1]));
  const SchedulerOutput out1 = scheduler->schedule();
  Request* late = SchedulerAccess::running(*scheduler).at(0);
  pop_running(*scheduler, late);
  SchedulerAccess::call_preempt_request(*scheduler, *late, /*drop_stale_output=*/false);
  const SchedulerOutput out2 = scheduler->schedule();  // the stale output is undrained: skipped
  EXPECT_TRUE(out2.num_scheduled_tokens.empty());
  EXPECT_EQ(ids_of(scheduler->skipped_waiting()), std::vector<std::string>({"late"}));
  const auto outputs = scheduler->update_from_output(out1, make_model_runner_output(out1));
  EXPECT_EQ(late->num_stale_output_tokens, 0);
  ASSERT_EQ(outputs.size(), 1u);  // deliverable stale output is delivered
  scheduler->add_request(std::move(requests[0]));
  ASSERT_TRUE(*early < *late);
  scheduler->schedule();
  EXPECT_EQ(ids_of(scheduler->running()), std::vector<std::string>({"late", "early"}));
}

// scheduler.py@6e448d0e Scheduler._select_waiting_queue_for_scheduling under the priority policy with only
// skipped_waiting non-empty: skipped_waiting, whose blocked request stays skipped.
TEST(VllmSchedulerState, PrioritySelectsSkippedWaitingWhenWaitingIsEmpty) {
  auto scheduler = create_scheduler_with_priority();
  auto request = create_request({.num_tokens = 10});
  request->status = RequestStatus::kWaitingForStructuredOutputGrammar;
  scheduler->add_request(std::move(request));
  EXPECT_EQ(scheduler->skipped_waiting().size(), 1u);
  const SchedulerOutput out = scheduler->schedule();
  EXPECT_TRUE(out.num_scheduled_tokens.empty());
  EXPECT_EQ(scheduler->skipped_waiting().size(), 1u);
  EXPECT_EQ(scheduler->waiting().size(), 0u);
}

// scheduler.py@6e448d0e Scheduler._update_request_with_output: the new tokens are trimmed after the stop
// token (`del new_token_ids[num_new:]`), and only the kept ones are output.
TEST(VllmSchedulerState, OutputIsTrimmedAtTheStopToken) {
  auto scheduler = create_scheduler();
  auto req_owned = create_request({.max_tokens = 10, .stop_token_ids = {42}});
  req_owned->num_computed_tokens = req_owned->num_tokens();
  req_owned->status = RequestStatus::kRunning;
  Request* req = SchedulerAccess::install_running(*scheduler, std::move(req_owned));
  SchedulerOutput so;
  so.num_scheduled_tokens = {{"0", 3}};
  so.total_num_scheduled_tokens = 3;
  const auto outputs = scheduler->update_from_output(so, model_runner_output({"0"}, {{10, 42, 12}}));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].new_token_ids, std::vector<std::int32_t>({10, 42}));
  EXPECT_EQ(outputs[0].finish_reason, std::optional<std::string>("stop"));
  EXPECT_EQ(req->output_token_ids(), std::vector<std::int32_t>({10, 42}));
}

// scheduler.py@6e448d0e Scheduler.finish_requests: a request in skipped_waiting is removed from it, and the
// requests finished are returned (not the unknown or already finished ones).
TEST(VllmSchedulerState, FinishRequestsRemovesSkippedWaitingRequests) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(2, {.num_tokens = 10});
  requests[0]->status = RequestStatus::kWaitingForStructuredOutputGrammar;
  add_requests(*scheduler, requests);
  EXPECT_EQ(scheduler->skipped_waiting().size(), 1u);
  EXPECT_EQ(scheduler->get_num_unfinished_requests(), 2);
  const auto finished = scheduler->finish_requests({"0", "nope"}, RequestStatus::kFinishedAborted);
  EXPECT_EQ(finished, std::vector<std::string>({"0"}));
  EXPECT_EQ(scheduler->skipped_waiting().size(), 0u);
  EXPECT_EQ(scheduler->get_num_unfinished_requests(), 1);
  EXPECT_EQ(scheduler->finish_requests({"0", "1"}, RequestStatus::kFinishedAborted), std::vector<std::string>({"1"}));
  EXPECT_FALSE(scheduler->has_unfinished_requests());
}

// scheduler.py@6e448d0e Scheduler.schedule: SchedulerOutput.finished_req_ids holds the requests finished
// since the previous step (then cleared by _update_after_schedule).
TEST(VllmSchedulerState, ScheduleReportsRequestsFinishedSinceThePreviousStep) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(2, {.num_tokens = 10});
  add_requests(*scheduler, requests);
  SchedulerOutput out = scheduler->schedule();
  EXPECT_TRUE(out.finished_req_ids.empty());
  scheduler->finish_requests({"1"}, RequestStatus::kFinishedAborted);
  out = scheduler->schedule();
  EXPECT_EQ(out.finished_req_ids, std::set<std::string>({"1"}));
  out = scheduler->schedule();
  EXPECT_TRUE(out.finished_req_ids.empty());
}

// scheduler.py@6e448d0e Scheduler.reset_prefix_cache(reset_running_requests=True): the running requests are
// preempted dropping their in-flight output, so they resume at once and that output is discarded.
TEST(VllmSchedulerState, ResetPrefixCacheDropsInFlightOutput) {
  auto scheduler = create_scheduler({.async_scheduling = true});
  scheduler->add_request(create_request({.num_tokens = 10}));
  const SchedulerOutput out1 = scheduler->schedule();
  EXPECT_TRUE(scheduler->reset_prefix_cache(/*reset_running_requests=*/true));
  Request* r = SchedulerAccess::requests(*scheduler).at("0").get();
  EXPECT_TRUE(r->drop_stale_output);
  const SchedulerOutput out2 = scheduler->schedule();
  EXPECT_EQ(out2.scheduled_tokens_of("0"), 10);
  const auto outputs = scheduler->update_from_output(out1, make_model_runner_output(out1));
  EXPECT_TRUE(outputs.empty());
  EXPECT_TRUE(r->output_token_ids().empty());
}

// scheduler.py@6e448d0e Scheduler.reset_prefix_cache clears prev_step_scheduled_req_ids, so a request
// resumed in the next step sends all its token ids (MRV1; _make_cached_request_data).
TEST(VllmSchedulerState, ResetPrefixCacheResendsAllTokenIds) {
  auto scheduler = create_scheduler();
  scheduler->add_request(create_request({.num_tokens = 10}));
  SchedulerOutput out = scheduler->schedule();
  scheduler->update_from_output(out, make_output(*scheduler));
  EXPECT_TRUE(scheduler->reset_prefix_cache(/*reset_running_requests=*/true));
  out = scheduler->schedule();
  const CachedRequestData& d = out.scheduled_cached_reqs;
  EXPECT_EQ(d.req_ids, std::vector<std::string>({"0"}));
  EXPECT_TRUE(d.resumed_req_ids.contains("0"));
  ASSERT_TRUE(d.all_token_ids.contains("0"));
  std::vector<std::int32_t> expected(10, 0);
  expected.push_back(1000);
  EXPECT_EQ(d.all_token_ids.at("0"), expected);
}

// scheduler.py@6e448d0e Scheduler.get_request_counts / get_num_unfinished_requests / make_stats count
// skipped_waiting with waiting.
TEST(VllmSchedulerState, CountsIncludeSkippedWaiting) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(3, {.num_tokens = 10});
  requests[0]->status = RequestStatus::kWaitingForStructuredOutputGrammar;
  add_requests(*scheduler, requests);
  EXPECT_EQ(scheduler->get_request_counts(), std::make_pair(std::int64_t{0}, std::int64_t{3}));
  EXPECT_EQ(scheduler->get_num_unfinished_requests(), 3);
  scheduler->schedule();
  EXPECT_EQ(scheduler->get_request_counts(), std::make_pair(std::int64_t{2}, std::int64_t{1}));
  EXPECT_EQ(scheduler->get_num_unfinished_requests(), 3);
  const SchedulerStats s = scheduler->make_stats();
  EXPECT_EQ(s.num_running_reqs, 2);
  EXPECT_EQ(s.num_waiting_reqs, 0);
  EXPECT_EQ(s.num_skipped_waiting_reqs, 1);
}

// scheduler.py@6e448d0e Scheduler.make_stats: kv_cache_usage is the manager's usage; the prefix-cache stats
// are drained from the manager (queries: the prompt tokens looked up, hits: the tokens found).
TEST(VllmSchedulerState, MakeStatsReportsUsageAndPrefixCacheCounts) {
  auto scheduler = create_scheduler({.enable_prefix_caching = true, .num_blocks = 101});
  auto requests = create_requests(2, {.num_tokens = 40, .same_prompt = true});
  scheduler->add_request(std::move(requests[0]));
  SchedulerOutput out = scheduler->schedule();
  SchedulerStats s = scheduler->make_stats();
  EXPECT_EQ(s.kv_cache_usage, 1.0 - 97.0 / 100.0);  // block_pool.py@6e448d0e get_usage: 3 of 100 blocks used
  EXPECT_EQ(s.kv_cache_usage, scheduler->get_kv_cache_usage());
  EXPECT_EQ(s.prefix_cache_queries, 40);
  EXPECT_EQ(s.prefix_cache_hits, 0);
  scheduler->update_from_output(out, make_output(*scheduler));
  scheduler->add_request(std::move(requests[1]));
  scheduler->schedule();
  s = scheduler->make_stats();
  EXPECT_EQ(s.prefix_cache_queries, 40);
  EXPECT_EQ(s.prefix_cache_hits, 32);
  s = scheduler->make_stats();  // drained
  EXPECT_EQ(s.prefix_cache_queries, 0);
  EXPECT_EQ(s.prefix_cache_hits, 0);
}

}  // namespace blis::vllm::testing
