// Original to BLIS: transcription of test/registered/unit/mem_cache/test_radix_cache_unit.py@71de97b2 (class TestRadixCache, except its KV-event and hash tests, in radix_cache_events_test.cpp) into GoogleTest.
// Stand-ins: torch int64 tensors are index vectors (torch.testing.assert_close is ==); a Mock allocator is
// RecordingAllocator (mem_cache_fakes.h); the Mock request of the cache_unfinished_req test is a real Req
// with the same fields set; the test's own ReqToTokenPool class is a ReqToTokenPool with the row written.
// TreeNode.counter = 0 in setUp is moot: every cache owns its counter.
#include "srt/mem_cache/radix_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <vector>

#include "mem_cache_fakes.h"
#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/allocator/token.h"
#include "srt/mem_cache/memory_pool.h"

namespace blis::sglang {
namespace {

using Tokens = std::vector<std::int64_t>;
using testing_fakes::RecordingAllocator;

InsertParams insert_params(Tokens tokens, std::optional<IndexVector> value,
                           std::optional<std::string> extra_key = std::nullopt) {
  InsertParams p;
  p.key = RadixKey(std::move(tokens), std::move(extra_key));
  p.value = std::move(value);
  return p;
}

MatchPrefixParams match_params(Tokens tokens, std::optional<std::string> extra_key = std::nullopt) {
  return MatchPrefixParams{RadixKey(std::move(tokens), std::move(extra_key))};
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_init_variations. The device assertion
// (torch.device("cpu")) is dropped: the port has no devices.
TEST(SglRadixCache, InitVariations) {
  struct Case {
    std::int64_t page_size;
    bool disable, enable_events;
  };
  for (const Case& c : {Case{1, false, false}, Case{4, false, true}, Case{1, true, false}}) {
    SCOPED_TRACE(testing::Message() << "page_size " << c.page_size << " disable " << c.disable);
    auto cache = RadixCache::create_simulated(c.disable, nullptr, c.page_size, c.enable_events);
    EXPECT_EQ(cache->page_size, c.page_size);
    EXPECT_EQ(cache->disable, c.disable);
    EXPECT_EQ(cache->enable_kv_cache_events, c.enable_events);
    ASSERT_NE(cache->root_node, nullptr);
    EXPECT_EQ(cache->root_node->key->size(), 0);
  }
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_reset.
TEST(SglRadixCache, Reset) {
  auto cache = RadixCache::create_simulated();
  cache->insert(insert_params({1, 2, 3}, IndexVector{10, 20, 30}));
  EXPECT_GT(cache->total_size(), 0);
  cache->reset();
  EXPECT_EQ(cache->total_size(), 0);
  EXPECT_EQ(cache->evictable_size(), 0);
  EXPECT_EQ(cache->protected_size(), 0);
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_insert_and_match_basic.
TEST(SglRadixCache, InsertAndMatchBasic) {
  for (bool disable_cache : {false, true}) {
    SCOPED_TRACE(testing::Message() << "disable_cache " << disable_cache);
    auto cache = RadixCache::create_simulated(disable_cache);
    const IndexVector value{10, 20, 30};
    const std::int64_t prefix_len = cache->insert(insert_params({1, 2, 3}, value)).prefix_len;
    if (disable_cache) {
      EXPECT_EQ(prefix_len, 0);
      EXPECT_EQ(cache->total_size(), 0);
      continue;
    }
    EXPECT_EQ(prefix_len, 0);
    EXPECT_EQ(cache->total_size(), 3);
    EXPECT_EQ(cache->evictable_size(), 3);

    auto result = cache->match_prefix(match_params({1, 2, 3}));
    EXPECT_EQ(result.device_indices.size(), 3u);
    EXPECT_EQ(result.device_indices, value);

    result = cache->match_prefix(match_params({1, 2}));
    EXPECT_EQ(result.device_indices.size(), 2u);
    EXPECT_EQ(result.device_indices, (IndexVector{10, 20}));
  }
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_insert_with_none_value.
TEST(SglRadixCache, InsertWithNoneValue) {
  auto cache = RadixCache::create_simulated();
  const std::int64_t prefix_len = cache->insert(insert_params({1, 2, 3}, std::nullopt)).prefix_len;
  EXPECT_EQ(prefix_len, 0);
  EXPECT_EQ(cache->total_size(), 3);
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_total_size.
TEST(SglRadixCache, TotalSize) {
  auto cache = RadixCache::create_simulated();
  EXPECT_EQ(cache->total_size(), 0);
  cache->insert(insert_params({1, 2, 3}, IndexVector{10, 20, 30}));
  EXPECT_EQ(cache->total_size(), 3);
  cache->insert(insert_params({4, 5}, IndexVector{40, 50}));
  EXPECT_EQ(cache->total_size(), 5);
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_cache_unfinished_req_deferred_free_owns_original_indices.
TEST(SglRadixCache, CacheUnfinishedReqDeferredFreeOwnsOriginalIndices) {
  TokenToKVPoolAllocator allocator(16, /*need_sort=*/false);
  auto cache = RadixCache::create_simulated(false, &allocator);
  const Tokens token_ids{1, 2, 3};
  const auto tree_indices = allocator.alloc(3);
  const auto request_indices = allocator.alloc(3);
  ASSERT_TRUE(tree_indices.has_value());
  ASSERT_TRUE(request_indices.has_value());
  cache->insert(insert_params(token_ids, *tree_indices));

  ReqToTokenPool pool(/*size=*/0, /*max_context_len=*/3);  // row 0 only, as the test's one-row table
  pool.write(0, 0, *request_indices);
  cache->req_to_token_pool = &pool;
  Req req("r", token_ids);
  req.req_pool_idx = 0;
  req.cache_protected_len = 0;
  req.priority = 0;
  req.last_node = cache->root_node.get();
  req.full_untruncated_fill_ids = token_ids;  // req.get_fill_ids.return_value = token_ids
  req.set_extend_range(0, 3);
  ASSERT_EQ(req.get_fill_ids(), token_ids);

  const std::int64_t available_before_free = allocator.available_size();
  allocator.free_group_begin();
  cache->cache_unfinished_req(req);
  allocator.free_group_end();

  EXPECT_EQ(allocator.available_size(), available_before_free + static_cast<std::int64_t>(request_indices->size()));
  const IndexVector tail(allocator.free_pages.end() - 3, allocator.free_pages.end());
  EXPECT_EQ(tail, *request_indices);
  EXPECT_EQ(pool.read(0, 0, 3), *tree_indices);
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_extra_key_isolation.
TEST(SglRadixCache, ExtraKeyIsolation) {
  auto cache = RadixCache::create_simulated();
  cache->insert(insert_params({1, 2, 3}, IndexVector{10, 20, 30}, "key1"));
  cache->insert(insert_params({1, 2, 3}, IndexVector{40, 50, 60}, "key2"));
  cache->insert(insert_params({1, 2, 3}, IndexVector{70, 80, 90}, std::nullopt));

  auto result1 = cache->match_prefix(match_params({1, 2, 3}, "key1"));
  auto result2 = cache->match_prefix(match_params({1, 2, 3}, "key2"));
  auto result3 = cache->match_prefix(match_params({1, 2, 3}, std::nullopt));
  auto result4 = cache->match_prefix(match_params({1, 2, 3}, "nonexistent"));

  EXPECT_EQ(result1.device_indices.size(), 3u);
  EXPECT_EQ(result1.device_indices, (IndexVector{10, 20, 30}));
  EXPECT_EQ(result2.device_indices.size(), 3u);
  EXPECT_EQ(result2.device_indices, (IndexVector{40, 50, 60}));
  EXPECT_EQ(result3.device_indices.size(), 3u);
  EXPECT_EQ(result3.device_indices, (IndexVector{70, 80, 90}));
  EXPECT_EQ(result4.device_indices.size(), 0u);
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_cache_salt_isolation_is_independent_of_extra_key.
TEST(SglRadixCache, CacheSaltIsolationIsIndependentOfExtraKey) {
  auto cache = RadixCache::create_simulated();
  const Tokens tokens{1, 2, 3};
  InsertParams a;
  a.key = RadixKey(tokens, std::string("bc"), false, std::nullopt, std::string("a"));
  a.value = IndexVector{10, 20, 30};
  cache->insert(a);
  InsertParams b;
  b.key = RadixKey(tokens, std::string("c"), false, std::nullopt, std::string("ab"));
  b.value = IndexVector{40, 50, 60};
  cache->insert(b);

  auto first = cache->match_prefix(
      MatchPrefixParams{RadixKey(tokens, std::string("bc"), false, std::nullopt, std::string("a"))});
  auto second = cache->match_prefix(
      MatchPrefixParams{RadixKey(tokens, std::string("c"), false, std::nullopt, std::string("ab"))});
  EXPECT_EQ(first.device_indices, (IndexVector{10, 20, 30}));
  EXPECT_EQ(second.device_indices, (IndexVector{40, 50, 60}));
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_lock_ref_operations.
TEST(SglRadixCache, LockRefOperations) {
  auto cache = RadixCache::create_simulated();
  cache->insert(insert_params({1, 2, 3}, IndexVector{10, 20, 30}));
  TreeNode* node = cache->match_prefix(match_params({1, 2, 3})).last_device_node;
  const std::int64_t initial_evictable = cache->evictable_size();
  const std::int64_t initial_protected = cache->protected_size();

  cache->inc_lock_ref(node);
  EXPECT_EQ(cache->protected_size(), initial_protected + 3);
  EXPECT_EQ(cache->evictable_size(), initial_evictable - 3);

  cache->dec_lock_ref(node);
  EXPECT_EQ(cache->protected_size(), initial_protected);
  EXPECT_EQ(cache->evictable_size(), initial_evictable);
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_evict_functionality.
TEST(SglRadixCache, EvictFunctionality) {
  RecordingAllocator mock_allocator;
  auto cache = RadixCache::create_simulated(false, &mock_allocator);
  cache->insert(insert_params({1, 2}, IndexVector{10, 20}));
  cache->insert(insert_params({3, 4}, IndexVector{30, 40}));
  const std::int64_t initial_size = cache->total_size();

  EvictParams params;
  params.num_tokens = 2;
  const EvictResult result = cache->evict(params);
  EXPECT_GE(result.num_tokens_evicted, 2) << "evicted " << result.num_tokens_evicted << " tokens, expected at least 2";
  EXPECT_FALSE(mock_allocator.free_segment_calls.empty());  // free_segment.assert_called()
  EXPECT_LT(cache->total_size(), initial_size);
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_page_alignment_boundary.
TEST(SglRadixCache, PageAlignmentBoundary) {
  for (auto [page_size, sequence_length] : {std::pair<std::int64_t, std::int64_t>{1, 5}, {2, 5}, {4, 6}}) {
    SCOPED_TRACE(testing::Message() << "page_size " << page_size);
    auto cache = RadixCache::create_simulated(false, nullptr, page_size);
    Tokens tokens;
    for (std::int64_t i = 0; i < sequence_length; ++i) tokens.push_back(i);
    RadixKey key(tokens);
    IndexVector value(tokens.begin(), tokens.begin() + key.size());
    InsertParams p;
    p.key = key;
    p.value = value;
    cache->insert(p);
    auto result = cache->match_prefix(match_params(tokens));
    EXPECT_GT(result.device_indices.size(), 0u);
    EXPECT_EQ(static_cast<std::int64_t>(result.device_indices.size()) % page_size, 0);
  }
}

// test_radix_cache_unit.py@71de97b2 TestRadixCache.test_advanced_prefix_match_with_node_splits.
TEST(SglRadixCache, AdvancedPrefixMatchWithNodeSplits) {
  for (std::int64_t page_size : {1, 2}) {
    SCOPED_TRACE(testing::Message() << "page_size " << page_size);
    auto cache = RadixCache::create_simulated(false, nullptr, page_size);
    const Tokens seq1{1, 2, 3, 4, 5, 6, 7, 8};
    IndexVector val1;
    for (auto x : seq1) val1.push_back(x * 10);
    cache->insert(insert_params(seq1, val1));
    const Tokens seq2{1, 2, 9, 10};
    IndexVector val2;
    for (auto x : seq2) val2.push_back(x * 10);
    cache->insert(insert_params(seq2, val2));
    std::ostringstream printed;
    cache->pretty_print(printed);

    const std::int64_t baseline_total = cache->total_size();
    EXPECT_EQ(baseline_total, 10);  // 8 + 2

    auto result1 = cache->match_prefix(match_params({1, 2, 3, 4, 999, 1000}));
    EXPECT_EQ(result1.device_indices, IndexVector(val1.begin(), val1.begin() + 4));
    EXPECT_EQ(cache->total_size(), baseline_total);

    auto result_full = cache->match_prefix(match_params(seq1));
    EXPECT_EQ(result_full.device_indices, val1);

    auto result2 = cache->match_prefix(match_params({1, 2, 3, 4, 5, 6, 777, 888}));
    EXPECT_EQ(result2.device_indices, IndexVector(val1.begin(), val1.begin() + 6));
    EXPECT_EQ(cache->total_size(), baseline_total);

    auto result_branch = cache->match_prefix(match_params(seq2));
    EXPECT_EQ(result_branch.device_indices, val2);
  }
}

}  // namespace
}  // namespace blis::sglang
