// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_prefix_caching.py@6e448d0e, caching and
// reset (test_cache_blocks, test_cache_blocks_multi_group, test_cache_key_salting,
// test_prefill_not_enough_free_blocks_with_computed_blocks, test_reset_prefix_cache,
// test_prefix_cache_stats_disabled, test_maybe_evict_cached_block).
#include <gtest/gtest.h>

#include <deque>
#include <set>
#include <span>

#include "prefix_caching_test_util.h"

namespace blis::vllm::testing {
namespace {

void run_cache_blocks(const HashFn& hash_fn) {
  init_hash(hash_fn);
  const std::int64_t block_size = 4;
  BlockPool block_pool(5, true, block_size);
  auto req = make_request("0", token_range(0, 14), block_size, hash_fn);
  std::deque<KVCacheBlock> storage;
  std::vector<KVCacheBlock*> blocks;
  for (int i = 0; i < 2; ++i) blocks.push_back(&storage.emplace_back(i));
  block_pool.cache_full_blocks(*req, blocks, 0, 2, block_size, 0);
  EXPECT_EQ(block_pool.cached_block_hash_to_block.size(), 2u);
  for (auto* b : blocks) EXPECT_TRUE(b->block_hash().has_value());

  blocks.push_back(&storage.emplace_back(2));
  block_pool.cache_full_blocks(*req, blocks, 2, 3, block_size, 0);
  EXPECT_EQ(block_pool.cached_block_hash_to_block.size(), 3u);
  EXPECT_TRUE(blocks[0]->block_hash().has_value());
}

// test_prefix_caching.py@6e448d0e test_cache_blocks (hash_fn = sha256)
TEST(PrefixCaching, CacheBlocksSha256) { run_cache_blocks(sha256); }
// test_prefix_caching.py@6e448d0e test_cache_blocks (hash_fn = sha256_cbor)
TEST(PrefixCaching, CacheBlocksSha256Cbor) { run_cache_blocks(sha256_cbor); }

// test_prefix_caching.py@6e448d0e test_cache_blocks_multi_group
TEST(PrefixCaching, CacheBlocksMultiGroup) {
  init_hash(sha256);
  const std::int64_t block_size = 4;
  BlockPool block_pool(10, true, block_size);
  auto req = make_request("0", token_range(0, 14), block_size, sha256);
  std::deque<KVCacheBlock> storage;
  std::vector<KVCacheBlock*> blocks;
  for (int i = 0; i < 2; ++i) blocks.push_back(&storage.emplace_back(i));
  block_pool.cache_full_blocks(*req, blocks, 0, 2, block_size, 0);
  EXPECT_EQ(block_pool.cached_block_hash_to_block.size(), 2u);
  EXPECT_EQ(req->block_hashes.size(), 3u);
  for (auto* b : blocks) EXPECT_TRUE(b->block_hash().has_value());

  std::vector<KVCacheBlock*> blocks1;
  for (int i = 0; i < 3; ++i) blocks1.push_back(&storage.emplace_back(i));
  block_pool.cache_full_blocks(*req, blocks1, 0, 3, block_size, 1);
  EXPECT_EQ(block_pool.cached_block_hash_to_block.size(), 5u);
  EXPECT_EQ(req->block_hashes.size(), 3u);
  for (auto* b : blocks1) EXPECT_TRUE(b->block_hash().has_value());

  const auto& h = req->block_hashes;
  EXPECT_TRUE(block_pool.get_cached_block(h[0], {0}).has_value());
  EXPECT_TRUE(block_pool.get_cached_block(h[1], {0}).has_value());
  EXPECT_FALSE(block_pool.get_cached_block(h[2], {0}).has_value());
  EXPECT_TRUE(block_pool.get_cached_block(h[0], {1}).has_value());
  EXPECT_TRUE(block_pool.get_cached_block(h[1], {1}).has_value());
  EXPECT_TRUE(block_pool.get_cached_block(h[2], {1}).has_value());
  EXPECT_TRUE(block_pool.get_cached_block(h[0], {0, 1}).has_value());
  EXPECT_TRUE(block_pool.get_cached_block(h[1], {0, 1}).has_value());
  EXPECT_FALSE(block_pool.get_cached_block(h[2], {0, 1}).has_value());
}

// test_prefix_caching.py@6e448d0e test_cache_key_salting. upstream's
// sha256((parent or NONE_HASH, tuple(tokens), extra_keys)) is hash_block_tokens(sha256, parent, tokens,
// extra_keys), which hashes exactly that tuple.
TEST(PrefixCaching, CacheKeySalting) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11), {.hash_block_size = block_size});
  const auto common_token_ids = common_tokens(3, block_size);
  auto token_ids = concat(common_token_ids, 3, 11);
  auto req0 = make_request("0", token_ids, block_size, sha256, std::string("salt1"));
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto span_of = [](const std::vector<std::int32_t>& v, std::size_t b, std::size_t e) {
    return std::span<const std::int32_t>(v.data() + b, e - b);
  };
  {
    const auto& bh = req0->block_hashes;
    ASSERT_EQ(bh.size(), 3u);
    EXPECT_EQ(bh[0], hash_block_tokens(sha256, std::nullopt, span_of(token_ids, 0, 16),
                                       BlockExtraKeys(std::vector<std::string>{"salt1"})));
    EXPECT_EQ(bh[1], hash_block_tokens(sha256, bh[0], span_of(token_ids, 16, 32)));
    EXPECT_EQ(bh[2], hash_block_tokens(sha256, bh[1], span_of(token_ids, 32, 48)));
  }
  auto blocks = manager->allocate_slots(*req0, 59, n0(cb0), &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}}));
  req0->num_computed_tokens = 59;
  for (int i = 0; i < 5; ++i) req0->append_output_token_ids({8});
  auto new_blocks = manager->allocate_slots(*req0, 5, n0(cb0), &cb0);
  ASSERT_TRUE(new_blocks.has_value());
  EXPECT_EQ(new_blocks->blocks[0].size(), 0u);
  ASSERT_EQ(req0->block_hashes.size(), 4u);
  auto tail = std::vector<std::int32_t>(token_ids.begin() + 48, token_ids.end());
  tail.insert(tail.end(), 5, 8);
  EXPECT_EQ(req0->block_hashes[3], hash_block_tokens(sha256, req0->block_hashes[2], tail));

  // Cache hit with a new request that has the same salt.
  token_ids = concat(common_token_ids, 4, 11);
  auto req1 = make_request("1", token_ids, block_size, sha256, std::string("salt1"));
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(cb1.blocks[0].size(), 3u);
  EXPECT_EQ(nct1, 3 * block_size);

  // Cache miss with the same content but a different salt.
  auto req2 = make_request("2", token_ids, block_size, sha256, std::string("salt2"));
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  EXPECT_EQ(cb2.blocks[0].size(), 0u);
  EXPECT_EQ(nct2, 0);
  const auto& bh = req2->block_hashes;
  ASSERT_EQ(bh.size(), 3u);
  EXPECT_EQ(bh[0], hash_block_tokens(sha256, std::nullopt, span_of(token_ids, 0, 16),
                                     BlockExtraKeys(std::vector<std::string>{"salt2"})));
  EXPECT_EQ(bh[1], hash_block_tokens(sha256, bh[0], span_of(token_ids, 16, 32)));
  EXPECT_EQ(bh[2], hash_block_tokens(sha256, bh[1], span_of(token_ids, 32, 48)));
}

std::set<std::int64_t> ref_cnts(const std::vector<KVCacheBlock*>& blocks, std::size_t b, std::size_t e) {
  std::set<std::int64_t> out;
  for (std::size_t i = b; i < e && i < blocks.size(); ++i) out.insert(blocks[i]->ref_cnt);
  return out;
}

// test_prefix_caching.py@6e448d0e test_prefill_not_enough_free_blocks_with_computed_blocks
TEST(PrefixCaching, PrefillNotEnoughFreeBlocksWithComputedBlocks) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11), {.hash_block_size = block_size});
  const auto common_token_ids = common_tokens(3, 16);
  auto req0 = make_request("0", common_token_ids, block_size, sha256);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  manager->allocate_slots(*req0, 48, n0(cb0), &cb0);
  const auto block_part0 = manager->coordinator->single_type_managers[0]->req_to_blocks["0"];

  auto twice = common_token_ids;
  twice.insert(twice.end(), common_token_ids.begin(), common_token_ids.end());
  auto req1 = make_request("1", twice, block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(cb1.blocks[0], block_part0);
  EXPECT_EQ(nct1, 3 * 16);
  manager->allocate_slots(*req1, 48, n0(cb1), &cb1);
  const auto block_part1 = manager->coordinator->single_type_managers[0]->req_to_blocks["1"];
  manager->free(*req1);
  EXPECT_EQ(ref_cnts(block_part1, 0, 3), (std::set<std::int64_t>{1}));
  EXPECT_EQ(ref_cnts(block_part1, 3, block_part1.size()), (std::set<std::int64_t>{0}));

  auto req2 = make_request("2", std::vector<std::int32_t>(block_size * 2, 7), block_size, sha256);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  EXPECT_TRUE(cb2.blocks[0].empty());
  EXPECT_EQ(nct2, 0);
  manager->allocate_slots(*req2, block_size * 2, n0(cb2, block_size), &cb2);

  EXPECT_EQ(manager->block_pool->free_block_queue.num_free_blocks, 5);
  auto thrice = twice;
  thrice.insert(thrice.end(), common_token_ids.begin(), common_token_ids.end());
  auto req3 = make_request("3", thrice, block_size, sha256);
  auto [cb3, nct3, s3] = manager->get_computed_blocks(*req3);
  EXPECT_EQ(cb3.blocks[0], block_part1);
  EXPECT_EQ(nct3, 6 * 16);
  EXPECT_FALSE(manager->allocate_slots(*req3, 48, n0(cb3), &cb3).has_value());
  EXPECT_EQ(ref_cnts(block_part1, 0, 3), (std::set<std::int64_t>{1}));
  EXPECT_EQ(ref_cnts(block_part1, 3, block_part1.size()), (std::set<std::int64_t>{0}));
}

// test_prefix_caching.py@6e448d0e test_reset_prefix_cache
TEST(PrefixCaching, ResetPrefixCache) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11), {.hash_block_size = block_size});
  const auto full_block_token_ids = common_tokens(3, 16);
  auto req0 = make_request("0", concat(full_block_token_ids, 3, 7), block_size, sha256);
  auto blocks = manager->allocate_slots(*req0, 55);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}}));

  auto req1 = make_request("1", concat(full_block_token_ids, 4, 7), block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(req1->block_hashes.size(), 3u);
  EXPECT_EQ(cb1.blocks[0].size(), 3u);
  blocks = manager->allocate_slots(*req1, 7, n0(cb1), &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{5}}));

  EXPECT_FALSE(manager->reset_prefix_cache());
  EXPECT_GT(manager->block_pool->cached_block_hash_to_block.size(), 0u);
  manager->free(*req0);
  manager->free(*req1);
  EXPECT_TRUE(manager->reset_prefix_cache());
  EXPECT_EQ(manager->block_pool->cached_block_hash_to_block.size(), 0u);
  for (const auto& blk : manager->block_pool->blocks) EXPECT_FALSE(blk.block_hash().has_value());
}

// test_prefix_caching.py@6e448d0e test_prefix_cache_stats_disabled
TEST(PrefixCaching, PrefixCacheStatsDisabled) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11),
                                       {.hash_block_size = block_size, .log_stats = false});
  EXPECT_FALSE(manager->prefix_cache_stats.has_value());
  auto req = make_request("0", token_range(0, 16), block_size, sha256);
  auto [cb, nct, s] = manager->get_computed_blocks(*req);
  EXPECT_TRUE(cb.blocks[0].empty());
  EXPECT_EQ(nct, 0);
  manager->allocate_slots(*req, 16, n0(cb), &cb);
  manager->reset_prefix_cache();
  EXPECT_FALSE(manager->prefix_cache_stats.has_value());
}

// test_prefix_caching.py@6e448d0e test_maybe_evict_cached_block. The `_cache` dict is private here: its
// contents are asserted key by key through size(), contain() and get_one_block().
TEST(PrefixCaching, MaybeEvictCachedBlock) {
  BlockPool pool(4, true, 16);
  const auto block_hash0 = make_block_hash_with_group_id(BlockHash{"10"}, 1000);
  const auto block_hash1 = make_block_hash_with_group_id(BlockHash{"20"}, 2000);
  const auto block_hash2 = make_block_hash_with_group_id(BlockHash{"30"}, 3000);
  const std::vector<BlockHashWithGroupId> block_hashes{block_hash0, block_hash1, block_hash2, block_hash0};
  ASSERT_EQ(pool.blocks.size(), block_hashes.size());
  for (std::size_t i = 0; i < 4; ++i) {
    pool.blocks[i].set_block_hash(block_hashes[i]);
    pool.cached_block_hash_to_block.insert(block_hashes[i], &pool.blocks[i]);
  }
  KVCacheBlock* block0 = &pool.blocks[0];
  KVCacheBlock* block1 = &pool.blocks[1];
  KVCacheBlock* block2 = &pool.blocks[2];
  KVCacheBlock* block3 = &pool.blocks[3];
  auto& m = pool.cached_block_hash_to_block;
  EXPECT_EQ(m.size(), 3u);
  EXPECT_TRUE(m.contain(block_hash0, 0));
  EXPECT_TRUE(m.contain(block_hash0, 3));
  EXPECT_EQ(m.get_one_block(block_hash1), block1);
  EXPECT_EQ(m.get_one_block(block_hash2), block2);

  pool._maybe_evict_cached_block(block1);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_TRUE(m.contain(block_hash0, 0));
  EXPECT_TRUE(m.contain(block_hash0, 3));
  EXPECT_EQ(m.get_one_block(block_hash1), nullptr);
  EXPECT_EQ(m.get_one_block(block_hash2), block2);

  pool._maybe_evict_cached_block(block0);
  EXPECT_EQ(m.size(), 2u);
  EXPECT_FALSE(m.contain(block_hash0, 0));
  EXPECT_EQ(m.get_one_block(block_hash0), block3);
  EXPECT_EQ(m.get_one_block(block_hash2), block2);

  pool._maybe_evict_cached_block(block2);
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.get_one_block(block_hash0), block3);

  pool._maybe_evict_cached_block(block3);
  EXPECT_EQ(m.size(), 0u);
}

}  // namespace
}  // namespace blis::vllm::testing
