// Original to BLIS: transcription of test/registered/unit/managers/test_prefill_adder.py@71de97b2 (TestPrefillAdder)
// into GoogleTest. The MagicMock tree cache, allocator, running batch and delayer are the fakes of fakes.h;
// MagicMock(spec=Req) requests are real Req objects set up with the same values; patch.object on module
// constants sets the adder's SchedulePolicyEnv, and patch.object on _swa_reserved_tokens overrides the
// virtual swa_reserved_tokens.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "fakes.h"
#include "srt/managers/prefill_adder.h"
#include "srt/managers/schedule_batch.h"
#include "srt/managers/schedule_policy.h"

namespace blis::sglang::testing {
namespace {

TokenIds range_ids(std::int64_t n) {
  TokenIds ids(static_cast<std::size_t>(n));
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

bool contains(const std::vector<Req*>& list, const Req* r) {
  return std::find(list.begin(), list.end(), r) != list.end();
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.setUp / create_* helpers.
class SglPrefillAdder : public ::testing::Test {
 protected:
  FakeTreeCache tree_cache;
  FakeAllocator allocator;
  std::vector<std::unique_ptr<Req>> owned;
  std::vector<std::unique_ptr<FakeBatch>> batches;

  // create_mock_req.
  Req* create_mock_req(const std::string& rid, std::int64_t priority, std::int64_t max_new_tokens,
                       std::int64_t output_len = 0, std::int64_t wait_time = 0) {
    auto req = std::make_unique<Req>(rid, TokenIds{}, SamplingParams{max_new_tokens, false}, priority);
    req->output_ids.assign(static_cast<std::size_t>(output_len), 0);
    req->time_stats.wait_queue_entry_time = wait_time;
    owned.push_back(std::move(req));
    return owned.back().get();
  }

  // create_running_batch.
  FakeBatch* create_running_batch(std::vector<Req*> reqs = {}) {
    batches.push_back(std::make_unique<FakeBatch>(std::move(reqs)));
    return batches.back().get();
  }

  // create_adder (page_size=1, new_token_ratio=1.0, rem_input_tokens=10000, rem_chunk_tokens=None).
  std::unique_ptr<PrefillAdder> create_adder(ScheduleBatch* running_batch, std::int64_t page_size = 1,
                                             std::int64_t rem_input_tokens = 10000,
                                             std::optional<std::int64_t> rem_chunk_tokens = std::nullopt,
                                             PrefillAdderOptions options = {}) {
    return std::make_unique<PrefillAdder>(page_size, tree_cache, allocator, running_batch, 1.0, rem_input_tokens,
                                          rem_chunk_tokens, options);
  }

  std::vector<Req*> three_running_reqs() {
    return {create_mock_req("run1", 0, 50), create_mock_req("run2", 1, 75), create_mock_req("run3", 2, 100)};
  }
  std::vector<Req*> five_running_reqs() {
    return {create_mock_req("run1", 0, 50), create_mock_req("run2", 1, 75), create_mock_req("run3", 2, 100),
            create_mock_req("run4", 2, 125), create_mock_req("run4", 2, 125)};
  }
  void occupy(std::int64_t tokens) {
    allocator.full_available = tokens;
    allocator.available = tokens;
  }
};

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_preempt_success_high_priority_values_first.
TEST_F(SglPrefillAdder, PreemptSuccessHighPriorityValuesFirst) {
  auto running_reqs = three_running_reqs();
  ServerArgs args{.schedule_low_priority_values_first = false};
  FakeBatch* batch = create_running_batch(running_reqs);
  auto adder = create_adder(batch);
  EXPECT_EQ(adder->rem_total_token_offset, 225);
  occupy(225);  // full occupation of GRam
  Req* new_req = create_mock_req("new1", 1, 49);
  EXPECT_TRUE(adder->preempt_to_schedule(*new_req, args));
  EXPECT_TRUE(contains(adder->preempt_list, running_reqs[0]));
  EXPECT_EQ(adder->rem_total_token_offset, 175);  // 50 + 75 + 100 - 50
  EXPECT_EQ(batch->release_req_calls, 1);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_preempt_success_low_priority_values_first.
TEST_F(SglPrefillAdder, PreemptSuccessLowPriorityValuesFirst) {
  auto running_reqs = three_running_reqs();
  ServerArgs args{.schedule_low_priority_values_first = true};
  FakeBatch* batch = create_running_batch(running_reqs);
  auto adder = create_adder(batch);
  EXPECT_EQ(adder->rem_total_token_offset, 225);
  occupy(225);
  Req* new_req = create_mock_req("new1", 1, 49);
  EXPECT_TRUE(adder->preempt_to_schedule(*new_req, args));
  EXPECT_TRUE(contains(adder->preempt_list, running_reqs[2]));
  EXPECT_EQ(adder->rem_total_token_offset, 125);  // 50 + 75 + 100 - 100
  EXPECT_EQ(batch->release_req_calls, 1);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_preempt_fail_low_priority_values_first.
TEST_F(SglPrefillAdder, PreemptFailLowPriorityValuesFirst) {
  auto running_reqs = three_running_reqs();
  ServerArgs args{.schedule_low_priority_values_first = true};
  auto adder = create_adder(create_running_batch(running_reqs));
  EXPECT_EQ(adder->rem_total_token_offset, 225);
  occupy(225);
  EXPECT_FALSE(adder->preempt_to_schedule(*create_mock_req("new1", 2, 49), args));   // priority check
  EXPECT_FALSE(adder->preempt_to_schedule(*create_mock_req("new2", 1, 110), args));  // capacity check
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_preempt_fail_high_priority_values_first.
TEST_F(SglPrefillAdder, PreemptFailHighPriorityValuesFirst) {
  auto running_reqs = three_running_reqs();
  ServerArgs args{.schedule_low_priority_values_first = false};
  auto adder = create_adder(create_running_batch(running_reqs));
  EXPECT_EQ(adder->rem_total_token_offset, 225);
  occupy(225);
  EXPECT_FALSE(adder->preempt_to_schedule(*create_mock_req("new1", 0, 49), args));    // priority check
  EXPECT_FALSE(adder->preempt_to_schedule(*create_mock_req("new2", -1, 110), args));  // capacity check
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_preempt_skip_already_preempted_request.
TEST_F(SglPrefillAdder, PreemptSkipAlreadyPreemptedRequest) {
  std::vector<Req*> running_reqs = {create_mock_req("req_prio_0", 0, 50), create_mock_req("req_prio_1", 1, 75),
                                    create_mock_req("req_prio_2", 2, 100)};
  ServerArgs args{.schedule_low_priority_values_first = false};
  FakeBatch* batch = create_running_batch(running_reqs);
  auto adder = create_adder(batch);
  EXPECT_EQ(adder->rem_total_token_offset, 225);
  occupy(225);

  // New request preempts req_prio_0.
  EXPECT_TRUE(adder->preempt_to_schedule(*create_mock_req("new_req_prio_1", 1, 49), args));
  EXPECT_TRUE(contains(adder->preempt_list, running_reqs[0]));
  EXPECT_EQ(adder->rem_total_token_offset, 175);
  EXPECT_EQ(batch->release_req_calls, 1);

  // Needs more tokens than free: would preempt req_prio_0 again if preempted requests were not skipped.
  EXPECT_FALSE(adder->preempt_to_schedule(*create_mock_req("second_new_req_prio_1", 1, 76), args));
  EXPECT_EQ(adder->rem_total_token_offset, 175);
  EXPECT_EQ(std::count(adder->preempt_list.begin(), adder->preempt_list.end(), running_reqs[0]), 1);
  EXPECT_EQ(batch->release_req_calls, 1);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_preempt_success_low_priority_values_first_exact_once.
TEST_F(SglPrefillAdder, PreemptSuccessLowPriorityValuesFirstExactOnce) {
  auto running_reqs = five_running_reqs();
  ServerArgs args{.schedule_low_priority_values_first = true};
  FakeBatch* batch = create_running_batch(running_reqs);
  auto adder = create_adder(batch);
  EXPECT_EQ(adder->rem_total_token_offset, 475);
  occupy(475);
  EXPECT_TRUE(adder->preempt_to_schedule(*create_mock_req("new1", 1, 75), args));
  EXPECT_TRUE(contains(adder->preempt_list, running_reqs[2]));
  EXPECT_EQ(adder->rem_total_token_offset, 375);  // 50 + 75 + 100 + 125 + 125 - 100
  EXPECT_EQ(batch->release_req_calls, 1);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_preempt_success_low_priority_values_first_exact_twice.
TEST_F(SglPrefillAdder, PreemptSuccessLowPriorityValuesFirstExactTwice) {
  auto running_reqs = five_running_reqs();
  ServerArgs args{.schedule_low_priority_values_first = true};
  FakeBatch* batch = create_running_batch(running_reqs);
  auto adder = create_adder(batch);
  EXPECT_EQ(adder->rem_total_token_offset, 475);
  occupy(475);
  EXPECT_TRUE(adder->preempt_to_schedule(*create_mock_req("new1", 1, 200), args));
  EXPECT_TRUE(contains(adder->preempt_list, running_reqs[2]));
  EXPECT_TRUE(contains(adder->preempt_list, running_reqs[3]));
  EXPECT_EQ(adder->rem_total_token_offset, 250);  // 50 + 75 + 100 + 125 + 125 - 100 - 125
  EXPECT_EQ(batch->release_req_calls, 2);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_mixed_chunk_prefill_budgets.
TEST_F(SglPrefillAdder, MixedChunkPrefillBudgets) {
  allocator.available = 1000;
  std::vector<Req*> decode_reqs;
  for (int i = 0; i < 8; ++i) decode_reqs.push_back(create_mock_req("decode_" + std::to_string(i), 0, 50));
  PrefillAdderOptions options;
  options.num_mixed_decode_tokens = static_cast<std::int64_t>(decode_reqs.size());
  auto adder = create_adder(create_running_batch(decode_reqs), 1, 200, 64, options);

  EXPECT_EQ(adder->rem_input_tokens, 192);        // 200 - 8
  EXPECT_EQ(adder->rem_chunk_tokens, 56);         // 64 - 8
  EXPECT_EQ(adder->rem_total_token_offset, 408);  // 8 + 8 * 50
  EXPECT_EQ(adder->cur_rem_token_offset, 8);
  EXPECT_EQ(adder->budget_state(), AddReqResult::CONTINUE);

  // Add a prefill that exactly consumes the chunk budget.
  Req* req1 = create_mock_req("req1", 0, 64);
  req1->full_untruncated_fill_ids = range_ids(56);
  const AddReqResult result1 = adder->add_one_req(*req1, false, std::nullopt);
  EXPECT_EQ(adder->can_run_list.size(), 1u);
  EXPECT_EQ(adder->rem_chunk_tokens, 0);    // 56 - 56
  EXPECT_EQ(adder->rem_input_tokens, 136);  // 192 - 56
  EXPECT_EQ(result1, AddReqResult::OTHER);

  // 3 decode requests finished.
  std::vector<Req*> remaining(decode_reqs.begin() + 3, decode_reqs.end());
  PrefillAdderOptions options2;
  options2.num_mixed_decode_tokens = static_cast<std::int64_t>(remaining.size());
  auto adder2 = create_adder(create_running_batch(remaining), 1, 200, 64, options2);
  EXPECT_EQ(adder2->rem_input_tokens, 195);        // 200 - 5
  EXPECT_EQ(adder2->rem_chunk_tokens, 59);         // 64 - 5
  EXPECT_EQ(adder2->rem_total_token_offset, 255);  // 5 + 5 * 50
  EXPECT_EQ(adder2->budget_state(), AddReqResult::CONTINUE);

  // Same prefill no longer exhausts the chunk budget.
  Req* req2 = create_mock_req("req2", 0, 64);
  req2->full_untruncated_fill_ids = range_ids(56);
  const AddReqResult result2 = adder2->add_one_req(*req2, false, std::nullopt);
  EXPECT_EQ(adder2->can_run_list.size(), 1u);
  EXPECT_EQ(adder2->rem_chunk_tokens, 3);  // 59 - 56
  EXPECT_EQ(result2, AddReqResult::CONTINUE);

  // Fit the last small prefill request.
  Req* req3 = create_mock_req("req3", 0, 16);
  req3->full_untruncated_fill_ids = range_ids(3);
  const AddReqResult result3 = adder2->add_one_req(*req3, false, std::nullopt);
  EXPECT_EQ(adder2->can_run_list.size(), 2u);
  EXPECT_EQ(adder2->rem_chunk_tokens, 0);  // 3 - 3
  EXPECT_EQ(result3, AddReqResult::OTHER);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder._build_hybrid_swa_chunked_req.
struct HybridSwaChunked {
  std::unique_ptr<PrefillAdder> adder;
  Req* req;
};

class SglPrefillAdderSwa : public SglPrefillAdder {
 protected:
  HybridSwaChunked build_hybrid_swa_chunked_req(std::int64_t page_size, std::int64_t rem_swa,
                                                std::int64_t rem_chunk = 2048, std::int64_t extend_input_len = 500,
                                                bool is_hybrid_swa = true, std::int64_t full_available = 100'000) {
    allocator.swa_available = rem_swa;
    allocator.full_available = full_available;
    allocator.available = full_available;
    PrefillAdderOptions options;
    options.sliding_window_size = 128;
    auto adder = create_adder(create_running_batch(), page_size, 10000, rem_chunk, options);
    adder->is_hybrid_swa = is_hybrid_swa;
    Req* req = create_mock_req("chunked", 0, 128);
    req->full_untruncated_fill_ids = range_ids(extend_input_len);
    return {std::move(adder), req};
  }

  // create_swa_adder (page_size 16, rem_chunk_tokens 512).
  std::unique_ptr<PrefillAdder> create_swa_adder(std::int64_t size_swa, std::int64_t sliding_window,
                                                 std::int64_t page_size = 16) {
    allocator.swa_size = size_swa;
    PrefillAdderOptions options;
    options.sliding_window_size = sliding_window;
    return create_adder(create_running_batch(), page_size, 10000, 512, options);
  }
};

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_add_chunked_req_hybrid_swa_reserves_page_for_alloc_extend.
TEST_F(SglPrefillAdderSwa, AddChunkedReqHybridSwaReservesPageForAllocExtend) {
  constexpr std::int64_t kPageSize = 64, kRemSwa = 100;
  auto [adder, req] = build_hybrid_swa_chunked_req(kPageSize, kRemSwa);
  Req* result = adder->add_chunked_req(*req);
  EXPECT_EQ(result, req);  // truncated: chunked prefill continues
  ASSERT_TRUE(req->extend_range.has_value());
  const std::int64_t new_len = req->extend_range->end - req->extend_range->start;
  EXPECT_LE(new_len + kPageSize, kRemSwa);
  EXPECT_EQ(new_len, kRemSwa - kPageSize);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_add_chunked_req_hybrid_swa_defers_when_swa_below_page.
TEST_F(SglPrefillAdderSwa, AddChunkedReqHybridSwaDefersWhenSwaBelowPage) {
  constexpr std::int64_t kPageSize = 64;
  auto [adder, req] = build_hybrid_swa_chunked_req(kPageSize, kPageSize);
  Req* result = adder->add_chunked_req(*req);
  EXPECT_EQ(result, req);
  EXPECT_FALSE(req->extend_range.has_value());  // set_extend_range not called
  EXPECT_EQ(adder->can_run_list.size(), 0u);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_add_chunked_req_non_hybrid_no_swa_reservation.
TEST_F(SglPrefillAdderSwa, AddChunkedReqNonHybridNoSwaReservation) {
  auto [adder, req] = build_hybrid_swa_chunked_req(16, 10, 500, 200, false, 300);
  EXPECT_EQ(adder->add_chunked_req(*req), nullptr);
  EXPECT_EQ(req->extend_range, (Range{0, 200}));  // set_extend_range(0, 200)
  EXPECT_TRUE(contains(adder->can_run_list, req));
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_swa_budget_for_req (each subTest a SCOPED_TRACE).
TEST_F(SglPrefillAdderSwa, SwaBudgetForReq) {
  struct Case {
    std::int64_t extend, max_new;
    std::optional<std::int64_t> rem_chunk;
    std::int64_t window, page, expected;
    const char* label;
  };
  const std::vector<Case> cases = {
      {64, 512, std::nullopt, 128, 16, 128 + 16, "long_decode_hits_window_floor"},
      {64, 32, std::nullopt, 128, 16, 96 + 16, "short_req_reserves_below_window"},
      {10, 20, std::nullopt, 512, 8, 30 + 8, "short_resume_tiny_budget"},
      {300, 512, std::nullopt, 128, 16, 300 + 16, "big_extend_over_window"},
      {200, 512, 50, 64, 8, 64 + 8, "chunk_capped_alloc_hits_floor"},
      {2000, 256, 1024, 512, 16, 1024 + 16, "multichunk_alloc_over_window"},
      {0, 512, std::nullopt, 128, 16, 128 + 16, "extend_zero_long_decode"},
      {0, 40, std::nullopt, 128, 16, 40 + 16, "extend_zero_short_decode"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    PrefillAdderOptions options;
    options.sliding_window_size = c.window;
    auto adder = create_adder(create_running_batch(), c.page, 10000, c.rem_chunk, options);
    EXPECT_EQ(adder->swa_budget_for_req(c.extend, c.max_new), c.expected);
  }
}

// The patch.object(adder, "_swa_reserved_tokens", return_value=...) of the next test.
class PatchedReservedAdder : public PrefillAdder {
 public:
  using PrefillAdder::PrefillAdder;
  std::optional<std::int64_t> reserved_return_value;
  std::int64_t swa_reserved_tokens(std::int64_t extend_input_len, std::int64_t max_new_tokens,
                                   std::int64_t swa_host_hit_length) const override {
    if (reserved_return_value) return *reserved_return_value;
    return PrefillAdder::swa_reserved_tokens(extend_input_len, max_new_tokens, swa_host_hit_length);
  }
};

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_swa_admission_admits_short_cached_resume_at_two_window_pool.
TEST_F(SglPrefillAdderSwa, SwaAdmissionAdmitsShortCachedResumeAtTwoWindowPool) {
  constexpr std::int64_t kWindow = 128, kPage = 8, kRemSwa = 100;
  constexpr std::int64_t kPrefix = 200, kExtend = 16;  // cached prefix > window; short uncached tail
  allocator.swa_available = kRemSwa;
  allocator.full_available = 100'000;
  allocator.available = 100'000;
  tree_cache.tree_cache = false;
  PrefillAdderOptions options;
  options.sliding_window_size = kWindow;
  PatchedReservedAdder adder(kPage, tree_cache, allocator, create_running_batch(), 1.0, 10000, std::nullopt,
                             options);
  adder.is_hybrid_swa = true;

  Req* req = create_mock_req("resume", 0, 40, 10);
  req->prefix_indices = range_ids(kPrefix);
  req->full_untruncated_fill_ids = range_ids(kPrefix + kExtend);

  // Pre-fix: a constant sliding-window reservation rejects the resume.
  adder.reserved_return_value = kWindow + kPage;
  EXPECT_EQ(adder.add_one_req(*req, false, std::nullopt), AddReqResult::NO_TOKEN);
  adder.reserved_return_value.reset();
  EXPECT_EQ(adder.can_run_list.size(), 0u);

  // Fix: a min(extend + decode, window) reservation admits it.
  adder.add_one_req(*req, false, std::nullopt);
  EXPECT_TRUE(contains(adder.can_run_list, req));
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_swa_new_tokens_clamps_remaining_not_total.
TEST_F(SglPrefillAdderSwa, SwaNewTokensClampsRemainingNotTotal) {
  auto adder = create_adder(create_running_batch());
  const std::int64_t clip = SchedulePolicyEnv{}.clip_max_new_tokens;
  struct Case {
    std::int64_t max_new, generated, expected;
    const char* label;
  };
  const std::vector<Case> cases = {
      {100, 10, 90, "below_clip_normal"},
      {40, 100, 0, "already_finished"},
      {clip + 6000, 100, clip, "long_gen_small_output_caps_at_clip"},
      {clip + 6000, clip + 100, clip, "long_gen_output_over_clip"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    Req* req = create_mock_req(c.label, 0, c.max_new, c.generated);
    EXPECT_EQ(adder->swa_new_tokens(*req), c.expected);
  }
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder._create_delayer_adder / _create_delayer_req.
class SglPrefillAdderDelayer : public SglPrefillAdder {
 protected:
  std::unique_ptr<PrefillAdder> create_delayer_adder(std::int64_t available_tokens, RecordingDelayer& delayer,
                                                     std::optional<std::int64_t> rem_chunk_tokens = std::nullopt) {
    allocator.available = available_tokens;
    allocator.full_available = available_tokens;
    PrefillAdderOptions options;
    options.prefill_delayer_single_pass = &delayer;
    return create_adder(create_running_batch(), 1, 10000, rem_chunk_tokens, options);
  }
  Req* create_delayer_req(std::int64_t num_tokens) {
    Req* req = create_mock_req("delayer_req", 0, 8);
    req->full_untruncated_fill_ids = range_ids(num_tokens);
    return req;
  }
};

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_delayer_not_consulted_when_kv_budget_rejects.
TEST_F(SglPrefillAdderDelayer, DelayerNotConsultedWhenKvBudgetRejects) {
  RecordingDelayer delayer(true);
  auto adder = create_delayer_adder(10, delayer);
  EXPECT_EQ(adder->add_one_req(*create_delayer_req(50), false, std::nullopt), AddReqResult::NO_TOKEN);
  EXPECT_TRUE(delayer.calls.empty());
  EXPECT_TRUE(adder->can_run_list.empty());
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_delayer_not_consulted_when_post_lock_recheck_rejects.
TEST_F(SglPrefillAdderDelayer, DelayerNotConsultedWhenPostLockRecheckRejects) {
  RecordingDelayer delayer(true);
  auto adder = create_delayer_adder(10, delayer);
  // The pre-lock budget is covered by evictable tokens; inc_lock_ref pins them.
  tree_cache.evictable = 1000;
  tree_cache.full_evictable = 1000;
  tree_cache.on_inc_lock_ref = [this](TreeNode*) {
    tree_cache.evictable = 0;
    tree_cache.full_evictable = 0;
  };
  EXPECT_EQ(adder->add_one_req(*create_delayer_req(50), false, std::nullopt), AddReqResult::NO_TOKEN);
  EXPECT_TRUE(delayer.calls.empty());
  EXPECT_TRUE(adder->can_run_list.empty());
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_delay_verdict_blocks_admissible_request.
TEST_F(SglPrefillAdderDelayer, DelayVerdictBlocksAdmissibleRequest) {
  RecordingDelayer delayer(false);
  auto adder = create_delayer_adder(100'000, delayer);
  EXPECT_EQ(adder->add_one_req(*create_delayer_req(50), false, std::nullopt), AddReqResult::OTHER);
  EXPECT_EQ(delayer.calls, std::vector<bool>{true});
  EXPECT_TRUE(adder->can_run_list.empty());
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_allow_verdict_admits_request.
TEST_F(SglPrefillAdderDelayer, AllowVerdictAdmitsRequest) {
  RecordingDelayer delayer(true);
  auto adder = create_delayer_adder(100'000, delayer);
  Req* req = create_delayer_req(50);
  EXPECT_EQ(adder->add_one_req(*req, false, std::nullopt), AddReqResult::CONTINUE);
  EXPECT_EQ(delayer.calls, std::vector<bool>{true});
  EXPECT_TRUE(contains(adder->can_run_list, req));
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_chunked_req_negotiates_prefillable_and_proceeds.
TEST_F(SglPrefillAdderDelayer, ChunkedReqNegotiatesPrefillableAndProceeds) {
  RecordingDelayer delayer(false);
  auto adder = create_delayer_adder(100'000, delayer, 500);
  Req* req = create_delayer_req(200);
  EXPECT_EQ(adder->add_chunked_req(*req), nullptr);  // chunk fully admitted, not truncated
  EXPECT_EQ(delayer.calls, std::vector<bool>{true});
  EXPECT_TRUE(contains(adder->can_run_list, req));
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder._adder_with_extend_lens: an adder whose can_run_list holds
// requests with the given extend_input_len (block_m 64).
class SglPrefillAdderTile : public SglPrefillAdder {
 protected:
  std::unique_ptr<PrefillAdder> adder_with_extend_lens(const std::vector<std::int64_t>& extend_lens) {
    auto adder = create_adder(create_running_batch());
    for (std::int64_t length : extend_lens) {
      Req* r = create_mock_req("tile", 0, 0);
      r->extend_input_len = length;
      adder->can_run_list.push_back(r);
    }
    adder->prefill_tile_block_m = 64;
    return adder;
  }
};

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_estimate_prefill_extend_tile_metrics.
TEST(SglPrefillTileMetrics, EstimatePrefillExtendTileMetrics) {
  const PrefillExtendTileMetrics metrics = estimate_prefill_extend_tile_metrics({1, 7, 13, 129}, 64);
  EXPECT_EQ(metrics.q_tiles_per_request, (std::vector<std::int64_t>{1, 1, 1, 3}));
  EXPECT_EQ(metrics.legacy_q_tiles_per_head, 12);
  EXPECT_EQ(metrics.compact_q_tiles_per_head, 6);
  EXPECT_EQ(metrics.saved_q_tiles_per_head, 6);
  EXPECT_EQ(metrics.saved_q_tile_ratio, 0.5);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_compact_prefill_tile_budget_admits_more_than_legacy.
TEST_F(SglPrefillAdderTile, CompactPrefillTileBudgetAdmitsMoreThanLegacy) {
  auto adder = adder_with_extend_lens({1, 7, 13});
  adder->env.is_hip = true;
  adder->env.prefill_tile_budget = 6;
  adder->env.prefill_tile_budget_mode = "compact";
  EXPECT_EQ(adder->check_prefill_tile_budget(129), std::nullopt);
  adder->env.prefill_tile_budget_mode = "legacy";
  EXPECT_EQ(adder->check_prefill_tile_budget(129), AddReqResult::OTHER);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_prefill_tile_budget_always_allows_first_request.
TEST_F(SglPrefillAdderTile, PrefillTileBudgetAlwaysAllowsFirstRequest) {
  auto adder = adder_with_extend_lens({});
  adder->env.is_hip = true;
  adder->env.prefill_tile_budget = 1;
  EXPECT_EQ(adder->check_prefill_tile_budget(4096), std::nullopt);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_prefill_tile_budget_disabled_on_non_hip.
TEST_F(SglPrefillAdderTile, PrefillTileBudgetDisabledOnNonHip) {
  auto adder = adder_with_extend_lens({1, 7, 13});
  adder->env.is_hip = false;
  adder->env.prefill_tile_budget = 6;
  adder->env.prefill_tile_budget_mode = "legacy";
  EXPECT_EQ(adder->check_prefill_tile_budget(129), std::nullopt);
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_swa_never_fits_false_under_transient_pressure.
TEST_F(SglPrefillAdderSwa, SwaNeverFitsFalseUnderTransientPressure) {
  auto adder = create_swa_adder(1024, 128);
  EXPECT_FALSE(adder->swa_req_never_fits(256, 64));
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_swa_never_fits_true_when_budget_exceeds_whole_pool.
TEST_F(SglPrefillAdderSwa, SwaNeverFitsTrueWhenBudgetExceedsWholePool) {
  auto adder = create_swa_adder(1024, 128);
  EXPECT_TRUE(adder->swa_req_never_fits(256, 64, 4096));
}

// test_prefill_adder.py@71de97b2 TestPrefillAdder.test_swa_never_fits_is_gated_by_pool_capacity.
TEST_F(SglPrefillAdderSwa, SwaNeverFitsIsGatedByPoolCapacity) {
  EXPECT_TRUE(create_swa_adder(512, 128)->swa_req_never_fits(256, 64, 600));
  EXPECT_FALSE(create_swa_adder(4096, 128)->swa_req_never_fits(256, 64, 600));
}

}  // namespace
}  // namespace blis::sglang::testing
