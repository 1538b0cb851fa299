// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of the scheduling, stopping, queue and bookkeeping tests of
// tests/v1/core/test_scheduler.py@6e448d0e (requests in and out, schedule, chunked prefill, long-prefill
// threshold, max_num_seqs, stop checks, skipped-waiting order, stats, leaks).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.h"
#include "v1/core/sched/utils.h"

namespace blis::vllm::testing {
namespace {

// test_scheduler.py@6e448d0e test_add_requests
TEST(VllmScheduler, AddRequests) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(10);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const std::string id = requests[i]->request_id;
    scheduler->add_request(std::move(requests[i]));
    EXPECT_NE(scheduler->request(id), nullptr);
    EXPECT_EQ(scheduler->waiting().size(), i + 1);
  }
}

// test_scheduler.py@6e448d0e test_finish_request
TEST(VllmScheduler, FinishRequest) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(10);
  const auto reqs = pointers(requests);
  add_requests(*scheduler, requests);
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const std::string id = reqs[i]->request_id;
    scheduler->finish_requests({id}, RequestStatus::kFinishedAborted);
    EXPECT_EQ(scheduler->request(id), nullptr);
    EXPECT_EQ(scheduler->waiting().size(), 9 - i);
  }
}

// test_scheduler.py@6e448d0e test_get_num_unfinished_requests
TEST(VllmScheduler, GetNumUnfinishedRequests) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(10);
  const auto reqs = pointers(requests);
  add_requests(*scheduler, requests);
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    scheduler->finish_requests({reqs[i]->request_id}, RequestStatus::kFinishedStopped);
    EXPECT_EQ(scheduler->get_num_unfinished_requests(), static_cast<std::int64_t>(reqs.size() - i - 1));
  }
}

// test_scheduler.py@6e448d0e test_schedule, both parameter sets: (enable_prefix_caching=False,
// prompt_logprobs=None) and (True, 5).
TEST(VllmScheduler, Schedule) {
  for (const auto& [enable_prefix_caching, prompt_logprobs] :
       std::vector<std::pair<bool, std::optional<std::int64_t>>>{{false, std::nullopt}, {true, 5}}) {
    SCOPED_TRACE(enable_prefix_caching);
    auto scheduler = create_scheduler({.enable_prefix_caching = enable_prefix_caching});
    auto requests = create_requests(10, {.prompt_logprobs = prompt_logprobs});
    const auto reqs = pointers(requests);
    add_requests(*scheduler, requests);

    // Test initial scheduling.
    const SchedulerOutput output = scheduler->schedule();
    EXPECT_EQ(output.scheduled_new_reqs.size(), reqs.size());
    EXPECT_EQ(output.scheduled_cached_reqs.num_reqs(), 0u);
    EXPECT_EQ(output.finished_req_ids.size(), 0u);
    // Verify all requests are scheduled.
    for (const auto& [req_id, num_tokens] : output.num_scheduled_tokens) {
      EXPECT_EQ(num_tokens, static_cast<std::int64_t>(reqs[std::stoul(req_id)]->prompt_token_ids.size()));
    }
    // Verify requests moved from waiting to running.
    EXPECT_EQ(scheduler->waiting().size(), 0u);
    ASSERT_EQ(scheduler->running().size(), reqs.size());
    for (std::size_t i = 0; i < reqs.size(); ++i) EXPECT_EQ(scheduler->running()[i], reqs[i]);
  }
}

// test_scheduler.py@6e448d0e test_async_scheduling_pp_allows_rescheduling_with_output_placeholders
TEST(VllmScheduler, AsyncSchedulingPpAllowsReschedulingWithOutputPlaceholders) {
  auto scheduler = create_scheduler({.async_scheduling = true, .pipeline_parallel_size = 2});
  auto req_owned = create_request({.num_tokens = 8});
  Request* req = req_owned.get();
  scheduler->add_request(std::move(req_owned));

  (void)scheduler->schedule();
  EXPECT_GT(req->num_output_placeholders, 0);

  // Before any update_from_output, the request can be scheduled again (multi-step in-flight).
  const SchedulerOutput output = scheduler->schedule();
  EXPECT_TRUE(is_scheduled(output, req->request_id));
}

// test_scheduler.py@6e448d0e test_cached_request_data_resumed_all_token_ids_mrv1_only
TEST(VllmScheduler, CachedRequestDataResumedAllTokenIdsMrv1Only) {
  auto scheduler = create_scheduler({.use_v2_model_runner = false});
  auto req = create_request({.num_tokens = 8});
  req->append_output_token_ids({101, 102, 103});

  // A resumed request was not scheduled in the previous step.
  EXPECT_FALSE(SchedulerAccess::prev_step_scheduled_req_ids(*scheduler).contains(req->request_id));

  KVCacheBlocks empty_blocks;
  empty_blocks.blocks = {{}};  // KVCacheBlocks(blocks=((),))
  const std::map<std::string, KVCacheBlocks> req_to_new_blocks{{req->request_id, empty_blocks}};
  auto make_cached = [&] {
    return SchedulerAccess::call_make_cached_request_data(*scheduler, {}, {req.get()}, req_to_new_blocks);
  };

  // V1 model runner: the full token id list is propagated.
  EXPECT_FALSE(SchedulerAccess::use_v2_model_runner(*scheduler));
  CachedRequestData cached = make_cached();
  EXPECT_TRUE(cached.resumed_req_ids.contains(req->request_id));
  ASSERT_TRUE(cached.all_token_ids.contains(req->request_id));
  EXPECT_EQ(cached.all_token_ids.at(req->request_id), req->all_token_ids());

  // V2 model runner: all_token_ids is skipped entirely.
  SchedulerAccess::use_v2_model_runner(*scheduler) = true;
  cached = make_cached();
  EXPECT_TRUE(cached.resumed_req_ids.contains(req->request_id));
  EXPECT_TRUE(cached.all_token_ids.empty());
}

// test_scheduler.py@6e448d0e test_schedule_concurrent_partial_requests, enable_prefix_caching in
// [True, False].
TEST(VllmScheduler, ScheduleConcurrentPartialRequests) {
  for (const bool enable_prefix_caching : {true, false}) {
    SCOPED_TRACE(enable_prefix_caching);
    auto scheduler = create_scheduler({.max_num_batched_tokens = 1024,
                                       .enable_prefix_caching = enable_prefix_caching,
                                       .long_prefill_token_threshold = 400});
    auto requests = create_requests(3, {.num_tokens = 800});
    const auto reqs = pointers(requests);
    add_requests(*scheduler, requests);

    const SchedulerOutput output = scheduler->schedule();
    EXPECT_EQ(output.scheduled_new_reqs.size(), 3u);
    EXPECT_EQ(output.scheduled_cached_reqs.num_reqs(), 0u);
    EXPECT_EQ(output.finished_req_ids.size(), 0u);
    // The first and second requests are scheduled partially (400); the third gets 1024 - 400 - 400.
    EXPECT_EQ(output.scheduled_tokens_of(reqs[0]->request_id), 400);
    EXPECT_EQ(output.scheduled_tokens_of(reqs[1]->request_id), 400);
    EXPECT_EQ(output.scheduled_tokens_of(reqs[2]->request_id), 224);
    const std::vector<std::string> ids = ids_of(reqs);
    scheduler->update_from_output(output, model_runner_output(ids, {{}, {}, {}}));

    // All three requests are running; the remaining prefills of the first and second are processed.
    const SchedulerOutput output1 = scheduler->schedule();
    EXPECT_EQ(scheduler->running().size(), 3u);
    EXPECT_EQ(output1.scheduled_new_reqs.size(), 0u);
    EXPECT_EQ(output1.scheduled_cached_reqs.num_reqs(), 3u);
    EXPECT_EQ(output1.finished_req_ids.size(), 0u);
    EXPECT_EQ(output1.scheduled_tokens_of(reqs[0]->request_id), 400);
    EXPECT_EQ(output1.scheduled_tokens_of(reqs[1]->request_id), 400);
    EXPECT_EQ(output1.scheduled_tokens_of(reqs[2]->request_id), 224);

    // First and second requests decode; all the remaining tokens of the third are processed.
    scheduler->update_from_output(output1, model_runner_output(ids, {{0}, {0}, {}}));
    const SchedulerOutput output2 = scheduler->schedule();
    EXPECT_EQ(scheduler->running().size(), 3u);
    EXPECT_EQ(output2.scheduled_new_reqs.size(), 0u);
    EXPECT_EQ(output2.scheduled_cached_reqs.num_reqs(), 3u);
    EXPECT_EQ(output2.finished_req_ids.size(), 0u);
    EXPECT_EQ(output2.scheduled_tokens_of(reqs[0]->request_id), 1);
    EXPECT_EQ(output2.scheduled_tokens_of(reqs[1]->request_id), 1);
    EXPECT_EQ(output2.scheduled_tokens_of(reqs[2]->request_id), 800 - 224 - 224);
  }
}

// A SchedulerOutput built by hand as test_stop_via_update_from_output does (the fields the port has).
SchedulerOutput hand_output(const std::vector<std::pair<std::string, std::int64_t>>& num_scheduled_tokens,
                            const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& spec_tokens) {
  SchedulerOutput out;
  out.num_scheduled_tokens = num_scheduled_tokens;
  for (const auto& [id, n] : num_scheduled_tokens) out.total_num_scheduled_tokens += n;
  out.scheduled_spec_decode_tokens = spec_tokens;
  return out;
}

// test_scheduler.py@6e448d0e test_stop_via_update_from_output. Upstream builds the schedulers with
// num_speculative_tokens (1 or 2) so that one step can return several tokens; the port does not model
// speculative decoding. The state is installed by hand exactly as upstream does, and every draft is
// accepted in every case, so upstream's rejection accounting (not ported) changes nothing asserted here.
TEST(VllmScheduler, StopViaUpdateFromOutput) {
  // Test case 1: stop on EOS token.
  {
    auto scheduler = create_scheduler();
    auto requests = create_requests(2, {.max_tokens = 10});
    std::vector<Request*> reqs;
    for (auto& req : requests) {
      req->num_computed_tokens = req->num_tokens();
      req->status = RequestStatus::kRunning;
      reqs.push_back(SchedulerAccess::install_running(*scheduler, std::move(req)));
    }
    const SchedulerOutput scheduler_output = hand_output({{"0", 1}, {"1", 2}}, {{"0", {}}, {"1", {10}}});
    scheduler->update_from_output(scheduler_output, model_runner_output({"0", "1"}, {{EOS_TOKEN_ID}, {10, 11}}));

    ASSERT_EQ(scheduler->running().size(), 1u);
    EXPECT_EQ(scheduler->running()[0]->request_id, reqs[1]->request_id);
    EXPECT_EQ(reqs[0]->status, RequestStatus::kFinishedStopped);
    EXPECT_TRUE(SchedulerAccess::finished_req_ids(*scheduler).contains(reqs[0]->request_id));
    EXPECT_EQ(reqs[0]->output_token_ids(), std::vector<std::int32_t>({EOS_TOKEN_ID}));
    EXPECT_EQ(reqs[1]->output_token_ids(), std::vector<std::int32_t>({10, 11}));
  }
  // Test case 2: stop on a custom stop token.
  {
    auto scheduler = create_scheduler();
    auto requests = create_requests(2, {.max_tokens = 10, .stop_token_ids = {42, 43}});
    std::vector<Request*> reqs;
    for (auto& req : requests) {
      req->num_computed_tokens = req->num_tokens();
      req->status = RequestStatus::kRunning;
      reqs.push_back(SchedulerAccess::install_running(*scheduler, std::move(req)));
    }
    const SchedulerOutput scheduler_output = hand_output({{"0", 3}, {"1", 2}}, {{"0", {10, 42}}, {"1", {13}}});
    scheduler->update_from_output(scheduler_output, model_runner_output({"0", "1"}, {{10, 42, 12}, {13, 14}}));

    ASSERT_EQ(scheduler->running().size(), 1u);
    EXPECT_EQ(scheduler->running()[0]->request_id, reqs[1]->request_id);
    EXPECT_EQ(reqs[0]->status, RequestStatus::kFinishedStopped);
    EXPECT_EQ(reqs[0]->stop_reason, std::optional<std::string>("42"));
    EXPECT_TRUE(SchedulerAccess::finished_req_ids(*scheduler).contains(reqs[0]->request_id));
    EXPECT_EQ(reqs[0]->output_token_ids(), std::vector<std::int32_t>({10, 42}));
    EXPECT_EQ(reqs[1]->output_token_ids(), std::vector<std::int32_t>({13, 14}));
  }
  // Test case 3: stop on max tokens.
  {
    auto scheduler = create_scheduler();
    auto requests = create_requests(2, {.max_tokens = 2});
    std::vector<Request*> reqs;
    for (auto& req : requests) {
      req->num_computed_tokens = req->num_tokens();
      req->status = RequestStatus::kRunning;
      reqs.push_back(SchedulerAccess::install_running(*scheduler, std::move(req)));
    }
    const SchedulerOutput scheduler_output = hand_output({{"0", 3}, {"1", 1}}, {{"0", {10, 11}}, {"1", {}}});
    scheduler->update_from_output(scheduler_output, model_runner_output({"0", "1"}, {{10, 11, 12}, {13}}));

    ASSERT_EQ(scheduler->running().size(), 1u);
    EXPECT_EQ(scheduler->running()[0]->request_id, reqs[1]->request_id);
    EXPECT_EQ(reqs[0]->status, RequestStatus::kFinishedLengthCapped);
    EXPECT_TRUE(SchedulerAccess::finished_req_ids(*scheduler).contains(reqs[0]->request_id));
    EXPECT_EQ(reqs[0]->output_token_ids(), std::vector<std::int32_t>({10, 11}));  // truncated to max_tokens
    EXPECT_EQ(reqs[1]->output_token_ids(), std::vector<std::int32_t>({13}));
  }
  // Test case 4: ignore EOS flag (upstream leaves this request's status WAITING).
  {
    auto scheduler = create_scheduler();
    auto req_owned = create_request({.ignore_eos = true, .max_tokens = 10});
    req_owned->num_computed_tokens = req_owned->num_tokens();
    Request* req = SchedulerAccess::install_running(*scheduler, std::move(req_owned));
    const SchedulerOutput scheduler_output = hand_output({{"0", 3}}, {{"0", {EOS_TOKEN_ID, 10}}});
    scheduler->update_from_output(scheduler_output, model_runner_output({"0"}, {{EOS_TOKEN_ID, 10, 11}}));

    EXPECT_EQ(scheduler->running().size(), 1u);
    EXPECT_FALSE(req->is_finished());
    EXPECT_EQ(req->output_token_ids(), std::vector<std::int32_t>({EOS_TOKEN_ID, 10, 11}));
  }
}

// A request as test_check_stop_min_tokens builds one: prompt [0, 1, 2], max_tokens 20, min_tokens, the
// EOS token from update_from_generation_config, and stop_token_ids.
Request min_tokens_request(const std::string& id, std::int64_t min_tokens, std::vector<std::int32_t> stop_token_ids) {
  Request request(id, {0, 1, 2}, /*max_tokens=*/20, /*arrival_time=*/0.0);
  request.min_tokens = min_tokens;
  request.eos_token_id = EOS_TOKEN_ID;
  request.stop_token_ids = std::move(stop_token_ids);
  return request;
}

// test_scheduler.py@6e448d0e test_check_stop_min_tokens
TEST(VllmScheduler, CheckStopMinTokens) {
  // Test case 1: num_output_tokens < min_tokens: no stop, EOS or not.
  Request request = min_tokens_request("0", 5, {});
  request.append_output_token_ids({10, 11, EOS_TOKEN_ID});
  EXPECT_FALSE(check_stop(request, /*max_model_len=*/100)) << "Should not stop when num_output_tokens<min_tokens";

  // Test case 2: num_output_tokens >= min_tokens: normal stopping (stop on EOS).
  request.append_output_token_ids({10, 11, 12, 13, 14, EOS_TOKEN_ID});
  EXPECT_TRUE(check_stop(request, 100)) << "Should stop on EOS when min_tokens met";
  EXPECT_EQ(request.status, RequestStatus::kFinishedStopped);

  // Test case 3: min_tokens = 0: normal stopping.
  Request request_no_min = min_tokens_request("1", 0, {});
  request_no_min.append_output_token_ids({10, EOS_TOKEN_ID});
  EXPECT_TRUE(check_stop(request_no_min, 100)) << "Should stop on EOS when min_tokens=0";
  EXPECT_EQ(request_no_min.status, RequestStatus::kFinishedStopped);

  // Test case 4: min_tokens > 0 with a stop token (not EOS), fewer than min_tokens outputs.
  Request request_stop = min_tokens_request("2", 5, {42});
  request_stop.append_output_token_ids({10, 11, 42});
  EXPECT_FALSE(check_stop(request_stop, 100)) << "Should not stop when num_output_tokens<min_tokens";

  // Test case 5: min_tokens met: stop on the stop token.
  request_stop.append_output_token_ids({10, 11, 12, 13, 14, 42});
  EXPECT_TRUE(check_stop(request_stop, 100)) << "Should stop on stop token when min_tokens met";
  EXPECT_EQ(request_stop.status, RequestStatus::kFinishedStopped);
  EXPECT_EQ(request_stop.stop_reason, std::optional<std::string>("42"));
}

// test_scheduler.py@6e448d0e test_schedule_concurrent_batches, both parameter sets: (False, None) and
// (True, 5).
TEST(VllmScheduler, ScheduleConcurrentBatches) {
  for (const auto& [enable_prefix_caching, prompt_logprobs] :
       std::vector<std::pair<bool, std::optional<std::int64_t>>>{{false, std::nullopt}, {true, 5}}) {
    SCOPED_TRACE(enable_prefix_caching);
    auto scheduler = create_scheduler(
        {.max_num_seqs = 2, .max_num_batched_tokens = 1024, .enable_prefix_caching = enable_prefix_caching});
    auto requests = create_requests(2, {.num_tokens = 512, .prompt_logprobs = prompt_logprobs});
    const auto reqs = pointers(requests);

    // Schedule the first request.
    scheduler->add_request(std::move(requests[0]));
    const SchedulerOutput scheduler_output0 = scheduler->schedule();
    EXPECT_EQ(scheduler_output0.scheduled_new_reqs.size(), 1u);
    EXPECT_EQ(scheduler_output0.scheduled_tokens_of(reqs[0]->request_id), 512);

    // The first request is still running, so only schedule the second request.
    scheduler->add_request(std::move(requests[1]));
    const SchedulerOutput scheduler_output1 = scheduler->schedule();
    EXPECT_EQ(scheduler_output1.scheduled_new_reqs.size(), 1u);
    EXPECT_EQ(scheduler_output1.scheduled_tokens_of(reqs[1]->request_id), 512);

    // Model output of the first request.
    scheduler->update_from_output(scheduler_output0, model_runner_output({reqs[0]->request_id}, {{0}}));

    // The first request can be scheduled again while the second request is still running.
    const SchedulerOutput scheduler_output2 = scheduler->schedule();
    EXPECT_EQ(scheduler_output2.scheduled_tokens_of(reqs[0]->request_id), 1);

    // Model output of the second request.
    scheduler->update_from_output(scheduler_output1, model_runner_output({reqs[1]->request_id}, {{0}}));
  }
}

// test_scheduler.py@6e448d0e test_schedule_order, enable_chunked_prefill in [True, False].
TEST(VllmScheduler, ScheduleOrder) {
  for (const bool enable_chunked_prefill : {true, false}) {
    SCOPED_TRACE(enable_chunked_prefill);
    auto scheduler = create_scheduler(
        {.max_num_seqs = 3, .max_num_batched_tokens = 1024, .enable_chunked_prefill = enable_chunked_prefill});
    // Long requests, then short requests.
    auto requests = create_requests(2, {.num_tokens = 800, .req_ids = {"1", "2"}});
    auto short_requests = create_requests(2, {.num_tokens = 10, .req_ids = {"3", "4"}});
    for (auto& r : short_requests) requests.push_back(std::move(r));
    add_requests(*scheduler, requests);

    const SchedulerOutput scheduler_output1 = scheduler->schedule();
    if (enable_chunked_prefill) {
      // With chunked prefill, long requests are chunked.
      EXPECT_EQ(scheduler_output1.scheduled_new_reqs.size(), 2u);
    } else {
      // Without it, the long request is not skipped for the short ones behind it, even with budget left.
      EXPECT_EQ(scheduler_output1.scheduled_new_reqs.size(), 1u);
    }
  }
}

// test_scheduler.py@6e448d0e test_schedule_skip_tokenizer_init. The port never initializes a tokenizer
// (as with skip_tokenizer_init=True).
TEST(VllmScheduler, ScheduleSkipTokenizerInit) {
  auto scheduler = create_scheduler();
  auto requests = create_requests(5);
  add_requests(*scheduler, requests);
  const SchedulerOutput output = scheduler->schedule();
  EXPECT_EQ(output.scheduled_new_reqs.size(), 5u);
}

// test_scheduler.py@6e448d0e test_scheduler_stats_waiting_queues. Upstream reads the stats from
// update_from_output's EngineCoreOutputs; the port's caller takes them from make_stats() after it (see
// harness.h update_from_output).
TEST(VllmScheduler, SchedulerStatsWaitingQueues) {
  auto scheduler = create_scheduler({.max_num_batched_tokens = 100});
  auto all_requests = create_requests(5, {.num_tokens = 50});
  const auto reqs = pointers(all_requests);

  // Add 3 requests: only 2 can be scheduled (2 * 50 = 100 tokens); the 3rd waits on capacity.
  for (std::size_t i = 0; i < 3; ++i) scheduler->add_request(std::move(all_requests[i]));
  // Manually add 2 more to skipped_waiting to simulate constraint-blocked requests.
  for (std::size_t i = 3; i < 5; ++i) {
    reqs[i]->status = RequestStatus::kWaitingForRemoteKvs;
    SchedulerAccess::skipped_waiting(*scheduler).add_request(reqs[i]);
  }

  const SchedulerOutput output = scheduler->schedule();
  EXPECT_EQ(output.scheduled_new_reqs.size(), 2u);
  EXPECT_EQ(scheduler->waiting().size(), 1u);
  EXPECT_EQ(scheduler->skipped_waiting().size(), 2u);

  std::vector<std::string> scheduled_req_ids;
  for (const auto& [id, n] : output.num_scheduled_tokens) scheduled_req_ids.push_back(id);
  const UpdateResult result = update_from_output(
      *scheduler, output,
      model_runner_output(scheduled_req_ids, std::vector<std::vector<std::int32_t>>(scheduled_req_ids.size(), {1})));
  EXPECT_FALSE(result.outputs.empty());
  EXPECT_EQ(result.stats.num_running_reqs, 2);
  EXPECT_EQ(result.stats.num_waiting_reqs, 1);
  EXPECT_EQ(result.stats.num_skipped_waiting_reqs, 2);
  // The two hand-added requests are not the scheduler's: take them out before it is destroyed.
  SchedulerAccess::skipped_waiting(*scheduler).remove_requests({reqs[3], reqs[4]});
}

// test_scheduler.py@6e448d0e test_prepend_skipped_requests_order. Upstream configures a KV connector only
// so that WAITING_FOR_REMOTE_KVS has one behind it; with no finished transfer the connector promotes
// nothing, and the port (no connector) keeps such a request blocked in the same way.
TEST(VllmScheduler, PrependSkippedRequestsOrder) {
  auto scheduler = create_scheduler({.max_num_seqs = 1});
  auto requests = create_requests(4);
  add_requests(*scheduler, requests);

  // 4 requests waiting: capture their order.
  std::vector<Request*> expected_waiting_reqs = scheduler->waiting().in_order();
  // The first 2 waiting requests wait for remote KVs.
  for (std::size_t i = 0; i < 2; ++i) expected_waiting_reqs[i]->status = RequestStatus::kWaitingForRemoteKvs;
  SchedulerAccess::waiting(*scheduler).remove_requests({expected_waiting_reqs[0], expected_waiting_reqs[1]});
  for (std::size_t i = 0; i < 2; ++i)
    SchedulerAccess::skipped_waiting(*scheduler).add_request(expected_waiting_reqs[i]);

  // Expect the first 2 skipped, the third running, the fourth waiting.
  (void)scheduler->schedule();
  expected_waiting_reqs.erase(expected_waiting_reqs.begin() + 2);

  // The waiting order is preserved.
  std::vector<Request*> waiting_reqs = scheduler->skipped_waiting().in_order();
  for (Request* r : scheduler->waiting().in_order()) waiting_reqs.push_back(r);
  EXPECT_EQ(waiting_reqs, expected_waiting_reqs);
}

// test_scheduler.py@6e448d0e test_memory_leak
TEST(VllmScheduler, MemoryLeak) {
  auto scheduler = create_scheduler({.enable_prefix_caching = true});
  constexpr std::int64_t NUM_REQUESTS = 5;
  constexpr std::int64_t NUM_TOKENS = 10;
  constexpr std::int64_t MAX_TOKENS = 10;
  auto requests = create_requests(NUM_REQUESTS, {.num_tokens = NUM_TOKENS, .max_tokens = MAX_TOKENS});

  // Add each request.
  for (auto& request : requests) {
    scheduler->add_request(std::move(request));
    const SchedulerOutput scheduler_output = scheduler->schedule();
    update_from_output(*scheduler, scheduler_output, make_output(*scheduler));
  }
  // Iterate until done.
  for (int guard = 0; guard < 1000; ++guard) {
    const SchedulerOutput scheduler_output = scheduler->schedule();
    if (scheduler->running().empty()) break;
    update_from_output(*scheduler, scheduler_output, make_output(*scheduler));
  }
  // Confirm no memory leak.
  assert_scheduler_empty(*scheduler);
}

}  // namespace
}  // namespace blis::vllm::testing
