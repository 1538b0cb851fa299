// Original to BLIS: this port's own tests of the SGLang Scheduler (scheduler.py@71de97b2 and
// batch_result_processor.py@71de97b2 as ported in engines/sglang/srt/managers/scheduler*.cpp): the step
// sequence a request takes through the normal and overlap loops, chunked prefill, decode retraction and the
// new-token ratio. Every expected value is worked out by hand from upstream's code (see each test's comment).
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "srt/managers/scheduler.h"

namespace blis::sglang::testing {
namespace {

constexpr std::int64_t kEos = -1;
constexpr std::int64_t kToken = 7;

SchedulerConfig base_config() {
  SchedulerConfig c;
  c.page_size = 1;
  c.max_total_num_tokens = 1000;
  c.max_running_requests = 8;
  c.context_len = 2048;
  c.chunked_prefill_size = 512;
  c.disable_overlap_schedule = true;
  return c;
}

std::unique_ptr<Req> make_req(const std::string& rid, std::int64_t prompt_len, std::int64_t max_new_tokens,
                              std::int64_t first_token = 1) {
  TokenIds ids(static_cast<std::size_t>(prompt_len));
  std::iota(ids.begin(), ids.end(), first_token);
  SamplingParams sp;
  sp.max_new_tokens = max_new_tokens;
  auto r = std::make_unique<Req>(rid, std::move(ids), sp);
  r->eos_token_ids = {kEos};
  return r;
}

// One scheduling and one processing half, as event_loop_normal runs them. Returns the launched batch's mode
// and extend lengths (empty for decode), and what processing emitted.
struct Step {
  ForwardMode mode = ForwardMode::kIdle;
  std::vector<std::int64_t> extend_lens;
  std::int64_t emitted = 0;
  std::vector<std::string> finished;
};

std::vector<Step> run_normal(Scheduler& s, int max_steps = 100) {
  std::vector<Step> steps;
  for (int i = 0; i < max_steps; ++i) {
    const LaunchedBatch* b = s.next_batch();
    if (b == nullptr) break;
    Step st;
    st.mode = b->forward_mode;
    if (b->forward_mode != ForwardMode::kDecode) st.extend_lens = b->extend_lens;
    const BatchResultRecord rec = s.process_batch_result(std::vector<std::int64_t>(b->reqs.size(), kToken));
    for (const auto& [rid, n] : rec.emitted) st.emitted += n;
    for (const auto& [rid, why] : rec.finished) st.finished.push_back(rid + ":" + why);
    steps.push_back(st);
  }
  return steps;
}

// The whole pool is free or evictable again (no KV leaked, nothing left locked).
void expect_pool_free(const Scheduler& s) {
  EXPECT_EQ(s.allocator().available_size() + s.tree_cache().evictable_size(), s.config().max_total_num_tokens);
  EXPECT_EQ(s.tree_cache().protected_size(), 0);
}

// A 10-token prompt with max_new_tokens 3 under the normal loop: one extend of 10 tokens (the empty cache
// matches nothing) sampling the first token, then two decode steps, the last of which finishes the request by
// length (len(output_ids) >= max_new_tokens). Each decode step without retraction decays the ratio once:
// init 0.7, min 0.7 x 0.14 = 0.098, decay (0.7 - 0.098) / 600.
TEST(SglScheduler, NormalLoopPrefillThenDecodeUntilLength) {
  Scheduler s(base_config());
  s.handle_generate_request(make_req("a", 10, 3));
  const LaunchedBatch* b = s.next_batch();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->forward_mode, ForwardMode::kExtend);
  EXPECT_EQ(b->extend_lens, (std::vector<std::int64_t>{10}));
  s.process_batch_result({kToken});
  EXPECT_DOUBLE_EQ(s.new_token_ratio(), 0.7);
  const std::vector<Step> rest = run_normal(s);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].mode, ForwardMode::kDecode);
  EXPECT_EQ(rest[1].mode, ForwardMode::kDecode);
  EXPECT_EQ(rest[0].emitted + rest[1].emitted, 2);
  EXPECT_EQ(rest[1].finished, (std::vector<std::string>{"a:length"}));
  // The idle iteration after the finish resets the ratio (on_idle).
  EXPECT_DOUBLE_EQ(s.new_token_ratio(), 0.7);
  expect_pool_free(s);
  // The finished request's 12 KV tokens (10 prompt + 2 decoded; the last sampled token has no KV) stay cached.
  EXPECT_EQ(s.tree_cache().evictable_size(), 12);
}

TEST(SglScheduler, DecodeStepsDecayTheRatio) {
  Scheduler s(base_config());
  s.handle_generate_request(make_req("a", 10, 5));
  s.next_batch();
  s.process_batch_result({kToken});
  s.next_batch();  // decode 1: check_decode_mem passes, decay once
  const double decay = (0.7 - 0.7 * 0.14) / 600.0;
  EXPECT_DOUBLE_EQ(s.new_token_ratio(), 0.7 - decay);
  s.process_batch_result({kToken});
  s.next_batch();
  EXPECT_DOUBLE_EQ(s.new_token_ratio(), std::max(0.7 - decay - decay, 0.098));
}

// chunked_prefill_size 4 and a 10-token prompt: PrefillAdder truncates the extend to the chunk budget, so the
// prompt runs as chunks of 4, 4 and 2; the middle chunks sample nothing (inflight_middle_chunks), the last
// samples the first token; then one decode step reaches max_new_tokens 2.
TEST(SglScheduler, ChunkedPrefillRunsOneChunkPerStep) {
  SchedulerConfig c = base_config();
  c.chunked_prefill_size = 4;
  Scheduler s(c);
  s.handle_generate_request(make_req("a", 10, 2));
  const std::vector<Step> steps = run_normal(s);
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].extend_lens, (std::vector<std::int64_t>{4}));
  EXPECT_EQ(steps[1].extend_lens, (std::vector<std::int64_t>{4}));
  EXPECT_EQ(steps[2].extend_lens, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(steps[3].mode, ForwardMode::kDecode);
  EXPECT_EQ((std::vector<std::int64_t>{steps[0].emitted, steps[1].emitted, steps[2].emitted, steps[3].emitted}),
            (std::vector<std::int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(steps[3].finished, (std::vector<std::string>{"a:length"}));
  expect_pool_free(s);
}

// A chunk size of 0 or below disables chunking (init_chunked_prefill): the same prompt runs in one extend.
TEST(SglScheduler, NonPositiveChunkSizeDisablesChunking) {
  SchedulerConfig c = base_config();
  c.chunked_prefill_size = -1;
  Scheduler s(c);
  s.handle_generate_request(make_req("a", 10, 1));
  const std::vector<Step> steps = run_normal(s);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].extend_lens, (std::vector<std::int64_t>{10}));
}

// A 60-token pool, the initial ratio lowered to 0.1. "a" (4-token prompt, max_new_tokens 50: below both caps
// of init_req_max_new_tokens, min(59 - 4 - 1, 60 - 4 - 1 - 1) = 54) is admitted alone: a new request reserves
// its whole extend + max_new_tokens (54 <= 60). With "a" running, "b" (4 + 40) is admitted too: "a" reserves
// only (50 - 1) x 0.1 = 4.9 of the 56 tokens left. Both then decode until the pool is full (54 + 44 > 60):
// retract_decode keeps the request with more output ("a") and retracts "b", puts it back in the queue, and
// sets the ratio to (len(a.output_ids) + 20) / (50 + 1). "b" keeps its output and resumes once "a" is done;
// both end by length with 50 + 40 tokens emitted, and the pool is whole again.
TEST(SglScheduler, DecodeOutOfMemoryRetractsAndRequeues) {
  SchedulerConfig c = base_config();
  c.max_total_num_tokens = 60;
  c.init_new_token_ratio = 0.1;
  Scheduler s(c);
  s.handle_generate_request(make_req("a", 4, 50, 1));
  EXPECT_EQ(s.request("a")->sampling_params.max_new_tokens, 50);
  std::int64_t emitted = 0;
  std::vector<std::string> finished, retracted;
  bool ratio_checked = false;
  for (int i = 0; i < 400; ++i) {
    if (i == 1) s.handle_generate_request(make_req("b", 4, 40, 101));
    const LaunchedBatch* b = s.next_batch();
    if (b == nullptr) break;
    if (i == 1) {
      EXPECT_EQ(b->reqs.size(), 1u);  // b's prefill
    }
    for (const std::string& r : s.take_retracted()) retracted.push_back(r);
    if (!retracted.empty() && !ratio_checked) {
      ratio_checked = true;
      ASSERT_EQ(s.running_batch().batch_size(), 1);
      const Req* a = s.running_batch().reqs[0];
      EXPECT_EQ(a->rid, "a");
      EXPECT_DOUBLE_EQ(s.new_token_ratio(), std::min(1.0, static_cast<double>(a->output_ids.size() + 20) / 51.0));
      EXPECT_EQ(s.waiting_queue().size(), 1u);
      EXPECT_FALSE(s.request("b")->kv.has_value());
    }
    const BatchResultRecord rec = s.process_batch_result(std::vector<std::int64_t>(b->reqs.size(), kToken));
    for (const auto& [rid, k] : rec.emitted) emitted += k;
    for (const auto& [rid, why] : rec.finished) finished.push_back(rid + ":" + why);
  }
  EXPECT_EQ(retracted, (std::vector<std::string>{"b"}));
  EXPECT_TRUE(ratio_checked);
  EXPECT_EQ(emitted, 90);
  EXPECT_EQ(finished, (std::vector<std::string>{"a:length", "b:length"}));
  expect_pool_free(s);
}

// The overlap loop: the decode batch of a request is launched before its prefill's result is processed, so
// a request with max_new_tokens 1 finishes when the prefill's result arrives, and the decode step already in
// flight samples a token that is discarded (process_batch_result_decode skips finished requests).
TEST(SglScheduler, OverlapDiscardsTheExtraStepOfAFinishedRequest) {
  SchedulerConfig c = base_config();
  c.disable_overlap_schedule = false;
  Scheduler s(c);
  s.handle_generate_request(make_req("a", 10, 1));
  const LaunchedBatch* a = s.next_batch();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->forward_mode, ForwardMode::kExtend);
  const LaunchedBatch* b = s.next_batch();  // scheduled while the prefill is in flight
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->forward_mode, ForwardMode::kDecode);
  BatchResultRecord ra = s.process_batch_result({kToken});
  EXPECT_EQ(ra.finished, (std::vector<std::pair<std::string, std::string>>{{"a", "length"}}));
  BatchResultRecord rb = s.process_batch_result({kToken});
  EXPECT_TRUE(rb.emitted.empty());
  EXPECT_TRUE(rb.finished.empty());
  EXPECT_EQ(s.next_batch(), nullptr);
  expect_pool_free(s);
}

// Without overlap the same request takes one step: the prefill's token finishes it before anything else is
// scheduled.
TEST(SglScheduler, NormalLoopHasNoExtraStep) {
  Scheduler s(base_config());
  s.handle_generate_request(make_req("a", 10, 1));
  const std::vector<Step> steps = run_normal(s);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].finished, (std::vector<std::string>{"a:length"}));
}

// An EOS sampled at the prefill ends the request with "stop" (FINISH_MATCHED_TOKEN), before max_new_tokens.
TEST(SglScheduler, EosTokenFinishesWithStop) {
  Scheduler s(base_config());
  s.handle_generate_request(make_req("a", 10, 5));
  s.next_batch();
  const BatchResultRecord r = s.process_batch_result({kEos});
  EXPECT_EQ(r.finished, (std::vector<std::pair<std::string, std::string>>{{"a", "stop"}}));
}

// validate_input_length: a prompt of max_req_input_len tokens (max_req_len - 5) is aborted with upstream's
// message and runs as a one-token prefill that ends "abort"; one token shorter is served.
TEST(SglScheduler, OverlongInputIsAbortedAtItsFirstStep) {
  SchedulerConfig c = base_config();
  c.context_len = 32;  // max_req_len 31, max_req_input_len 26
  Scheduler s(c);
  s.handle_generate_request(make_req("long", 26, 2));
  s.handle_generate_request(make_req("ok", 25, 1));
  EXPECT_EQ(s.request("long")->origin_input_ids.size(), 1u);
  EXPECT_EQ(s.request("long")->abort_message,
            "Input length (26 tokens) exceeds the maximum allowed length (26 tokens). Use a shorter input or enable "
            "--allow-auto-truncate.");
  const std::vector<Step> steps = run_normal(s);
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps[0].finished, (std::vector<std::string>{"long:abort", "ok:length"}));
}

// Aborting a queued request removes it at once; aborting a running one ends it at its next result.
TEST(SglScheduler, AbortQueuedAndRunning) {
  Scheduler s(base_config());
  s.handle_generate_request(make_req("a", 10, 5));
  s.abort_request("a");
  EXPECT_TRUE(s.waiting_queue().empty());
  EXPECT_EQ(s.take_ended_outside_batches(), (std::vector<std::pair<std::string, std::string>>{{"a", "abort"}}));
  s.handle_generate_request(make_req("b", 10, 5));
  s.next_batch();
  s.process_batch_result({kToken});
  s.next_batch();  // decode
  s.abort_request("b");
  const BatchResultRecord r = s.process_batch_result({kToken});
  EXPECT_EQ(r.finished, (std::vector<std::pair<std::string, std::string>>{{"b", "abort"}}));
  EXPECT_EQ(s.next_batch(), nullptr);
  expect_pool_free(s);
}

// _abort_on_queued_limit without priority scheduling rejects the incoming request once the queue holds
// max_queued_requests, and _set_or_validate_priority refuses a prioritised request when priority scheduling is
// off and abort_on_priority_when_disabled is set; each AbortReq carries upstream's 503 and message
// (scheduler.py@71de97b2).
TEST(SglScheduler, QueueLimitAndPriorityRefusalsCarryUpstreamMessages) {
  SchedulerConfig c = base_config();
  c.max_queued_requests = 1;
  c.abort_on_priority_when_disabled = true;
  Scheduler s(c);
  s.handle_generate_request(make_req("a", 10, 5));
  s.handle_generate_request(make_req("b", 10, 5));
  auto p = make_req("c", 10, 5);
  p->priority = 3;
  s.handle_generate_request(std::move(p));
  EXPECT_EQ(s.waiting_queue().size(), 1u);
  EXPECT_EQ(s.take_ended_outside_batches_with_reasons(),
            (std::vector<EndedOutsideBatch>{
                {"b", "abort", 503, "The request queue is full."},
                {"c", "abort", 503,
                 "Using priority is disabled for this server. Please send a new request without a priority."}}));
  s.abort_request("a");
  EXPECT_EQ(s.take_ended_outside_batches_with_reasons(),
            (std::vector<EndedOutsideBatch>{{"a", "abort", std::nullopt, ""}}));
}

// The overlap loop's full run of a 3-token request: four launched steps (one extend, three decodes) for three
// tokens, the last decode discarded.
TEST(SglScheduler, OverlapRunLaunchesOneStepMoreThanTokens) {
  SchedulerConfig c = base_config();
  c.disable_overlap_schedule = false;
  Scheduler s(c);
  s.handle_generate_request(make_req("a", 10, 3));
  int launched = 0;
  std::int64_t emitted = 0;
  std::vector<std::string> finished;
  const auto launch = [&] {
    if (s.next_batch() != nullptr) ++launched;
  };
  launch();
  launch();
  while (s.front_launched() != nullptr) {
    const BatchResultRecord r = s.process_batch_result(std::vector<std::int64_t>(s.front_launched()->reqs.size(), kToken));
    for (const auto& [rid, k] : r.emitted) emitted += k;
    for (const auto& [rid, why] : r.finished) finished.push_back(rid);
    launch();
  }
  EXPECT_EQ(launched, 4);
  EXPECT_EQ(emitted, 3);
  EXPECT_EQ(finished, (std::vector<std::string>{"a"}));
  expect_pool_free(s);
}

}  // namespace
}  // namespace blis::sglang::testing
