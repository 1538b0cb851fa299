// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own tests of vllm/v1/core/block_pool.py@6e448d0e where the mutation sweep
// (design T7) showed the other tests leave it unchecked: the partial->full promotion of a cached block in
// cache_full_blocks, partial entries and their events, the removal of every hash of a block, what
// _maybe_evict_cached_block returns, and BlockHashToBlockMap.insert replacing the entry of a block id.
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

// block_pool.py@6e448d0e BlockPool.cache_full_blocks: a block holding a partial entry (cache_partial_block,
// hash_block_size 2 < block size 4) that becomes full is promoted: its partial hash is removed, with a
// BlockRemoved event, and the full hash inserted (`assert blk.block_hash_num_tokens < num_hash_tokens`).
TEST(BlockPoolPromotion, PartialEntryIsPromotedToFull) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(6), 2, fn);  // three 2-token hashes
  BlockPool pool(4, true, 2, /*enable_kv_cache_events=*/true);
  auto blocks = pool.get_new_blocks(2);
  pool.cache_full_blocks(req, blocks, 0, 1, 4, 0);
  pool.cache_partial_block(req, blocks[1], 6, 0, 4);
  EXPECT_EQ(blocks[1]->block_hash(), make_block_hash_with_group_id(req.block_hashes[2], 0));
  EXPECT_EQ(blocks[1]->block_hash_num_tokens(), 6);
  pool.take_events();

  req.append_output_token_ids({6, 7});  // the second block is now full: four hashes
  ASSERT_EQ(req.block_hashes.size(), 4u);
  pool.cache_full_blocks(req, blocks, 1, 2, 4, 0);
  EXPECT_EQ(blocks[1]->block_hash(), make_block_hash_with_group_id(req.block_hashes[3], 0));
  EXPECT_EQ(blocks[1]->block_hash_num_tokens(), 8);
  EXPECT_FALSE(pool.get_cached_block(req.block_hashes[2], {0}).has_value());
  auto hit = pool.get_cached_block(req.block_hashes[3], {0});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ((*hit)[0], blocks[1]);
  EXPECT_EQ(pool.cached_block_hash_to_block.size(), 2u);

  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 2u);
  ASSERT_TRUE(std::holds_alternative<BlockRemoved>(events[0]));
  EXPECT_EQ(std::get<BlockRemoved>(events[0]).block_hashes,
            std::vector<ExternalBlockHash>({maybe_convert_block_hash(req.block_hashes[2])}));
  ASSERT_TRUE(std::holds_alternative<BlockStored>(events[1]));
  const auto& stored = std::get<BlockStored>(events[1]);
  EXPECT_EQ(stored.block_hashes, std::vector<ExternalBlockHash>({maybe_convert_block_hash(req.block_hashes[3])}));
  EXPECT_EQ(stored.parent_block_hash, maybe_convert_block_hash(req.block_hashes[1]));
  EXPECT_EQ(stored.token_ids, (std::vector<std::int32_t>{4, 5, 6, 7}));
}

// block_pool.py@6e448d0e BlockPool.cache_full_blocks refuses a "new full block" that already holds a hash
// of as many tokens or more (`assert blk.block_hash_num_tokens < num_hash_tokens`).
TEST(BlockPoolPromotion, AFullBlockIsNotCachedTwice) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(8), 4, fn);
  BlockPool pool(4, true, 4);
  auto blocks = pool.get_new_blocks(2);
  pool.cache_full_blocks(req, blocks, 0, 2, 4, 0);
  EXPECT_THROW(pool.cache_full_blocks(req, blocks, 1, 2, 4, 0), AssertionError);
}

// block_pool.py@6e448d0e BlockPool.cache_partial_block: a longer partial entry replaces a shorter one on the
// same block (`block.block_hash_num_tokens < num_hash_blocks * self.hash_block_size`: the shorter is
// removed, with a BlockRemoved event); an entry of the same length for other tokens is added beside it.
TEST(BlockPoolPromotion, LongerPartialEntryReplacesAShorterOne) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(6), 2, fn);  // three 2-token hashes
  BlockPool pool(4, true, 2, /*enable_kv_cache_events=*/true);
  auto blocks = pool.get_new_blocks(1);  // group block size 8
  pool.cache_partial_block(req, blocks[0], 2, 0, 8);
  EXPECT_EQ(blocks[0]->block_hash_num_tokens(), 2);
  pool.take_events();
  pool.cache_partial_block(req, blocks[0], 6, 0, 8);
  EXPECT_EQ(blocks[0]->block_hash(), make_block_hash_with_group_id(req.block_hashes[2], 0));
  EXPECT_EQ(blocks[0]->block_hash_num_tokens(), 6);
  EXPECT_FALSE(pool.get_cached_block(req.block_hashes[0], {0}).has_value());
  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 2u);
  ASSERT_TRUE(std::holds_alternative<BlockRemoved>(events[0]));
  EXPECT_EQ(std::get<BlockRemoved>(events[0]).block_hashes,
            std::vector<ExternalBlockHash>({maybe_convert_block_hash(req.block_hashes[0])}));
  ASSERT_TRUE(std::holds_alternative<BlockStored>(events[1]));

  // Same length, other tokens: not shorter, so both entries stay and nothing is removed.
  Request other = make_request("o", iota_tokens(6, 100), 2, fn);
  pool.cache_partial_block(other, blocks[0], 6, 0, 8);
  EXPECT_EQ(blocks[0]->block_hash(), make_block_hash_with_group_id(req.block_hashes[2], 0));
  EXPECT_TRUE(pool.get_cached_block(req.block_hashes[2], {0}).has_value());
  EXPECT_TRUE(pool.get_cached_block(other.block_hashes[2], {0}).has_value());
  events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<BlockStored>(events[0]));

  // block_pool.py@6e448d0e BlockPool._remove_cached_block_hashes: evicting the block drops every hash
  // pointing to it, the primary one first, then the extra ones (`cached_block_hashes_by_block.pop`).
  EXPECT_EQ(pool.cached_block_hashes_by_block.count(blocks[0]->block_id), 1u);
  pool.evict_blocks({blocks[0]->block_id});
  EXPECT_FALSE(blocks[0]->block_hash().has_value());
  EXPECT_FALSE(pool.get_cached_block(req.block_hashes[2], {0}).has_value());
  EXPECT_FALSE(pool.get_cached_block(other.block_hashes[2], {0}).has_value());
  EXPECT_EQ(pool.cached_block_hash_to_block.size(), 0u);
  EXPECT_EQ(pool.cached_block_hashes_by_block.count(blocks[0]->block_id), 0u);
  events = pool.take_events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::get<BlockRemoved>(events[0]).block_hashes,
            std::vector<ExternalBlockHash>({maybe_convert_block_hash(req.block_hashes[2])}));
  EXPECT_EQ(std::get<BlockRemoved>(events[1]).block_hashes,
            std::vector<ExternalBlockHash>({maybe_convert_block_hash(other.block_hashes[2])}));
  // block_pool.py@6e448d0e BlockPool._emit_block_removed_events: medium GPU, the hash's group.
  for (const auto& e : events) {
    EXPECT_EQ(std::get<BlockRemoved>(e).medium, std::optional<std::string>("GPU"));
    EXPECT_EQ(std::get<BlockRemoved>(e).group_idx, std::optional<std::int64_t>(0));
  }
}

// block_pool.py@6e448d0e BlockPool.cache_partial_block: the BlockStored event of a partial entry: its hash,
// parent, tokens [block_start:num_tokens], LoRA adapter, medium, extra keys and group.
TEST(BlockPoolPromotion, PartialEntryEventFields) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(6), 2, fn, std::nullopt, LoRARequest{"lora", 7});
  BlockPool pool(4, true, 2, /*enable_kv_cache_events=*/true);
  auto blocks = pool.get_new_blocks(2);
  pool.cache_partial_block(req, blocks[1], 6, /*kv_cache_group_id=*/1, 4);
  auto events = pool.take_events();
  ASSERT_EQ(events.size(), 1u);
  const auto& ev = std::get<BlockStored>(events[0]);
  EXPECT_EQ(ev.block_hashes, std::vector<ExternalBlockHash>({maybe_convert_block_hash(req.block_hashes[2])}));
  EXPECT_EQ(ev.parent_block_hash, maybe_convert_block_hash(req.block_hashes[1]));
  EXPECT_EQ(ev.token_ids, (std::vector<std::int32_t>{4, 5}));
  EXPECT_EQ(ev.block_size, 2);
  EXPECT_EQ(ev.lora_id, 7);
  EXPECT_EQ(ev.lora_name, "lora");
  EXPECT_EQ(ev.medium, "GPU");
  ASSERT_TRUE(ev.extra_keys.has_value());
  ASSERT_EQ(ev.extra_keys->size(), 1u);
  EXPECT_EQ((*ev.extra_keys)[0], (std::vector<std::string>{"lora"}));
  EXPECT_EQ(ev.group_idx, 1);
}

// block_pool.py@6e448d0e BlockPool._maybe_evict_cached_block: "True if the block is evicted, False otherwise".
TEST(BlockPoolPromotion, MaybeEvictReportsWhetherItEvicted) {
  HashFn fn = testing::sha256_fn();
  init_none_hash(fn, std::string("0"));
  Request req = make_request("r", iota_tokens(4), 4, fn);
  BlockPool pool(4, true, 4);
  auto blocks = pool.get_new_blocks(2);
  pool.cache_full_blocks(req, blocks, 0, 1, 4, 0);
  EXPECT_FALSE(pool._maybe_evict_cached_block(blocks[1]));
  EXPECT_TRUE(pool._maybe_evict_cached_block(blocks[0]));
  EXPECT_FALSE(pool._maybe_evict_cached_block(blocks[0]));
}

// block_pool.py@6e448d0e BlockHashToBlockMap.insert: `blocks[block.block_id] = block`: inserting a block
// whose id is present replaces that entry in place (same position, the new object).
TEST(BlockPoolPromotion, InsertReplacesTheEntryOfABlockId) {
  KVCacheBlock a1(1), b2(2), a1_again(1);
  BlockHashToBlockMap m;
  auto key = make_block_hash_with_group_id(BlockHash{"h"}, 0);
  m.insert(key, &a1);
  m.insert(key, &b2);
  m.insert(key, &a1_again);
  EXPECT_EQ(m.get_one_block(key), &a1_again);
  EXPECT_EQ(m.pop(key, 1), &a1_again);
  EXPECT_EQ(m.get_one_block(key), &b2);
}

}  // namespace
}  // namespace blis::vllm
