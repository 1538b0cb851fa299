// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_prefix_caching.py@6e448d0e, the prefill tests
// (test_prefill, test_prefill_hybrid_model, test_prefill_hybrid_model_eagle,
// test_prefill_hybrid_model_combinations, test_prefill_hybrid_model_combinations_eagle).
#include <gtest/gtest.h>

#include <span>

#include "prefix_caching_test_util.h"

namespace blis::vllm::testing {
namespace {

void check_full_block_hash(KVCacheManager& manager, std::int64_t block_id, const BlockHash& expected,
                           std::int64_t group_id) {
  const auto& blk = manager.block_pool->blocks[static_cast<std::size_t>(block_id)];
  ASSERT_TRUE(blk.block_hash().has_value());
  EXPECT_EQ(get_block_hash(*blk.block_hash()), expected);
  EXPECT_EQ(get_group_id(*blk.block_hash()), group_id);
  EXPECT_EQ(blk.ref_cnt, 1);
}

void run_prefill(const HashFn& hash_fn) {
  init_hash(hash_fn);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 11), {.hash_block_size = block_size});
  const auto common_token_ids = common_tokens(3, 16);

  // Fully cache miss; incomplete 1 block (7 tokens).
  const auto all_token_ids = concat(common_token_ids, 3, 7);
  auto req0 = make_request("0", all_token_ids, block_size, hash_fn);
  auto [computed_blocks, num_computed_tokens, s0] = manager->get_computed_blocks(*req0);
  EXPECT_EQ(req0->block_hashes.size(), 3u);
  EXPECT_TRUE(computed_blocks.blocks[0].empty());
  EXPECT_EQ(num_computed_tokens, 0);
  auto blocks = manager->allocate_slots(*req0, 55, static_cast<std::int64_t>(computed_blocks.blocks[0].size()) * 16,
                                        &computed_blocks);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}}));

  // Full block metadata.
  std::optional<BlockHash> parent;
  for (std::int64_t block_id : {1, 2, 3}) {
    std::span<const std::int32_t> toks(all_token_ids.data() + (block_id - 1) * 16, 16);
    BlockHash h = hash_block_tokens(hash_fn, parent, toks);
    check_full_block_hash(*manager, block_id, h, 0);
    parent = h;
  }
  // Partial block metadata.
  EXPECT_FALSE(manager->block_pool->blocks[4].block_hash().has_value());
  EXPECT_EQ(manager->block_pool->blocks[4].ref_cnt, 1);

  // Cache hit in the common prefix when the original block is still in use (5 tokens).
  auto req1 = make_request("1", concat(common_token_ids, 3, 5), block_size, hash_fn);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(req1->block_hashes.size(), 3u);
  EXPECT_EQ(cb1.get_block_ids(), (Ids{{1, 2, 3}}));
  EXPECT_EQ(nct1, 3 * 16);
  blocks = manager->allocate_slots(*req1, 53 - 3 * 16, static_cast<std::int64_t>(cb1.blocks[0].size()) * 16, &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{5}}));
  for (auto* block : cb1.blocks[0]) EXPECT_EQ(block->ref_cnt, 2);

  auto& free_block_queue = manager->block_pool->free_block_queue;
  EXPECT_EQ(free_block_queue.num_free_blocks, 5);
  manager->free(*req0);
  manager->free(*req1);
  EXPECT_EQ(free_block_queue.num_free_blocks, 10);
  EXPECT_EQ(ids_of(free_block_queue.get_all_free_blocks()), (std::vector<std::int64_t>{5, 4, 6, 7, 8, 9, 10, 3, 2, 1}));

  // Cache hit in the common prefix when the original block is already free (6 tokens).
  auto req2 = make_request("2", concat(common_token_ids, 3, 6), block_size, hash_fn);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*req2);
  EXPECT_EQ(req2->block_hashes.size(), 3u);
  EXPECT_EQ(cb2.get_block_ids(), (Ids{{1, 2, 3}}));
  EXPECT_EQ(nct2, 3 * 16);
  blocks = manager->allocate_slots(*req2, 53 - 3 * 16, static_cast<std::int64_t>(cb2.blocks[0].size()) * 16, &cb2);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{5}}));  // reuse partial [5]
  EXPECT_EQ(free_block_queue.num_free_blocks, 6);
  const auto all_free = free_block_queue.get_all_free_blocks();
  for (auto* b : all_free) EXPECT_EQ(b->ref_cnt, 0);
  EXPECT_EQ(all_free.size(), 6u);
  manager->free(*req2);

  // Cache miss and eviction.
  auto req3 = make_request("3", std::vector<std::int32_t>(16 * 10, 99), block_size, hash_fn);
  auto [cb3, nct3, s3] = manager->get_computed_blocks(*req3);
  EXPECT_TRUE(cb3.blocks[0].empty());
  EXPECT_EQ(nct3, 0);
  blocks = manager->allocate_slots(*req3, 16 * 10, static_cast<std::int64_t>(cb3.blocks[0].size()) * 16, &cb3);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{5, 4, 6, 7, 8, 9, 10, 3, 2, 1}}));
  EXPECT_EQ(free_block_queue.num_free_blocks, 0);
  EXPECT_EQ(free_block_queue.fake_free_list_head.next_free_block, &free_block_queue.fake_free_list_tail);
  EXPECT_EQ(free_block_queue.fake_free_list_tail.prev_free_block, &free_block_queue.fake_free_list_head);
}

// test_prefix_caching.py@6e448d0e test_prefill (hash_fn = sha256)
TEST(PrefixCaching, PrefillSha256) { run_prefill(sha256); }
// test_prefix_caching.py@6e448d0e test_prefill (hash_fn = sha256_cbor)
TEST(PrefixCaching, PrefillSha256Cbor) { run_prefill(sha256_cbor); }

// test_prefix_caching.py@6e448d0e test_prefill_hybrid_model
TEST(PrefixCaching, PrefillHybridModel) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config_hybrid_model(block_size, 21, 2), {.hash_block_size = 16});
  const HashFn hash_fn = sha256;
  const std::int64_t num_full_blocks = 3;
  const auto common_token_ids = common_tokens(num_full_blocks, block_size);

  auto all_token_ids = concat(common_token_ids, 3, 7);
  auto req0 = make_request("0", all_token_ids, block_size, hash_fn);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_EQ(req0->block_hashes.size(), 3u);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, 55, static_cast<std::int64_t>(cb0.blocks[0].size()) * 16, &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}));

  std::optional<BlockHash> parent;
  const std::vector<std::vector<std::int64_t>> ids_by_length{{1, 5, 9}, {2, 6, 10}, {3, 7, 11}};
  for (std::int64_t length = 1; length <= 3; ++length) {
    std::span<const std::int32_t> toks(all_token_ids.data() + (length - 1) * 16, 16);
    BlockHash h = hash_block_tokens(hash_fn, parent, toks);
    for (std::int64_t group_id = 0; group_id < 3; ++group_id) {
      check_full_block_hash(*manager, ids_by_length[static_cast<std::size_t>(length - 1)][static_cast<std::size_t>(group_id)], h,
                            group_id);
    }
    parent = h;
  }
  for (std::int64_t block_id : {4, 8, 12}) {
    EXPECT_FALSE(manager->block_pool->blocks[static_cast<std::size_t>(block_id)].block_hash().has_value());
    EXPECT_EQ(manager->block_pool->blocks[static_cast<std::size_t>(block_id)].ref_cnt, 1);
  }

  all_token_ids = concat(common_token_ids, 3, 5);
  auto req1 = make_request("1", all_token_ids, block_size, hash_fn);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(req1->block_hashes.size(), 3u);
  EXPECT_EQ(cb1.get_block_ids(), (Ids{{1, 2, 3}, {0, 6, 7}, {0, 10, 11}}));
  EXPECT_EQ(nct1, 3 * 16);
  blocks = manager->allocate_slots(*req1, 53 - 3 * 16, static_cast<std::int64_t>(cb1.blocks[0].size()) * 16, &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{13}, {14}, {15}}));
  for (const auto& g : cb1.blocks) {
    for (auto* block : g) {
      if (block != manager->block_pool->null_block) {
        EXPECT_EQ(block->ref_cnt, 2);
      }
    }
  }
  const auto block_hashes = req1->block_hashes;
  manager->free(*req0);
  manager->free(*req1);

  auto h = [&](std::size_t i, std::int64_t g) { return make_block_hash_with_group_id(block_hashes[i], g); };
  // Evict the blocks outside sliding window, does not affect the hit length.
  test_partial_request_hit(*manager, block_size, num_full_blocks, "2", all_token_ids, {h(0, 1), h(0, 2)}, 3);
  // Evict the first block of full attention, makes total cache miss.
  test_partial_request_hit(*manager, block_size, num_full_blocks, "3", all_token_ids, {h(0, 0)}, 0);
  // Evict the last block of all layers, reduces the hit length to 2.
  test_partial_request_hit(*manager, block_size, num_full_blocks, "4", all_token_ids, {h(2, 0), h(2, 1), h(2, 2)}, 2);
  // Evict the last block of full attention, reduces the hit length to 2.
  test_partial_request_hit(*manager, block_size, num_full_blocks, "5", all_token_ids, {h(2, 0)}, 2);
  // Evict the last block of sliding window, reduces the hit length to 2.
  test_partial_request_hit(*manager, block_size, num_full_blocks, "6", all_token_ids, {h(2, 1)}, 2);
  test_partial_request_hit(*manager, block_size, num_full_blocks, "7", all_token_ids, {h(2, 2)}, 2);
  // Different sets of blocks evicted for full attention and sliding window: total cache miss.
  test_partial_request_hit(*manager, block_size, num_full_blocks, "8", all_token_ids, {h(2, 0), h(0, 1), h(0, 2)}, 0);
}

// test_prefix_caching.py@6e448d0e test_prefill_hybrid_model_eagle
TEST(PrefixCaching, PrefillHybridModelEagle) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(make_kv_cache_config_hybrid_model(block_size, 31, 3),
                                       {.hash_block_size = 16, .use_eagle = true});
  const HashFn hash_fn = sha256;
  const std::int64_t num_full_blocks = 6;
  const auto common_token_ids = common_tokens(num_full_blocks, block_size);

  auto all_token_ids = concat(common_token_ids, 6, 7);
  auto req0 = make_request("0", all_token_ids, block_size, hash_fn);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_EQ(static_cast<std::int64_t>(req0->block_hashes.size()), static_cast<std::int64_t>(all_token_ids.size()) / block_size);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, static_cast<std::int64_t>(all_token_ids.size()), nct0, &cb0);
  const Ids block_ids{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}, {15, 16, 17, 18, 19, 20, 21}};
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), block_ids);

  std::optional<BlockHash> parent;
  for (std::size_t i = 0; i < 6; ++i) {
    std::span<const std::int32_t> toks(all_token_ids.data() + i * 16, 16);
    BlockHash h = hash_block_tokens(hash_fn, parent, toks);
    for (std::int64_t group_id = 0; group_id < 3; ++group_id) {
      check_full_block_hash(*manager, block_ids[static_cast<std::size_t>(group_id)][i], h, group_id);
    }
    parent = h;
  }
  for (const auto& row : block_ids) {
    EXPECT_FALSE(manager->block_pool->blocks[static_cast<std::size_t>(row.back())].block_hash().has_value());
    EXPECT_EQ(manager->block_pool->blocks[static_cast<std::size_t>(row.back())].ref_cnt, 1);
  }

  all_token_ids = concat(common_token_ids, 6, 5);
  auto req1 = make_request("1", all_token_ids, block_size, hash_fn);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(static_cast<std::int64_t>(req1->block_hashes.size()), num_full_blocks);
  EXPECT_EQ(cb1.get_block_ids(), (Ids{{1, 2, 3, 4, 5}, {0, 0, 10, 11, 12}, {0, 0, 17, 18, 19}}));
  EXPECT_EQ(nct1, 5 * block_size);
  blocks = manager->allocate_slots(*req1, static_cast<std::int64_t>(all_token_ids.size()) - nct1, nct1, &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids(), (Ids{{22, 23}, {24, 25}, {26, 27}}));
  for (const auto& g : cb1.blocks) {
    for (auto* block : g) {
      if (block != manager->block_pool->null_block) {
        EXPECT_EQ(block->ref_cnt, 2);
      }
    }
  }
  const auto block_hashes = req1->block_hashes;
  manager->free(*req0);
  manager->free(*req1);

  const std::size_t last = block_hashes.size() - 1;
  auto h = [&](std::size_t i, std::int64_t g) { return make_block_hash_with_group_id(block_hashes[i], g); };
  test_partial_request_hit(*manager, block_size, num_full_blocks, "2", all_token_ids, {h(0, 1), h(0, 2)}, 5);
  test_partial_request_hit(*manager, block_size, num_full_blocks, "3", all_token_ids, {h(0, 0)}, 0);
  test_partial_request_hit(*manager, block_size, num_full_blocks, "4", all_token_ids,
                           {h(last, 0), h(last, 1), h(last, 2)}, 4);
  test_partial_request_hit(*manager, block_size, num_full_blocks, "5", all_token_ids, {h(last, 0)}, 4);
  test_partial_request_hit(*manager, block_size, num_full_blocks, "6", all_token_ids, {h(last - 1, 1)}, 3);
  test_partial_request_hit(*manager, block_size, num_full_blocks, "7", all_token_ids, {h(last - 1, 2)}, 3);
  test_partial_request_hit(*manager, block_size, num_full_blocks, "8", all_token_ids,
                           {h(last, 0), h(0, 1), h(0, 2)}, 4);
}

void run_hybrid_combination(const std::vector<std::string>& spec_types) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  const auto num_groups = spec_types.size();
  auto manager = make_kv_cache_manager(
      make_hybrid_kv_cache_config(block_size, 10 * static_cast<std::int64_t>(num_groups), spec_types),
      {.hash_block_size = block_size});
  const auto common_token_ids = common_tokens(3, block_size);
  auto req0 = make_request("0", concat(common_token_ids, 3, 7), block_size, sha256);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_EQ(req0->block_hashes.size(), 3u);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, 55, static_cast<std::int64_t>(cb0.blocks[0].size()) * block_size, &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids().size(), num_groups);
  manager->new_step_starts();

  auto req1 = make_request("1", concat(common_token_ids, 4, 5), block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(nct1, 3 * block_size);
  EXPECT_EQ(cb1.blocks.size(), num_groups);
  blocks = manager->allocate_slots(*req1, static_cast<std::int64_t>(common_token_ids.size()) + 5 - nct1, nct1, &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids().size(), num_groups);
  manager->free(*req0);
  manager->free(*req1);
}

// test_prefix_caching.py@6e448d0e test_prefill_hybrid_model_combinations (the parametrizations without
// Mamba; the Mamba ones are refused by this port, see HybridMambaRefused)
TEST(PrefixCaching, PrefillHybridModelCombinations) {
  const std::vector<std::vector<std::string>> cases{
      {"full", "sliding_window"},
      {"sliding_window", "sliding_window_large"},
      {"full", "sliding_window", "sliding_window"},
      {"full", "sliding_window", "sliding_window_large"},
      {"full", "full", "sliding_window"},
      {"full", "sliding_window", "full", "sliding_window_large"},
      {"full", "sliding_window", "full", "sliding_window_large"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c));
    run_hybrid_combination(c);
  }
}

// The Mamba parametrizations of test_prefill_hybrid_model_combinations: MambaManager is not ported, so
// building the manager must fail naming the spec type.
TEST(PrefixCaching, HybridMambaRefused) {
  KVCacheConfig c = make_kv_cache_config(16, 20);
  MambaSpec::Args a;
  a.block_size = 16;
  a.shapes = {{1}, {1}};
  a.dtypes = {"float32"};
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer1"}, std::make_shared<MambaSpec>(a), false});
  try {
    make_kv_cache_manager(c, {.hash_block_size = 16});
    FAIL() << "a MambaSpec group must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("MambaSpec"), std::string::npos) << e.what();
  }
}

// test_prefix_caching.py@6e448d0e test_prefill_hybrid_model_combinations_eagle (["full",
// "sliding_window"], expect_hit_length 3)
TEST(PrefixCaching, PrefillHybridModelCombinationsEagle) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  const std::vector<std::string> spec_types{"full", "sliding_window"};
  const std::int64_t expect_hit_length = 3;
  auto manager = make_kv_cache_manager(make_hybrid_kv_cache_config(block_size, 20, spec_types),
                                       {.hash_block_size = block_size, .use_eagle = true});
  const std::int64_t num_full_blocks = 4;
  const auto common_token_ids = common_tokens(num_full_blocks, block_size);
  auto all_token_ids = concat(common_token_ids, 4, 7);
  auto req0 = make_request("0", all_token_ids, block_size, sha256);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_EQ(static_cast<std::int64_t>(req0->block_hashes.size()), num_full_blocks);
  EXPECT_TRUE(cb0.blocks[0].empty());
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, static_cast<std::int64_t>(all_token_ids.size()), nct0, &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids().size(), 2u);

  all_token_ids = concat(common_token_ids, 6, 5);
  auto req1 = make_request("1", all_token_ids, block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(nct1, expect_hit_length * block_size);
  EXPECT_EQ(cb1.blocks.size(), 2u);
  for (const auto& g : cb1.blocks) EXPECT_EQ(static_cast<std::int64_t>(g.size()), expect_hit_length);
  blocks = manager->allocate_slots(*req1, static_cast<std::int64_t>(all_token_ids.size()) - nct1, nct1, &cb1);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(blocks->get_block_ids().size(), 2u);
  manager->free(*req0);
  manager->free(*req1);
}

}  // namespace
}  // namespace blis::vllm::testing
