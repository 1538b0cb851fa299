// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_prefix_caching.py@6e448d0e, the single-group
// basics (test_prefill_plp, test_decode, test_evict, test_hash_block_correct_reuse,
// test_computed_blocks_not_evicted, test_basic_prefix_caching_disabled).
#include <gtest/gtest.h>

#include <span>

#include "prefix_caching_test_util.h"

namespace blis::vllm::testing {
namespace {

// test_prefix_caching.py@6e448d0e test_prefill_plp. A prompt-logprobs request is one whose
// skip_reading_prefix_cache is set (upstream's Request sets it from sampling_params.prompt_logprobs).
TEST(PrefixCaching, PrefillPlp) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11), {.hash_block_size = block_size});
  const HashFn hash_fn = sha256;
  const auto common_token_ids = common_tokens(3, 16);

  const auto all_token_ids = concat(common_token_ids, 3, 7);
  auto req0 = make_request("0", all_token_ids, block_size, hash_fn);
  req0->skip_reading_prefix_cache = true;  // prompt_logprobs=5
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_EQ(req0->block_hashes.size(), 3u);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, 55, n0(cb0), &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}}));
  std::vector<std::optional<BlockHashWithGroupId>> req0_block_hashes;
  for (auto* b : blocks->blocks[0]) req0_block_hashes.push_back(b->block_hash());

  std::optional<BlockHash> parent;
  for (std::int64_t block_id : {1, 2, 3}) {
    std::span<const std::int32_t> toks(all_token_ids.data() + (block_id - 1) * 16, 16);
    BlockHash h = hash_block_tokens(hash_fn, parent, toks);
    const auto& blk = manager->block_pool->blocks[static_cast<std::size_t>(block_id)];
    ASSERT_TRUE(blk.block_hash().has_value());
    EXPECT_EQ(get_block_hash(*blk.block_hash()), h);
    EXPECT_EQ(get_group_id(*blk.block_hash()), 0);
    EXPECT_EQ(blk.ref_cnt, 1);
    parent = h;
  }
  EXPECT_FALSE(manager->block_pool->blocks[4].block_hash().has_value());
  EXPECT_EQ(manager->block_pool->blocks[4].ref_cnt, 1);

  auto req1 = make_request("1", concat(common_token_ids, 3, 5), block_size, hash_fn);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(req1->block_hashes.size(), 3u);
  EXPECT_EQ(cb1.get_block_ids(), (Ids{{1, 2, 3}}));
  EXPECT_EQ(nct1, 3 * 16);
  blocks = manager->allocate_slots(*req1, 53 - 3 * 16, n0(cb1), &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{5}}));
  for (auto* block : cb1.blocks[0]) EXPECT_EQ(block->ref_cnt, 2);
  EXPECT_EQ(manager->block_pool->free_block_queue.num_free_blocks, 5);
  manager->free(*req0);
  manager->free(*req1);
  EXPECT_EQ(manager->block_pool->free_block_queue.num_free_blocks, 10);
  EXPECT_EQ(ids_of(manager->block_pool->free_block_queue.get_all_free_blocks()),
            (std::vector<std::int64_t>{5, 4, 6, 7, 8, 9, 10, 3, 2, 1}));

  // Request #2 is a prompt-logprobs request: no cache hit; duplicates request #0's cached blocks.
  auto req2 = make_request("2", concat(common_token_ids, 3, 6), block_size, hash_fn);
  req2->skip_reading_prefix_cache = true;
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  EXPECT_EQ(req2->block_hashes.size(), 3u);
  EXPECT_TRUE(cb2.blocks[0].empty());
  EXPECT_EQ(nct2, 0);
  blocks = manager->allocate_slots(*req2, 55, n0(cb2), &cb2);
  ASSERT_TRUE(blocks.has_value());
  const auto block_ids = blocks->get_block_ids();
  std::vector<std::optional<BlockHashWithGroupId>> req2_block_hashes;
  for (auto* b : blocks->blocks[0]) req2_block_hashes.push_back(b->block_hash());
  EXPECT_EQ(req2_block_hashes, req0_block_hashes);
  EXPECT_NE(block_ids, (Ids{{1, 2, 3, 4}}));
  for (auto block_id : block_ids[0]) EXPECT_EQ(manager->block_pool->blocks[static_cast<std::size_t>(block_id)].ref_cnt, 1);
  manager->free(*req2);
}

// test_prefix_caching.py@6e448d0e test_decode
TEST(PrefixCaching, Decode) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11), {.hash_block_size = block_size});
  const auto common_token_ids = common_tokens(3, 16);
  auto req0 = make_request("0", concat(common_token_ids, 3, 7), block_size, sha256);
  auto [cb, nct, s] = manager->get_computed_blocks(*req0);
  EXPECT_TRUE(cb.blocks[0].empty());
  EXPECT_EQ(nct, 0);
  auto blocks = manager->allocate_slots(*req0, 55, n0(cb), &cb);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}}));

  // Append slots without allocating a new block.
  req0->num_computed_tokens = 55;
  for (int i = 0; i < 4; ++i) req0->append_output_token_ids({8});
  auto new_blocks = manager->allocate_slots(*req0, 4, n0(cb), &cb);
  ASSERT_TRUE(new_blocks.has_value());
  EXPECT_EQ(new_blocks->blocks[0].size(), 0u);
  EXPECT_FALSE(manager->coordinator->single_type_managers[0]->req_to_blocks["0"].back()->block_hash().has_value());

  // Append slots with allocating a new block.
  req0->num_computed_tokens = 59;
  for (int i = 0; i < 9 + 10; ++i) req0->append_output_token_ids({7});
  new_blocks = manager->allocate_slots(*req0, 19, n0(cb), &cb);
  ASSERT_TRUE(new_blocks.has_value());
  EXPECT_EQ(new_blocks->blocks[0].size(), 1u);
  const auto& rb = manager->coordinator->single_type_managers[0]->req_to_blocks["0"];
  EXPECT_TRUE(rb[rb.size() - 2]->block_hash().has_value());
  EXPECT_FALSE(rb.back()->block_hash().has_value());
}

// test_prefix_caching.py@6e448d0e test_evict
TEST(PrefixCaching, Evict) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11), {.hash_block_size = block_size});
  std::int64_t last_token_id = 5 * 16 + 7;
  auto req0 = make_request("0", token_range(0, last_token_id), block_size, sha256);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, 5 * 16 + 7, n0(cb0), &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->blocks[0].size(), 6u);

  auto req1 = make_request("1", token_range(last_token_id, last_token_id + 3 * 16), block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_TRUE(cb1.blocks[0].empty());
  EXPECT_EQ(nct1, 0);
  blocks = manager->allocate_slots(*req1, 3 * 16, n0(cb1), &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->blocks[0].size(), 3u);
  last_token_id += 3 * 16;
  EXPECT_EQ(manager->block_pool->free_block_queue.num_free_blocks, 1);

  manager->free(*req0);
  EXPECT_EQ(ids_of(manager->block_pool->free_block_queue.get_all_free_blocks()),
            (std::vector<std::int64_t>{6, 10, 5, 4, 3, 2, 1}));
  manager->free(*req1);
  EXPECT_EQ(manager->block_pool->free_block_queue.num_free_blocks, 10);
  EXPECT_EQ(ids_of(manager->block_pool->free_block_queue.get_all_free_blocks()),
            (std::vector<std::int64_t>{6, 10, 5, 4, 3, 2, 1, 9, 8, 7}));

  // Touch the first 2 blocks.
  auto req2 = make_request("2", token_range(0, 2 * 16 + 3), block_size, sha256);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  EXPECT_EQ(cb2.get_block_ids(), (Ids{{1, 2}}));
  EXPECT_EQ(nct2, 2 * 16);
  blocks = manager->allocate_slots(*req2, 3, n0(cb2), &cb2);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{6}}));
  EXPECT_EQ(manager->block_pool->free_block_queue.num_free_blocks, 7);
}

// test_prefix_caching.py@6e448d0e test_hash_block_correct_reuse
TEST(PrefixCaching, HashBlockCorrectReuse) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(16, 2), {.hash_block_size = block_size});
  const std::int64_t num_tokens = block_size * 1;
  auto req = make_request("0", token_range(0, num_tokens), block_size, sha256);
  auto [cb, nct, s] = manager->get_computed_blocks(*req);
  EXPECT_TRUE(cb.blocks[0].empty());
  EXPECT_EQ(nct, 0);
  auto blocks = manager->allocate_slots(*req, num_tokens, n0(cb), &cb);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->blocks[0].size(), 1u);
  manager->free(*req);

  auto req1 = make_request("1", token_range(0, num_tokens - 1), block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_TRUE(cb1.blocks[0].empty());
  EXPECT_EQ(nct1, 0);
  blocks = manager->allocate_slots(*req1, num_tokens - 1, n0(cb1), &cb1);
  ASSERT_TRUE(blocks.has_value());
  ASSERT_EQ(blocks->blocks[0].size(), 1u);
  EXPECT_FALSE(manager->block_pool->blocks[static_cast<std::size_t>(blocks->blocks[0][0]->block_id)].block_hash().has_value());
}

// test_prefix_caching.py@6e448d0e test_computed_blocks_not_evicted
TEST(PrefixCaching, ComputedBlocksNotEvicted) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 3), {.hash_block_size = block_size});
  const std::int64_t num_tokens = block_size * 1;
  auto req0 = make_request("0", token_range(0, num_tokens), block_size, sha256);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, num_tokens, n0(cb0), &cb0);
  ASSERT_TRUE(blocks.has_value());
  ASSERT_EQ(blocks->blocks[0].size(), 1u);
  EXPECT_EQ(blocks->blocks[0][0]->block_id, 1);

  auto req1 = make_request("1", token_range(num_tokens, num_tokens * 2), block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_TRUE(cb1.blocks[0].empty());
  EXPECT_EQ(nct1, 0);
  blocks = manager->allocate_slots(*req1, num_tokens, n0(cb1), &cb1);
  ASSERT_TRUE(blocks.has_value());
  ASSERT_EQ(blocks->blocks[0].size(), 1u);
  EXPECT_EQ(blocks->blocks[0][0]->block_id, 2);
  manager->free(*req0);
  manager->free(*req1);

  auto req2 = make_request("2", token_range(0, num_tokens * 2), block_size, sha256);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  ASSERT_EQ(cb2.blocks[0].size(), 1u);
  EXPECT_EQ(cb2.blocks[0][0]->block_id, 1);
  EXPECT_EQ(nct2, block_size);
  blocks = manager->allocate_slots(*req2, num_tokens * 2 - num_tokens, n0(cb2), &cb2);
  ASSERT_TRUE(blocks.has_value());
  ASSERT_EQ(blocks->blocks[0].size(), 1u);
  EXPECT_EQ(blocks->blocks[0][0]->block_id, 2);
}

// test_prefix_caching.py@6e448d0e test_basic_prefix_caching_disabled
TEST(PrefixCaching, BasicPrefixCachingDisabled) {
  init_hash(sha256);
  const std::int64_t block_size = 4;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 5),
                                       {.enable_caching = false, .hash_block_size = block_size});
  auto req1 = make_request("1", token_range(0, 10), block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_TRUE(cb1.blocks[0].empty());
  EXPECT_EQ(nct1, 0);
  auto blocks = manager->allocate_slots(*req1, 10, n0(cb1), &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->blocks[0].size(), 3u);
  manager->free(*req1);

  auto req2 = make_request("2", token_range(0, 16), block_size, sha256);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  EXPECT_TRUE(cb2.blocks[0].empty());
  EXPECT_EQ(nct2, 0);
  blocks = manager->allocate_slots(*req2, 16, n0(cb2), &cb2);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->blocks[0].size(), 4u);

  auto req3 = make_request("3", token_range(0, 4), block_size, sha256);
  auto [cb3, nct3, s3] = manager->get_computed_blocks(*req3);
  EXPECT_TRUE(cb3.blocks[0].empty());
  EXPECT_EQ(nct3, 0);
  blocks = manager->allocate_slots(*req3, 4, n0(cb3), &cb3);
  EXPECT_FALSE(blocks.has_value());
}

}  // namespace
}  // namespace blis::vllm::testing
