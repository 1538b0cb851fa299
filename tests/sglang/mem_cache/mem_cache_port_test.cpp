// Original to BLIS: this port's own tests of python/sglang/srt/mem_cache/@71de97b2 where the transcribed upstream tests leave it unchecked: allocator/token.py, allocator/paged.py (alloc, alloc_extend, alloc_decode, free, free_segment), allocator/base.py free_segments, memory_pool.py ReqToTokenPool, utils.py page hashing (the byte layout of cpp_utils/hash_binding.cpp), radix_cache.py eviction order under the logical clock and cache_finished_req. Expected values are worked by hand from upstream's code; the hashes were computed with Python's hashlib over the bytes hash_binding.cpp hashes.
#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "mem_cache_fakes.h"
#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/allocator.h"
#include "srt/mem_cache/memory_pool.h"
#include "srt/mem_cache/radix_cache.h"
#include "srt/mem_cache/utils.h"

namespace blis::sglang {
namespace {

using testing_fakes::RecordingAllocator;

// allocator/token.py@71de97b2 TokenToKVPoolAllocator: slots from 1, frees appended (need_sort=False).
TEST(SglMemCachePort, TokenAllocatorAllocAndFree) {
  TokenToKVPoolAllocator a(8, false);
  EXPECT_EQ(a.available_size(), 8);
  EXPECT_EQ(a.alloc(3), (IndexVector{1, 2, 3}));
  EXPECT_EQ(a.available_size(), 5);
  const IndexVector two{2};
  a.free(two);
  EXPECT_EQ(a.alloc(6), (IndexVector{4, 5, 6, 7, 8, 2}));
  EXPECT_EQ(a.alloc(1), std::nullopt);
}

// allocator/token.py@71de97b2 TokenToKVPoolAllocator with need_sort: frees go to release_pages and are
// merged and sorted only when an allocation needs them.
TEST(SglMemCachePort, TokenAllocatorNeedSortMergesOnDemand) {
  TokenToKVPoolAllocator a(8, true);
  ASSERT_EQ(a.alloc(3), (IndexVector{1, 2, 3}));
  const IndexVector freed{3, 1};
  a.free(freed);
  EXPECT_EQ(a.release_pages, (IndexVector{3, 1}));
  EXPECT_EQ(a.available_size(), 7);
  EXPECT_EQ(a.alloc(6), (IndexVector{1, 3, 4, 5, 6, 7}));
  EXPECT_EQ(a.free_pages, (IndexVector{8}));
  EXPECT_TRUE(a.release_pages.empty());
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.alloc and free: whole pages; free releases the
// sorted unique page ids in front of the free list.
TEST(SglMemCachePort, PagedAllocatorAllocAndFree) {
  PagedTokenToKVPoolAllocator a(16, 4, false);
  EXPECT_EQ(a.num_pages(), 4);
  EXPECT_EQ(a.available_size(), 16);
  EXPECT_EQ(a.alloc(8), (IndexVector{4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(a.free_pages, (IndexVector{3, 4}));
  const IndexVector freed{9, 8, 5};
  a.free(freed);
  EXPECT_EQ(a.free_pages, (IndexVector{1, 2, 3, 4}));
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.free_segment: the representatives of a segment
// starting mid-page are its first index and every page start after it.
TEST(SglMemCachePort, PagedFreeSegmentMidPage) {
  PagedTokenToKVPoolAllocator a(64, 4, false);
  ASSERT_TRUE(a.alloc(16).has_value());   // pages 1..4
  const IndexVector seg{6, 7, 8, 9, 10};  // row positions 2..6: the tail of page 1, then page 2
  a.free_segment(seg, 2);
  EXPECT_EQ(IndexVector(a.free_pages.begin(), a.free_pages.begin() + 3), (IndexVector{1, 2, 5}));
}

// allocator/base.py@71de97b2 free_segments: a page shared by consecutive segments is freed once (the later
// segment's head is trimmed to the next page boundary).
TEST(SglMemCachePort, FreeSegmentsTrimsSharedBoundaryPage) {
  PagedTokenToKVPoolAllocator a(64, 4, false);
  ASSERT_TRUE(a.alloc(24).has_value());      // pages 1..6
  const IndexVector first{16, 17};           // row positions 4..5 (page 4)
  const IndexVector second{18, 19, 20, 21};  // row positions 6..9 (page 4 tail, page 5)
  a.free_segments({{std::span<const std::int64_t>(first), 4}, {std::span<const std::int64_t>(second), 6}});
  EXPECT_EQ(IndexVector(a.free_pages.begin(), a.free_pages.begin() + 3), (IndexVector{5, 4, 7}));
}

// allocator/paged.py@71de97b2 alloc_extend (alloc_extend_naive): the prefix's partial page is filled first,
// then whole new pages, then the last partial page.
TEST(SglMemCachePort, PagedAllocExtend) {
  PagedTokenToKVPoolAllocator a(16, 4, false);
  ASSERT_EQ(a.alloc(4), (IndexVector{4, 5, 6, 7}));  // page 1 holds the prefix
  const auto out = a.alloc_extend({2}, {11}, {5}, 9);
  EXPECT_EQ(out, (IndexVector{6, 7, 8, 9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(a.free_pages, (IndexVector{4}));
  EXPECT_EQ(a.alloc_extend({0}, {12}, {-1}, 12), std::nullopt);  // three pages needed, one free
}

// allocator/paged.py@71de97b2 alloc_decode (alloc_decode_kernel): a token starting a page takes the next
// free page; the others follow last_loc.
TEST(SglMemCachePort, PagedAllocDecode) {
  PagedTokenToKVPoolAllocator a(16, 4, false);
  ASSERT_TRUE(a.alloc(8).has_value());  // pages 1, 2
  EXPECT_EQ(get_num_new_pages({5, 6}, 4, std::nullopt, true), 1);
  EXPECT_EQ(a.alloc_decode({5, 6}, {7, 13}), (IndexVector{12, 14}));
  EXPECT_EQ(a.free_pages, (IndexVector{4}));
}

struct PoolReq {
  std::optional<std::int64_t> req_pool_idx;
  std::int64_t inflight_middle_chunks = 0;
  std::int64_t kv_committed_len = 0;
};

// memory_pool.py@71de97b2 ReqToTokenPool: slots are taken from the tail of the free list; free appends.
TEST(SglMemCachePort, ReqToTokenPoolAllocFree) {
  ReqToTokenPool pool(3, 4);
  PoolReq r0, r1;
  std::vector<PoolReq*> reqs{&r0, &r1};
  EXPECT_EQ(pool.alloc(std::span<PoolReq*>(reqs)), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(pool.free_slots, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(pool.req_generation[2], 1);
  pool.free(r0);
  EXPECT_FALSE(r0.req_pool_idx.has_value());
  EXPECT_EQ(pool.free_slots, (std::vector<std::int64_t>{1, 2}));
  PoolReq r2, r3, r4;
  std::vector<PoolReq*> more{&r2, &r3, &r4};
  EXPECT_EQ(pool.alloc(std::span<PoolReq*>(more)), std::nullopt);
  const IndexVector row{7, 8};
  pool.write(3, 1, row);
  EXPECT_EQ(pool.read(3, 0, 4), (IndexVector{0, 7, 8, 0}));
}

// memory_pool.py@71de97b2 ReqToTokenPool.alloc / free: upstream's asserts raise AssertionError, which the
// port throws as an error to its caller (SIM-2: never an abort). Pairs: the closest inputs that pass.
TEST(SglMemCachePort, ReqToTokenPoolAssertsThrow) {
  ReqToTokenPool pool(2, 4);
  PoolReq held;
  held.req_pool_idx = 1;  // holds a slot with nothing committed and no middle chunk in flight
  std::vector<PoolReq*> reqs{&held};
  EXPECT_THROW(pool.alloc(std::span<PoolReq*>(reqs)), std::logic_error);
  held.kv_committed_len = 1;  // the closest request that may reuse its slot
  EXPECT_EQ(pool.alloc(std::span<PoolReq*>(reqs)), (std::vector<std::int64_t>{1}));
  PoolReq none;
  EXPECT_THROW(pool.free(none), std::logic_error);
  pool.free(held);
  EXPECT_FALSE(held.req_pool_idx.has_value());
}

// radix_cache.py@71de97b2 RadixCache.evict: LRU follows access order (the logical clock), so a leaf
// matched after a newer insert outlives it.
TEST(SglMemCachePort, EvictFollowsAccessOrder) {
  RecordingAllocator allocator;
  auto cache = RadixCache::create_simulated(false, &allocator);
  InsertParams a;
  a.key = RadixKey(std::vector<std::int64_t>{1, 2});
  a.value = IndexVector{10, 20};
  cache->insert(a);
  InsertParams b;
  b.key = RadixKey(std::vector<std::int64_t>{3, 4});
  b.value = IndexVector{30, 40};
  cache->insert(b);
  cache->match_prefix(MatchPrefixParams{RadixKey(std::vector<std::int64_t>{1, 2})});
  EvictParams params;
  params.num_tokens = 1;
  EXPECT_EQ(cache->evict(params).num_tokens_evicted, 2);
  ASSERT_EQ(allocator.free_segment_calls.size(), 1u);
  EXPECT_EQ(allocator.free_segment_calls[0].first, (IndexVector{30, 40}));
  EXPECT_EQ(allocator.free_segment_calls[0].second, 0);
  EXPECT_EQ(cache->evictable_size(), 2);
}

// radix_cache.py@71de97b2 RadixCache.cache_finished_req: the shared prefix's duplicate indices are freed,
// the new suffix is kept by the tree.
TEST(SglMemCachePort, CacheFinishedReqFreesDuplicatePrefix) {
  TokenToKVPoolAllocator allocator(16, false);
  ReqToTokenPool pool(2, 8);
  auto cache = RadixCache::create_simulated(false, &allocator);
  cache->req_to_token_pool = &pool;

  Req first("a", {1, 2, 3});
  first.output_ids = {4};
  first.req_pool_idx = 1;
  first.last_node = cache->root_node.get();
  const auto first_kv = allocator.alloc(4);
  ASSERT_EQ(first_kv, (IndexVector{1, 2, 3, 4}));
  pool.write(1, 0, *first_kv);
  cache->cache_finished_req(first, true, 4);
  EXPECT_EQ(cache->total_size(), 4);
  EXPECT_EQ(allocator.available_size(), 12);

  Req second("b", {1, 2, 3});
  second.output_ids = {9};
  second.req_pool_idx = 2;
  second.last_node = cache->root_node.get();
  const auto second_kv = allocator.alloc(4);
  ASSERT_EQ(second_kv, (IndexVector{5, 6, 7, 8}));
  pool.write(2, 0, *second_kv);
  cache->cache_finished_req(second, true, 4);
  EXPECT_EQ(cache->total_size(), 5);
  EXPECT_EQ(allocator.available_size(), 11);
  EXPECT_EQ(IndexVector(allocator.free_pages.end() - 3, allocator.free_pages.end()), (IndexVector{5, 6, 7}));
  const auto match = cache->match_prefix(MatchPrefixParams{RadixKey(std::vector<std::int64_t>{1, 2, 3, 9})});
  EXPECT_EQ(match.device_indices, (IndexVector{1, 2, 3, 8}));
}

// utils.py@71de97b2 get_hash_str / hash_str_to_int64 (cpp_utils/hash_binding.cpp@71de97b2): SHA-256 over
// the tokens as little-endian uint32, each page chained on the previous page's digest bytes.
TEST(SglMemCachePort, PageHashesFollowNativeHash) {
  const std::string h1 = "cf97adeedb59e05bfd73a2b4c2a8885708c4f4f70c84c64b27120e72ab733b72";
  const std::string h2 = "4ebfa8a1f3c341517621838c6e1b9aa350307e3f00b3cbd1a07ef740f54396d6";
  const RadixKey key(std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(get_hash_str_pages(key, std::nullopt, 4), (std::vector<std::string>{h1, h2}));
  EXPECT_EQ(get_hash_str(key.slice(0, 4)), h1);
  EXPECT_EQ(key.hash_page(4, 8, h1), h2);
  EXPECT_EQ(hash_str_to_int64(h1), -3488128144981237669LL);
  EXPECT_EQ(hash_str_to_int64(h2), 5674439469042975057LL);
  // Bigram units hash as (t_i, t_i+1) word pairs.
  EXPECT_EQ(get_hash_str(RadixKey(std::vector<std::int64_t>{1, 2, 3}, std::nullopt, true)),
            "ede8ef26a097f0fd889f9f39f6f5af921370630b164c4a4fa28eb716b2df9269");
  EXPECT_THROW(get_hash_str(RadixKey(std::vector<std::int64_t>{-1})), std::out_of_range);

  auto cache = RadixCache::create_simulated(false, nullptr, 4, true);
  InsertParams p;
  p.key = key;
  cache->insert(p);
  const auto events = cache->take_events();
  ASSERT_EQ(events.size(), 2u);  // AllBlocksCleared from reset(), then one coalesced BlockStored
  EXPECT_TRUE(std::holds_alternative<AllBlocksCleared>(events[0]));
  EXPECT_EQ(std::get<BlockStored>(events[1]).block_hashes,
            (std::vector<std::int64_t>{-3488128144981237669LL, 5674439469042975057LL}));
}

// utils.py@71de97b2 compute_node_event_hash_values: a salted key's event hashes chain on
// sha256("sglang-cache-salt-v1\0" + salt).
TEST(SglMemCachePort, SaltedEventHashesChainOnSaltSeed) {
  auto cache = RadixCache::create_simulated(false, nullptr, 2, true);
  InsertParams p;
  p.key = RadixKey(std::vector<std::int64_t>{1, 2}, std::nullopt, false, std::nullopt, std::string("tenant-a"));
  cache->insert(p);
  const auto events = cache->take_events();
  ASSERT_EQ(events.size(), 2u);
  const auto& stored = std::get<BlockStored>(events[1]);
  EXPECT_EQ(stored.block_hashes, (std::vector<std::int64_t>{31502315585564397LL}));
  ASSERT_TRUE(stored.metadata.has_value());
  EXPECT_EQ(stored.metadata->cache_salt, "tenant-a");
}

// events.py@71de97b2 KVCacheEventMixin._record_store_event: upstream asserts a salted node's parent carries
// event hash values; the port throws that AssertionError to its caller (SIM-2: never an abort). Through
// insert the parent's hashes are always filled first (compute_node_event_hash_values walks up the path), so
// the store is recorded directly for a node whose own hashes are known. Pair: the parent keeps its hashes.
TEST(SglMemCachePort, SaltedStoreEventAssertThrows) {
  for (const bool drop_parent_hashes : {false, true}) {
    SCOPED_TRACE(testing::Message() << "drop_parent_hashes " << drop_parent_hashes);
    auto cache = RadixCache::create_simulated(false, nullptr, 2, true);
    auto salted = [](std::vector<std::int64_t> tokens) {
      return RadixKey(std::move(tokens), std::nullopt, false, std::nullopt, std::string("tenant-a"));
    };
    InsertParams first;
    first.key = salted({1, 2});
    cache->insert(first);
    InsertParams longer;
    longer.key = salted({1, 2, 3, 4});
    cache->insert(longer);
    TreeNode* child = cache->match_prefix(MatchPrefixParams{salted({1, 2, 3, 4})}).last_device_node;
    ASSERT_NE(child, nullptr);
    ASSERT_NE(child->parent, cache->root_node.get());
    ASSERT_TRUE(child->event_hash_value.has_value());
    ASSERT_TRUE(child->parent->event_hash_value.has_value());
    (void)cache->take_events();
    if (drop_parent_hashes) child->parent->event_hash_value.reset();
    if (drop_parent_hashes) {
      EXPECT_THROW(cache->record_store_event(*child, 2, cache->root_node.get(), std::nullopt), std::logic_error);
    } else {
      cache->record_store_event(*child, 2, cache->root_node.get(), std::nullopt);
      EXPECT_EQ(cache->take_events().size(), 1u);
    }
  }
}

// radix_cache.py@71de97b2 RadixCache: the size bookkeeping of insert, match (with splits), lock_ref and
// evict stays consistent: evictable + protected == total_size == len(all_values_flatten()), and every
// evictable leaf is unlocked and childless. A fixed linear congruential sequence drives the operations.
TEST(SglMemCachePort, SizeBookkeepingStaysConsistent) {
  for (std::int64_t page_size : {1, 2}) {
    SCOPED_TRACE(testing::Message() << "page_size " << page_size);
    RecordingAllocator allocator;
    auto cache = RadixCache::create_simulated(false, &allocator, page_size);
    std::uint64_t state = 12345;
    auto next = [&state](std::uint64_t n) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return (state >> 33) % n;
    };
    std::vector<TreeNode*> locked;
    for (int step = 0; step < 400; ++step) {
      std::vector<std::int64_t> tokens(1 + next(12));
      for (auto& t : tokens) t = static_cast<std::int64_t>(next(3));
      switch (next(4)) {
        case 0: {
          InsertParams p;
          p.key = RadixKey(tokens);
          cache->insert(p);
          break;
        }
        case 1: {
          TreeNode* node = cache->match_prefix(MatchPrefixParams{RadixKey(tokens)}).last_device_node;
          if (node != cache->root_node.get() && next(2) == 0) {
            cache->inc_lock_ref(node);
            locked.push_back(node);
          }
          break;
        }
        case 2:
          if (!locked.empty()) {
            cache->dec_lock_ref(locked.back());
            locked.pop_back();
          }
          break;
        default: {
          EvictParams params;
          params.num_tokens = static_cast<std::int64_t>(next(6));
          cache->evict(params);
        }
      }
      ASSERT_EQ(cache->evictable_size() + cache->protected_size(), cache->total_size()) << "step " << step;
      ASSERT_EQ(static_cast<std::int64_t>(cache->all_values_flatten().size()), cache->total_size());
      for (const auto& [id, leaf] : cache->evictable_leaves()) {
        ASSERT_EQ(leaf->lock_ref, 0);
        ASSERT_TRUE(leaf->children.empty());
      }
    }
    while (!locked.empty()) {
      cache->dec_lock_ref(locked.back());
      locked.pop_back();
    }
    EXPECT_EQ(cache->protected_size(), 0);
    EvictParams all;
    all.num_tokens = cache->total_size();
    EXPECT_EQ(cache->evict(all).num_tokens_evicted, all.num_tokens);
    EXPECT_EQ(cache->total_size(), 0);
    EXPECT_FALSE(allocator.free_segment_calls.empty());
  }
}

}  // namespace
}  // namespace blis::sglang
