// Original to BLIS: transcription of test/registered/unit/mem_cache/test_radix_cache_unit.py@71de97b2 (class TestTreeNode) into GoogleTest.
// Stand-ins: TreeNode.counter (reset to 0 in upstream's setUp) is a fresh NodeClock per test, which every
// TreeNode takes; None is an empty std::optional; torch tensors are index vectors; upstream's RuntimeError
// is std::runtime_error.
#include "srt/mem_cache/tree_node.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace blis::sglang {
namespace {

using Strings = std::vector<std::string>;

// test_radix_cache_unit.py@71de97b2 TestTreeNode.test_init_basic.
TEST(SglTreeNode, InitBasic) {
  NodeClock clock;
  TreeNode node(clock);
  EXPECT_EQ(node.id, 0);
  EXPECT_EQ(node.children.size(), 0u);
  EXPECT_EQ(node.parent, nullptr);
  EXPECT_FALSE(node.key.has_value());
  EXPECT_FALSE(node.value.has_value());
  EXPECT_EQ(node.lock_ref, 0);
  EXPECT_EQ(node.hit_count, 0);
  EXPECT_EQ(node.host_ref_counter, 0);
  EXPECT_FALSE(node.host_value.has_value());
  EXPECT_FALSE(node.hash_value.has_value());
}

// test_radix_cache_unit.py@71de97b2 TestTreeNode.test_init_with_id.
TEST(SglTreeNode, InitWithId) {
  NodeClock clock;
  TreeNode node(clock, 42);
  EXPECT_EQ(node.id, 42);
  TreeNode node2(clock);
  EXPECT_EQ(node2.id, 1);  // the counter was incremented
}

// test_radix_cache_unit.py@71de97b2 TestTreeNode.test_evicted_backuped_properties.
TEST(SglTreeNode, EvictedBackupedProperties) {
  struct Case {
    bool has_value, has_host_value, expected_evicted, expected_backuped;
  };
  const std::vector<Case> cases{
      {false, false, true, false}, {true, false, false, false}, {true, true, false, true}, {false, true, true, true}};
  NodeClock clock;
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << "has_value " << c.has_value << " has_host_value " << c.has_host_value);
    TreeNode node(clock);
    if (c.has_value) node.value = IndexVector{1, 2, 3};
    if (c.has_host_value) node.host_value = IndexVector{4, 5, 6};
    EXPECT_EQ(node.evicted(), c.expected_evicted);
    EXPECT_EQ(node.backuped(), c.expected_backuped);
  }
}

// test_radix_cache_unit.py@71de97b2 TestTreeNode.test_protect_release_host.
TEST(SglTreeNode, ProtectReleaseHost) {
  NodeClock clock;
  TreeNode node(clock);
  EXPECT_EQ(node.host_ref_counter, 0);
  node.protect_host();
  EXPECT_EQ(node.host_ref_counter, 1);
  node.release_host();
  EXPECT_EQ(node.host_ref_counter, 0);
  EXPECT_THROW(node.release_host(), std::runtime_error);
}

// test_radix_cache_unit.py@71de97b2 TestTreeNode.test_get_last_hash_value.
TEST(SglTreeNode, GetLastHashValue) {
  NodeClock clock;
  TreeNode node(clock);
  EXPECT_EQ(node.get_last_hash_value(), std::nullopt);
  node.hash_value = Strings{"hash1", "hash2", "hash3"};
  EXPECT_EQ(node.get_last_hash_value(), std::optional<std::string>("hash3"));
}

// test_radix_cache_unit.py@71de97b2 TestTreeNode.test_get_prefix_hash_values_not_shared_across_calls. The
// radix_cache.TreeNode half only: the mamba_radix_cache.TreeNode subtest is not applicable (mamba is not
// ported). A C++ return value is always a fresh vector; the test still checks that extending one result
// does not change the next.
TEST(SglTreeNode, GetPrefixHashValuesNotSharedAcrossCalls) {
  NodeClock clock;
  TreeNode root(clock);
  TreeNode n1(clock);
  n1.parent = &root;
  n1.hash_value = Strings{"h1"};
  TreeNode n2(clock);
  n2.parent = &n1;
  n2.hash_value = Strings{"h2"};
  TreeNode n3(clock);
  n3.parent = &n2;
  n3.hash_value = Strings{"h3"};

  Strings first = n3.get_prefix_hash_values(&n2);
  EXPECT_EQ(first, (Strings{"h1", "h2"}));
  first.push_back("h3");
  Strings second = n3.get_prefix_hash_values(&n2);
  EXPECT_EQ(second, (Strings{"h1", "h2"}));
  EXPECT_NE(second.data(), first.data());

  TreeNode n4(clock);
  n4.parent = &n3;
  n4.hash_value = Strings{"h4"};
  EXPECT_EQ(n4.get_prefix_hash_values(&n3), (Strings{"h1", "h2", "h3"}));
}

}  // namespace
}  // namespace blis::sglang
