// Original to BLIS: unit tests of the managers port (not transcriptions) for the paths the transcribed tests
// leave unexercised: the cache-aware policies (lpm with in-batch prefix caching, dfs-weight), the large-queue
// fallback, the random shuffle over injected draws, add_one_req_ignore_eos, the chunked branch of add_one_req,
// the hit-token accounting and Req's fill/prefix bookkeeping. Each expected value is worked out by hand from
// schedule_policy.py@71de97b2 and schedule_batch.py@71de97b2 (the comments show the arithmetic).
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fakes.h"
#include "srt/managers/prefill_adder.h"
#include "srt/managers/schedule_batch.h"
#include "srt/managers/schedule_policy.h"
#include "srt/mem_cache/radix_cache.h"

namespace blis::sglang::testing {
namespace {

using Rids = std::vector<std::string>;

class SglManagersOwn : public ::testing::Test {
 protected:
  std::vector<std::unique_ptr<Req>> owned;

  Req* make_req(const std::string& rid, TokenIds ids, std::int64_t max_new_tokens = 128, bool ignore_eos = false) {
    owned.push_back(std::make_unique<Req>(rid, std::move(ids), SamplingParams{max_new_tokens, ignore_eos}));
    return owned.back().get();
  }
  static Rids rids(const std::vector<Req*>& q) {
    Rids out;
    for (const Req* r : q) out.push_back(r->rid);
    return out;
  }
  static void insert(RadixCache& cache, TokenIds ids) {
    InsertParams params;
    params.value = ids;
    params.key = RadixKey(std::move(ids));
    cache.insert(params);
  }
};

// lpm: longest cached prefix first (b matches 5, c 3, a 0); no request is deprioritized (in-batch matches
// of 0, 0 and 3 tokens are below the threshold of 32).
TEST_F(SglManagersOwn, LpmSortsByLongestCachedPrefix) {
  auto cache = RadixCache::create_simulated();
  insert(*cache, {1, 2, 3, 4, 5});
  std::vector<Req*> q = {make_req("a", {9, 9}), make_req("b", {1, 2, 3, 4, 5, 6}), make_req("c", {1, 2, 3, 7})};
  SchedulePolicy policy("lpm", *cache, false, false, false);
  policy.calc_priority(q);
  EXPECT_EQ(rids(q), (Rids{"b", "c", "a"}));
  EXPECT_EQ(owned[1]->num_matched_prefix_tokens, 5);  // min(5 + 0, max prefix len 6 - 1)
  EXPECT_EQ(owned[2]->num_matched_prefix_tokens, 3);
  EXPECT_EQ(owned[1]->prefix_indices, (TokenIds{1, 2, 3, 4, 5}));
}

// In-batch prefix caching: y shares 3 tokens with x, already in the waiting-queue tree, which reaches a
// deprioritize threshold of 2, so y sorts last (key +inf); x and z keep their order (stable sort, key 0).
TEST_F(SglManagersOwn, LpmDeprioritizesInBatchSharedPrefix) {
  auto cache = RadixCache::create_simulated();
  std::vector<Req*> q = {make_req("x", {1, 2, 3, 4}), make_req("y", {1, 2, 3, 5}), make_req("z", {7, 8})};
  SchedulePolicyEnv env;
  env.in_batch_prefix_caching_deprioritize_threshold = 2;
  SchedulePolicy policy("lpm", *cache, false, false, false, env);
  policy.calc_priority(q);
  EXPECT_EQ(rids(q), (Rids{"x", "z", "y"}));
  // With upstream's threshold of 32 nothing is deprioritized and the order stays.
  std::vector<Req*> q2 = {owned[1].get(), owned[0].get(), owned[2].get()};
  SchedulePolicy policy32("lpm", *cache, false, false, false);
  policy32.calc_priority(q2);
  EXPECT_EQ(rids(q2), (Rids{"y", "x", "z"}));
}

// More than 128 waiting requests turn lpm into fcfs for the pass: the order is kept although the last
// request has the longest match.
TEST_F(SglManagersOwn, LpmFallsBackToFcfsForLargeQueues) {
  auto cache = RadixCache::create_simulated();
  insert(*cache, {1, 2, 3, 4});
  std::vector<Req*> q;
  for (int i = 0; i < 128; ++i) q.push_back(make_req("r" + std::to_string(i), {100 + i}));
  q.push_back(make_req("long", {1, 2, 3, 4, 5}));
  SchedulePolicy policy("lpm", *cache, false, false, false);
  policy.calc_priority(q);
  EXPECT_EQ(q.front()->rid, "r0");
  EXPECT_EQ(q.back()->rid, "long");
  EXPECT_EQ(q.back()->num_matched_prefix_tokens, 0);  // no prefix matching on the fallback
}

// dfs-weight: the tree is root -> [1,2] -> {[3], [4,5]} and root -> [7]. Weights: [4,5] 2, [3] 1, [1,2] 3,
// [7] 1, root 1 (+4). Children are visited heaviest first (ties in insertion order), a node's own requests
// after its children's: b, c ([4,5]), a ([3]), d ([7]), e (root).
TEST_F(SglManagersOwn, DfsWeightOrdersByDescendantWeight) {
  auto cache = RadixCache::create_simulated();
  insert(*cache, {1, 2, 3});
  insert(*cache, {1, 2, 4, 5});
  insert(*cache, {7});
  std::vector<Req*> q = {make_req("e", {9}), make_req("d", {7, 1}), make_req("a", {1, 2, 3, 9}),
                         make_req("b", {1, 2, 4, 5, 9}), make_req("c", {1, 2, 4, 5, 8})};
  SchedulePolicy policy("dfs-weight", *cache, false, false, false);
  policy.calc_priority(q);
  EXPECT_EQ(rids(q), (Rids{"b", "c", "a", "d", "e"}));
}

// random.shuffle's walk: i from n-1 down to 1, j = floor(u * (i + 1)). With every draw 0: [a,b,c] ->
// swap(2,0) [c,b,a] -> swap(1,0) [b,c,a]. With draws 0.99: j = i each time, the order stays.
TEST_F(SglManagersOwn, RandomShufflesWithInjectedDraws) {
  auto cache = RadixCache::create_simulated();
  std::vector<Req*> q = {make_req("a", {1}), make_req("b", {2}), make_req("c", {3})};
  SchedulePolicy zeros("random", *cache, false, false, false, {}, [] { return 0.0; });
  zeros.calc_priority(q);
  EXPECT_EQ(rids(q), (Rids{"b", "c", "a"}));
  SchedulePolicy highs("random", *cache, false, false, false, {}, [] { return 0.99; });
  highs.calc_priority(q);
  EXPECT_EQ(rids(q), (Rids{"b", "c", "a"}));
}

class SglPrefillAdderOwn : public SglManagersOwn {
 protected:
  FakeTreeCache tree_cache;
  FakeAllocator allocator;
};

// add_one_req_ignore_eos (tree cache disabled): running R reserves min(20, clip) * 0.5 = 10. N (30 input
// tokens, 50 new, ignore_eos) passes 30 <= min(cur 100, rem_total 90); req_states sorted
// [(10, 10), (50, 30)]; cur_rem 100 - 30 = 70: 70 - 10*2 = 50 > 2, 70 + 10 - 50 = 30 > 1. Admitted whole:
// rem_total_token_offset 10 + 30 + 50 + 1 = 91. N2 (20 tokens) then fails 20 <= min(69, 9): NO_TOKEN.
TEST_F(SglPrefillAdderOwn, IgnoreEosAdmitsWithinReservations) {
  tree_cache.disable = true;
  allocator.available = 100;
  Req* r = make_req("R", TokenIds(10, 1), 20);
  FakeBatch batch({r});
  PrefillAdder adder(1, tree_cache, allocator, &batch, 0.5, 10000, std::nullopt);
  EXPECT_EQ(adder.rem_total_token_offset, 10);
  Req* n = make_req("N", TokenIds(30, 2), 50, true);
  n->full_untruncated_fill_ids = n->origin_input_ids;
  EXPECT_EQ(adder.add_one_req(*n, false, std::nullopt), AddReqResult::CONTINUE);
  EXPECT_EQ(n->extend_range, (Range{0, 30}));
  EXPECT_EQ(adder.rem_total_token_offset, 91);
  EXPECT_EQ(adder.cur_rem_token_offset, 31);
  ASSERT_TRUE(adder.req_states.has_value());
  EXPECT_EQ(*adder.req_states, (std::vector<std::pair<double, std::int64_t>>{{10, 10}, {50, 30}}));
  EXPECT_EQ(tree_cache.inc_lock_ref_calls, 0);  // the ignore_eos path takes no lock

  Req* n2 = make_req("N2", TokenIds(20, 3), 10, true);
  n2->full_untruncated_fill_ids = n2->origin_input_ids;
  EXPECT_EQ(adder.add_one_req(*n2, false, std::nullopt), AddReqResult::NO_TOKEN);

  // Upstream's insertion quirk: a tokens_left above every state is inserted before the last one
  // (the loop variable ends at n - 1). With room (available 1000): N3 (60 left) lands at index 1.
  allocator.available = 1000;
  Req* n3 = make_req("N3", TokenIds(20, 4), 60, true);
  n3->full_untruncated_fill_ids = n3->origin_input_ids;
  EXPECT_EQ(adder.add_one_req(*n3, false, std::nullopt), AddReqResult::CONTINUE);
  EXPECT_EQ(*adder.req_states, (std::vector<std::pair<double, std::int64_t>>{{10, 10}, {60, 20}, {50, 30}}));
}

// The decode-completion estimate rejects: available 60, cur_rem 60 - 30 = 30; state (10, 10): 30 - 20 = 10
// > 2; state (50, 30): 30 + 10 - 50 = -10 <= 1 -> NO_TOKEN, nothing admitted.
TEST_F(SglPrefillAdderOwn, IgnoreEosRejectsWhenDecodesCannotFinish) {
  tree_cache.disable = true;
  allocator.available = 60;
  Req* r = make_req("R", TokenIds(10, 1), 20);
  FakeBatch batch({r});
  PrefillAdder adder(1, tree_cache, allocator, &batch, 0.5, 10000, std::nullopt);
  Req* n = make_req("N", TokenIds(30, 2), 50, true);
  n->full_untruncated_fill_ids = n->origin_input_ids;
  EXPECT_EQ(adder.add_one_req(*n, false, std::nullopt), AddReqResult::NO_TOKEN);
  EXPECT_TRUE(adder.can_run_list.empty());
}

// Chunked branch: page 4, rem_chunk 10, 30 input tokens: trunc 10 // 4 * 4 = 8, aligned to 3: 6, page
// floor of 0 + 6: 4. The chunk (0, 4) is admitted as the new chunked request; two inc_lock_ref calls (the
// temporary lock and the request's), one dec_lock_ref.
TEST_F(SglPrefillAdderOwn, AddOneReqChunksWithPageAndTruncationAlignment) {
  allocator.available = 1000;
  FakeBatch batch;
  PrefillAdder adder(4, tree_cache, allocator, &batch, 1.0, 10000, 10);
  Req* req = make_req("long", TokenIds(30, 5), 8);
  req->full_untruncated_fill_ids = req->origin_input_ids;
  EXPECT_EQ(adder.add_one_req(*req, false, 3), AddReqResult::CONTINUE);
  EXPECT_EQ(req->extend_range, (Range{0, 4}));
  EXPECT_EQ(adder.new_chunked_req, req);
  EXPECT_EQ(adder.rem_chunk_tokens, 6);
  EXPECT_EQ(adder.rem_total_token_offset, 8);  // 4 + 0 new tokens + 4 page overhead
  EXPECT_EQ(tree_cache.inc_lock_ref_calls, 2);
  EXPECT_EQ(tree_cache.dec_lock_ref_calls, 1);
  // An alignment above the chunk (8 < 9) stops the request.
  PrefillAdder adder2(4, tree_cache, allocator, &batch, 1.0, 10000, 10);
  Req* req2 = make_req("long2", TokenIds(30, 5), 8);
  req2->full_untruncated_fill_ids = req2->origin_input_ids;
  EXPECT_EQ(adder2.add_one_req(*req2, false, 9), AddReqResult::OTHER);
  EXPECT_TRUE(adder2.can_run_list.empty());
}

// Without chunked prefill the first request is always accepted; a later one whose input reaches
// rem_input_tokens stops the pass (OTHER).
TEST_F(SglPrefillAdderOwn, AddOneReqMaxPrefillTokensWithoutChunking) {
  allocator.available = 10000;
  FakeBatch batch;
  PrefillAdder adder(1, tree_cache, allocator, &batch, 1.0, 50, std::nullopt);
  Req* a = make_req("a", TokenIds(60, 1), 4);
  a->full_untruncated_fill_ids = a->origin_input_ids;
  EXPECT_EQ(adder.add_one_req(*a, false, std::nullopt), AddReqResult::OTHER);  // rem_input 50 - 60 <= 0
  EXPECT_EQ(adder.can_run_list.size(), 1u);
  Req* b = make_req("b", TokenIds(5, 1), 4);
  b->full_untruncated_fill_ids = b->origin_input_ids;
  EXPECT_EQ(adder.add_one_req(*b, false, std::nullopt), AddReqResult::OTHER);  // 5 >= rem_input -10
  EXPECT_EQ(adder.can_run_list.size(), 1u);
}

// _update_prefill_budget's hit accounting: prefix 10 with host hit 4 and storage hit 6 splits as storage
// min(4, 6) = 4, host 0, device 10 - 4 = 6; a retracted request counts as reprocessed instead.
TEST_F(SglPrefillAdderOwn, UpdatePrefillBudgetSplitsHitTokensByTier) {
  allocator.available = 1000;
  PrefillAdder adder(1, tree_cache, allocator, nullptr, 1.0, 10000, std::nullopt);
  adder.update_prefill_budget(10, 5, 3, false, 0, 4, 6);
  EXPECT_EQ(adder.log_hit_tokens, 10);
  EXPECT_EQ(adder.log_device_hit_tokens, 6);
  EXPECT_EQ(adder.log_host_hit_tokens, 0);
  EXPECT_EQ(adder.log_storage_hit_tokens, 4);
  EXPECT_EQ(adder.log_input_tokens, 5);
  adder.update_prefill_budget(7, 2, 0, true);
  EXPECT_EQ(adder.reprocessed_log_hit_tokens, 7);
  EXPECT_EQ(adder.reprocessed_log_input_tokens, 2);
  EXPECT_EQ(adder.log_device_hit_tokens, 6);
  EXPECT_EQ(adder.rem_total_token_offset, 5 + 3 + 1 + 2 + 0 + 1);
}

// Req.init_next_round_input: fill ids = origin + output, and the match stops one token short of the input
// (_compute_max_prefix_len) even though the tree holds the whole sequence.
TEST_F(SglManagersOwn, InitNextRoundInputCapsMatchBelowInputLength) {
  auto cache = RadixCache::create_simulated();
  insert(*cache, {1, 2, 3, 4, 5});
  Req* r = make_req("r", {1, 2, 3});
  r->output_ids = {4, 5};
  r->init_next_round_input(cache.get());
  EXPECT_EQ(r->full_untruncated_fill_ids, (TokenIds{1, 2, 3, 4, 5}));
  EXPECT_EQ(r->prefix_indices, (TokenIds{1, 2, 3, 4}));
  EXPECT_EQ(r->cache_protected_len, 4);
  r->output_ids.push_back(6);
  r->refresh_fill_ids();  // appends only the new output token
  EXPECT_EQ(r->full_untruncated_fill_ids, (TokenIds{1, 2, 3, 4, 5, 6}));
}

// ScheduleBatch.filter_batch without keep_indices drops finished requests and the excluded chunked one.
TEST_F(SglManagersOwn, FilterBatchDropsFinishedAndExcluded) {
  Req* a = make_req("a", {1});
  Req* b = make_req("b", {2});
  Req* c = make_req("c", {3});
  b->finished_reason = "length";
  ScheduleBatch batch({a, b, c});
  batch.filter_batch(std::vector<Req*>{c});
  EXPECT_EQ(rids(batch.reqs), (Rids{"a"}));
}

}  // namespace
}  // namespace blis::sglang::testing
