// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcriptions, one TEST per upstream function, of four tests of
// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 that
// tests/router/plugins/prefix_scorer_test.cpp checks inside combined TESTs without a full citation each.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

namespace blis::router::attrprefix {
namespace {

std::shared_ptr<PrefixCacheMatchInfo> cloneOf(const std::shared_ptr<PrefixCacheMatchInfo>& info) {
  return std::dynamic_pointer_cast<PrefixCacheMatchInfo>(info->Clone());
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 TestPrefixCacheMatchInfo_WithCachedBlockCount
TEST(PrefixCacheMatchInfoTest, WithCachedBlockCount) {
  const auto info = NewPrefixCacheMatchInfo(192, 256, 16)->WithCachedBlockCount(240);
  // matchBlocks keeps the tier-weighted ranking value; cachedBlockCount holds the unweighted literal count.
  EXPECT_EQ(192, info->MatchBlocks());
  EXPECT_EQ(240, info->CachedBlockCount());
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 TestPrefixCacheMatchInfo_CloneCopiesCachedBlockCount
TEST(PrefixCacheMatchInfoTest, CloneCopiesCachedBlockCount) {
  const auto orig = NewPrefixCacheMatchInfo(192, 256, 16)->WithCachedBlockCount(240);
  const auto clone = cloneOf(orig);
  ASSERT_NE(clone, nullptr);
  EXPECT_EQ(orig->MatchBlocks(), clone->MatchBlocks());
  EXPECT_EQ(orig->TotalBlocks(), clone->TotalBlocks());
  EXPECT_EQ(orig->BlockSizeTokens(), clone->BlockSizeTokens());
  EXPECT_EQ(orig->CachedBlockCount(), clone->CachedBlockCount());
  // Mutating the clone must not affect the original.
  clone->WithCachedBlockCount(1);
  EXPECT_EQ(240, orig->CachedBlockCount());
  EXPECT_EQ(1, clone->CachedBlockCount());
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 TestPrefixCacheMatchInfo_WithCachedBlocksByTier
TEST(PrefixCacheMatchInfoTest, WithCachedBlocksByTier) {
  const std::map<std::string, int> tiers = {{"gpu", 3}, {"cpu", 2}};
  const auto info = NewPrefixCacheMatchInfo(5, 10, 16)->WithCachedBlocksByTier(tiers);
  ASSERT_TRUE(info->CachedBlocksByTier().has_value());
  EXPECT_EQ(tiers, *info->CachedBlocksByTier());

  const auto empty = NewPrefixCacheMatchInfo(0, 10, 16)->WithCachedBlocksByTier({});
  ASSERT_TRUE(empty->CachedBlocksByTier().has_value());  // NotNil
  EXPECT_TRUE(empty->CachedBlocksByTier()->empty());
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 TestPrefixCacheMatchInfo_CloneDeepCopiesCachedBlocksByTier
TEST(PrefixCacheMatchInfoTest, CloneDeepCopiesCachedBlocksByTier) {
  const auto orig = NewPrefixCacheMatchInfo(5, 10, 16)->WithCachedBlocksByTier({{"gpu", 3}, {"cpu", 2}});
  const auto clone = cloneOf(orig);
  ASSERT_NE(clone, nullptr);
  EXPECT_EQ(orig->CachedBlocksByTier(), clone->CachedBlocksByTier());
  // Mutating the clone's map must not affect the original.
  ASSERT_TRUE(clone->CachedBlocksByTier().has_value());
  (*clone->CachedBlocksByTier())["gpu"] = 99;
  EXPECT_EQ(3, orig->CachedBlocksByTier()->at("gpu"));

  const auto nilClone = cloneOf(NewPrefixCacheMatchInfo(5, 10, 16));
  ASSERT_NE(nilClone, nullptr);
  EXPECT_FALSE(nilClone->CachedBlocksByTier().has_value());
}

}  // namespace
}  // namespace blis::router::attrprefix
