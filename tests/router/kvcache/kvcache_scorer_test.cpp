// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of pkg/kvcache/kvblock_scorer_test.go@71f4f099 and
// pkg/kvcache/indexer_test.go@71f4f099.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/kvcache/indexer.h"
#include "router/kvcache/kvblock/in_memory.h"
#include "router/kvcache/kvblock_scorer.h"

namespace kb = blis::router::kvblock;
namespace kc = blis::router::kvcache;
using kb::PodEntry;

// pkg/kvcache/kvblock_scorer_test.go@71f4f099 TestLongestPrefixScorer
TEST(KVCacheLongestPrefixScorer, LongestPrefixScorer) {
  kc::LongestPrefixScorer scorer;
  scorer.MediumWeights = std::map<std::string, double>{{"gpu", 1.0}, {"cpu", 0.5}};
  const std::vector<kb::BlockHash> keys{1001, 1002, 1003, 1004, 1005, 1006};
  const std::map<kb::BlockHash, std::vector<PodEntry>> hitmap = {
      {1001, {{"pod-a", "gpu"}}},
      {1002, {{"pod-a", "gpu"}}},
      {1003, {{"pod-a", "gpu"}, {"pod-a", "cpu"}}},
      {1004, {{"pod-b", "cpu"}}},
      {1005, {{"pod-b", "cpu"}}},
      {1006, {{"pod-a", "gpu"}}},
  };
  const std::map<std::string, double> expected{{"pod-a", 3.0}, {"pod-b", 0.0}};
  auto scored = scorer.Score(keys, hitmap);
  for (const auto& [pod, score] : scored) EXPECT_NEAR(score, expected.at(pod), 0.0001) << pod;
  EXPECT_EQ(scored.size(), 1U);  // pod-b never starts the chain
}

// pkg/kvcache/kvblock_scorer_test.go@71f4f099 TestLongestPrefixScorerDifferentTiers
TEST(KVCacheLongestPrefixScorer, LongestPrefixScorerDifferentTiers) {
  kc::LongestPrefixScorer scorer;
  scorer.MediumWeights = std::map<std::string, double>{{"gpu", 1.0}, {"cpu", 0.5}};
  const std::vector<kb::BlockHash> keys{1001, 1002, 1003, 1004, 1005, 1006};
  const std::map<kb::BlockHash, std::vector<PodEntry>> hitmap = {
      {1001, {{"pod-a", "gpu"}}}, {1002, {{"pod-a", "gpu"}}}, {1003, {{"pod-a", "cpu"}}},
      {1004, {{"pod-b", "cpu"}}}, {1005, {{"pod-b", "cpu"}}}, {1006, {{"pod-a", "gpu"}}},
  };
  const std::map<std::string, double> expected{{"pod-a", 2.5}, {"pod-b", 0.0}};
  auto scored = scorer.Score(keys, hitmap);
  ASSERT_FALSE(scored.empty());
  for (const auto& [pod, score] : scored) EXPECT_NEAR(score, expected.at(pod), 0.0001) << pod;
}

namespace {
// indexer_test.go mockTokenProcessor: returns the configured keys, records the tokens.
class mockTokenProcessor final : public kb::TokenProcessor {
 public:
  explicit mockTokenProcessor(std::vector<kb::BlockHash> keys) : blockKeys(std::move(keys)) {}
  std::vector<kb::BlockHash> TokensToKVBlockKeys(kb::BlockHash, std::span<const std::uint32_t> tokens, const std::string&,
                                                 const kb::ExtraFeatures&) const override {
    receivedTokens.assign(tokens.begin(), tokens.end());
    return blockKeys;
  }
  int BlockSize() const override { return 16; }
  std::vector<kb::BlockHash> blockKeys;
  mutable std::vector<std::uint32_t> receivedTokens;
};

struct scoringTestCase {
  std::string name;
  std::vector<kb::BlockHash> blockKeys;
  std::vector<std::uint32_t> tokens;
  std::map<kb::BlockHash, std::vector<PodEntry>> indexEntries;
  std::vector<std::string> podIdentifiers;
  std::map<std::string, double> wantScores;
  bool wantNil = false;
};
}  // namespace

// pkg/kvcache/indexer_test.go@71f4f099 TestScoreTokens
TEST(KVCacheIndexer, ScoreTokens) {
  const PodEntry aG{"pod-a", "gpu"}, bG{"pod-b", "gpu"}, aC{"pod-a", "cpu"};
  const std::vector<scoringTestCase> cases = {
      {"empty tokens", {}, {}, {}, {}, {}, true},
      {"no matching pods", {100, 200, 300}, {1, 2, 3}, {}, {}, {}, false},
      {"single pod full match", {10, 20, 30}, {1, 2, 3}, {{10, {aG}}, {20, {aG}}, {30, {aG}}}, {}, {{"pod-a", 3.0}}, false},
      {"multiple pods", {10, 20, 30}, {1, 2, 3}, {{10, {aG, bG}}, {20, {aG, bG}}, {30, {aG}}}, {},
       {{"pod-a", 3.0}, {"pod-b", 2.0}}, false},
      {"mixed device tiers", {10, 20}, {1, 2}, {{10, {aG}}, {20, {aC}}}, {}, {{"pod-a", 1.8}}, false},
      {"pod identifier filter", {10, 20}, {1, 2}, {{10, {aG, bG}}, {20, {aG, bG}}}, {"pod-a"}, {{"pod-a", 2.0}}, false},
      {"prefix break", {10, 20, 30}, {1, 2, 3}, {{10, {aG, bG}}, {20, {aG}}, {30, {aG, bG}}}, {},
       {{"pod-a", 3.0}, {"pod-b", 1.0}}, false},
      {"empty pod identifiers returns all", {10}, {1}, {{10, {aG, bG}}}, {}, {{"pod-a", 1.0}, {"pod-b", 1.0}}, false},
      {"deterministic", {10, 20}, {42, 43}, {{10, {aG}}, {20, {aG}}}, {}, {{"pod-a", 2.0}}, false},
  };
  for (const auto& tt : cases) {
    SCOPED_TRACE(tt.name);
    auto tp = std::make_shared<mockTokenProcessor>(tt.blockKeys);
    auto cfg = kb::DefaultInMemoryIndexConfig();
    auto indexer = kc::NewIndexerForTest(tp, kb::NewInMemoryIndex(&cfg), kc::NewKVBlockScorer(kc::DefaultKVBlockScorerConfig()));
    for (const auto& [key, pods] : tt.indexEntries) {  // populateIndex
      const std::vector<kb::BlockHash> k{key};
      indexer->KVBlockIndex()->Add(&k, k, pods);
    }
    auto scores = indexer->ScoreTokens(tt.tokens, "test-model", tt.podIdentifiers, std::nullopt);
    EXPECT_EQ(tp->receivedTokens, tt.tokens);
    if (tt.wantNil) {
      EXPECT_FALSE(scores.has_value());
      continue;
    }
    ASSERT_TRUE(scores.has_value());
    ASSERT_EQ(scores->size(), tt.wantScores.size());
    for (const auto& [pod, want] : tt.wantScores) {
      ASSERT_EQ(scores->count(pod), 1U) << pod;
      EXPECT_NEAR(scores->at(pod), want, 0.0001) << pod;
    }
  }
}

// Not an upstream test: the indexer assembled as NewKVCacheIndexer does, over the real token processor, and
// its refusals.
TEST(KVCacheIndexer, NewKVCacheIndexerEndToEnd) {
  auto cfg = kc::NewDefaultConfig();
  kb::TokenProcessorConfig tpc;
  tpc.BlockSizeTokens = 4;
  auto tp = kb::NewChunkedTokenDatabase(&tpc);
  auto indexer = kc::NewKVCacheIndexer(&cfg, tp);
  std::vector<std::uint32_t> tokens{1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto keys = indexer->ComputeBlockKeysFromTokens(tokens, "m", std::nullopt);
  ASSERT_EQ(keys.size(), 2U);  // the partial third block is dropped
  indexer->KVBlockIndex()->Add(nullptr, {keys[0]}, {PodEntry{"pod-x", "cpu"}});
  indexer->KVBlockIndex()->Add(nullptr, keys, {PodEntry{"pod-y", "gpu"}});
  auto scores = indexer->ScoreTokens(tokens, "m", {}, std::nullopt);
  ASSERT_TRUE(scores.has_value());
  EXPECT_NEAR(scores->at("pod-x"), 0.8, 1e-12);  // default cpu weight
  EXPECT_NEAR(scores->at("pod-y"), 2.0, 1e-12);
  EXPECT_THROW(kc::NewKVCacheIndexer(nullptr, tp), std::runtime_error);
  EXPECT_THROW(kc::NewKVCacheIndexer(&cfg, nullptr), std::runtime_error);
  auto tok = kc::NewDefaultConfig();
  tok.TokenizersPoolConfig = true;
  EXPECT_THROW(kc::NewKVCacheIndexer(&tok, tp), std::invalid_argument);
  kc::KVBlockScorerConfig bad{"Weird", {}};
  EXPECT_THROW(kc::NewKVBlockScorer(bad), std::runtime_error);
}
