// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_prefix_caching.py@6e448d0e: the block lookup
// map (test_block_lookup_cache_*), the full-sequence admission gate (test_can_fit_full_sequence_*) and
// local + external computed tokens across groups (test_cache_hit_local_and_external*).
#include <gtest/gtest.h>

#include <set>

#include "prefix_caching_test_util.h"

namespace blis::vllm::testing {
namespace {

// test_prefix_caching.py@6e448d0e test_block_lookup_cache_single_block_per_key
TEST(PrefixCaching, BlockLookupCacheSingleBlockPerKey) {
  BlockHashToBlockMap cache;
  const BlockHashWithGroupId key0{"hash0"}, key1{"hash1"}, key2{"hash2"};
  KVCacheBlock block0(0), block1(1);
  auto check = [&](KVCacheBlock* e0, KVCacheBlock* e1) {
    EXPECT_EQ(cache.get_one_block(key0), e0);
    EXPECT_EQ(cache.get_one_block(key1), e1);
    EXPECT_EQ(cache.get_one_block(key2), nullptr);
  };
  check(nullptr, nullptr);
  cache.insert(key0, &block0);
  check(&block0, nullptr);
  cache.insert(key1, &block1);
  check(&block0, &block1);
  EXPECT_EQ(cache.pop(key0, 100), nullptr);
  check(&block0, &block1);
  EXPECT_EQ(cache.pop(key0, 0), &block0);
  check(nullptr, &block1);
  EXPECT_EQ(cache.pop(key0, 1), nullptr);
  check(nullptr, &block1);
  EXPECT_EQ(cache.pop(key1, 1), &block1);
  check(nullptr, nullptr);
}

// test_prefix_caching.py@6e448d0e test_block_lookup_cache_multi_blocks_per_key
TEST(PrefixCaching, BlockLookupCacheMultiBlocksPerKey) {
  BlockHashToBlockMap cache;
  const BlockHashWithGroupId key0{"hash0"}, key1{"hash1"};
  KVCacheBlock block00(0), block01(1), block10(10), block11(11);
  EXPECT_EQ(cache.get_one_block(key0), nullptr);
  EXPECT_EQ(cache.get_one_block(key1), nullptr);
  cache.insert(key0, &block00);
  cache.insert(key0, &block01);
  cache.insert(key1, &block10);
  cache.insert(key1, &block11);
  EXPECT_EQ(cache.get_one_block(key0), &block00);
  EXPECT_EQ(cache.pop(key0, 0), &block00);
  EXPECT_EQ(cache.get_one_block(key0), &block01);
  EXPECT_EQ(cache.pop(key0, 1), &block01);
  EXPECT_EQ(cache.get_one_block(key0), nullptr);
  EXPECT_EQ(cache.pop(key0, 2), nullptr);
  EXPECT_EQ(cache.get_one_block(key1), &block10);
  EXPECT_EQ(cache.pop(key1, 10), &block10);
  EXPECT_EQ(cache.get_one_block(key1), &block11);
  EXPECT_EQ(cache.pop(key1, 11), &block11);
  EXPECT_EQ(cache.get_one_block(key1), nullptr);
  EXPECT_EQ(cache.pop(key1, 12), nullptr);
}

KVCacheConfig full_plus_swa_cfg(std::int64_t num_blocks, std::int64_t block_size, std::int64_t sliding_window) {
  KVCacheConfig c;
  c.num_blocks = num_blocks;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer_full"}, full_spec(block_size), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer_swa"}, sw_spec(block_size, sliding_window), false});
  return c;
}

// test_prefix_caching.py@6e448d0e test_can_fit_full_sequence_swa_cap_admits_long_prompt
TEST(PrefixCaching, CanFitFullSequenceSwaCapAdmitsLongPrompt) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  const std::int64_t max_num_batched_tokens = 8 * block_size;
  const std::int64_t max_model_len = 64 * block_size;
  auto manager = make_kv_cache_manager(full_plus_swa_cfg(64 + 13 + 1, block_size, 4 * block_size),
                                       {.max_model_len = max_model_len, .hash_block_size = block_size,
                                        .max_in_flight_tokens = max_num_batched_tokens});
  auto req = make_request("long", token_range(0, 32 * block_size), block_size, sha256);
  EXPECT_TRUE(manager->allocate_slots(*req, block_size, 0, nullptr, 0, 0, false, 0, /*full_sequence_must_fit=*/true)
                  .has_value());
}

// test_prefix_caching.py@6e448d0e test_can_fit_full_sequence_full_attention_still_gates_oversized
TEST(PrefixCaching, CanFitFullSequenceFullAttentionStillGatesOversized) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(full_plus_swa_cfg(5, block_size, 4 * block_size),
                                       {.max_model_len = 64 * block_size, .hash_block_size = block_size,
                                        .max_in_flight_tokens = 8 * block_size});
  auto req = make_request("oversized", token_range(0, 16 * block_size), block_size, sha256);
  EXPECT_FALSE(manager->allocate_slots(*req, block_size, 0, nullptr, 0, 0, false, 0, /*full_sequence_must_fit=*/true)
                   .has_value());
}

// _take_free_blocks: the first num_blocks blocks at the head of the free queue, left in place.
std::vector<KVCacheBlock*> take_free_blocks(KVCacheManager& manager, std::size_t num_blocks) {
  std::vector<KVCacheBlock*> blocks;
  KVCacheBlock* head = &manager.block_pool->free_block_queue.fake_free_list_head;
  for (std::size_t i = 0; i < num_blocks; ++i) {
    head = head->next_free_block;
    blocks.push_back(head);
  }
  return blocks;
}

// _assert_no_double_allocation.
void assert_no_double_allocation(KVCacheManager& manager, const std::string& req_id) {
  const auto block_ids = manager.get_blocks(req_id).get_block_ids();
  std::vector<std::int64_t> flat;
  for (const auto& g : block_ids) flat.insert(flat.end(), g.begin(), g.end());
  EXPECT_EQ(std::set<std::int64_t>(flat.begin(), flat.end()).size(), flat.size()) << "Block IDs are not unique";
  const std::int64_t null_id = manager.block_pool->null_block->block_id;
  for (auto id : flat) {
    if (id == null_id) continue;
    EXPECT_GE(manager.block_pool->blocks[static_cast<std::size_t>(id)].ref_cnt, 1) << "block " << id;
  }
}

// _make_two_phase_manager.
std::unique_ptr<KVCacheManager> make_two_phase_manager(std::size_t num_groups) {
  const std::int64_t block_size = 16;
  auto c = make_kv_cache_config_hybrid_model(block_size, 31, 100);
  c.kv_cache_groups.resize(num_groups);
  return make_kv_cache_manager(c, {.hash_block_size = block_size, .use_eagle = true});
}

// _cross_group_cache_hit (local_blocks_per_group 5, num_external_blocks 2, num_new_blocks 1).
std::unique_ptr<Request> cross_group_cache_hit(KVCacheManager& manager, const std::string& req_id,
                                               std::size_t num_groups) {
  const std::int64_t block_size = manager.kv_cache_config.kv_cache_groups[0].kv_cache_spec->block_size;
  const std::size_t local = 5;
  const std::int64_t num_external_blocks = 2, num_new_blocks = 1;
  auto hit_blocks = take_free_blocks(manager, num_groups * local);
  KVCacheBlocks cache_hit;
  for (std::size_t i = 0; i < num_groups; ++i) {
    cache_hit.blocks.emplace_back(hit_blocks.begin() + static_cast<std::ptrdiff_t>(i * local),
                                  hit_blocks.begin() + static_cast<std::ptrdiff_t>((i + 1) * local));
  }
  const std::int64_t prompt_blocks = static_cast<std::int64_t>(local) + num_external_blocks + num_new_blocks;
  auto request = make_request(req_id, std::vector<std::int32_t>(static_cast<std::size_t>(prompt_blocks * block_size), 0),
                              block_size, sha256);
  manager.allocate_slots(*request, num_new_blocks * block_size, static_cast<std::int64_t>(local) * block_size,
                         &cache_hit, 0, num_external_blocks * block_size);
  return request;
}

// test_prefix_caching.py@6e448d0e test_cache_hit_local_and_external
TEST(PrefixCaching, CacheHitLocalAndExternal) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto c = make_kv_cache_config_hybrid_model(block_size, 31, 100);
  c.kv_cache_groups.resize(2);
  auto manager = make_kv_cache_manager(c, {.hash_block_size = block_size, .use_eagle = true});
  auto top_blocks = take_free_blocks(*manager, 10);
  KVCacheBlocks cache_hit{{std::vector<KVCacheBlock*>(top_blocks.begin(), top_blocks.begin() + 5),
                           std::vector<KVCacheBlock*>(top_blocks.begin() + 5, top_blocks.end())},
                          false};
  auto req = make_request("test", std::vector<std::int32_t>(8 * block_size, 0), block_size, sha256);
  manager->allocate_slots(*req, 16, 5 * block_size, &cache_hit, 0, 2 * block_size);
  const auto ids = manager->get_blocks("test").get_block_ids();
  std::vector<std::int64_t> all(ids[0]);
  all.insert(all.end(), ids[1].begin(), ids[1].end());
  EXPECT_EQ(std::set<std::int64_t>(all.begin(), all.end()).size(), all.size()) << "Block IDs are not unique";
}

// test_prefix_caching.py@6e448d0e test_cache_hit_local_and_external_three_groups
TEST(PrefixCaching, CacheHitLocalAndExternalThreeGroups) {
  init_hash(sha256);
  auto manager = make_two_phase_manager(3);
  cross_group_cache_hit(*manager, "test", 3);
  assert_no_double_allocation(*manager, "test");
}

void run_preempt_and_reallocate(std::size_t num_groups) {
  init_hash(sha256);
  auto manager = make_two_phase_manager(num_groups);
  auto request = cross_group_cache_hit(*manager, "test", num_groups);
  assert_no_double_allocation(*manager, "test");
  manager->free(*request);
  EXPECT_EQ(manager->get_blocks("test").get_block_ids(), Ids(num_groups));
  cross_group_cache_hit(*manager, "test", num_groups);
  assert_no_double_allocation(*manager, "test");
  EXPECT_NE(manager->get_blocks("test").get_block_ids(), Ids(num_groups));
}

// test_prefix_caching.py@6e448d0e test_cache_hit_local_and_external_three_groups_preempt_and_reallocate
TEST(PrefixCaching, CacheHitLocalAndExternalThreeGroupsPreemptAndReallocate) { run_preempt_and_reallocate(3); }

// test_prefix_caching.py@6e448d0e test_cache_hit_local_and_external_two_groups_preempt_and_reallocate
TEST(PrefixCaching, CacheHitLocalAndExternalTwoGroupsPreemptAndReallocate) { run_preempt_and_reallocate(2); }

}  // namespace
}  // namespace blis::vllm::testing
