// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own unit tests of vllm/v1/core/kv_cache_manager.py@6e448d0e and
// kv_cache_coordinator.py@6e448d0e paths the transcribed upstream tests do not reach (watermark,
// reserved_blocks, lookahead, delay_cache_blocks, prefix-cache stats, KVCacheBlocks helpers, the
// no-prefix-cache coordinator, cross attention, refusals). Expected values are derived by hand from the
// upstream code.
#include <gtest/gtest.h>

#include "prefix_caching_test_util.h"

namespace blis::vllm::testing {
namespace {

// KVCacheBlocks.__add__ / get_block_ids(allow_none=True) / new_empty / get_unhashed_block_ids*.
TEST(KVCacheManagerOwn, KVCacheBlocksHelpers) {
  BlockPool pool(8, true, 4);
  KVCacheBlocks a{{{&pool.blocks[1], &pool.blocks[2]}, {&pool.blocks[3]}}, false};
  KVCacheBlocks b{{{&pool.blocks[4]}, {}}, false};
  EXPECT_EQ((a + b).get_block_ids(), (Ids{{1, 2, 4}, {3}}));
  EXPECT_FALSE(a.new_empty().get_block_ids_allow_none().has_value());
  EXPECT_EQ(a.new_empty().blocks.size(), 2u);
  EXPECT_EQ(a.get_block_ids_allow_none(), std::optional<Ids>(Ids{{1, 2}, {3}}));
  pool.blocks[2].set_block_hash(BlockHashWithGroupId{"x"});
  EXPECT_EQ(a.get_unhashed_block_ids_all_groups(), (Ids{{1}, {3}}));
  EXPECT_THROW(a.get_unhashed_block_ids(), AssertionError);
  KVCacheBlocks one{{{&pool.blocks[1], &pool.blocks[2], pool.null_block}}, false};
  // get_unhashed_block_ids keeps the null block (only the all-groups form skips padding).
  EXPECT_EQ(one.get_unhashed_block_ids(), (std::vector<std::int64_t>{1, pool.null_block->block_id}));
}

// allocate_slots: ValueError for zero new tokens without external tokens.
TEST(KVCacheManagerOwn, AllocateSlotsRejectsZeroTokens) {
  init_hash(sha256);
  auto manager = make_kv_cache_manager(make_kv_cache_config(16, 11), {.hash_block_size = 16});
  auto req = make_request("0", token_range(0, 20), 16, sha256);
  EXPECT_THROW(manager->allocate_slots(*req, 0), ValueError);
}

// allocate_slots: the watermark applies to waiting/preempted requests when has_scheduled_reqs.
TEST(KVCacheManagerOwn, Watermark) {
  init_hash(sha256);
  auto manager = make_kv_cache_manager(make_kv_cache_config(16, 11), {.hash_block_size = 16, .watermark = 0.2});
  EXPECT_EQ(manager->watermark_blocks, 2);  // int(0.2 * 11)
  auto req = make_request("0", token_range(0, 9 * 16), 16, sha256);
  // 9 blocks + 2 watermark > 10 free.
  EXPECT_FALSE(manager->allocate_slots(*req, 9 * 16).has_value());
  req->status = RequestStatus::kPreempted;
  EXPECT_FALSE(manager->allocate_slots(*req, 9 * 16).has_value());
  // No request scheduled yet: no watermark.
  EXPECT_TRUE(manager->allocate_slots(*req, 9 * 16, 0, nullptr, 0, 0, false, 0, false, 0, false).has_value());
  manager->free(*req);
  auto req2 = make_request("1", token_range(1000, 1000 + 9 * 16), 16, sha256);
  req2->status = RequestStatus::kRunning;  // running requests ignore the watermark
  EXPECT_TRUE(manager->allocate_slots(*req2, 9 * 16).has_value());
}

// allocate_slots: reserved_blocks are kept free.
TEST(KVCacheManagerOwn, ReservedBlocks) {
  init_hash(sha256);
  auto manager = make_kv_cache_manager(make_kv_cache_config(16, 11), {.hash_block_size = 16});
  auto req = make_request("0", token_range(0, 9 * 16), 16, sha256);
  EXPECT_FALSE(manager->allocate_slots(*req, 9 * 16, 0, nullptr, 0, 0, false, 0, false, 2).has_value());
  EXPECT_TRUE(manager->allocate_slots(*req, 9 * 16, 0, nullptr, 0, 0, false, 0, false, 1).has_value());
}

// allocate_slots: lookahead slots are allocated but only num_tokens are cached; delay_cache_blocks caches none.
TEST(KVCacheManagerOwn, LookaheadAndDelayCacheBlocks) {
  init_hash(sha256);
  auto manager = make_kv_cache_manager(make_kv_cache_config(16, 11), {.hash_block_size = 16});
  auto req = make_request("0", token_range(0, 32), 16, sha256);
  auto blocks = manager->allocate_slots(*req, 32, 0, nullptr, /*num_lookahead_tokens=*/17);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}}));  // cdiv(32 + 17, 16)
  EXPECT_TRUE(manager->block_pool->blocks[2].block_hash().has_value());
  EXPECT_FALSE(manager->block_pool->blocks[3].block_hash().has_value());

  auto req1 = make_request("1", token_range(100, 132), 16, sha256);
  blocks = manager->allocate_slots(*req1, 32, 0, nullptr, 0, 0, /*delay_cache_blocks=*/true);
  ASSERT_TRUE(blocks.has_value());
  for (auto* b : blocks->blocks[0]) EXPECT_FALSE(b->block_hash().has_value());
  // A later cache_blocks call caches them.
  manager->cache_blocks(*req1, 32);
  for (auto* b : blocks->blocks[0]) EXPECT_TRUE(b->block_hash().has_value());
}

// PrefixCacheStats.record via record_prefix_cache_stats; make_prefix_cache_stats resets; reset flag.
TEST(KVCacheManagerOwn, PrefixCacheStats) {
  init_hash(sha256);
  auto manager = make_kv_cache_manager(make_kv_cache_config(16, 11), {.hash_block_size = 16, .log_stats = true});
  auto req = make_request("0", token_range(0, 40), 16, sha256);
  manager->record_prefix_cache_stats(*req, 32);
  req->num_preemptions = 1;
  manager->record_prefix_cache_stats(*req, 16);
  auto skipped = make_request("1", token_range(0, 10), 16, sha256);
  skipped->skip_reading_prefix_cache = true;
  manager->record_prefix_cache_stats(*skipped, 0);
  auto stats = manager->make_prefix_cache_stats();
  ASSERT_TRUE(stats.has_value());
  EXPECT_EQ(*stats, (PrefixCacheStats{false, 1, 40, 32, 1, 40, 16}));
  EXPECT_EQ(manager->make_prefix_cache_stats(), std::optional<PrefixCacheStats>(PrefixCacheStats{}));
  EXPECT_TRUE(manager->reset_prefix_cache());
  EXPECT_TRUE(manager->make_prefix_cache_stats()->reset);
}

// get_num_common_prefix_blocks, pop_blocks_for_free, estimate_cached_tokens, get_block_ids_for_computed_tokens,
// truncate_computed_blocks.
TEST(KVCacheManagerOwn, CommonPrefixPopEstimateTruncate) {
  init_hash(sha256);
  auto manager = make_kv_cache_manager(make_kv_cache_config(16, 11), {.hash_block_size = 16});
  const auto common = common_tokens(3, 16);
  auto req0 = make_request("0", concat(common, 3, 7), 16, sha256);
  manager->allocate_slots(*req0, 55);
  auto req1 = make_request("1", concat(common, 4, 5), 16, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(n, 48);
  EXPECT_EQ(manager->truncate_computed_blocks(cb, 32).get_block_ids(), (Ids{{1, 2}}));
  EXPECT_TRUE(manager->truncate_computed_blocks(cb, 0).is_precomputed_empty);
  EXPECT_THROW(manager->truncate_computed_blocks(cb, 20), AssertionError);
  manager->allocate_slots(*req1, 5, n, &cb);
  EXPECT_EQ(manager->get_num_common_prefix_blocks("0"), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(manager->estimate_cached_tokens(*req0), 48);
  EXPECT_EQ(manager->get_block_ids_for_computed_tokens("0", 20), (Ids{{1, 2}}));
  const auto popped = manager->pop_blocks_for_free(*req0);
  EXPECT_EQ(ids_of(popped), (std::vector<std::int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(manager->get_block_ids("0"), (Ids{{}}));
  EXPECT_EQ(manager->block_pool->blocks[4].ref_cnt, 1);  // popped, not freed
  const auto copies = manager->take_kv_cache_block_copies();
  EXPECT_TRUE(copies.first.empty());
  EXPECT_TRUE(manager->take_new_block_ids().empty());
}

// KVCacheCoordinatorNoPrefixCache: any number of groups, no hits, no common prefix.
TEST(KVCacheManagerOwn, NoPrefixCacheCoordinator) {
  init_hash(sha256);
  auto manager = make_kv_cache_manager(make_kv_cache_config_hybrid_model(16, 30, 2),
                                       {.enable_caching = false, .hash_block_size = 16});
  EXPECT_NE(dynamic_cast<KVCacheCoordinatorNoPrefixCache*>(manager->coordinator.get()), nullptr);
  auto req = make_request("0", token_range(0, 40), 16, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req);
  EXPECT_EQ(n, 0);
  EXPECT_TRUE(cb.is_precomputed_empty);
  auto blocks = manager->allocate_slots(*req, 40, 0, &cb);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}));
  EXPECT_EQ(manager->get_num_common_prefix_blocks("0"), (std::vector<std::int64_t>{0, 0, 0}));
  // Sliding window (2 blocks) frees blocks outside the window once tokens are processed, not while in flight.
  req->num_computed_tokens = 40;
  req->num_in_flight_tokens = 40;
  req->append_output_token_ids({1});
  manager->allocate_slots(*req, 1);
  EXPECT_EQ(manager->get_block_ids("0")[1], (std::vector<std::int64_t>{4, 5, 6}));
  req->num_in_flight_tokens = 0;
  manager->allocate_slots(*req, 1);
  // get_num_skipped_tokens(40) = 40 - 32 + 1 = 9 -> 0 whole blocks; processed 40 keeps all.
  req->num_computed_tokens = 48;
  req->append_output_token_ids({1, 2, 3, 4, 5, 6, 7, 8});
  manager->allocate_slots(*req, 1);  // skipped(48) = 17 -> block 0 freed
  EXPECT_EQ(manager->get_block_ids("0")[1][0], manager->block_pool->null_block->block_id);
}

// CrossAttentionManager: a static allocation of num_encoder_tokens slots (encoder-decoder, no prefix caching).
TEST(KVCacheManagerOwn, CrossAttentionAllocatesEncoderTokens) {
  init_hash(sha256);
  KVCacheConfig c = make_kv_cache_config(16, 20);
  AttentionSpecArgs a;
  a.block_size = 16;
  a.num_kv_heads = 1;
  a.head_size = 1;
  a.dtype = "float32";
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"cross"}, std::make_shared<CrossAttentionSpec>(a), false});
  auto manager = make_kv_cache_manager(c, {.enable_caching = false, .hash_block_size = 16});
  auto req = make_request("0", token_range(0, 20), 16, sha256);
  auto blocks = manager->allocate_slots(*req, 20, 0, nullptr, 0, 0, false, /*num_encoder_tokens=*/40);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2}, {3, 4, 5}}));
}

// Refusals: Mamba (not ported), SinkFullAttention through the coordinator (upstream TypeError), a spec with no
// registered manager (EncoderOnlyAttentionSpec).
TEST(KVCacheManagerOwn, RefusedSpecs) {
  SinkFullAttentionSpec::Args sink;
  sink.block_size = 16;
  sink.num_kv_heads = 1;
  sink.head_size = 1;
  sink.dtype = "float32";
  sink.sink_len = 16;
  KVCacheConfig c;
  c.num_blocks = 10;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"l"}, std::make_shared<SinkFullAttentionSpec>(sink), false});
  try {
    make_kv_cache_manager(c, {.hash_block_size = 16});
    ADD_FAILURE() << "SinkFullAttentionSpec through the coordinator must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("SinkFullAttentionSpec"), std::string::npos);
  }
  // Built directly (no needs_kv_cache_zeroing keyword), the sink manager reserves its sink blocks.
  BlockPool pool(10, true, 16);
  auto m = get_manager_for_kv_cache_spec(c.kv_cache_groups[0].kv_cache_spec, 16, 100, &pool, true, 0, 16);
  EXPECT_EQ(pool.get_num_free_blocks(), 8);

  AttentionSpecArgs a;
  a.block_size = 16;
  a.num_kv_heads = 1;
  a.head_size = 1;
  a.dtype = "float32";
  KVCacheConfig e;
  e.num_blocks = 10;
  e.kv_cache_groups.push_back(KVCacheGroupSpec{{"l"}, std::make_shared<EncoderOnlyAttentionSpec>(a), false});
  EXPECT_THROW(make_kv_cache_manager(e, {.hash_block_size = 16}), AssertionError);
}

}  // namespace
}  // namespace blis::vllm::testing
