// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin_test.go@71f4f099
// (the factory cases on the decoded Config, JSON decoding is not ported) and of the PrefixCacheMatchInfo
// checks of pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"

namespace blis::router::prefix {
namespace {

fwksched::EndpointPtr pod(const std::string& name) {
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{"", name};
  return fwksched::NewEndpoint(meta, fwkdl::NewMetrics());
}

// Go's scores[endpoint]: 0 for an endpoint the scorer left out.
double lookup(const fwksched::ScoreMap& scores, const fwksched::EndpointPtr& e) {
  auto it = scores.find(e);
  return it == scores.end() ? 0.0 : it->second;
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin_test.go@71f4f099 TestPrefixPluginScore
TEST(PrefixCacheScorer, TestPrefixPluginScore) {
  const std::string producerName = "approx-prefix-cache-producer";
  const auto p = New(PrefixCacheScorerPluginType, producerName);
  const std::string key = attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(producerName).String();

  const auto endpoint1 = pod("pod1");
  endpoint1->Put(key, attrprefix::NewPrefixCacheMatchInfo(5, 10, 1));
  const auto endpoint2 = pod("pod2");
  endpoint2->Put(key, attrprefix::NewPrefixCacheMatchInfo(2, 10, 1));

  const auto scores = p->Score(nullptr, {endpoint1, endpoint2});
  EXPECT_EQ(lookup(scores, endpoint1), 0.5);
  EXPECT_EQ(lookup(scores, endpoint2), 0.2);
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin_test.go@71f4f099 TestPrefixPluginScoreWithWeights
TEST(PrefixCacheScorer, TestPrefixPluginScoreWithWeights) {
  const std::string producerName = "approx-prefix-cache-producer";
  const auto p = New(PrefixCacheScorerPluginType, producerName);
  p->matchLengthWeight = 0.5;
  p->matchLengthScaleTokens = 100;
  const std::string key = attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(producerName).String();

  // matchRatio = 0.5; matchLengthRatio = min(1, 5*1/100) = 0.05 -> 0.0025; score = 0.5*0.0025 + 0.5*0.5 = 0.25125
  const auto endpoint1 = pod("pod1");
  endpoint1->Put(key, attrprefix::NewPrefixCacheMatchInfo(5, 10, 1));
  // matchRatio = 0.5; matchLengthRatio = min(1, 50*1/100) = 0.5 -> 0.25; score = 0.5*0.25 + 0.5*0.5 = 0.375
  const auto endpoint2 = pod("pod2");
  endpoint2->Put(key, attrprefix::NewPrefixCacheMatchInfo(50, 100, 1));

  const auto scores = p->Score(nullptr, {endpoint1, endpoint2});
  // matchRatio is the same but the longer request still gets the higher score.
  EXPECT_NEAR(lookup(scores, endpoint1), 0.25125, 1e-6);
  EXPECT_NEAR(lookup(scores, endpoint2), 0.375, 1e-6);
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin_test.go@71f4f099 TestPrefixPluginFactoryValidation
// Each case's JSON as the Config it decodes to (fields absent from the JSON keep the factory's defaults).
TEST(PrefixCacheScorer, TestPrefixPluginFactoryValidation) {
  auto cfg = [](std::optional<double> weight, std::optional<int> scale) {
    Config c = DefaultConfig();
    if (weight) c.MatchLengthWeight = *weight;
    if (scale) c.MatchLengthScaleTokens = *scale;
    return c;
  };
  struct Case {
    std::string name;
    Config config;
    bool expectErr;
    double wantMatchLengthWeight;
    int wantMatchLengthScale;
  };
  const std::vector<Case> tests = {
      {"valid config with defaults", cfg(std::nullopt, std::nullopt), false, defaultMatchLengthWeight,
       defaultMatchLengthScaleTokens},
      {"valid config with custom values", cfg(0.5, 100), false, 0.5, 100},
      {"invalid matchLengthWeight < 0", cfg(-0.1, 100), true, 0, 0},
      {"invalid matchLengthWeight > 1", cfg(1.1, 100), true, 0, 0},
      {"invalid matchLengthScaleTokens <= 0", cfg(0.5, 0), true, 0, 0},
      {"missing matchLengthScaleTokens when matchLengthWeight > 0 uses default", cfg(0.5, std::nullopt), false, 0.5,
       defaultMatchLengthScaleTokens},
      {"zero matchLengthWeight doesn't require matchLengthScaleTokens", cfg(0.0, std::nullopt), false, 0.0,
       defaultMatchLengthScaleTokens},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    if (tt.expectErr) {
      EXPECT_THROW(PrefixCachePluginFactory("test", tt.config), std::invalid_argument);
    } else {
      const auto p = PrefixCachePluginFactory("test", tt.config);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(p->matchLengthWeight, tt.wantMatchLengthWeight);
      EXPECT_EQ(p->matchLengthScaleTokens, tt.wantMatchLengthScale);
    }
  }
}

// BLIS: upstream's error texts, the nil-decoder defaults, the identity, and the multicluster refusal.
TEST(PrefixCacheScorer, FactoryErrorsDefaultsAndIdentity) {
  Config c = DefaultConfig();
  c.MatchLengthWeight = -0.1;
  try {
    PrefixCachePluginFactory("t", c);
    ADD_FAILURE() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "matchLengthWeight must be between 0.0 and 1.0, got -0.100000");
  }
  c.MatchLengthWeight = 0.5;
  c.MatchLengthScaleTokens = 0;
  try {
    PrefixCachePluginFactory("t", c);
    ADD_FAILURE() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "matchLengthScaleTokens must be greater than 0 when matchLengthWeight is greater than 0, got 0");
  }
  const auto p = PrefixCachePluginFactory("my-scorer", std::nullopt);
  EXPECT_EQ(p->matchLengthWeight, 0.0);
  EXPECT_EQ(p->matchLengthScaleTokens, 8192);
  EXPECT_EQ(p->TypedName(), (fwkplugin::TypedName{"prefix-cache-scorer", "my-scorer"}));
  EXPECT_EQ(p->Category(), fwksched::Affinity);
  // An empty producer name reads the default producer's key.
  EXPECT_EQ(p->prefixMatchDataKey().String(), "PrefixCacheMatchInfoDataKey/approx-prefix-cache-producer");
  Config named = DefaultConfig();
  named.PrefixMatchInfoProducerName = "gpuPrefixProducer";
  EXPECT_EQ(PrefixCachePluginFactory("s", named)->prefixMatchDataKey().String(),
            "PrefixCacheMatchInfoDataKey/gpuPrefixProducer");
  EXPECT_THROW(MultiClusterPrefixCacheScorerFactory("mc"), std::invalid_argument);
}

// BLIS (plugin.go Score's documented fallbacks): score 0 when the attribute is missing, of another type,
// or has 0 total blocks; every endpoint is in the result.
TEST(PrefixCacheScorer, ScoreZeroFallbacks) {
  class otherAttr final : public fwkdl::Cloneable {
   public:
    fwkdl::CloneablePtr Clone() const override { return std::make_shared<otherAttr>(); }
    bool DeepEqual(const fwkdl::Cloneable& o) const override { return dynamic_cast<const otherAttr*>(&o) != nullptr; }
  };
  const auto p = New(PrefixCacheScorerPluginType, "");
  const std::string key = p->prefixMatchDataKey().String();
  const auto missing = pod("missing");
  const auto wrongType = pod("wrong");
  wrongType->Put(key, std::make_shared<otherAttr>());
  const auto zeroTotal = pod("zero");
  zeroTotal->Put(key, attrprefix::NewPrefixCacheMatchInfo(0, 0, 16));
  const auto otherProducer = pod("other-producer");
  otherProducer->Put(attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName("x").String(),
                     attrprefix::NewPrefixCacheMatchInfo(3, 3, 16));
  const auto full = pod("full");
  full->Put(key, attrprefix::NewPrefixCacheMatchInfo(3, 3, 16));
  const auto scores = p->Score(nullptr, {missing, wrongType, zeroTotal, otherProducer, full});
  ASSERT_EQ(scores.size(), 5u);
  EXPECT_EQ(scores.at(missing), 0.0);
  EXPECT_EQ(scores.at(wrongType), 0.0);
  EXPECT_EQ(scores.at(zeroTotal), 0.0);
  EXPECT_EQ(scores.at(otherProducer), 0.0);
  EXPECT_EQ(scores.at(full), 1.0);
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 TestPrefixCacheMatchInfo_CachedBlockCountDefaultsToMatchBlocks,
// TestPrefixCacheMatchInfo_WithCachedBlockCount, TestPrefixCacheMatchInfo_CloneCopiesCachedBlockCount
TEST(PrefixCacheMatchInfo, CachedBlockCount) {
  const auto info = attrprefix::NewPrefixCacheMatchInfo(5, 10, 16);
  EXPECT_EQ(info->MatchBlocks(), 5);
  EXPECT_EQ(info->TotalBlocks(), 10);
  EXPECT_EQ(info->BlockSizeTokens(), 16);
  EXPECT_EQ(info->CachedBlockCount(), 5);

  const auto orig = attrprefix::NewPrefixCacheMatchInfo(192, 256, 16)->WithCachedBlockCount(240);
  EXPECT_EQ(orig->MatchBlocks(), 192);
  EXPECT_EQ(orig->CachedBlockCount(), 240);
  const auto clone = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(orig->Clone());
  ASSERT_NE(clone, nullptr);
  EXPECT_EQ(clone->MatchBlocks(), orig->MatchBlocks());
  EXPECT_EQ(clone->TotalBlocks(), orig->TotalBlocks());
  EXPECT_EQ(clone->BlockSizeTokens(), orig->BlockSizeTokens());
  EXPECT_EQ(clone->CachedBlockCount(), orig->CachedBlockCount());
  clone->WithCachedBlockCount(1);
  EXPECT_EQ(orig->CachedBlockCount(), 240);
  EXPECT_EQ(clone->CachedBlockCount(), 1);
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 TestPrefixCacheMatchInfo_CachedBlocksByTierDefaultsToNil,
// TestPrefixCacheMatchInfo_WithCachedBlocksByTier, TestPrefixCacheMatchInfo_CloneDeepCopiesCachedBlocksByTier
TEST(PrefixCacheMatchInfo, CachedBlocksByTier) {
  EXPECT_FALSE(attrprefix::NewPrefixCacheMatchInfo(5, 10, 16)->CachedBlocksByTier().has_value());
  const std::map<std::string, int> tiers = {{"gpu", 3}, {"cpu", 2}};
  const auto info = attrprefix::NewPrefixCacheMatchInfo(5, 10, 16)->WithCachedBlocksByTier(tiers);
  EXPECT_EQ(info->CachedBlocksByTier(), tiers);
  const auto empty = attrprefix::NewPrefixCacheMatchInfo(0, 10, 16)->WithCachedBlocksByTier({});
  ASSERT_TRUE(empty->CachedBlocksByTier().has_value());
  EXPECT_TRUE(empty->CachedBlocksByTier()->empty());

  const auto clone = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(info->Clone());
  EXPECT_EQ(clone->CachedBlocksByTier(), info->CachedBlocksByTier());
  (*clone->CachedBlocksByTier())["gpu"] = 99;
  EXPECT_EQ(info->CachedBlocksByTier()->at("gpu"), 3);
  const auto nilClone =
      std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(attrprefix::NewPrefixCacheMatchInfo(5, 10, 16)->Clone());
  EXPECT_FALSE(nilClone->CachedBlocksByTier().has_value());
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types_test.go@71f4f099 TestPrefixCacheMatchInfo_MM
TEST(PrefixCacheMatchInfo, MM) {
  struct Case {
    std::string name;
    std::shared_ptr<attrprefix::PrefixCacheMatchInfo> info;
    int wantMatch, wantTotal, wantBlock;
    std::optional<attrprefix::MMMatchInfo> wantMM;
  };
  auto cloneOf = [](const std::shared_ptr<attrprefix::PrefixCacheMatchInfo>& i) {
    return std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(i->Clone());
  };
  const std::vector<Case> tests = {
      {"constructor leaves mm nil", attrprefix::NewPrefixCacheMatchInfo(5, 10, 16), 5, 10, 16, std::nullopt},
      {"WithMM attaches non-zero", attrprefix::NewPrefixCacheMatchInfo(5, 10, 16)->WithMM({2}), 5, 10, 16,
       attrprefix::MMMatchInfo{2}},
      {"WithMM(zero) attaches present-but-zero", attrprefix::NewPrefixCacheMatchInfo(5, 10, 16)->WithMM({0}), 5, 10,
       16, attrprefix::MMMatchInfo{0}},
      {"clone preserves nil mm", cloneOf(attrprefix::NewPrefixCacheMatchInfo(5, 10, 16)), 5, 10, 16, std::nullopt},
      {"clone preserves mm", cloneOf(attrprefix::NewPrefixCacheMatchInfo(7, 12, 64)->WithMM({3})), 7, 12, 64,
       attrprefix::MMMatchInfo{3}},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    EXPECT_EQ(tt.info->MatchBlocks(), tt.wantMatch);
    EXPECT_EQ(tt.info->TotalBlocks(), tt.wantTotal);
    EXPECT_EQ(tt.info->BlockSizeTokens(), tt.wantBlock);
    EXPECT_EQ(tt.info->MM(), tt.wantMM);
  }
}

}  // namespace
}  // namespace blis::router::prefix
