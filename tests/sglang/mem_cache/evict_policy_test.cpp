// Original to BLIS: transcription of test/registered/unit/mem_cache/test_evict_policy.py@71de97b2 into GoogleTest.
// Stand-ins: upstream's MagicMock nodes are real TreeNodes with the four fields set; upstream's float times
// are the integers of the logical clock that replaces time.monotonic() (tree_node.h), so 42.0 is 42, and a
// priority (a float or a tuple upstream) is an EvictionPriority sequence.
#include "srt/mem_cache/evict_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "srt/mem_cache/tree_node.h"

namespace blis::sglang {
namespace {

struct NodeArgs {
  std::int64_t last_access_time = 0;
  std::int64_t hit_count = 0;
  std::int64_t creation_time = 0;
  std::int64_t priority = 0;
};

// test_evict_policy.py@71de97b2 _make_node.
std::unique_ptr<TreeNode> make_node(const NodeArgs& a) {
  NodeClock clock;
  auto node = std::make_unique<TreeNode>(clock);
  node->last_access_time = a.last_access_time;
  node->hit_count = a.hit_count;
  node->creation_time = a.creation_time;
  node->priority = a.priority;
  return node;
}

// test_evict_policy.py@71de97b2 TestLRUStrategy.test_priority_is_last_access_time.
TEST(SglLRUStrategy, PriorityIsLastAccessTime) {
  LRUStrategy strategy;
  auto node = make_node({.last_access_time = 42});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{42}));
}

// test_evict_policy.py@71de97b2 TestLRUStrategy.test_older_access_evicted_first.
TEST(SglLRUStrategy, OlderAccessEvictedFirst) {
  LRUStrategy strategy;
  auto old_node = make_node({.last_access_time = 1});
  auto new_node = make_node({.last_access_time = 10});
  EXPECT_LT(strategy.get_priority(*old_node), strategy.get_priority(*new_node));
}

// test_evict_policy.py@71de97b2 TestLFUStrategy.test_priority_is_hit_count_and_time.
TEST(SglLFUStrategy, PriorityIsHitCountAndTime) {
  LFUStrategy strategy;
  auto node = make_node({.last_access_time = 3, .hit_count = 5});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{5, 3}));
}

// test_evict_policy.py@71de97b2 TestLFUStrategy.test_lower_hit_count_evicted_first.
TEST(SglLFUStrategy, LowerHitCountEvictedFirst) {
  LFUStrategy strategy;
  auto cold = make_node({.last_access_time = 10, .hit_count = 1});
  auto hot = make_node({.last_access_time = 1, .hit_count = 100});
  EXPECT_LT(strategy.get_priority(*cold), strategy.get_priority(*hot));
}

// test_evict_policy.py@71de97b2 TestLFUStrategy.test_same_hit_count_older_access_evicted_first.
TEST(SglLFUStrategy, SameHitCountOlderAccessEvictedFirst) {
  LFUStrategy strategy;
  auto old_node = make_node({.last_access_time = 1, .hit_count = 3});
  auto new_node = make_node({.last_access_time = 10, .hit_count = 3});
  EXPECT_LT(strategy.get_priority(*old_node), strategy.get_priority(*new_node));
}

// test_evict_policy.py@71de97b2 TestFIFOStrategy.test_priority_is_creation_time.
TEST(SglFIFOStrategy, PriorityIsCreationTime) {
  FIFOStrategy strategy;
  auto node = make_node({.creation_time = 7});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{7}));
}

// test_evict_policy.py@71de97b2 TestFIFOStrategy.test_earlier_created_evicted_first.
TEST(SglFIFOStrategy, EarlierCreatedEvictedFirst) {
  FIFOStrategy strategy;
  auto first = make_node({.creation_time = 1});
  auto second = make_node({.creation_time = 5});
  EXPECT_LT(strategy.get_priority(*first), strategy.get_priority(*second));
}

// test_evict_policy.py@71de97b2 TestMRUStrategy.test_priority_is_negated_access_time.
TEST(SglMRUStrategy, PriorityIsNegatedAccessTime) {
  MRUStrategy strategy;
  auto node = make_node({.last_access_time = 5});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{-5}));
}

// test_evict_policy.py@71de97b2 TestMRUStrategy.test_most_recently_used_evicted_first.
TEST(SglMRUStrategy, MostRecentlyUsedEvictedFirst) {
  MRUStrategy strategy;
  auto old_node = make_node({.last_access_time = 1});
  auto new_node = make_node({.last_access_time = 10});
  EXPECT_LT(strategy.get_priority(*new_node), strategy.get_priority(*old_node));
}

// test_evict_policy.py@71de97b2 TestFILOStrategy.test_priority_is_negated_creation_time.
TEST(SglFILOStrategy, PriorityIsNegatedCreationTime) {
  FILOStrategy strategy;
  auto node = make_node({.creation_time = 3});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{-3}));
}

// test_evict_policy.py@71de97b2 TestFILOStrategy.test_last_created_evicted_first.
TEST(SglFILOStrategy, LastCreatedEvictedFirst) {
  FILOStrategy strategy;
  auto first = make_node({.creation_time = 1});
  auto second = make_node({.creation_time = 5});
  EXPECT_LT(strategy.get_priority(*second), strategy.get_priority(*first));
}

// test_evict_policy.py@71de97b2 TestPriorityStrategy.test_priority_is_tuple.
TEST(SglPriorityStrategy, PriorityIsTuple) {
  PriorityStrategy strategy;
  auto node = make_node({.last_access_time = 4, .priority = 2});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{2, 4}));
}

// test_evict_policy.py@71de97b2 TestPriorityStrategy.test_lower_priority_evicted_first.
TEST(SglPriorityStrategy, LowerPriorityEvictedFirst) {
  PriorityStrategy strategy;
  auto low = make_node({.last_access_time = 10, .priority = 1});
  auto high = make_node({.last_access_time = 1, .priority = 5});
  EXPECT_LT(strategy.get_priority(*low), strategy.get_priority(*high));
}

// test_evict_policy.py@71de97b2 TestPriorityStrategy.test_same_priority_older_access_evicted_first.
TEST(SglPriorityStrategy, SamePriorityOlderAccessEvictedFirst) {
  PriorityStrategy strategy;
  auto old_node = make_node({.last_access_time = 1, .priority = 3});
  auto new_node = make_node({.last_access_time = 10, .priority = 3});
  EXPECT_LT(strategy.get_priority(*old_node), strategy.get_priority(*new_node));
}

// test_evict_policy.py@71de97b2 TestSLRUStrategy.test_probationary_segment.
TEST(SglSLRUStrategy, ProbationarySegment) {
  SLRUStrategy strategy(2);
  auto node = make_node({.last_access_time = 5, .hit_count = 1});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{0, 5}));
}

// test_evict_policy.py@71de97b2 TestSLRUStrategy.test_protected_segment.
TEST(SglSLRUStrategy, ProtectedSegment) {
  SLRUStrategy strategy(2);
  auto node = make_node({.last_access_time = 5, .hit_count = 2});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{1, 5}));
}

// test_evict_policy.py@71de97b2 TestSLRUStrategy.test_highly_accessed_is_protected.
TEST(SglSLRUStrategy, HighlyAccessedIsProtected) {
  SLRUStrategy strategy(2);
  auto node = make_node({.last_access_time = 5, .hit_count = 100});
  EXPECT_EQ(strategy.get_priority(*node), (EvictionPriority{1, 5}));
}

// test_evict_policy.py@71de97b2 TestSLRUStrategy.test_probationary_evicted_before_protected.
TEST(SglSLRUStrategy, ProbationaryEvictedBeforeProtected) {
  SLRUStrategy strategy(2);
  auto prob = make_node({.last_access_time = 10, .hit_count = 1});
  auto prot = make_node({.last_access_time = 1, .hit_count = 5});
  EXPECT_LT(strategy.get_priority(*prob), strategy.get_priority(*prot));
}

// test_evict_policy.py@71de97b2 TestSLRUStrategy.test_same_segment_older_access_evicted_first.
TEST(SglSLRUStrategy, SameSegmentOlderAccessEvictedFirst) {
  SLRUStrategy strategy(2);
  auto old_node = make_node({.last_access_time = 1, .hit_count = 0});
  auto new_node = make_node({.last_access_time = 10, .hit_count = 0});
  EXPECT_LT(strategy.get_priority(*old_node), strategy.get_priority(*new_node));
}

// test_evict_policy.py@71de97b2 TestSLRUStrategy.test_custom_threshold.
TEST(SglSLRUStrategy, CustomThreshold) {
  SLRUStrategy strategy(5);
  auto below = make_node({.last_access_time = 1, .hit_count = 4});
  auto at = make_node({.last_access_time = 1, .hit_count = 5});
  EXPECT_EQ(strategy.get_priority(*below), (EvictionPriority{0, 1}));
  EXPECT_EQ(strategy.get_priority(*at), (EvictionPriority{1, 1}));
}

// test_evict_policy.py@71de97b2 TestSLRUStrategy.test_default_threshold_is_2.
TEST(SglSLRUStrategy, DefaultThresholdIs2) {
  SLRUStrategy strategy;
  EXPECT_EQ(strategy.protected_threshold, 2);
}

// test_evict_policy.py@71de97b2 TestEvictionOrdering.test_lru_ordering. Python's sorted is stable;
// std::stable_sort too.
TEST(SglEvictionOrdering, LruOrdering) {
  LRUStrategy strategy;
  std::vector<std::unique_ptr<TreeNode>> nodes;
  nodes.push_back(make_node({.last_access_time = 5}));
  nodes.push_back(make_node({.last_access_time = 1}));
  nodes.push_back(make_node({.last_access_time = 3}));
  std::stable_sort(nodes.begin(), nodes.end(),
                   [&](const auto& a, const auto& b) { return strategy.get_priority(*a) < strategy.get_priority(*b); });
  std::vector<std::int64_t> times;
  for (const auto& n : nodes) times.push_back(n->last_access_time);
  EXPECT_EQ(times, (std::vector<std::int64_t>{1, 3, 5}));
}

// test_evict_policy.py@71de97b2 TestEvictionOrdering.test_slru_ordering.
TEST(SglEvictionOrdering, SlruOrdering) {
  SLRUStrategy strategy(2);
  std::vector<std::unique_ptr<TreeNode>> nodes;
  nodes.push_back(make_node({.last_access_time = 1, .hit_count = 5}));   // protected, old
  nodes.push_back(make_node({.last_access_time = 10, .hit_count = 0}));  // probationary, new
  nodes.push_back(make_node({.last_access_time = 2, .hit_count = 0}));   // probationary, old
  nodes.push_back(make_node({.last_access_time = 8, .hit_count = 3}));   // protected, new
  std::stable_sort(nodes.begin(), nodes.end(),
                   [&](const auto& a, const auto& b) { return strategy.get_priority(*a) < strategy.get_priority(*b); });
  std::vector<EvictionPriority> actual;
  for (const auto& n : nodes) actual.push_back(strategy.get_priority(*n));
  const std::vector<EvictionPriority> expected{{0, 2}, {0, 10}, {1, 1}, {1, 8}};
  EXPECT_EQ(actual, expected);
}

}  // namespace
}  // namespace blis::sglang
