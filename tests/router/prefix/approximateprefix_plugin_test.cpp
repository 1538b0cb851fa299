// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: tests transcribed from pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099
// against the C++ data producer (see the report for the tests not transcribed: the benchmark and the JSON
// strict-decoding test). Request IDs are fixed strings instead of uuid.NewString(); PreRequest updates the
// indexer at once, so upstream's p.wg.Wait() has no counterpart; upstream's disableMinBlockSizeClamp sets the
// package var, here the producer's minBlockSizeTokens field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.h"

namespace blis::router::approximateprefix {
namespace {

using Tokens = std::vector<std::uint32_t>;
const std::string kType(ApproxPrefixCachePluginType);

// disableMinBlockSizeClamp: lowers the producer's block-size floor to 1 so tiny test inputs are not clamped.
void disableMinBlockSizeClamp(dataProducer& p) { p.minBlockSizeTokens = 1; }

// tokenizedBody: a request body carrying only a tokenized prompt (one entry per prompt).
std::shared_ptr<fwkrh::InferenceRequestBody> tokenizedBody(std::vector<Tokens> perPromptTokens) {
  auto body = std::make_shared<fwkrh::InferenceRequestBody>();
  body->TokenizedPrompt = fwkrh::TokenizedPrompt{std::move(perPromptTokens), ""};
  return body;
}

fwksched::InferenceRequest request(const std::string& id, const std::string& model,
                                   std::vector<Tokens> perPromptTokens) {
  fwksched::InferenceRequest req;
  req.RequestID = id;
  req.TargetModel = model;
  req.Body = tokenizedBody(std::move(perPromptTokens));
  return req;
}

fwksched::EndpointPtr endpoint(const std::string& name, const std::string& ns = "",
                               std::optional<fwkdl::Metrics> metrics = fwkdl::NewMetrics()) {
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{ns, name};
  return fwksched::NewEndpoint(meta, metrics, fwkdl::NewAttributes());
}

ServerID serverID(const fwksched::EndpointPtr& e) {
  return ServerID{e->GetMetadata()->ID.Namespace, e->GetMetadata()->ID.Name};
}

// A SchedulingResult whose primary profile "default" picked `primary` (and "prefill" picked `prefill`).
fwksched::SchedulingResult result(std::vector<fwksched::EndpointPtr> primary,
                                  std::optional<fwksched::EndpointPtr> prefill = std::nullopt) {
  fwksched::SchedulingResult res;
  res.PrimaryProfileName = "default";
  res.ProfileResults["default"] = std::make_shared<fwksched::ProfileRunResult>();
  res.ProfileResults["default"]->TargetEndpoints = std::move(primary);
  if (prefill) {
    const std::string name(experimentalDefaultPrefillProfile);
    res.ProfileResults[name] = std::make_shared<fwksched::ProfileRunResult>();
    res.ProfileResults[name]->TargetEndpoints = {*prefill};
  }
  return res;
}

std::optional<SchedulingContextState> readState(dataProducer& p, const std::string& requestID) {
  return fwkplugin::ReadPluginStateKey<SchedulingContextState>(p.PluginState(), requestID, kType);
}

// The attribute Produce wrote on ep under the default producer's key; nullptr when absent.
std::shared_ptr<attrprefix::PrefixCacheMatchInfo> matchInfo(const fwksched::EndpointPtr& ep) {
  const std::string key = attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(kType).String();
  return std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(ep->Get(key));
}

config cfgOf(int blockSizeTokens, int maxPrefixBlocks, int lruCapacity, bool autoTune = false,
             int maxPrefixTokens = 0) {
  config c;
  c.AutoTune = autoTune;
  c.BlockSizeTokens = blockSizeTokens;
  c.MaxPrefixBlocksToMatch = maxPrefixBlocks;
  c.MaxPrefixTokensToMatch = maxPrefixTokens;
  c.LRUCapacityPerServer = lruCapacity;
  return c;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestProduce
TEST(ApproxPrefixProducer, TestProduce) {
  auto p = newDataProducer(kType, cfgOf(1, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer));
  disableMinBlockSizeClamp(*p);
  const auto endpoint1 = endpoint("pod1");
  const auto endpoint2 = endpoint("pod2");
  const std::vector<fwksched::EndpointPtr> endpoints = {endpoint1, endpoint2};

  const auto req1 = request("req1", "test-model1", {{1, 2}});
  p->Produce(&req1, endpoints);

  const auto state = readState(*p, req1.RequestID);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->PerPromptHashes[0].size(), 2u);  // 2 token IDs at blockSize 1 -> 2 blocks

  // 0 match since the indexer is empty.
  for (const auto& ep : endpoints) {
    const auto info = matchInfo(ep);
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->MatchBlocks(), 0);
    EXPECT_EQ(info->TotalBlocks(), 2);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestPreRequest
// subtest "Basic cache update"
TEST(ApproxPrefixProducer, TestPreRequestBasicCacheUpdate) {
  const config cfg = cfgOf(1, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer);
  auto p = newDataProducer(kType, cfg);
  disableMinBlockSizeClamp(*p);
  const auto endpoint1 = endpoint("pod1", "default");
  const auto req1 = request("req1", "test-model1", {{1, 2}});

  p->Produce(&req1, {endpoint1});
  p->PreRequest(&req1, result({endpoint1}));

  const auto perPromptHashes = prefixhash::GetBlockHashes(&req1, cfg.BlockSizeTokens, defaultMaxPrefixBlocks);
  ASSERT_FALSE(perPromptHashes.empty());
  for (const auto& promptHashes : perPromptHashes) {
    for (const blockHash hash : promptHashes) EXPECT_TRUE(p->indexer()->Get(hash).contains(serverID(endpoint1)));
  }
  // BLIS: PreRequest deletes the request's state (upstream's deferred Delete).
  EXPECT_FALSE(readState(*p, req1.RequestID).has_value());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestPreRequest
// subtest "Respects LRUCapacityPerServer config"
TEST(ApproxPrefixProducer, TestPreRequestRespectsLRUCapacityPerServer) {
  const config cfg = cfgOf(1, defaultMaxPrefixBlocks, 2);
  auto p = newDataProducer(kType, cfg);
  disableMinBlockSizeClamp(*p);
  const auto endpoint1 = endpoint("pod1", "default");

  // Three requests with distinct token IDs generate distinct hashes, one block each.
  const std::vector<Tokens> tokenSets = {{1}, {2}, {3}};
  std::vector<std::vector<blockHash>> allHashes;
  int i = 0;
  for (const auto& tokenIDs : tokenSets) {
    const auto req = request("req" + std::to_string(i++), "test-model1", {tokenIDs});
    p->Produce(&req, {endpoint1});
    p->PreRequest(&req, result({endpoint1}));
    allHashes.push_back(prefixhash::GetBlockHashes(&req, cfg.BlockSizeTokens, defaultMaxPrefixBlocks)[0]);
  }
  // Since capacity is 2, the first request's hash should have been evicted.
  EXPECT_TRUE(p->indexer()->Get(allHashes[0][0]).empty());
  EXPECT_FALSE(p->indexer()->Get(allHashes[1][0]).empty());
  EXPECT_FALSE(p->indexer()->Get(allHashes[2][0]).empty());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestDataProducerValidation
TEST(ApproxPrefixProducer, TestDataProducerValidation) {
  config v1;
  v1.AutoTune = false;
  v1.BlockSizeTokens = 1;
  config v2 = v1;
  v2.BlockSize = 1;
  config v3;
  v3.AutoTune = true;
  v3.BlockSizeTokens = 0;
  for (const config& c : {v1, v2, v3}) EXPECT_NO_THROW(newDataProducer(kType, c));

  config i1;
  i1.AutoTune = false;
  i1.BlockSize = 1;
  config i2;
  i2.AutoTune = false;
  i2.BlockSizeTokens = 0;
  for (const config& c : {i1, i2}) EXPECT_THROW(newDataProducer(kType, c), std::invalid_argument);

  // BLIS: upstream's error text, and the MaxPrefixTokensToMatch check.
  try {
    newDataProducer(kType, i2);
    ADD_FAILURE() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "invalid configuration: BlockSizeTokens must be > 0 when AutoTune is disabled (current value: 0)");
  }
  config neg = v1;
  neg.MaxPrefixTokensToMatch = -1;
  try {
    newDataProducer(kType, neg);
    ADD_FAILURE() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "invalid configuration: MaxPrefixTokensToMatch must be >= 0 (current value: -1)");
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestPrefixPluginPartialPrefixMatch
TEST(ApproxPrefixProducer, TestPrefixPluginPartialPrefixMatch) {
  auto p = newDataProducer(kType, cfgOf(1, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer));
  disableMinBlockSizeClamp(*p);
  const auto endpoint1 = endpoint("pod1");
  const auto endpoint2 = endpoint("pod2");
  const auto endpoint3 = endpoint("pod3");
  const std::vector<fwksched::EndpointPtr> endpoints = {endpoint1, endpoint2, endpoint3};

  const auto req1 = request("req1", "test-model1", {{1, 2}});
  p->Produce(&req1, endpoints);
  const auto state = readState(*p, req1.RequestID);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->PerPromptHashes[0].size(), 2u);

  // Simulate pod1 was picked and pod3 was picked as a prefill node.
  p->PreRequest(&req1, result({endpoint1}, endpoint3));

  // Second request shares the first token but diverges on the second.
  const auto req3 = request("req3", "test-model1", {{1, 3}});
  p->Produce(&req3, endpoints);

  EXPECT_EQ(matchInfo(endpoint1)->MatchBlocks(), 1);  // one block (token 1) matches
  EXPECT_EQ(matchInfo(endpoint1)->TotalBlocks(), 2);  // [1, 3] -> 2 blocks
  EXPECT_EQ(matchInfo(endpoint3)->MatchBlocks(), 1);  // the prefill node also has the match
  EXPECT_EQ(matchInfo(endpoint2)->MatchBlocks(), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestPrefixPluginPrefixGrowth
TEST(ApproxPrefixProducer, TestPrefixPluginPrefixGrowth) {
  auto p = newDataProducer(kType, cfgOf(2, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer, false));
  disableMinBlockSizeClamp(*p);
  const auto endpoint1 = endpoint("pod1", "", fwkdl::Metrics{});
  const std::vector<fwksched::EndpointPtr> endpoints = {endpoint1};

  const auto req1 = request("req1", "test-model1", {{1, 2, 3, 4, 5, 6}});
  p->Produce(&req1, endpoints);
  const auto initialHashCount = readState(*p, req1.RequestID)->PerPromptHashes[0].size();
  EXPECT_GT(initialHashCount, 0u);

  p->PreRequest(&req1, result({endpoint1}));

  const auto req2 = request("req2", "test-model1", {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}});
  p->Produce(&req2, endpoints);
  const auto extendedHashCount = readState(*p, req2.RequestID)->PerPromptHashes[0].size();
  EXPECT_GT(extendedHashCount, initialHashCount);

  const auto info = matchInfo(endpoint1);
  EXPECT_GT(info->MatchBlocks(), 0) << "should have prefix cache hit";
  EXPECT_EQ(static_cast<std::size_t>(info->TotalBlocks()), extendedHashCount);
  // BLIS: the exact values (6 tokens -> 3 blocks cached; 12 tokens -> 6 blocks).
  EXPECT_EQ(info->MatchBlocks(), 3);
  EXPECT_EQ(info->TotalBlocks(), 6);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestPrefixPluginAutoTune
TEST(ApproxPrefixProducer, TestPrefixPluginAutoTune) {
  fwkdl::Metrics m;
  m.CacheBlockSize = 128;  // 128 tokens per block
  m.CacheNumBlocks = 1000;  // 1000 blocks capacity
  const auto ep = endpoint("pod-autotune", "", m);
  const std::vector<fwksched::EndpointPtr> endpoints = {ep};

  // 192 token IDs at the pod's block size of 128 -> 2 blocks.
  Tokens tokenIDs(192);
  for (std::size_t i = 0; i < tokenIDs.size(); ++i) tokenIDs[i] = static_cast<std::uint32_t>(i + 1);
  const auto req = request("req", "test-model", {tokenIDs});

  // BlockSizeTokens 256 should be ignored in favor of the pod metric (128).
  auto p = newDataProducer(kType, cfgOf(256, defaultMaxPrefixBlocks, 1, true));
  p->Produce(&req, endpoints);
  EXPECT_EQ(readState(*p, req.RequestID)->PerPromptHashes[0].size(), 2u)
      << "Should use pod block size (128 tokens) -> 2 blocks";

  p->PreRequest(&req, result({ep}));
  const auto pods = p->indexer()->Pods();
  EXPECT_NE(std::find(pods.begin(), pods.end(), serverID(ep)), pods.end());
  // BLIS: with AutoTune the pod's LRU holds CacheNumBlocks (1000) entries, not LRUCapacityPerServer (1): both
  // blocks stay cached.
  EXPECT_EQ(p->indexer()->PodBlockCounts().at(serverID(ep)), 2);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestMaxPrefixTokensToMatch
TEST(ApproxPrefixProducer, TestMaxPrefixTokensToMatch) {
  // BlockSizeTokens=1, MaxPrefixTokensToMatch=2 -> maxBlocks = 2/1 = 2.
  auto p = newDataProducer(kType, cfgOf(1, 0, defaultLRUCapacityPerServer, false, 2));
  disableMinBlockSizeClamp(*p);
  const auto ep = endpoint("pod1");
  const auto req = request("req", "test-model", {{1, 2, 3, 4}});
  p->Produce(&req, {ep});
  const auto state = readState(*p, req.RequestID);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->PerPromptHashes[0].size(), 2u) << "should cap at MaxPrefixTokensToMatch/BlockSizeTokens = 2 blocks";

  // When MaxPrefixTokensToMatch is 0 (unset), fall back to MaxPrefixBlocksToMatch.
  auto p2 = newDataProducer(kType, cfgOf(1, 3, defaultLRUCapacityPerServer, false, 0));
  disableMinBlockSizeClamp(*p2);
  const auto req2 = request("req2", "test-model", {{1, 2, 3, 4}});
  p2->Produce(&req2, {ep});
  const auto state2 = readState(*p2, req2.RequestID);
  ASSERT_TRUE(state2.has_value());
  EXPECT_EQ(state2->PerPromptHashes[0].size(), 3u)
      << "should fall back to MaxPrefixBlocksToMatch when MaxPrefixTokensToMatch is 0";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestMaxPrefixBothCapsZeroMatchesEverything
TEST(ApproxPrefixProducer, TestMaxPrefixBothCapsZeroMatchesEverything) {
  auto p = newDataProducer(kType, cfgOf(1, 0, defaultLRUCapacityPerServer, false, 0));
  disableMinBlockSizeClamp(*p);
  const auto req = request("req", "test-model", {{1, 2, 3, 4}});
  p->Produce(&req, {endpoint("pod1")});
  const auto state = readState(*p, req.RequestID);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->PerPromptHashes[0].size(), 4u) << "both caps at 0 should hash every block in the prompt";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestGetBlockSize_AutotuneClampsBelowMinimum
TEST(ApproxPrefixProducer, TestGetBlockSizeAutotuneClampsBelowMinimum) {
  config cfg;
  cfg.AutoTune = true;
  cfg.BlockSizeTokens = 16;
  auto p = newDataProducer(kType, cfg);
  fwkdl::Metrics m;
  m.CacheBlockSize = 16;  // model server uses small blocks
  EXPECT_EQ(p->GetBlockSize({endpoint("pod1", "", m)}), defaultMinBlockSizeTokens);
  EXPECT_EQ(defaultMinBlockSizeTokens, 64);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestGetBlockSize_AutotuneAboveMinimumPassesThrough
TEST(ApproxPrefixProducer, TestGetBlockSizeAutotuneAboveMinimumPassesThrough) {
  config cfg;
  cfg.AutoTune = true;
  cfg.BlockSizeTokens = 16;
  auto p = newDataProducer(kType, cfg);
  fwkdl::Metrics m;
  m.CacheBlockSize = 128;
  EXPECT_EQ(p->GetBlockSize({endpoint("pod1", "", m)}), 128);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestGetBlockSize_ManualConfigClampedBelowMinimum
TEST(ApproxPrefixProducer, TestGetBlockSizeManualConfigClampedBelowMinimum) {
  config cfg;
  cfg.AutoTune = false;
  cfg.BlockSizeTokens = 32;
  auto p = newDataProducer(kType, cfg);
  EXPECT_EQ(p->GetBlockSize({}), defaultMinBlockSizeTokens);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestGetBlockSize_AutotuneFallbackClampsLowConfig
TEST(ApproxPrefixProducer, TestGetBlockSizeAutotuneFallbackClampsLowConfig) {
  config cfg;
  cfg.AutoTune = true;
  cfg.BlockSizeTokens = 16;  // default config shape
  auto p = newDataProducer(kType, cfg);
  EXPECT_EQ(p->GetBlockSize({}), defaultMinBlockSizeTokens);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestNewDataProducer_AcceptsLowManualBlockSize
TEST(ApproxPrefixProducer, TestNewDataProducerAcceptsLowManualBlockSize) {
  config cfg;
  cfg.AutoTune = false;
  cfg.BlockSizeTokens = 32;
  std::shared_ptr<dataProducer> p;
  EXPECT_NO_THROW(p = newDataProducer(kType, cfg)) << "low manual BlockSizeTokens should not error at init";
  EXPECT_NE(p, nullptr);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestFactory_DeprecatedBlockSizeMapped
// The JSON {"autoTune": false, "blockSize": 24} decoded over defaultConfig.
TEST(ApproxPrefixProducer, TestFactoryDeprecatedBlockSizeMapped) {
  config parameters = defaultConfig;
  parameters.AutoTune = false;
  parameters.BlockSize = 24;
  const auto dp = ApproxPrefixCacheFactory("test", parameters);
  ASSERT_NE(dp, nullptr);
  EXPECT_EQ(dp->config.BlockSizeTokens, 24) << "deprecated 'blockSize' should map to BlockSizeTokens";
  EXPECT_EQ(dp->config.BlockSize, 0) << "deprecated 'blockSize' should be cleared after mapping";
  // BLIS: a nil decoder gives defaultConfig; the multicluster variant is refused.
  EXPECT_EQ(ApproxPrefixCacheFactory("d", std::nullopt)->config.MaxPrefixTokensToMatch, defaultMaxPrefixTokens);
  EXPECT_THROW(MultiClusterApproxPrefixCacheFactory("mc"), std::invalid_argument);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestProduce_MultiPrompt
TEST(ApproxPrefixProducer, TestProduceMultiPrompt) {
  auto p = newDataProducer(kType, cfgOf(1, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer));
  disableMinBlockSizeClamp(*p);
  const auto ep = endpoint("pod1");
  const auto req = request("req", "test-model", {{1, 2, 3}, {4, 5}});
  p->Produce(&req, {ep});
  const auto state = readState(*p, req.RequestID);
  ASSERT_TRUE(state.has_value());
  ASSERT_EQ(state->PerPromptHashes.size(), 2u) << "should have hashes for 2 prompts";
  EXPECT_EQ(state->PerPromptHashes[0].size(), 3u) << "first prompt: 3 tokens at blockSize 1";
  EXPECT_EQ(state->PerPromptHashes[1].size(), 2u) << "second prompt: 2 tokens at blockSize 1";
  const auto info = matchInfo(ep);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->MatchBlocks(), 0) << "empty indexer -> no match";
  EXPECT_EQ(info->TotalBlocks(), 5) << "total blocks = 3 + 2";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestMultiPromptMatchAggregation
TEST(ApproxPrefixProducer, TestMultiPromptMatchAggregation) {
  auto p = newDataProducer(kType, cfgOf(1, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer));
  disableMinBlockSizeClamp(*p);
  const auto ep = endpoint("pod1", "default");
  const std::vector<fwksched::EndpointPtr> endpoints = {ep};
  const auto req1 = request("req1", "test-model", {{1, 2, 3}, {4, 5}});
  p->Produce(&req1, endpoints);
  p->PreRequest(&req1, result(endpoints));

  // Second request with the same two prompts: all blocks should match.
  const auto req2 = request("req2", "test-model", {{1, 2, 3}, {4, 5}});
  p->Produce(&req2, endpoints);
  EXPECT_EQ(matchInfo(ep)->MatchBlocks(), 5) << "all 5 blocks (3+2) should match";
  EXPECT_EQ(matchInfo(ep)->TotalBlocks(), 5);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestMultiPromptPartialMatch
TEST(ApproxPrefixProducer, TestMultiPromptPartialMatch) {
  auto p = newDataProducer(kType, cfgOf(1, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer));
  disableMinBlockSizeClamp(*p);
  const auto ep = endpoint("pod1", "default");
  const std::vector<fwksched::EndpointPtr> endpoints = {ep};
  const auto req1 = request("req1", "test-model", {{1, 2}, {3, 4}});
  p->Produce(&req1, endpoints);
  p->PreRequest(&req1, result(endpoints));

  // Query with [1,2] (matches) and [5,6] (no match).
  const auto req2 = request("req2", "test-model", {{1, 2}, {5, 6}});
  p->Produce(&req2, endpoints);
  EXPECT_EQ(matchInfo(ep)->MatchBlocks(), 2) << "only first prompt's 2 blocks should match";
  EXPECT_EQ(matchInfo(ep)->TotalBlocks(), 4) << "total blocks = 2 + 2";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestPrefixPluginTokenizedRequest
TEST(ApproxPrefixProducer, TestPrefixPluginTokenizedRequest) {
  auto p = newDataProducer(kType, cfgOf(1, defaultMaxPrefixBlocks, defaultLRUCapacityPerServer));
  disableMinBlockSizeClamp(*p);
  const auto ep = endpoint("pod1");
  // 4 token IDs -> 4 blocks at blockSize 1.
  const auto req = request("req", "test-model", {{10, 20, 30, 40}});
  p->Produce(&req, {ep});
  const auto state = readState(*p, req.RequestID);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->PerPromptHashes[0].size(), 4u);
  const auto info = matchInfo(ep);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->MatchBlocks(), 0);
  EXPECT_EQ(info->TotalBlocks(), 4);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestPrefixPluginMatchesSameTokens
TEST(ApproxPrefixProducer, TestPrefixPluginMatchesSameTokens) {
  config cfg;
  cfg.BlockSizeTokens = 1;
  cfg.LRUCapacityPerServer = defaultLRUCapacityPerServer;
  auto p = newDataProducer(kType, cfg);
  const auto ep = endpoint("pod1", "default");
  const Tokens tokenIDs = {1, 2, 3, 4, 5, 6, 7, 8};
  const auto req1 = request("req1", "test-model", {tokenIDs});
  const auto req2 = request("req2", "test-model", {tokenIDs});
  p->Produce(&req1, {ep});
  const auto state1 = readState(*p, req1.RequestID);
  p->Produce(&req2, {ep});
  const auto state2 = readState(*p, req2.RequestID);
  ASSERT_TRUE(state1.has_value() && state2.has_value());
  EXPECT_EQ(state1->PerPromptHashes, state2->PerPromptHashes) << "identical token IDs must produce identical hashes";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestDumpState
// On snapshotState (the struct DumpState marshals; the JSON encoding is not ported).
TEST(ApproxPrefixProducer, TestDumpState) {
  dataProducer p;
  auto idx = newIndexer(100, "test-name", "test-type");
  idx->Add({1001, 1002, 1003}, server{ServerID{"ns", "pod-a"}, 0});
  idx->Add({2001, 2002}, server{ServerID{"ns", "pod-b"}, 0});
  p.indexerInst = std::move(idx);
  const prefixIndexState got = p.snapshotState();
  const prefixIndexState want{{{"ns/pod-a", 3}, {"ns/pod-b", 2}}, 2, maxDebugDumpPods};
  EXPECT_EQ(got, want);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestDumpStateCapsPods
TEST(ApproxPrefixProducer, TestDumpStateCapsPods) {
  dataProducer p;
  auto idx = newIndexer(1000, "test-name", "test-type");
  constexpr int extra = 5;
  for (int i = 0; i < maxDebugDumpPods + extra; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "pod-%03d", i);
    std::vector<blockHash> hashes(static_cast<std::size_t>(i + 1));
    for (std::size_t j = 0; j < hashes.size(); ++j) hashes[j] = static_cast<blockHash>(i * 1000 + static_cast<int>(j));
    idx->Add(hashes, server{ServerID{"ns", name}, 0});
  }
  p.indexerInst = std::move(idx);
  const prefixIndexState got = p.snapshotState();
  // The dump is partial: TotalPods exceeds the returned count, capped at MaxPods.
  EXPECT_EQ(got.TotalPods, maxDebugDumpPods + extra);
  EXPECT_GT(got.TotalPods, got.MaxPods);
  ASSERT_EQ(got.Pods.size(), static_cast<std::size_t>(maxDebugDumpPods));
  // The pod holding the most blocks is listed first.
  EXPECT_EQ(got.Pods[0].Pod, "ns/pod-104");
  EXPECT_EQ(got.Pods[0].Blocks, maxDebugDumpPods + extra);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestDumpStateEmpty
TEST(ApproxPrefixProducer, TestDumpStateEmpty) {
  dataProducer p;  // a nil indexer
  prefixIndexState got = p.snapshotState();
  EXPECT_TRUE(got.Pods.empty());
  EXPECT_EQ(got.MaxPods, maxDebugDumpPods);
  // A live indexer with nothing tracked yet reports zero pods.
  p.indexerInst = newIndexer(100, "test-name", "test-type");
  got = p.snapshotState();
  EXPECT_EQ(got.TotalPods, 0);
  EXPECT_TRUE(got.Pods.empty());
}

// BLIS: the LRU capacity of a newly recorded pod comes from makeserver: the endpoint's CacheNumBlocks under
// AutoTune, else LRUCapacityPerServer; CleanUpInactivePods (one tick of upstream's ticker) drops the pods not
// in the active list.
TEST(ApproxPrefixProducer, MakeServerCapacityAndCleanUp) {
  fwkdl::Metrics m;
  m.CacheNumBlocks = 2;
  const auto small = endpoint("small", "ns", m);
  const auto other = endpoint("other", "ns", fwkdl::Metrics{});
  auto p = newDataProducer(kType, cfgOf(1, 0, 5, /*autoTune=*/true));
  disableMinBlockSizeClamp(*p);
  const auto req = request("r", "m", {{1, 2, 3, 4}});
  // With AutoTune and no CacheBlockSize metric, the configured BlockSizeTokens (1) applies.
  p->Produce(&req, {small, other});
  p->PreRequest(&req, result({small}, other));
  EXPECT_EQ(p->indexer()->PodBlockCounts().at(serverID(small)), 2);  // capacity = CacheNumBlocks
  EXPECT_EQ(p->indexer()->PodBlockCounts().at(serverID(other)), 4);  // capacity = LRUCapacityPerServer (5)

  p->CleanUpInactivePods({fwkdl::NamespacedName{"ns", "other"}});
  EXPECT_EQ(p->indexer()->Pods(), std::vector<ServerID>{serverID(other)});
}

}  // namespace
}  // namespace blis::router::approximateprefix
