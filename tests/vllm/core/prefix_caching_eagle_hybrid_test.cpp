// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_prefix_caching.py@6e448d0e, EAGLE and
// hybrid block-size tests (test_eagle_enabled_removes_last_block, test_eagle_with_partial_blocks,
// test_eagle_with_sliding_window, test_eagle_swa_alignment_caches_extra_block,
// test_eagle_swa_boundary_caches_post_boundary_block, test_eagle_grouped_swa_siblings_use_same_cache_mask,
// test_different_block_size, test_hybrid_cache_blocks_swa_tail_window_only,
// test_hybrid_cache_blocks_clamped_to_lcm).
#include <gtest/gtest.h>

#include <set>

#include "prefix_caching_test_util.h"

namespace blis::vllm::testing {
namespace {

// The KVCacheConfig of the EAGLE + SWA regression tests: full attention at 4 * block_size (float16) and a
// SWA group (window block_size) flagged as the EAGLE group.
KVCacheConfig full_plus_eagle_swa(std::int64_t block_size) {
  KVCacheConfig c;
  c.num_blocks = 100;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"full"}, full_spec(4 * block_size, "float16"), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"swa_mtp"}, sw_spec(block_size, block_size), true});
  return c;
}

// test_prefix_caching.py@6e448d0e test_eagle_enabled_removes_last_block
TEST(PrefixCaching, EagleEnabledRemovesLastBlock) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 10),
                                       {.hash_block_size = block_size, .use_eagle = true});
  const std::vector<std::int32_t> token_ids(3 * block_size, 0);
  auto req = make_request("divisible_request", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req);
  manager->allocate_slots(*req, static_cast<std::int64_t>(token_ids.size()), n0(cb), &cb);
  manager->free(*req);
  auto req_eagle = make_request("eagle_divisible", token_ids, block_size, sha256);
  auto [cb2, num_tokens, s2] = manager->get_computed_blocks(*req_eagle);
  EXPECT_EQ(cb2.blocks[0].size(), 1u);
  EXPECT_EQ(num_tokens, 1 * block_size);
}

// test_prefix_caching.py@6e448d0e test_eagle_with_partial_blocks
TEST(PrefixCaching, EagleWithPartialBlocks) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 10),
                                       {.hash_block_size = block_size, .use_eagle = true});
  const std::vector<std::int32_t> token_ids(2 * block_size + 5, 0);
  auto req = make_request("partial_block_test", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req);
  manager->allocate_slots(*req, static_cast<std::int64_t>(token_ids.size()), n0(cb), &cb);
  manager->free(*req);
  auto req_eagle = make_request("partial_eagle", token_ids, block_size, sha256);
  auto [cb2, num_tokens, s2] = manager->get_computed_blocks(*req_eagle);
  EXPECT_EQ(cb2.blocks[0].size(), 1u);
  EXPECT_EQ(num_tokens, 1 * block_size);
}

// test_prefix_caching.py@6e448d0e test_eagle_with_sliding_window
TEST(PrefixCaching, EagleWithSlidingWindow) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  KVCacheConfig c;
  c.num_blocks = 10;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer"}, sw_spec(block_size, block_size), false});
  auto manager = make_kv_cache_manager(c, {.hash_block_size = block_size, .use_eagle = true});
  const std::vector<std::int32_t> token_ids(2 * block_size + 5, 0);
  auto req = make_request("partial_block_test", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req);
  manager->allocate_slots(*req, static_cast<std::int64_t>(token_ids.size()), n0(cb), &cb);
  const BlockHash block_hash_first_block = req->block_hashes[0];
  manager->free(*req);

  auto req_eagle = make_request("partial_eagle", token_ids, block_size, sha256);
  auto [cb2, num_tokens, s2] = manager->get_computed_blocks(*req_eagle);
  EXPECT_EQ(cb2.blocks[0].size(), 1u);
  EXPECT_EQ(num_tokens, 1 * block_size);

  // Evict the first block of the request (the whole map entry).
  ASSERT_TRUE(manager->block_pool->get_cached_block(block_hash_first_block, {0}).has_value());
  const auto key = make_block_hash_with_group_id(block_hash_first_block, 0);
  auto& map = manager->block_pool->cached_block_hash_to_block;
  while (KVCacheBlock* b = map.get_one_block(key)) map.pop(key, b->block_id);

  auto req_after_evict = make_request("partial_eagle_after_evict", token_ids, block_size, sha256);
  auto [cb3, num_tokens3, s3] = manager->get_computed_blocks(*req_after_evict);
  EXPECT_EQ(cb3.blocks[0].size(), 0u);
  EXPECT_EQ(num_tokens3, 0);
}

// test_prefix_caching.py@6e448d0e test_eagle_swa_alignment_caches_extra_block
TEST(PrefixCaching, EagleSwaAlignmentCachesExtraBlock) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  auto manager = make_kv_cache_manager(full_plus_eagle_swa(block_size), {.hash_block_size = block_size, .use_eagle = true});
  const auto token_ids = common_tokens(16, block_size);
  auto req0 = make_request("0", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req0);
  auto blocks = manager->allocate_slots(*req0, static_cast<std::int64_t>(token_ids.size()), n0(cb, block_size), &cb);
  ASSERT_TRUE(blocks.has_value());
  manager->free(*req0);
  auto req1 = make_request("1", token_ids, block_size, sha256);
  auto [cb1, num_computed_tokens, s1] = manager->get_computed_blocks(*req1);
  EXPECT_GT(num_computed_tokens, 0);
  EXPECT_EQ(num_computed_tokens % (4 * block_size), 0);
}

// test_prefix_caching.py@6e448d0e test_eagle_swa_boundary_caches_post_boundary_block
TEST(PrefixCaching, EagleSwaBoundaryCachesPostBoundaryBlock) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  auto manager = make_kv_cache_manager(full_plus_eagle_swa(block_size), {.hash_block_size = block_size, .use_eagle = true});
  const auto token_ids = common_tokens(5, block_size);
  auto req0 = make_request("0", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req0);
  auto blocks = manager->allocate_slots(*req0, static_cast<std::int64_t>(token_ids.size()), n0(cb, block_size), &cb);
  ASSERT_TRUE(blocks.has_value());
  auto* pool = manager->block_pool;
  EXPECT_TRUE(pool->get_cached_block(req0->block_hashes[3], {1}).has_value());
  EXPECT_TRUE(pool->get_cached_block(req0->block_hashes[4], {1}).has_value());
  manager->free(*req0);
  auto req1 = make_request("1", concat(token_ids, 999, 1), block_size, sha256);
  auto [cb1, num_computed_tokens, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(num_computed_tokens, 4 * block_size);
}

// test_prefix_caching.py@6e448d0e test_eagle_grouped_swa_siblings_use_same_cache_mask
TEST(PrefixCaching, EagleGroupedSwaSiblingsUseSameCacheMask) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  auto swa = sw_spec(block_size, block_size);
  KVCacheConfig c;
  c.num_blocks = 100;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"full"}, full_spec(4 * block_size, "float16"), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"swa_main"}, swa, false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"swa_mtp"}, swa, true});
  auto manager = make_kv_cache_manager(c, {.hash_block_size = block_size, .use_eagle = true});
  const auto token_ids = common_tokens(9, block_size);
  auto req0 = make_request("0", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req0);
  auto blocks = manager->allocate_slots(*req0, static_cast<std::int64_t>(token_ids.size()), n0(cb, block_size), &cb);
  ASSERT_TRUE(blocks.has_value());
  auto* pool = manager->block_pool;
  EXPECT_TRUE(pool->get_cached_block(req0->block_hashes[4], {1, 2}).has_value());
  EXPECT_TRUE(pool->get_cached_block(req0->block_hashes[8], {1, 2}).has_value());
  manager->free(*req0);
  auto req1 = make_request("1", concat(token_ids, 999, 1), block_size, sha256);
  auto [cb1, num_computed_tokens, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(num_computed_tokens, 8 * block_size);
}

// test_prefix_caching.py@6e448d0e test_different_block_size
TEST(PrefixCaching, DifferentBlockSize) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  KVCacheConfig c;
  c.num_blocks = 100;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer1"}, full_spec(block_size * 2, "float16"), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer2"}, sw_spec(block_size, 2 * block_size), false});
  auto manager = make_kv_cache_manager(c, {.hash_block_size = block_size});
  const auto common_token_ids = common_tokens(10, block_size);
  auto req0 = make_request("0", common_token_ids, block_size, sha256);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_TRUE(cb0.blocks[1].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, 7 * block_size, n0(cb0), &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}, {5, 6, 7, 8, 9, 10, 11}}));

  auto prefix = [&](std::int64_t n) {
    return std::vector<std::int32_t>(common_token_ids.begin(), common_token_ids.begin() + n);
  };
  auto req1 = make_request("1", prefix(7 * block_size + 1), block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(cb1.blocks[0].size(), 3u);
  EXPECT_EQ(cb1.blocks[1].size(), 6u);
  EXPECT_EQ(nct1, 6 * 16);

  auto req2 = make_request("2", prefix(6 * block_size + 1), block_size, sha256);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  EXPECT_EQ(cb2.blocks[0].size(), 3u);
  EXPECT_EQ(cb2.blocks[1].size(), 6u);
  EXPECT_EQ(nct2, 6 * 16);

  // Evict some blocks to make the sliding-window hit 5*16; full attention must stay a multiple of 32.
  manager->block_pool->cached_block_hash_to_block.pop(make_block_hash_with_group_id(req1->block_hashes[6], 1), 11);
  manager->block_pool->cached_block_hash_to_block.pop(make_block_hash_with_group_id(req1->block_hashes[5], 1), 10);
  auto [cb3, nct3, s3] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(cb3.blocks[0].size(), 2u);
  EXPECT_EQ(cb3.blocks[1].size(), 4u);
  EXPECT_EQ(nct3, 4 * 16);
}

// test_prefix_caching.py@6e448d0e test_hybrid_cache_blocks_swa_tail_window_only
TEST(PrefixCaching, HybridCacheBlocksSwaTailWindowOnly) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  KVCacheConfig c;
  c.num_blocks = 100;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer1"}, full_spec(4 * block_size, "float16"), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer2"}, sw_spec(block_size, block_size), false});
  auto manager = make_kv_cache_manager(c, {.hash_block_size = block_size});
  const auto token_ids = common_tokens(8, block_size);
  auto req = make_request("0", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req);
  auto blocks = manager->allocate_slots(*req, 8 * block_size, n0(cb, block_size), &cb);
  ASSERT_TRUE(blocks.has_value());
  ASSERT_EQ(req->block_hashes.size(), 8u);
  const std::set<std::size_t> expected_cached{3, 7};
  for (std::size_t i = 0; i < 8; ++i) {
    const bool cached = manager->block_pool->get_cached_block(req->block_hashes[i], {1}).has_value();
    EXPECT_EQ(cached, expected_cached.count(i) != 0) << "SWA hash " << i;
  }
}

// test_prefix_caching.py@6e448d0e test_hybrid_cache_blocks_clamped_to_lcm
TEST(PrefixCaching, HybridCacheBlocksClampedToLcm) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  KVCacheConfig c;
  c.num_blocks = 100;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer1"}, full_spec(block_size * 2, "float16"), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer2"}, sw_spec(block_size, 2 * block_size), false});
  auto manager = make_kv_cache_manager(c, {.hash_block_size = block_size});
  const auto token_ids = common_tokens(7, block_size);
  auto req = make_request("0", token_ids, block_size, sha256);
  auto [cb, n, s] = manager->get_computed_blocks(*req);
  auto blocks = manager->allocate_slots(*req, 7 * block_size, n0(cb, block_size), &cb);
  ASSERT_TRUE(blocks.has_value());
  ASSERT_EQ(req->block_hashes.size(), 7u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_TRUE(manager->block_pool->get_cached_block(req->block_hashes[i], {1}).has_value()) << i;
  }
  EXPECT_FALSE(manager->block_pool->get_cached_block(req->block_hashes[6], {1}).has_value());
}

}  // namespace
}  // namespace blis::vllm::testing
