// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_single_type_kv_cache_manager.py@6e448d0e
// (all but test_rswa_remove_skipped_blocks_gap_range: RSWASpec is not ported).
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "v1/core/block_pool.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/core/single_type_kv_cache_manager.h"
#include "v1/kv_cache_interface.h"

namespace blis::vllm {
namespace {

std::shared_ptr<const SlidingWindowSpec> make_sw_spec(std::int64_t block_size, std::int64_t sliding_window) {
  SlidingWindowSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = 1;
  a.head_size = 1;
  a.dtype = "float32";
  a.sliding_window = sliding_window;
  return std::make_shared<SlidingWindowSpec>(a);
}

std::shared_ptr<const ChunkedLocalAttentionSpec> make_cl_spec(std::int64_t block_size, std::int64_t chunk) {
  ChunkedLocalAttentionSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = 1;
  a.head_size = 1;
  a.dtype = "float32";
  a.attention_chunk_size = chunk;
  return std::make_shared<ChunkedLocalAttentionSpec>(a);
}

// test_single_type_kv_cache_manager.py@6e448d0e get_sliding_window_manager (admission cap 10**9).
std::unique_ptr<SlidingWindowManager> get_sliding_window_manager(const KVCacheSpecPtr& spec, BlockPool* pool,
                                                                 bool enable_caching = true) {
  return std::make_unique<SlidingWindowManager>(spec, pool, enable_caching, 0, spec->block_size, 1, 1, false,
                                                1000000000);
}

// test_single_type_kv_cache_manager.py@6e448d0e get_chunked_local_attention_manager.
std::unique_ptr<ChunkedLocalAttentionManager> get_chunked_local_attention_manager(const KVCacheSpecPtr& spec,
                                                                                  BlockPool* pool,
                                                                                  bool enable_caching = true) {
  return std::make_unique<ChunkedLocalAttentionManager>(spec, pool, enable_caching, 0, spec->block_size, 1, 1, false,
                                                        1000000000);
}

// The cached-block setup of run_one_case: hash i -> block_pool.blocks[i + 10] for every cached i. A fresh
// BlockPool per case stands in for `cached_block_hash_to_block._cache.clear()` (its map is private here).
std::vector<BlockHash> setup_cached(BlockPool& pool, const std::vector<bool>& block_is_cached) {
  std::vector<BlockHash> hashes;
  for (std::size_t i = 0; i < block_is_cached.size(); ++i) hashes.push_back(BlockHash{std::to_string(i)});
  for (std::size_t i = 0; i < block_is_cached.size(); ++i) {
    if (block_is_cached[i]) {
      pool.cached_block_hash_to_block.insert(make_block_hash_with_group_id(hashes[i], 0), &pool.blocks[i + 10]);
    }
  }
  return hashes;
}

std::vector<bool> repeat_then(bool v, std::vector<bool> tail) {
  std::vector<bool> out(8, v);
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

// test_single_type_kv_cache_manager.py@6e448d0e test_chunked_local_attention_possible_cached_prefix
TEST(SingleTypeKVCacheManager, ChunkedLocalAttentionPossibleCachedPrefix) {
  const std::int64_t block_size = 2;
  auto spec = make_cl_spec(block_size, 4);
  auto run_one_case = [&](const std::vector<bool>& block_is_cached, std::int64_t tail_token, std::size_t expect_length) {
    BlockPool block_pool(100, true, block_size);
    auto manager = get_chunked_local_attention_manager(spec, &block_pool);
    auto hashes = setup_cached(block_pool, block_is_cached);
    auto [hit, len] = manager->find_longest_cache_hit(
        hashes, static_cast<std::int64_t>(hashes.size()) * block_size + tail_token, {0}, block_pool, *spec, false,
        block_size);
    const auto& computed_blocks = hit[0];
    EXPECT_EQ(computed_blocks.size(), expect_length);
    // computed_blocks[: (expect_length - 1) // 2] are null blocks (Python floor division).
    const std::int64_t n_null = floor_div(static_cast<std::int64_t>(expect_length) - 1, 2);
    for (std::int64_t i = 0; i < n_null && i < static_cast<std::int64_t>(computed_blocks.size()); ++i) {
      EXPECT_EQ(computed_blocks[static_cast<std::size_t>(i)], block_pool.null_block);
    }
  };
  run_one_case({true}, 0, 1);
  run_one_case({true}, 1, 1);
  run_one_case({true, false}, 0, 2);
  run_one_case({true, false}, 1, 2);
  run_one_case({true, true}, 0, 2);
  run_one_case({true, true}, 1, 2);
  run_one_case({true, true, false}, 0, 2);
  run_one_case({true, true, false}, 1, 2);
  run_one_case({true, true, true}, 0, 3);
  run_one_case({true, true, true}, 1, 3);
  run_one_case({true, true, true, false}, 0, 4);
  run_one_case({true, true, true, false}, 1, 4);
  // `[random.choice([True, False])] * 8 + ...`: both choices are run.
  for (bool v : {true, false}) {
    run_one_case(repeat_then(v, {true}), 1, 9);
    run_one_case(repeat_then(v, {false}), 1, 8);
    run_one_case(repeat_then(v, {true, true}), 1, 10);
    run_one_case(repeat_then(v, {true, false}), 0, 10);
    run_one_case(repeat_then(v, {true, false}), 1, 10);
    run_one_case(repeat_then(v, {false, true}), 0, 10);
    run_one_case(repeat_then(v, {false, true}), 1, 10);
    run_one_case(repeat_then(v, {false, false}), 0, 10);
    run_one_case(repeat_then(v, {false, false}), 1, 10);
  }
}

// test_single_type_kv_cache_manager.py@6e448d0e test_sliding_window_possible_cached_prefix
TEST(SingleTypeKVCacheManager, SlidingWindowPossibleCachedPrefix) {
  const std::int64_t block_size = 2;
  auto spec = make_sw_spec(block_size, 4);
  auto run_one_case = [&](const std::vector<bool>& block_is_cached, std::int64_t expect_length) {
    BlockPool block_pool(100, true, block_size);
    auto manager = get_sliding_window_manager(spec, &block_pool);
    auto hashes = setup_cached(block_pool, block_is_cached);
    auto [hit, len] = manager->find_longest_cache_hit(hashes, static_cast<std::int64_t>(hashes.size()) * block_size,
                                                      {0}, block_pool, *spec, false, block_size);
    const auto& computed_blocks = hit[0];
    ASSERT_EQ(static_cast<std::int64_t>(computed_blocks.size()), expect_length);
    for (std::int64_t i = 0; i < expect_length - 2; ++i) {
      EXPECT_EQ(computed_blocks[static_cast<std::size_t>(i)], block_pool.null_block);
    }
    for (std::int64_t i = 0; i < 2; ++i) {
      if (i < expect_length) {
        const std::int64_t block_index = expect_length - i - 1;
        EXPECT_EQ(computed_blocks[static_cast<std::size_t>(block_index)]->block_id, block_index + 10);
      }
    }
  };
  run_one_case(std::vector<bool>(10, false), 0);
  run_one_case({true}, 1);
  run_one_case({true, false}, 1);
  run_one_case({true, true}, 2);
  run_one_case({true, true, false}, 2);
  run_one_case({true, true, true}, 3);
  run_one_case({true, true, true, false}, 3);
  run_one_case({true, true, false, true, false, false, true, true, false, true, true, true}, 12);
  run_one_case({true, true, false, true, false, false, true, true, false, false, false}, 8);
  run_one_case({true, true, false, true, false, false, true, true, false, false, false, true}, 8);
}

// Standalone KVCacheBlock(id) objects of the remove_skipped_blocks tests (outside the pool).
struct LooseBlocks {
  std::deque<KVCacheBlock> storage;
  std::vector<KVCacheBlock*> table(const std::vector<std::int64_t>& ids) {
    std::vector<KVCacheBlock*> t;
    for (auto id : ids) {
      storage.emplace_back(id);
      t.push_back(&storage.back());
    }
    return t;
  }
};

// assert_block_id: zip(block_table, ids), a null id meaning the pool's null block.
void assert_block_id(const std::vector<KVCacheBlock*>& block_table, const std::vector<std::int64_t>& ids,
                     const BlockPool& pool) {
  const std::int64_t null_block_id = pool.null_block->block_id;
  for (std::size_t i = 0; i < block_table.size() && i < ids.size(); ++i) {
    if (ids[i] == null_block_id) {
      EXPECT_EQ(block_table[i], pool.null_block) << "index " << i;
    } else {
      EXPECT_EQ(block_table[i]->block_id, ids[i]) << "index " << i;
    }
  }
}

std::vector<std::int64_t> nulls_then(std::int64_t n, std::int64_t null_id, const std::vector<std::int64_t>& orig) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(n), null_id);
  out.insert(out.end(), orig.begin() + n, orig.end());
  return out;
}

// test_single_type_kv_cache_manager.py@6e448d0e test_chunked_local_attention_remove_skipped_blocks
TEST(SingleTypeKVCacheManager, ChunkedLocalAttentionRemoveSkippedBlocks) {
  auto spec = make_cl_spec(2, 4);
  BlockPool block_pool(2000, true, 2);
  auto manager = get_chunked_local_attention_manager(spec, &block_pool);
  const std::int64_t null_id = block_pool.null_block->block_id;
  const std::vector<std::int64_t> original{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010};
  LooseBlocks loose;
  manager->req_to_blocks["test"] = loose.table(original);
  const auto& table = manager->req_to_blocks["test"];

  manager->remove_skipped_blocks("test", 0);
  assert_block_id(table, original, block_pool);
  manager->remove_skipped_blocks("test", 4);
  assert_block_id(table, {null_id, null_id}, block_pool);
  manager->remove_skipped_blocks("test", 6);
  assert_block_id(table, nulls_then(2, null_id, original), block_pool);
  manager->remove_skipped_blocks("test", 12);
  assert_block_id(table, std::vector<std::int64_t>(6, null_id), block_pool);
}

// test_single_type_kv_cache_manager.py@6e448d0e test_sliding_window_remove_skipped_blocks
TEST(SingleTypeKVCacheManager, SlidingWindowRemoveSkippedBlocks) {
  auto spec = make_sw_spec(2, 4);
  BlockPool block_pool(2000, true, 2);
  auto manager = get_sliding_window_manager(spec, &block_pool);
  const std::int64_t null_id = block_pool.null_block->block_id;
  const std::vector<std::int64_t> original{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010};
  LooseBlocks loose;
  manager->req_to_blocks["test"] = loose.table(original);
  const auto& table = manager->req_to_blocks["test"];

  manager->remove_skipped_blocks("test", 0);
  assert_block_id(table, original, block_pool);
  manager->remove_skipped_blocks("test", 4);
  assert_block_id(table, original, block_pool);
  manager->remove_skipped_blocks("test", 5);
  assert_block_id(table, nulls_then(1, null_id, original), block_pool);
  manager->remove_skipped_blocks("test", 6);
  assert_block_id(table, nulls_then(1, null_id, original), block_pool);
  manager->remove_skipped_blocks("test", 7);
  assert_block_id(table, nulls_then(2, null_id, original), block_pool);
  manager->remove_skipped_blocks("test", 11);
  assert_block_id(table, nulls_then(4, null_id, original), block_pool);
}

// test_single_type_kv_cache_manager.py@6e448d0e test_get_num_blocks_to_allocate
TEST(SingleTypeKVCacheManager, GetNumBlocksToAllocate) {
  const std::int64_t block_size = 2;
  auto spec = make_sw_spec(block_size, 4);
  BlockPool block_pool(100, true, block_size);
  auto manager = get_sliding_window_manager(spec, &block_pool);
  LooseBlocks loose;
  std::vector<std::int64_t> ids1;
  for (int i = 0; i < 10; ++i) ids1.push_back(i + 1);
  const auto cached_blocks_1 = loose.table(ids1);
  std::vector<KVCacheBlock*> cached_blocks_2(5, block_pool.null_block);
  const auto tail = loose.table({1, 2, 3, 4, 5});
  cached_blocks_2.insert(cached_blocks_2.end(), tail.begin(), tail.end());

  EXPECT_EQ(manager->get_num_blocks_to_allocate("1", 20 * block_size, cached_blocks_1, 0, 0, 20 * block_size), 20);
  EXPECT_EQ(manager->get_num_blocks_to_allocate("2", 20 * block_size, cached_blocks_2, 0, 0, 20 * block_size), 15);
}

// test_single_type_kv_cache_manager.py@6e448d0e test_evictable_cached_blocks_not_double_allocated
TEST(SingleTypeKVCacheManager, EvictableCachedBlocksNotDoubleAllocated) {
  const std::int64_t block_size = 2;
  auto spec = make_sw_spec(block_size, 2 * block_size);
  BlockPool block_pool(100, true, block_size);
  auto manager = get_sliding_window_manager(spec, &block_pool);
  KVCacheBlock* evictable_block = &block_pool.blocks[1];  // ref_cnt == 0, eviction candidate
  const std::int64_t n = manager->get_num_blocks_to_allocate("req", 2 * block_size, {evictable_block}, block_size,
                                                             block_size, 2 * block_size);
  EXPECT_EQ(n, 2);
  manager->add_local_computed_blocks("req", {evictable_block}, block_size, 0);
  auto new_blocks = manager->allocate_new_blocks("req", 4, 4);
  EXPECT_EQ(new_blocks.size(), 1u);
  EXPECT_EQ(manager->req_to_blocks["req"].size(), 2u);
}

// test_single_type_kv_cache_manager.py@6e448d0e test_chunked_local_attention_get_num_blocks_to_allocate
TEST(SingleTypeKVCacheManager, ChunkedLocalAttentionGetNumBlocksToAllocate) {
  const std::int64_t block_size = 2;
  auto spec = make_cl_spec(block_size, 4);
  BlockPool block_pool(100, true, block_size);
  auto manager = get_chunked_local_attention_manager(spec, &block_pool);
  LooseBlocks loose;
  std::vector<std::int64_t> ids1;
  for (int i = 0; i < 10; ++i) ids1.push_back(i + 1);
  const auto cached_blocks_1 = loose.table(ids1);
  std::vector<KVCacheBlock*> cached_blocks_2(5, block_pool.null_block);
  const auto tail = loose.table({1, 2, 3, 4, 5});
  cached_blocks_2.insert(cached_blocks_2.end(), tail.begin(), tail.end());
  EXPECT_EQ(manager->get_num_blocks_to_allocate("1", 20 * block_size, cached_blocks_1, 0, 0, 20 * block_size), 20);
  EXPECT_EQ(manager->get_num_blocks_to_allocate("2", 20 * block_size, cached_blocks_2, 0, 0, 20 * block_size), 15);
}

// test_single_type_kv_cache_manager.py@6e448d0e
// test_predictor_matches_allocator_blocks_calculation_with_admission_cap
TEST(SingleTypeKVCacheManager, PredictorMatchesAllocatorWithAdmissionCap) {
  const std::int64_t block_size = 2;
  const std::int64_t sliding_window = 8;
  const std::int64_t cap = sliding_window / block_size;
  auto spec = make_sw_spec(block_size, sliding_window);
  BlockPool block_pool(100, true, block_size);
  SlidingWindowManager manager(spec, &block_pool, false, 0, spec->block_size, 1, 1, false, cap);
  std::int64_t total_computed = 0;
  for (std::int64_t num_tokens : {4, 8, 12, 16}) {
    const std::int64_t predicted =
        manager.get_num_blocks_to_allocate("req", num_tokens, {}, total_computed, 0, num_tokens);
    const auto new_blocks = manager.allocate_new_blocks("req", num_tokens, num_tokens);
    EXPECT_EQ(predicted, static_cast<std::int64_t>(new_blocks.size())) << "num_tokens=" << num_tokens;
    total_computed = num_tokens;
  }
}

// The spec->manager map (register_all_kvcache_specs + get_manager_for_kv_cache_spec): not an upstream test.
TEST(SingleTypeKVCacheManager, ManagerForSpecRefusesMamba) {
  BlockPool block_pool(10, true, 16);
  MambaSpec::Args a;
  a.block_size = 16;
  a.shapes = {{1}};
  a.dtypes = {"float32"};
  auto mamba = std::make_shared<MambaSpec>(a);
  EXPECT_EQ(spec_manager_map(*mamba), std::optional<std::string>("MambaManager"));
  try {
    get_manager_for_kv_cache_spec(mamba, 100, 100, &block_pool, true, 0, 16);
    FAIL() << "MambaSpec must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("MambaSpec"), std::string::npos);
  }
  auto sw = get_manager_for_kv_cache_spec(make_sw_spec(16, 64), 32, 1000, &block_pool, true, 0, 16);
  EXPECT_STREQ(sw->manager_class_name(), "SlidingWindowManager");
  EXPECT_EQ(sw->_max_admission_blocks_per_request,
            make_sw_spec(16, 64)->max_admission_blocks_per_request(32, 1000));
}

}  // namespace
}  // namespace blis::vllm
