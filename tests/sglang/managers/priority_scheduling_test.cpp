// Original to BLIS: transcription of test/registered/scheduler/test_priority_scheduling.py@71de97b2
// (TestPriorityScheduling, TestPrioritySchedulingMultipleRunningRequests) into GoogleTest, over the ported
// Scheduler (engines/sglang/srt/managers/scheduler*.cpp) instead of a launched server.
//
// What stands in for what:
// - popen_launch_server(--max-running-requests N, --max-queued-requests 3, --enable-priority-scheduling): a
//   Scheduler with those settings and the defaults upstream resolves for them (fcfs, the preemption threshold
//   10, larger priority values first, the overlap schedule on). DEFAULT_SMALL_MODEL_NAME_FOR_TEST
//   (Llama-3.2-1B-Instruct, 131072-token context) on a GPU: a 131072-token pool and a 131072-token context.
//   Each test gets a fresh server; upstream's class shares one (its radix cache only changes prefix hits).
// - send_concurrent_generate_requests_with_custom_params: each request is the helper's base payload updated
//   with the custom params. Python's dict.update is shallow, so a custom "sampling_params" replaces the
//   base's {"temperature": 0, "max_new_tokens": 500} and a request without one gets max_new_tokens 500. The
//   base payload's prompt text is a 16-token prompt, the same tokens for every request (the same text).
// - Arrival: the upstream assertions require the first request to be scheduled before the others arrive (e.g.
//   the priority-0 request of the ordering test finishes first although the others outrank it), so request 0
//   arrives at loop iteration 0 and the rest, in list order, at iteration 1 (while request 0's prefill runs).
//   The staggered test sends its second request kStaggerIterations iterations after the first.
// - The model: every sampled token is a non-EOS token, so a request runs to its max_new_tokens (the small
//   model may stop earlier at its EOS; the order of service is the same).
// - Time: one iteration of event_loop_overlap is one unit. meta_info.e2e_latency (the tokenizer's finish time
//   minus its receive time) is the iteration whose processed result finishes the request minus its arrival
//   iteration.
// - The HTTP response: a request ended by its last batch result is status 200 with no "message"; a request
//   ended by an AbortReq carrying finished_reason {"status_code", "message"} is that status with that message
//   (tokenizer_manager.py turns it into the error response upstream's helper reads).
// - tearDownClass's _verify_max_running_requests_and_max_queued_request_validation (the logged #running-req
//   and #queue-req never exceed the limits): checked on every iteration of every test (the running batch and
//   a launched decode batch against max_running_requests, the waiting queue against max_queued_requests).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "srt/managers/scheduler.h"

namespace blis::sglang::testing {
namespace {

constexpr std::int64_t kEos = -1;
constexpr std::int64_t kToken = 7;  // what the model stand-in samples: never the EOS
constexpr std::int64_t kPromptLen = 16;
constexpr std::int64_t kMaxQueuedRequests = 3;
constexpr std::int64_t kHelperMaxNewTokens = 500;  // test_utils.py@71de97b2 base_payload["sampling_params"]
constexpr int kMaxIterations = 200000;

// One entry of custom_params: {"priority": p} or {"priority": p, "sampling_params": {...}}.
struct CustomParams {
  std::int64_t priority = 0;
  std::optional<std::int64_t> max_new_tokens;  // set: "sampling_params" given (it replaces the base's)
  bool ignore_eos = false;
  int arrival = 1;  // the loop iteration the request reaches the scheduler
};

// {"priority": priority} (max_new_tokens unset), or with "sampling_params": {"max_new_tokens": ...,
// "ignore_eos": ...}; arriving at iteration `arrival`.
CustomParams params(std::int64_t priority, std::optional<std::int64_t> max_new_tokens = std::nullopt, int arrival = 1,
                    bool ignore_eos = false) {
  CustomParams p;
  p.priority = priority;
  p.max_new_tokens = max_new_tokens;
  p.ignore_eos = ignore_eos;
  p.arrival = arrival;
  return p;
}

// (status code, response json) as upstream's helper returns it: "message" only on an error, e2e_latency only
// on a success.
struct Response {
  int status = 0;
  std::optional<std::string> message;
  std::optional<std::int64_t> e2e_latency;
};

// A server launched as setUpClass launches it.
class PriorityServer {
 public:
  explicit PriorityServer(std::int64_t max_running_requests) : max_running_requests_(max_running_requests) {
    SchedulerConfig c;
    c.page_size = 1;
    c.max_total_num_tokens = 131072;
    c.context_len = 131072;
    c.chunked_prefill_size = 8192;
    c.max_running_requests = max_running_requests;
    c.max_queued_requests = kMaxQueuedRequests;
    c.enable_priority_scheduling = true;
    scheduler_ = std::make_unique<Scheduler>(std::move(c));
  }

  // send_concurrent_generate_requests_with_custom_params, driven through event_loop_overlap
  // (scheduler.py@71de97b2): each iteration receives the requests that arrive then, gets the next batch and
  // launches it, then processes the result of the batch launched in the previous iteration.
  std::vector<Response> send(const std::vector<CustomParams>& custom_params) {
    Scheduler& s = *scheduler_;
    std::vector<Response> responses(custom_params.size());
    std::map<std::string, std::size_t> index;
    std::vector<bool> done(custom_params.size(), false);
    std::size_t delivered = 0;
    const auto rid_of = [](std::size_t i) { return "r" + std::to_string(i); };
    const auto collect_ended_outside = [&] {
      for (const EndedOutsideBatch& e : s.take_ended_outside_batches_with_reasons()) {
        const std::size_t i = index.at(e.rid);
        responses[i].status = e.status_code.value_or(0);
        responses[i].message = e.message;
        done[i] = true;
      }
    };
    for (int it = 0; it < kMaxIterations; ++it) {
      // recv_requests + process_input_requests (handle_generate_request), in arrival order.
      for (std::size_t i = 0; i < custom_params.size(); ++i) {
        const CustomParams& p = custom_params[i];
        if (p.arrival != it) continue;
        TokenIds prompt(static_cast<std::size_t>(kPromptLen));
        std::iota(prompt.begin(), prompt.end(), 1);
        SamplingParams sp;
        sp.max_new_tokens = p.max_new_tokens.value_or(kHelperMaxNewTokens);
        sp.ignore_eos = p.ignore_eos;
        auto req = std::make_unique<Req>(rid_of(i), std::move(prompt), sp, p.priority);
        req->eos_token_ids = {kEos};
        index[rid_of(i)] = i;
        s.handle_generate_request(std::move(req));
        ++delivered;
        observe_queue(s);
      }
      collect_ended_outside();
      const bool had_last_batch = s.front_launched() != nullptr;
      const LaunchedBatch* batch = s.next_batch();
      observe_queue(s);
      max_running_seen_ = std::max(max_running_seen_, s.running_batch().batch_size());
      if (batch != nullptr && batch->forward_mode == ForwardMode::kDecode) {
        max_running_seen_ = std::max(max_running_seen_, static_cast<std::int64_t>(batch->reqs.size()));
      }
      collect_ended_outside();
      if (had_last_batch) {
        const LaunchedBatch* last = s.front_launched();
        const BatchResultRecord rec = s.process_batch_result(std::vector<std::int64_t>(last->reqs.size(), kToken));
        for (const auto& [rid, why] : rec.finished) {
          const std::size_t i = index.at(rid);
          responses[i].status = why == "abort" ? 0 : 200;
          responses[i].e2e_latency = it - custom_params[i].arrival;
          done[i] = true;
        }
        collect_ended_outside();
      }
      if (batch == nullptr && !had_last_batch && delivered == custom_params.size()) break;
    }
    EXPECT_TRUE(std::all_of(done.begin(), done.end(), [](bool d) { return d; })) << "a request never ended";
    return responses;
  }

  // tearDownClass: _verify_max_running_requests_and_max_queued_request_validation(max_running, 3).
  void verify_max_running_requests_and_max_queued_requests() const {
    EXPECT_LE(max_running_seen_, max_running_requests_);
    EXPECT_LE(max_queued_seen_, kMaxQueuedRequests);
  }

  // Not upstream's: every KV slot is free or evictable again and nothing stays locked once all requests ended.
  void expect_pool_whole() const {
    const Scheduler& s = *scheduler_;
    EXPECT_EQ(s.allocator().available_size() + s.tree_cache().evictable_size(), s.config().max_total_num_tokens);
    EXPECT_EQ(s.tree_cache().protected_size(), 0);
  }

 private:
  void observe_queue(const Scheduler& s) {
    max_queued_seen_ = std::max(max_queued_seen_, static_cast<std::int64_t>(s.waiting_queue().size()));
  }

  std::int64_t max_running_requests_;
  std::unique_ptr<Scheduler> scheduler_;
  std::int64_t max_running_seen_ = 0;
  std::int64_t max_queued_seen_ = 0;
};

using Expected = std::vector<std::pair<int, std::optional<std::string>>>;

// test_priority_scheduling.py@71de97b2 _verify_genereate_responses: for each (got, expected) pair (zip: the
// shorter list bounds it), the status and, on an error, the message; on a success no message. Returns the
// e2e latencies (nullopt for an error).
std::vector<std::optional<std::int64_t>> verify_generate_responses(const std::vector<Response>& responses,
                                                                   const Expected& expected) {
  std::vector<std::optional<std::int64_t>> e2e_latencies;
  for (std::size_t i = 0; i < std::min(responses.size(), expected.size()); ++i) {
    const Response& got = responses[i];
    EXPECT_EQ(got.status, expected[i].first) << "request " << i;
    if (got.status != 200) {
      EXPECT_EQ(got.message, expected[i].second) << "request " << i;
    } else {
      EXPECT_FALSE(got.message.has_value()) << "request " << i;
    }
    e2e_latencies.push_back(got.status == 200 ? got.e2e_latency : std::nullopt);
  }
  return e2e_latencies;
}

// a[i0] < a[i1] < ... over present latencies (a missing one fails, as None < x raises upstream).
void expect_increasing(const std::vector<std::optional<std::int64_t>>& e2e, const std::vector<std::size_t>& order) {
  for (std::size_t k = 0; k + 1 < order.size(); ++k) {
    ASSERT_TRUE(e2e.at(order[k]).has_value() && e2e.at(order[k + 1]).has_value());
    EXPECT_LT(*e2e[order[k]], *e2e[order[k + 1]])
        << "e2e_latencies[" << order[k] << "] < e2e_latencies[" << order[k + 1] << "]";
  }
}

const std::string kAbortedByHigher = "The request is aborted by a higher priority request.";
const std::string kQueueFull = "The request queue is full.";

// TestPriorityScheduling.test_priority_scheduling_request_ordering_validation: pending requests are ordered by
// priority, then by the time they entered the queue.
TEST(SglPriorityScheduling, RequestOrderingValidation) {
  PriorityServer server(1);
  const std::vector<Response> responses = server.send({
      params(0, 10000, 0),  // starts being processed first
      params(1),            // third
      params(1),            // fourth
      params(2),            // second
  });
  const auto e2e = verify_generate_responses(
      responses, {{200, std::nullopt}, {200, std::nullopt}, {200, std::nullopt}, {200, std::nullopt}});
  expect_increasing(e2e, {0, 3, 1, 2});
  server.verify_max_running_requests_and_max_queued_requests();
  server.expect_pool_whole();
}

// TestPriorityScheduling.test_priority_scheduling_existing_requests_abortion_validation: with the queue full,
// an incoming request aborts the queued request of the lowest priority below its own.
TEST(SglPriorityScheduling, ExistingRequestsAbortionValidation) {
  PriorityServer server(1);
  const std::vector<Response> responses = server.send({
      params(1, 10000, 0),  // holds the running queue capacity
      params(2),            // aborted by request 5
      params(3),            // aborted by request 6
      params(4),            // aborted by request 7
      params(5),            // fourth
      params(6),            // third
      params(7),            // second
  });
  const auto e2e = verify_generate_responses(responses, {{200, std::nullopt},
                                                         {503, kAbortedByHigher},
                                                         {503, kAbortedByHigher},
                                                         {503, kAbortedByHigher},
                                                         {200, std::nullopt},
                                                         {200, std::nullopt},
                                                         {200, std::nullopt}});
  expect_increasing(e2e, {0, 6, 5, 4});
  server.verify_max_running_requests_and_max_queued_requests();
  server.expect_pool_whole();
}

// TestPriorityScheduling.test_priority_scheduling_incoming_request_rejection_validation: with the queue full of
// higher-priority requests, the incoming request is rejected.
TEST(SglPriorityScheduling, IncomingRequestRejectionValidation) {
  PriorityServer server(1);
  const std::vector<Response> responses = server.send({
      params(7, 10000, 0),  // holds the running queue capacity
      params(6),            // second
      params(5),            // third
      params(4),            // fourth
      params(3),            // rejected
      params(2),            // rejected
      params(1),            // rejected
  });
  const auto e2e = verify_generate_responses(responses, {{200, std::nullopt},
                                                         {200, std::nullopt},
                                                         {200, std::nullopt},
                                                         {200, std::nullopt},
                                                         {503, kQueueFull},
                                                         {503, kQueueFull},
                                                         {503, kQueueFull}});
  expect_increasing(e2e, {0, 1, 2, 3});
  server.verify_max_running_requests_and_max_queued_requests();
  server.expect_pool_whole();
}

// TestPriorityScheduling.test_priority_scheduling_preemption_meeting_threshold_validation: a request whose
// priority exceeds a running request's by more than the threshold (10) preempts it; 10 exactly does not.
TEST(SglPriorityScheduling, PreemptionMeetingThresholdValidation) {
  PriorityServer server(1);
  const std::vector<Response> responses = server.send({
      params(0, 10000, 0),  // preempted, finishes last
      params(10, 10000),    // scheduled after the third, finishes second
      params(20, 10000),    // finishes first
  });
  const auto e2e =
      verify_generate_responses(responses, {{200, std::nullopt}, {200, std::nullopt}, {200, std::nullopt}});
  expect_increasing(e2e, {2, 1, 0});
  server.verify_max_running_requests_and_max_queued_requests();
  server.expect_pool_whole();
}

// TestPriorityScheduling.test_priority_scheduling_preemption_below_threshold_validation: upstream sends the
// second request 1 s after the first (asyncio.sleep(1.0)), both with max_new_tokens 1000 and ignore_eos, so
// the first is running when the second arrives; here the second arrives kStaggerIterations iterations later.
TEST(SglPriorityScheduling, PreemptionBelowThresholdValidation) {
  constexpr int kStaggerIterations = 100;
  PriorityServer server(1);
  const std::vector<Response> responses = server.send({
      params(0, 1000, 0, true),
      params(5, 1000, kStaggerIterations, true),
  });
  const auto e2e = verify_generate_responses(responses, {{200, std::nullopt}, {200, std::nullopt}});
  expect_increasing(e2e, {0, 1});
  server.verify_max_running_requests_and_max_queued_requests();
  server.expect_pool_whole();
}

// TestPrioritySchedulingMultipleRunningRequests.test_priority_scheduling_with_multiple_running_requests_preemption:
// upstream lists four expected results for three requests; zip stops at three, so all three must succeed. (No
// running request is preempted here: the largest priority gap to a running request is 15 - 5 = 10, which does
// not exceed the threshold; upstream asserts only the statuses.)
TEST(SglPrioritySchedulingMultipleRunningRequests, MultipleRunningRequestsPreemption) {
  PriorityServer server(2);
  const std::vector<Response> responses = server.send({
      params(10, 10000, 0),  // finishes first
      params(5, 10000),
      params(15, 10000),
  });
  verify_generate_responses(responses,
                            {{200, std::nullopt}, {200, std::nullopt}, {200, std::nullopt}, {200, std::nullopt}});
  server.verify_max_running_requests_and_max_queued_requests();
  server.expect_pool_whole();
}

// TestPrioritySchedulingMultipleRunningRequests.test_priority_scheduling_preemption_token_offset_calculation:
// a low-priority request with a large budget is preempted by a high-priority one, and every request completes.
// Upstream's latency-order assertion is commented out (FIXME) at the pinned commit, so it is not asserted.
TEST(SglPrioritySchedulingMultipleRunningRequests, PreemptionTokenOffsetCalculation) {
  PriorityServer server(2);
  const std::vector<Response> responses = server.send({
      params(0, 8000, 0),  // low priority, large token count: preempted
      params(1, 5000),     // medium priority: queued initially
      params(100, 1000),   // high priority, small token count
      params(50, 2000),    // schedulable after correct token accounting
  });
  verify_generate_responses(responses,
                            {{200, std::nullopt}, {200, std::nullopt}, {200, std::nullopt}, {200, std::nullopt}});
  server.verify_max_running_requests_and_max_queued_requests();
  server.expect_pool_whole();
}

}  // namespace
}  // namespace blis::sglang::testing
