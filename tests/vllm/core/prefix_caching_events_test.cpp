// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_prefix_caching.py@6e448d0e, the KV-cache
// events (test_kv_cache_events, test_null_parent_block_hash, test_kv_cache_events_with_lora,
// test_block_stored_event_group_idx_multiple_groups, test_block_stored_event_group_idx_out_of_bounds,
// test_block_removed_event_group_idx, test_emit_cached_block_events*).
#include <gtest/gtest.h>

#include <algorithm>

#include "prefix_caching_test_util.h"

namespace blis::vllm::testing {
namespace {

template <typename T>
bool is(const KVCacheEvent& e) {
  return std::holds_alternative<T>(e);
}

// test_prefix_caching.py@6e448d0e test_kv_cache_events (blocks_to_cache in [2, 3, 10])
TEST(PrefixCaching, KvCacheEvents) {
  init_hash(sha256);
  for (std::int64_t blocks_to_cache : {2, 3, 10}) {
    SCOPED_TRACE(blocks_to_cache);
    const std::int64_t block_size = 16;
    auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, blocks_to_cache + 1),
                                         {.hash_block_size = block_size, .enable_kv_cache_events = true});
    const std::int64_t num_tokens = block_size * blocks_to_cache;
    auto req0 = make_request("0", token_range(0, num_tokens), block_size, sha256);
    manager->allocate_slots(*req0, num_tokens);
    auto events = manager->take_events();
    ASSERT_FALSE(events.empty());
    ASSERT_TRUE(is<BlockStored>(events.back()));
    const auto block = std::get<BlockStored>(events.back());
    EXPECT_EQ(static_cast<std::int64_t>(block.block_hashes.size()), blocks_to_cache);
    EXPECT_EQ(static_cast<std::int64_t>(manager->block_pool->cached_block_hash_to_block.size()), blocks_to_cache);
    EXPECT_EQ(static_cast<std::int64_t>(block.token_ids.size()),
              block.block_size * static_cast<std::int64_t>(block.block_hashes.size()));
    EXPECT_EQ(block.kv_cache_spec_kind, std::optional<std::string>(kv_cache_spec_kind_value(KVCacheSpecKind::FULL_ATTENTION)));
    EXPECT_EQ(manager->block_pool->kv_event_queue.size(), 0u);
    const auto stored_block_hash = block.block_hashes;

    manager->free(*req0);
    auto req1 = make_request("1", token_range(0, num_tokens), block_size, sha256);
    manager->allocate_slots(*req1, num_tokens);
    events = manager->take_events();
    for (std::size_t i = 0; i + 1 < events.size(); ++i) {
      ASSERT_TRUE(is<BlockRemoved>(events[i]));
      const auto& removed = std::get<BlockRemoved>(events[i]);
      EXPECT_NE(std::find(stored_block_hash.begin(), stored_block_hash.end(), removed.block_hashes[0]),
                stored_block_hash.end());
    }
    ASSERT_EQ(static_cast<std::int64_t>(events.size()), blocks_to_cache + 1);
    EXPECT_TRUE(is<BlockRemoved>(events[events.size() - 2]));
    ASSERT_TRUE(is<BlockStored>(events.back()));
    EXPECT_EQ(static_cast<std::int64_t>(std::get<BlockStored>(events.back()).block_hashes.size()), blocks_to_cache);
    EXPECT_EQ(static_cast<std::int64_t>(manager->block_pool->cached_block_hash_to_block.size()), blocks_to_cache);

    manager->free(*req1);
    manager->reset_prefix_cache();
    events = manager->take_events();
    ASSERT_FALSE(events.empty());
    EXPECT_TRUE(is<AllBlocksCleared>(events.back()));
    EXPECT_EQ(manager->block_pool->cached_block_hash_to_block.size(), 0u);
  }
}

// test_prefix_caching.py@6e448d0e test_null_parent_block_hash
TEST(PrefixCaching, NullParentBlockHash) {
  init_hash(sha256);
  const std::int64_t block_size = 1, num_cached_blocks = 2, num_full_blocks = 4, kv_cache_group_id = 0;
  BlockPool pool(8, true, block_size, true);
  auto req = make_request("req_null_parent", {10, 11, 12, 13}, block_size, sha256);
  ASSERT_EQ(static_cast<std::int64_t>(req->block_hashes.size()), num_full_blocks);
  EXPECT_FALSE(pool.null_block->block_hash().has_value());
  auto new_blocks = pool.get_new_blocks(num_full_blocks - 1);
  // upstream's list is [new_blocks[:1] (a nested list, never read), null_block, *new_blocks[1:]]; only
  // positions >= num_cached_blocks - 1 are read, so the first slot holds new_blocks[0] here.
  std::vector<KVCacheBlock*> blocks{new_blocks[0], pool.null_block, new_blocks[1], new_blocks[2]};
  pool.cache_full_blocks(*req, blocks, num_cached_blocks, num_full_blocks, block_size, kv_cache_group_id);
  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  ASSERT_TRUE(is<BlockStored>(events[0]));
  const auto& event = std::get<BlockStored>(events[0]);
  ASSERT_TRUE(event.parent_block_hash.has_value());
  EXPECT_EQ(*event.parent_block_hash, maybe_convert_block_hash(req->block_hashes[num_cached_blocks - 1]));
  std::vector<ExternalBlockHash> expected_new_hashes;
  for (std::int64_t i = num_cached_blocks; i < num_full_blocks; ++i) {
    expected_new_hashes.push_back(maybe_convert_block_hash(req->block_hashes[static_cast<std::size_t>(i)]));
  }
  EXPECT_EQ(event.block_hashes, expected_new_hashes);
  EXPECT_EQ(event.group_idx, std::optional<std::int64_t>(kv_cache_group_id));
  EXPECT_FALSE(event.kv_cache_spec_kind.has_value());
  EXPECT_FALSE(event.kv_cache_spec_sliding_window.has_value());
  EXPECT_FALSE(pool.null_block->block_hash().has_value());
  EXPECT_TRUE(blocks[num_cached_blocks]->block_hash().has_value());
  EXPECT_TRUE(blocks[num_full_blocks - 1]->block_hash().has_value());
}

// test_prefix_caching.py@6e448d0e test_kv_cache_events_with_lora (blocks_to_cache in [2, 3, 10])
TEST(PrefixCaching, KvCacheEventsWithLora) {
  init_hash(sha256);
  for (std::int64_t blocks_to_cache : {2, 3, 10}) {
    SCOPED_TRACE(blocks_to_cache);
    const std::int64_t block_size = 16;
    auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, blocks_to_cache + 1),
                                         {.hash_block_size = block_size, .enable_kv_cache_events = true});
    const std::int64_t num_tokens = block_size * blocks_to_cache;
    auto req_with_lora = make_request("lora_req", token_range(0, num_tokens), block_size, sha256, std::nullopt,
                                      LoRARequest{"test_lora", 42});
    manager->allocate_slots(*req_with_lora, num_tokens);
    auto events = manager->take_events();
    ASSERT_TRUE(is<BlockStored>(events.back()));
    auto ev = std::get<BlockStored>(events.back());
    EXPECT_EQ(ev.lora_id, std::optional<std::int64_t>(42));
    EXPECT_EQ(static_cast<std::int64_t>(ev.block_hashes.size()), blocks_to_cache);
    EXPECT_EQ(ev.block_size, block_size);
    manager->free(*req_with_lora);

    auto req_without_lora = make_request("no_lora_req", token_range(0, num_tokens), block_size, sha256);
    manager->allocate_slots(*req_without_lora, num_tokens);
    events = manager->take_events();
    ASSERT_TRUE(is<BlockStored>(events.back()));
    ev = std::get<BlockStored>(events.back());
    EXPECT_FALSE(ev.lora_id.has_value());
    EXPECT_EQ(static_cast<std::int64_t>(ev.block_hashes.size()), blocks_to_cache);
    EXPECT_EQ(ev.block_size, block_size);
  }
}

// test_prefix_caching.py@6e448d0e test_block_stored_event_group_idx_multiple_groups
TEST(PrefixCaching, BlockStoredEventGroupIdxMultipleGroups) {
  init_hash(sha256);
  const std::int64_t block_size = 4, num_tokens = block_size * 2;
  KVCacheConfig c;
  c.num_blocks = 5;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer1"}, full_spec(block_size), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer2"}, sw_spec(block_size, 128), false});
  auto manager = make_kv_cache_manager(c, {.hash_block_size = block_size, .enable_kv_cache_events = true});
  auto* pool = manager->block_pool;
  auto req = make_request("req_multi_grp", token_range(0, num_tokens), block_size, sha256);
  auto blocks_grp0 = pool->get_new_blocks(2);
  pool->cache_full_blocks(*req, blocks_grp0, 0, 2, block_size, 0);
  auto blocks_grp1 = pool->get_new_blocks(2);
  pool->cache_full_blocks(*req, blocks_grp1, 0, 2, block_size, 1);
  auto events = manager->take_events();
  ASSERT_EQ(events.size(), 2u);
  ASSERT_TRUE(is<BlockStored>(events[0]));
  ASSERT_TRUE(is<BlockStored>(events[1]));
  const auto& e0 = std::get<BlockStored>(events[0]);
  const auto& e1 = std::get<BlockStored>(events[1]);
  EXPECT_EQ(e0.group_idx, std::optional<std::int64_t>(0));
  EXPECT_EQ(e0.kv_cache_spec_kind, std::optional<std::string>(kv_cache_spec_kind_value(KVCacheSpecKind::FULL_ATTENTION)));
  EXPECT_FALSE(e0.kv_cache_spec_sliding_window.has_value());
  EXPECT_EQ(e1.group_idx, std::optional<std::int64_t>(1));
  EXPECT_EQ(e1.kv_cache_spec_kind, std::optional<std::string>(kv_cache_spec_kind_value(KVCacheSpecKind::SLIDING_WINDOW)));
  EXPECT_EQ(e1.kv_cache_spec_sliding_window, std::optional<std::int64_t>(128));
}

// test_prefix_caching.py@6e448d0e test_block_stored_event_group_idx_out_of_bounds. The warning upstream
// logs is not modelled (this port has no logger); the event is returned unannotated as upstream asserts.
TEST(PrefixCaching, BlockStoredEventGroupIdxOutOfBounds) {
  const std::int64_t block_size = 4;
  auto manager = make_kv_cache_manager(make_kv_cache_config(block_size, 5),
                                       {.hash_block_size = block_size, .enable_kv_cache_events = true});
  BlockStored event;
  event.block_hashes = {ExternalBlockHash(std::uint64_t{1})};
  for (std::int32_t i = 0; i < block_size; ++i) event.token_ids.push_back(i);
  event.block_size = block_size;
  event.group_idx = 1;
  manager->block_pool->kv_event_queue.push_back(event);
  auto events = manager->take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], KVCacheEvent(event));
  EXPECT_FALSE(std::get<BlockStored>(events[0]).kv_cache_spec_kind.has_value());
  EXPECT_FALSE(std::get<BlockStored>(events[0]).kv_cache_spec_sliding_window.has_value());
}

// test_prefix_caching.py@6e448d0e test_block_removed_event_group_idx (group_id in [0, 1, 2])
TEST(PrefixCaching, BlockRemovedEventGroupIdx) {
  init_hash(sha256);
  for (std::int64_t group_id : {0, 1, 2}) {
    SCOPED_TRACE(group_id);
    const std::int64_t block_size = 4, num_tokens = block_size * 2;
    BlockPool pool(5, true, block_size, true);
    auto req = make_request("req_evict_grp", token_range(0, num_tokens), block_size, sha256);
    auto all_blocks = pool.get_new_blocks(4);
    pool.cache_full_blocks(*req, all_blocks, 0, 2, block_size, group_id);
    pool.take_events();
    pool.free_blocks(all_blocks);
    pool.get_new_blocks(4);
    auto events = pool.take_events();
    std::vector<BlockRemoved> removed;
    for (const auto& e : events) {
      if (is<BlockRemoved>(e)) removed.push_back(std::get<BlockRemoved>(e));
    }
    ASSERT_EQ(removed.size(), 2u);
    for (const auto& e : removed) EXPECT_EQ(e.group_idx, std::optional<std::int64_t>(group_id));
  }
}

// test_prefix_caching.py@6e448d0e test_emit_cached_block_events
TEST(PrefixCaching, EmitCachedBlockEvents) {
  init_hash(sha256);
  const std::int64_t block_size = 4, num_cached_blocks = 3, kv_cache_group_id = 1, num_tokens = block_size * 4;
  BlockPool pool(8, true, block_size, true);
  auto req = make_request("req_emit_cached", token_range(0, num_tokens), block_size, sha256);
  ASSERT_GE(static_cast<std::int64_t>(req->block_hashes.size()), num_cached_blocks);
  const auto free_before = pool.get_num_free_blocks();
  EXPECT_EQ(pool.cached_block_hash_to_block.size(), 0u);
  pool.emit_cached_block_events(*req, num_cached_blocks, block_size, kv_cache_group_id);
  EXPECT_EQ(pool.get_num_free_blocks(), free_before);
  EXPECT_EQ(pool.cached_block_hash_to_block.size(), 0u);
  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  ASSERT_TRUE(is<BlockStored>(events[0]));
  const auto& event = std::get<BlockStored>(events[0]);
  std::vector<ExternalBlockHash> expected;
  for (std::int64_t i = 0; i < num_cached_blocks; ++i) {
    expected.push_back(maybe_convert_block_hash(req->block_hashes[static_cast<std::size_t>(i)]));
  }
  EXPECT_EQ(event.block_hashes, expected);
  EXPECT_FALSE(event.parent_block_hash.has_value());
  EXPECT_EQ(event.token_ids, std::vector<std::int32_t>(req->all_token_ids().begin(),
                                                       req->all_token_ids().begin() + num_cached_blocks * block_size));
  EXPECT_EQ(event.group_idx, std::optional<std::int64_t>(kv_cache_group_id));
  EXPECT_EQ(event.block_size, block_size);
  EXPECT_EQ(event.medium, std::optional<std::string>(MEDIUM_GPU));
  EXPECT_FALSE(event.lora_id.has_value());
  EXPECT_FALSE(event.lora_name.has_value());
}

// test_prefix_caching.py@6e448d0e test_emit_cached_block_events_disabled
TEST(PrefixCaching, EmitCachedBlockEventsDisabled) {
  init_hash(sha256);
  const std::int64_t block_size = 4;
  BlockPool pool(8, true, block_size, false);
  auto req = make_request("req_emit_disabled", token_range(0, block_size * 4), block_size, sha256);
  pool.emit_cached_block_events(*req, 3, block_size, 0);
  EXPECT_TRUE(pool.take_events().empty());
}

// test_prefix_caching.py@6e448d0e test_emit_cached_block_events_zero_cached
TEST(PrefixCaching, EmitCachedBlockEventsZeroCached) {
  init_hash(sha256);
  const std::int64_t block_size = 4;
  BlockPool pool(8, true, block_size, true);
  auto req = make_request("req_emit_zero", token_range(0, block_size * 4), block_size, sha256);
  pool.emit_cached_block_events(*req, 0, block_size, 0);
  EXPECT_TRUE(pool.take_events().empty());
}

}  // namespace
}  // namespace blis::vllm::testing
