// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own tests of vllm/v1/core/block_pool.py@6e448d0e (BlockHashToBlockMap,
// BlockPool allocation, caching, eviction order, touch/free, events, partial entries, reset).
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "kv_cache_test_util.h"
#include "v1/core/block_pool.h"

namespace blis::vllm {
namespace {

using testing::iota_tokens;
using testing::make_request;

std::vector<std::int64_t> ids(const std::vector<KVCacheBlock*>& blocks) {
  std::vector<std::int64_t> out;
  for (auto* b : blocks) out.push_back(b->block_id);
  return out;
}

// block_pool.py@6e448d0e BlockHashToBlockMap: several blocks under one key, first-inserted first.
TEST(BlockPool, BlockHashToBlockMap) {
  KVCacheBlock b1(1), b2(2), b3(3);
  BlockHashToBlockMap m;
  auto key = make_block_hash_with_group_id(BlockHash{"h"}, 0);
  EXPECT_EQ(m.get_one_block(key), nullptr);
  m.insert(key, &b1);
  m.insert(key, &b2);
  m.insert(key, &b3);
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.get_one_block(key), &b1);
  EXPECT_TRUE(m.contain(key, 2));
  EXPECT_FALSE(m.contain(key, 4));
  EXPECT_EQ(m.pop(key, 4), nullptr);
  EXPECT_EQ(m.pop(key, 1), &b1);
  EXPECT_EQ(m.get_one_block(key), &b2);
  EXPECT_EQ(m.pop(key, 2), &b2);
  EXPECT_EQ(m.pop(key, 3), &b3);
  EXPECT_EQ(m.size(), 0u);
}

// block_pool.py@6e448d0e BlockPool.__init__ / get_new_blocks / free_blocks / get_usage: block 0 is the
// null block; freed hashless blocks go to the front, hashed ones to the back.
TEST(BlockPool, AllocateFreeOrder) {
  BlockPool pool(6, true, 4);
  EXPECT_TRUE(pool.null_block->is_null);
  EXPECT_EQ(pool.null_block->block_id, 0);
  EXPECT_EQ(pool.get_num_free_blocks(), 5);
  auto blocks = pool.get_new_blocks(3);
  EXPECT_EQ(ids(blocks), (std::vector<std::int64_t>{1, 2, 3}));
  for (auto* b : blocks) EXPECT_EQ(b->ref_cnt, 1);
  EXPECT_DOUBLE_EQ(pool.get_usage(), 1.0 - 2.0 / 5.0);
  EXPECT_THROW(pool.get_new_blocks(3), ValueError);
  blocks[2]->set_block_hash(make_block_hash_with_group_id(BlockHash{"x"}, 0));
  pool.free_blocks({blocks[2], blocks[1], blocks[0]});
  EXPECT_EQ(ids(pool.free_block_queue.get_all_free_blocks()), (std::vector<std::int64_t>{2, 1, 4, 5, 3}));
  // Without caching every freed block is appended.
  BlockPool plain(4, false, 4);
  auto b = plain.get_new_blocks(2);
  plain.free_blocks({b[1], b[0]});
  EXPECT_EQ(ids(plain.free_block_queue.get_all_free_blocks()), (std::vector<std::int64_t>{3, 2, 1}));
}

// block_pool.py@6e448d0e cache_full_blocks / get_cached_block / touch / eviction on reallocation, with
// BlockStored and BlockRemoved events.
TEST(BlockPool, CacheTouchEvict) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(9), 4, fn, std::nullopt, LoRARequest{"lora", 7});
  ASSERT_EQ(req.block_hashes.size(), 2u);
  BlockPool pool(5, true, 4, /*enable_kv_cache_events=*/true);
  auto blocks = pool.get_new_blocks(3);
  pool.cache_full_blocks(req, blocks, 0, 2, 4, 0);
  EXPECT_EQ(pool.cached_block_hash_to_block.size(), 2u);
  EXPECT_EQ(blocks[0]->block_hash(), make_block_hash_with_group_id(req.block_hashes[0], 0));
  EXPECT_EQ(blocks[1]->block_hash_num_tokens(), 8);
  auto hit = pool.get_cached_block(req.block_hashes[1], {0});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ((*hit)[0], blocks[1]);
  EXPECT_FALSE(pool.get_cached_block(req.block_hashes[1], {0, 1}).has_value());

  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  const auto& stored = std::get<BlockStored>(events[0]);
  EXPECT_EQ(stored.block_hashes.size(), 2u);
  EXPECT_EQ(std::get<std::uint64_t>(stored.block_hashes[0]),
            std::get<std::uint64_t>(maybe_convert_block_hash(req.block_hashes[0])));
  EXPECT_FALSE(stored.parent_block_hash.has_value());
  EXPECT_EQ(stored.token_ids, iota_tokens(8));
  EXPECT_EQ(stored.block_size, 4);
  EXPECT_EQ(stored.lora_id, 7);
  EXPECT_EQ(stored.lora_name, "lora");
  EXPECT_EQ(stored.medium, "GPU");
  ASSERT_TRUE(stored.extra_keys.has_value());
  EXPECT_EQ((*stored.extra_keys)[0], (std::vector<std::string>{"lora"}));
  EXPECT_EQ(stored.group_idx, 0);
  EXPECT_TRUE(pool.take_events().empty());

  // Free all, then a second request touches the cached prefix: removed from the free queue.
  pool.free_blocks({blocks[2], blocks[1], blocks[0]});
  EXPECT_EQ(pool.get_num_free_blocks(), 4);
  pool.touch({blocks[0], blocks[1]});
  EXPECT_EQ(blocks[0]->ref_cnt, 1);
  EXPECT_EQ(pool.get_num_free_blocks(), 2);
  pool.free_blocks({blocks[1], blocks[0]});
  // Allocating everything evicts the cached blocks (front of the queue first) and emits BlockRemoved.
  auto all = pool.get_new_blocks(4);
  EXPECT_EQ(ids(all), (std::vector<std::int64_t>{3, 4, 2, 1}));
  EXPECT_EQ(pool.cached_block_hash_to_block.size(), 0u);
  events = pool.take_events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::get<BlockRemoved>(events[0]).block_hashes[0], maybe_convert_block_hash(req.block_hashes[1]));
  EXPECT_EQ(std::get<BlockRemoved>(events[1]).block_hashes[0], maybe_convert_block_hash(req.block_hashes[0]));
}

// block_pool.py@6e448d0e cache_partial_block / move_block_hashes / evict_blocks / reset_prefix_cache.
TEST(BlockPool, PartialEntriesMoveEvictReset) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(6), 2, fn);  // hash_block_size 2: three hashes
  ASSERT_EQ(req.block_hashes.size(), 3u);
  BlockPool pool(4, true, 2, true);
  auto blocks = pool.get_new_blocks(2);  // group block size 4
  auto key = pool.cache_partial_block(req, blocks[1], 6, 0, 4);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(*key, make_block_hash_with_group_id(req.block_hashes[2], 0));
  EXPECT_EQ(blocks[1]->block_hash_num_tokens(), 6);
  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  const auto& stored = std::get<BlockStored>(events[0]);
  EXPECT_EQ(stored.token_ids, (std::vector<std::int32_t>{4, 5}));
  EXPECT_EQ(stored.block_size, 2);
  EXPECT_EQ(stored.parent_block_hash, maybe_convert_block_hash(req.block_hashes[1]));
  // Registering the same entry again emits nothing.
  pool.cache_partial_block(req, blocks[1], 6, 0, 4);
  EXPECT_TRUE(pool.take_events().empty());
  // Full-block caching of block 0 (tokens 0..3: the view's hash is the second 2-token hash).
  pool.cache_full_blocks(req, blocks, 0, 1, 4, 0);
  EXPECT_EQ(blocks[0]->block_hash(), make_block_hash_with_group_id(req.block_hashes[1], 0));
  pool.take_events();
  // Move the partial entry to a fresh block.
  auto fresh = pool.get_new_blocks(1);
  pool.move_block_hashes(blocks[1], fresh[0]);
  EXPECT_FALSE(blocks[1]->block_hash().has_value());
  EXPECT_EQ(fresh[0]->block_hash(), *key);
  EXPECT_EQ(fresh[0]->block_hash_num_tokens(), 6);
  EXPECT_TRUE(pool.take_events().empty());
  // evict_blocks drops the hashes of block ids (still allocated) and reports them.
  pool.evict_blocks({blocks[0]->block_id, fresh[0]->block_id});
  EXPECT_EQ(pool.cached_block_hash_to_block.size(), 0u);
  EXPECT_EQ(pool.take_events().size(), 2u);
  EXPECT_THROW(pool.evict_blocks({99}), AssertionError);
  // reset_prefix_cache refuses while blocks are in use, succeeds once all are free.
  EXPECT_FALSE(pool.reset_prefix_cache());
  pool.free_blocks({blocks[0], blocks[1], fresh[0]});
  EXPECT_TRUE(pool.reset_prefix_cache());
  events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<AllBlocksCleared>(events[0]));
}

// block_pool.py@6e448d0e emit_cached_block_events: one BlockStored for the reused prefix, parent None.
TEST(BlockPool, EmitCachedBlockEvents) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(8), 4, fn, std::string("salt"));
  BlockPool pool(4, true, 4, true, /*kv_events_use_int_block_hashes=*/false);
  pool.emit_cached_block_events(req, 0, 4, 0);
  EXPECT_TRUE(pool.take_events().empty());
  pool.emit_cached_block_events(req, 2, 4, 1);
  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  const auto& stored = std::get<BlockStored>(events[0]);
  EXPECT_EQ(std::get<std::string>(stored.block_hashes[1]), req.block_hashes[1].bytes);
  EXPECT_FALSE(stored.parent_block_hash.has_value());
  ASSERT_TRUE(stored.extra_keys.has_value());
  EXPECT_EQ((*stored.extra_keys)[0], (std::vector<std::string>{"salt"}));
  EXPECT_FALSE((*stored.extra_keys)[1].has_value());
  EXPECT_EQ(stored.group_idx, 1);
}

}  // namespace
}  // namespace blis::vllm
