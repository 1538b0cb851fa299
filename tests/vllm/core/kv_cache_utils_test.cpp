// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: tests of the C++ port of vllm/v1/core/kv_cache_utils.py@6e448d0e (hashing, blocks, the
// free queue, extra keys), transcribed from tests/v1/core/test_kv_cache_utils.py@6e448d0e, plus this
// port's own tests of the pickle and CBOR writers against CPython's pickle and RFC 8949's examples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kv_cache_test_util.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/core/kv_cache_utils_hashing.h"

namespace blis::vllm {
namespace {

using testing::block_tuple;
using testing::hex;
using testing::iota_tokens;
using testing::make_request;

std::string random32() { return std::string(32, '\x5a'); }

// test_kv_cache_utils.py@6e448d0e test_none_hash (parametrized over sha256 and sha256_cbor). The random
// bytes of case 1 are supplied by the caller in this port (upstream draws os.urandom(32)).
TEST(KvCacheUtils, NoneHash) {
  for (const char* name : {"sha256", "sha256_cbor"}) {
    HashFn hash_fn = get_hash_fn_by_name(name);
    // case 1: PYTHONHASHSEED is not set, use random
    init_none_hash(hash_fn, std::nullopt, random32());
    EXPECT_FALSE(NONE_HASH.bytes.empty()) << name;
    EXPECT_EQ(NONE_HASH.bytes, random32()) << name;
    EXPECT_THROW(init_none_hash(hash_fn, std::nullopt, ""), std::invalid_argument);
    // case 2: PYTHONHASHSEED is set, use the seed and hash_fn
    init_none_hash(hash_fn, std::string("python hash seed"));
    EXPECT_EQ(hash_fn(HashValue::str("python hash seed")), NONE_HASH.bytes) << name;
  }
}

// test_kv_cache_utils.py@6e448d0e test_kv_cache_block.
TEST(KvCacheUtils, KvCacheBlock) {
  KVCacheBlock block(0);
  EXPECT_EQ(block.block_id, 0);
  EXPECT_EQ(block.ref_cnt, 0);
  EXPECT_FALSE(block.block_hash().has_value());
  block.ref_cnt += 1;
  EXPECT_EQ(block.ref_cnt, 1);
  block.ref_cnt -= 1;
  EXPECT_EQ(block.ref_cnt, 0);
  auto block_hash = make_block_hash_with_group_id(BlockHash{"abc"}, 0);
  block.set_block_hash(block_hash);
  EXPECT_EQ(block.block_hash(), block_hash);
  block.reset_hash();
  EXPECT_FALSE(block.block_hash().has_value());
}

// test_kv_cache_utils.py@6e448d0e test_free_kv_cache_block_queue_initialization.
TEST(KvCacheUtils, FreeQueueInitialization) {
  KVCacheBlock block(0);
  FreeKVCacheBlockQueue queue({&block});
  EXPECT_EQ(queue.num_free_blocks, 1);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &block);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &block);
}

std::vector<KVCacheBlock> make_blocks(int n) {
  std::vector<KVCacheBlock> blocks;
  blocks.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) blocks.emplace_back(i);
  return blocks;
}

std::vector<KVCacheBlock*> ptrs(std::vector<KVCacheBlock>& blocks, std::initializer_list<int> ids) {
  std::vector<KVCacheBlock*> out;
  for (int i : ids) out.push_back(&blocks[static_cast<std::size_t>(i)]);
  return out;
}

// test_kv_cache_utils.py@6e448d0e test_free_kv_cache_block_queue_operations.
TEST(KvCacheUtils, FreeQueueOperations) {
  auto blocks = make_blocks(5);
  FreeKVCacheBlockQueue queue(ptrs(blocks, {0, 1, 2, 3, 4}));
  EXPECT_EQ(queue.num_free_blocks, 5);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[0]);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &blocks[4]);

  KVCacheBlock* block1 = queue.popleft();
  EXPECT_EQ(block1, &blocks[0]);
  EXPECT_EQ(queue.num_free_blocks, 4);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[1]);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &blocks[4]);

  KVCacheBlock* block_to_remove = &blocks[2];
  queue.remove(block_to_remove);
  EXPECT_EQ(queue.num_free_blocks, 3);
  EXPECT_EQ(blocks[1].next_free_block, &blocks[3]);
  EXPECT_EQ(blocks[3].prev_free_block, &blocks[1]);

  queue.append(block_to_remove);
  EXPECT_EQ(queue.num_free_blocks, 4);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, block_to_remove);
  EXPECT_EQ(block_to_remove->prev_free_block, &blocks[4]);
  EXPECT_EQ(block_to_remove->next_free_block, &queue.fake_free_list_tail);

  for (int i = 0; i < 4; ++i) queue.popleft();
  EXPECT_EQ(queue.num_free_blocks, 0);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &queue.fake_free_list_tail);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &queue.fake_free_list_head);

  try {
    queue.popleft();
    FAIL() << "popleft of an empty queue must raise";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "No free blocks available");
  }
}

// test_kv_cache_utils.py@6e448d0e test_free_kv_cache_block_queue_append_n.
TEST(KvCacheUtils, FreeQueueAppendN) {
  FreeKVCacheBlockQueue queue({});
  auto blocks = make_blocks(6);
  queue.append_n({});
  EXPECT_EQ(queue.num_free_blocks, 0);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &queue.fake_free_list_tail);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &queue.fake_free_list_head);
  queue.append_n(ptrs(blocks, {0}));
  EXPECT_EQ(queue.num_free_blocks, 1);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[0]);
  EXPECT_EQ(blocks[0].prev_free_block, &queue.fake_free_list_head);
  EXPECT_EQ(blocks[0].next_free_block, &queue.fake_free_list_tail);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &blocks[0]);
  queue.append_n(ptrs(blocks, {4, 5}));
  EXPECT_EQ(queue.num_free_blocks, 3);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[0]);
  EXPECT_EQ(blocks[0].prev_free_block, &queue.fake_free_list_head);
  EXPECT_EQ(blocks[0].next_free_block, &blocks[4]);
  EXPECT_EQ(blocks[4].prev_free_block, &blocks[0]);
  EXPECT_EQ(blocks[4].next_free_block, &blocks[5]);
  EXPECT_EQ(blocks[5].prev_free_block, &blocks[4]);
  EXPECT_EQ(blocks[5].next_free_block, &queue.fake_free_list_tail);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &blocks[5]);
  queue.append_n(ptrs(blocks, {1, 2, 3}));
  EXPECT_EQ(queue.num_free_blocks, 6);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[0]);
  EXPECT_EQ(blocks[0].prev_free_block, &queue.fake_free_list_head);
  EXPECT_EQ(blocks[0].next_free_block, &blocks[4]);
  EXPECT_EQ(blocks[4].prev_free_block, &blocks[0]);
  EXPECT_EQ(blocks[4].next_free_block, &blocks[5]);
  EXPECT_EQ(blocks[5].prev_free_block, &blocks[4]);
  EXPECT_EQ(blocks[5].next_free_block, &blocks[1]);
  EXPECT_EQ(blocks[1].prev_free_block, &blocks[5]);
  EXPECT_EQ(blocks[1].next_free_block, &blocks[2]);
  EXPECT_EQ(blocks[2].prev_free_block, &blocks[1]);
  EXPECT_EQ(blocks[2].next_free_block, &blocks[3]);
  EXPECT_EQ(blocks[3].prev_free_block, &blocks[2]);
  EXPECT_EQ(blocks[3].next_free_block, &queue.fake_free_list_tail);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &blocks[3]);

  FreeKVCacheBlockQueue invalid_queue({});
  invalid_queue.fake_free_list_tail.prev_free_block = nullptr;
  EXPECT_THROW(invalid_queue.append_n(ptrs(blocks, {0})), AssertionError);
  EXPECT_EQ(invalid_queue.num_free_blocks, 0);
  EXPECT_EQ(invalid_queue.fake_free_list_head.next_free_block, &invalid_queue.fake_free_list_tail);
}

// test_kv_cache_utils.py@6e448d0e test_free_kv_cache_block_queue_prepend_n.
TEST(KvCacheUtils, FreeQueuePrependN) {
  auto blocks = make_blocks(6);
  FreeKVCacheBlockQueue queue(ptrs(blocks, {0}));
  queue.prepend_n({});
  EXPECT_EQ(queue.num_free_blocks, 1);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[0]);
  queue.prepend_n(ptrs(blocks, {4, 5}));
  EXPECT_EQ(queue.num_free_blocks, 3);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[4]);
  EXPECT_EQ(blocks[4].prev_free_block, &queue.fake_free_list_head);
  EXPECT_EQ(blocks[4].next_free_block, &blocks[5]);
  EXPECT_EQ(blocks[5].prev_free_block, &blocks[4]);
  EXPECT_EQ(blocks[5].next_free_block, &blocks[0]);
  EXPECT_EQ(blocks[0].prev_free_block, &blocks[5]);
  EXPECT_EQ(blocks[0].next_free_block, &queue.fake_free_list_tail);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &blocks[0]);
  queue.prepend_n(ptrs(blocks, {1, 2}));
  EXPECT_EQ(queue.num_free_blocks, 5);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[1]);
  EXPECT_EQ(blocks[1].next_free_block, &blocks[2]);
  EXPECT_EQ(blocks[2].next_free_block, &blocks[4]);
  std::vector<std::int64_t> order;
  for (int i = 0; i < 5; ++i) order.push_back(queue.popleft()->block_id);
  EXPECT_EQ(order, (std::vector<std::int64_t>{1, 2, 4, 5, 0}));
  EXPECT_EQ(queue.num_free_blocks, 0);
}

// test_kv_cache_utils.py@6e448d0e test_free_kv_cache_block_queue_popleft_n.
TEST(KvCacheUtils, FreeQueuePopleftN) {
  auto blocks = make_blocks(6);
  FreeKVCacheBlockQueue queue(ptrs(blocks, {1, 3, 5, 4, 0, 2}));
  EXPECT_EQ(queue.num_free_blocks, 6);
  EXPECT_EQ(queue.fake_free_list_head.next_free_block, &blocks[1]);
  EXPECT_EQ(blocks[1].prev_free_block, &queue.fake_free_list_head);
  EXPECT_EQ(blocks[1].next_free_block, &blocks[3]);
  EXPECT_EQ(blocks[3].prev_free_block, &blocks[1]);
  EXPECT_EQ(blocks[3].next_free_block, &blocks[5]);
  EXPECT_EQ(blocks[5].prev_free_block, &blocks[3]);
  EXPECT_EQ(blocks[5].next_free_block, &blocks[4]);
  EXPECT_EQ(blocks[4].prev_free_block, &blocks[5]);
  EXPECT_EQ(blocks[4].next_free_block, &blocks[0]);
  EXPECT_EQ(blocks[0].prev_free_block, &blocks[4]);
  EXPECT_EQ(blocks[0].next_free_block, &blocks[2]);
  EXPECT_EQ(blocks[2].prev_free_block, &blocks[0]);
  EXPECT_EQ(blocks[2].next_free_block, &queue.fake_free_list_tail);
  EXPECT_EQ(queue.fake_free_list_tail.prev_free_block, &blocks[2]);

  EXPECT_EQ(queue.popleft_n(0).size(), 0u);
  EXPECT_EQ(queue.num_free_blocks, 6);
  auto result_blocks = queue.popleft_n(1);
  EXPECT_EQ(queue.num_free_blocks, 5);
  ASSERT_EQ(result_blocks.size(), 1u);
  EXPECT_EQ(result_blocks[0], &blocks[1]);
  for (auto* b : result_blocks) {
    EXPECT_EQ(b->prev_free_block, nullptr);
    EXPECT_EQ(b->next_free_block, nullptr);
  }
  result_blocks = queue.popleft_n(2);
  ASSERT_EQ(result_blocks.size(), 2u);
  EXPECT_EQ(queue.num_free_blocks, 3);
  EXPECT_EQ(result_blocks[0], &blocks[3]);
  EXPECT_EQ(result_blocks[1], &blocks[5]);
  for (auto* b : result_blocks) {
    EXPECT_EQ(b->prev_free_block, nullptr);
    EXPECT_EQ(b->next_free_block, nullptr);
  }
  result_blocks = queue.popleft_n(3);
  ASSERT_EQ(result_blocks.size(), 3u);
  EXPECT_EQ(queue.num_free_blocks, 0);
  EXPECT_EQ(result_blocks[0], &blocks[4]);
  EXPECT_EQ(result_blocks[1], &blocks[0]);
  EXPECT_EQ(result_blocks[2], &blocks[2]);
  for (auto* b : result_blocks) {
    EXPECT_EQ(b->prev_free_block, nullptr);
    EXPECT_EQ(b->next_free_block, nullptr);
  }
}

// test_kv_cache_utils.py@6e448d0e test_free_kv_cache_block_queue_get_all_free_blocks.
TEST(KvCacheUtils, FreeQueueGetAllFreeBlocks) {
  auto blocks = make_blocks(5);
  FreeKVCacheBlockQueue queue(ptrs(blocks, {0, 1, 2, 3, 4}));
  EXPECT_EQ(queue.get_all_free_blocks(), ptrs(blocks, {0, 1, 2, 3, 4}));
  queue.popleft();
  EXPECT_EQ(queue.get_all_free_blocks(), ptrs(blocks, {1, 2, 3, 4}));
  queue.remove(&blocks[2]);
  EXPECT_EQ(queue.get_all_free_blocks(), ptrs(blocks, {1, 3, 4}));
  queue.append(&blocks[2]);
  EXPECT_EQ(queue.get_all_free_blocks(), ptrs(blocks, {1, 3, 4, 2}));
}

// test_kv_cache_utils.py@6e448d0e test_generate_block_hash_extra_keys_no_mm_inputs.
TEST(KvCacheUtils, ExtraKeysNoMmInputs) {
  Request request = make_request("0", iota_tokens(6), 3, testing::sha256_fn());
  auto [extra_keys, next_mm_idx] = generate_block_hash_extra_keys(request, 0, 5, 0);
  EXPECT_FALSE(extra_keys.has_value());
  EXPECT_EQ(next_mm_idx, 0);
}

// test_kv_cache_utils.py@6e448d0e test_generate_block_hash_extra_keys_cache_salt (the part without
// multimodal inputs; those are not modelled).
TEST(KvCacheUtils, ExtraKeysCacheSalt) {
  Request request = make_request("0", iota_tokens(6), 3, testing::sha256_fn(), std::string("salt"));
  EXPECT_EQ(generate_block_hash_extra_keys(request, 0, 1, 0).first, (std::vector<std::string>{"salt"}));
  EXPECT_EQ(generate_block_hash_extra_keys(request, 0, 10, 0).first, (std::vector<std::string>{"salt"}));
  EXPECT_FALSE(generate_block_hash_extra_keys(request, 1, 2, 0).first.has_value());
  EXPECT_FALSE(generate_block_hash_extra_keys(request, 6, 10, 0).first.has_value());
}

// test_kv_cache_utils.py@6e448d0e test_generate_block_hash_extra_keys_lora.
TEST(KvCacheUtils, ExtraKeysLora) {
  Request request = make_request("0", iota_tokens(6), 3, testing::sha256_fn());
  request.lora_request = LoRARequest{"test_lora_adapter", 1};
  EXPECT_EQ(generate_block_hash_extra_keys(request, 0, 3, 0).first,
            (std::vector<std::string>{"test_lora_adapter"}));
  request.lora_request = std::nullopt;
  EXPECT_FALSE(generate_block_hash_extra_keys(request, 0, 3, 0).first.has_value());
}

// test_kv_cache_utils.py@6e448d0e test_hash_block_tokens (parametrized over sha256 and sha256_cbor).
TEST(KvCacheUtils, HashBlockTokens) {
  for (const char* name : {"sha256", "sha256_cbor"}) {
    HashFn hash_fn = get_hash_fn_by_name(name);
    init_none_hash(hash_fn, std::nullopt, random32());
    BlockHash parent_block_hash{"123"};
    std::vector<std::int32_t> curr_block_token_ids = {1, 2, 3};
    std::vector<std::string> extra_keys = {"key1", "key2"};
    BlockHash block_hash = hash_block_tokens(hash_fn, parent_block_hash, curr_block_token_ids, extra_keys);
    std::string expected = hash_fn(block_tuple("123", curr_block_token_ids, extra_keys));
    EXPECT_EQ(block_hash.bytes, expected) << name;
  }
}

// test_kv_cache_utils.py@6e448d0e test_hash_request_tokens_no_mm_inputs (parametrized).
TEST(KvCacheUtils, HashRequestTokensNoMmInputs) {
  for (const char* name : {"sha256", "sha256_cbor"}) {
    HashFn hash_fn = get_hash_fn_by_name(name);
    init_none_hash(hash_fn, std::nullopt, random32());
    Request request = make_request("0", iota_tokens(6), 3, hash_fn);
    const auto& block_hashes = request.block_hashes;
    ASSERT_EQ(block_hashes.size(), 2u);
    EXPECT_EQ(block_hashes[0].bytes, hash_fn(block_tuple(NONE_HASH.bytes, {0, 1, 2}, std::nullopt))) << name;
    EXPECT_EQ(block_hashes[1].bytes, hash_fn(block_tuple(block_hashes[0].bytes, {3, 4, 5}, std::nullopt))) << name;
  }
}

std::vector<BlockHash> raw_hashes() {
  std::vector<BlockHash> raw;
  for (int i = 0; i < 8; ++i) raw.push_back(BlockHash{std::string(1, static_cast<char>(i))});
  return raw;
}

// test_kv_cache_utils.py@6e448d0e test_resolve_block_hashes_gate.
TEST(KvCacheUtils, ResolveBlockHashesGate) {
  auto raw = raw_hashes();
  EXPECT_EQ(resolve_block_hashes(raw, 2, 2, false, 2).raw_list(), &raw);
  EXPECT_EQ(resolve_block_hashes(raw, 2, 2, true, 2).raw_list(), &raw);
  EXPECT_EQ(resolve_block_hashes(raw, 2, 4, true, 2).raw_list(), &raw);
  auto off = resolve_block_hashes(raw, 2, 4, true, 4);
  ASSERT_TRUE(off.is_block_size_view());
  EXPECT_EQ(off.as_block_size_view().scale_factor, 2);
  auto swa = resolve_block_hashes(raw, 2, 4, false, 2);
  ASSERT_TRUE(swa.is_block_size_view());
  EXPECT_EQ(swa.as_block_size_view().scale_factor, 2);
}

// test_kv_cache_utils.py@6e448d0e test_resolve_block_hashes_rejects_mismatched_view.
TEST(KvCacheUtils, ResolveBlockHashesRejectsMismatchedView) {
  auto raw = raw_hashes();
  BlockHashListWithBlockSize view(raw, 2, 4);
  auto same = resolve_block_hashes(view, 2, 4);
  ASSERT_TRUE(same.is_block_size_view());
  EXPECT_EQ(same.as_block_size_view().block_hashes, &raw);
  EXPECT_EQ(same.as_block_size_view().scale_factor, 2);
  BlockHashListWithBlockSize mismatched(raw, 2, 8);
  EXPECT_THROW(resolve_block_hashes(mismatched, 2, 4), AssertionError);
}

}  // namespace
}  // namespace blis::vllm
