// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 (the tests of
// the tokens-only Produce, the factory and New); the multimodal and DumpState tests are not applicable (see
// the report), plus tests of the port's strict parameter decoding and refusals.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/config_json.h"
#include "router/kvcache/indexer.h"
#include "test_support.h"

using namespace precisetest;
namespace fp = blis::router::fwkplugin;

namespace {
std::shared_ptr<fakeKVCacheIndexer> fakeIdx() { return std::make_shared<fakeKVCacheIndexer>(); }
std::shared_ptr<fakeKVBlockScorer> fakeScorer() { return std::make_shared<fakeKVBlockScorer>(); }
std::string factoryError(const std::string& raw) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto j = nlohmann::json::parse(raw);
  try {
    pp::PluginFactory("test", &j, handle);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_UsesTokenizedPrompt
TEST(PrecisePrefixProducer, Produce_UsesTokenizedPrompt) {
  const std::vector<std::uint32_t> tokens = {10, 20, 30, 40, 50};
  const kb::BlockHash wantKey = 0xCAFE;
  std::vector<std::uint32_t> capturedTokens;
  auto idx = fakeIdx();
  idx->computeFromTokens = [&](std::span<const std::uint32_t> ts, const std::string&, const kb::ExtraFeatures&) {
    capturedTokens.assign(ts.begin(), ts.end());
    return std::vector<kb::BlockHash>{wantKey};
  };
  idx->index->lookup = [&](const std::vector<kb::BlockHash>&, const std::set<std::string>&) {
    return KeyToPods{{wantKey, {pe("10.0.0.1:8080")}}};
  };
  auto scorer = fakeScorer();
  scorer->score = [](const std::vector<kb::BlockHash>&, const KeyToPods&) {
    return std::map<std::string, double>{{"10.0.0.1:8080", 1.0}};
  };
  auto p = newProducerWithIndexer(idx, scorer);
  auto req = tokenRequest("req-1", {tokens});
  auto eps = freshEndpoints();
  ASSERT_FALSE(p->Produce(&req, eps).has_value());
  ASSERT_EQ(capturedTokens, tokens);

  auto info = infoOf(eps[0]);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->MatchBlocks(), 1);
  EXPECT_EQ(info->TotalBlocks(), 1);
  EXPECT_EQ(info->BlockSizeTokens(), 16);
  EXPECT_FALSE(info->MM().has_value()) << "text-only request must leave MM untracked";
  auto info2 = infoOf(eps[1]);
  ASSERT_NE(info2, nullptr);
  EXPECT_EQ(info2->MatchBlocks(), 0);
  EXPECT_EQ(info2->TotalBlocks(), 1);
  EXPECT_FALSE(info2->MM().has_value());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_NoTokens_NoOp
TEST(PrecisePrefixProducer, Produce_NoTokens_NoOp) {
  auto idx = fakeIdx();
  idx->computeFromTokens = [](std::span<const std::uint32_t>, const std::string&, const kb::ExtraFeatures&) -> std::vector<kb::BlockHash> {
    ADD_FAILURE() << "ComputeBlockKeysFromTokens must not be called when no tokens";
    return {};
  };
  auto p = newProducerWithIndexer(idx, fakeScorer());
  fs::InferenceRequest req;
  req.RequestID = "req-2";
  req.TargetModel = "test-model";
  req.Body = std::make_shared<blis::router::fwkrh::InferenceRequestBody>();
  blis::router::fwkrh::CompletionsRequest c;
  c.Prompt.Raw = "no tokens here";
  req.Body->Completions = c;
  auto eps = freshEndpoints();
  EXPECT_FALSE(p->Produce(&req, eps).has_value());
  EXPECT_EQ(infoOf(eps[0]), nullptr);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_EmptyTokenizedPrompt_NoOp
TEST(PrecisePrefixProducer, Produce_EmptyTokenizedPrompt_NoOp) {
  auto idx = fakeIdx();
  idx->computeFromTokens = [](std::span<const std::uint32_t>, const std::string&, const kb::ExtraFeatures&) -> std::vector<kb::BlockHash> {
    ADD_FAILURE() << "ComputeBlockKeysFromTokens must not be called for empty TokenIDs";
    return {};
  };
  auto p = newProducerWithIndexer(idx, fakeScorer());
  auto req = tokenRequest("req-3", {{}});
  blis::router::fwkrh::CompletionsRequest c;
  c.Prompt.Raw = "p";
  req.Body->Completions = c;
  auto eps = freshEndpoints();
  EXPECT_FALSE(p->Produce(&req, eps).has_value());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_MultiPromptEmptyBlockKeys_NoOp
TEST(PrecisePrefixProducer, Produce_MultiPromptEmptyBlockKeys_NoOp) {
  const std::vector<std::uint32_t> promptA = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::uint32_t> promptB = {9, 10, 11, 12, 13, 14, 15, 16};
  std::vector<std::vector<std::uint32_t>> computeCalls;
  auto idx = fakeIdx();
  idx->computeFromTokens = [&](std::span<const std::uint32_t> ts, const std::string&, const kb::ExtraFeatures&) {
    computeCalls.emplace_back(ts.begin(), ts.end());
    if (ts.size() >= static_cast<std::size_t>(testBlockSize)) return std::vector<kb::BlockHash>{0xABCD};
    return std::vector<kb::BlockHash>{};
  };
  idx->index->lookup = [](const std::vector<kb::BlockHash>&, const std::set<std::string>&) {
    ADD_FAILURE() << "Lookup must not be called when no prompt produces block keys";
    return KeyToPods{};
  };
  auto scorer = fakeScorer();
  scorer->score = [](const std::vector<kb::BlockHash>&, const KeyToPods&) {
    ADD_FAILURE() << "Score must not be called when no prompt produces block keys";
    return std::map<std::string, double>{};
  };
  auto p = newProducerWithIndexer(idx, scorer);
  auto req = tokenRequest("req-multi-empty", {promptA, promptB});
  auto eps = freshEndpoints();
  ASSERT_FALSE(p->Produce(&req, eps).has_value());
  ASSERT_EQ(computeCalls, (std::vector<std::vector<std::uint32_t>>{promptA, promptB}));
  EXPECT_EQ(infoOf(eps[0]), nullptr);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_MultiPromptSkipsEmptyPromptKeys
TEST(PrecisePrefixProducer, Produce_MultiPromptSkipsEmptyPromptKeys) {
  const std::vector<std::uint32_t> shortPrompt = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::uint32_t> fullPrompt = {20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};
  const kb::BlockHash wantKey = 0xCAFE;
  std::vector<std::vector<std::uint32_t>> computeCalls;
  std::vector<std::vector<kb::BlockHash>> lookupCalls;
  auto idx = fakeIdx();
  idx->computeFromTokens = [&](std::span<const std::uint32_t> ts, const std::string&, const kb::ExtraFeatures&) {
    computeCalls.emplace_back(ts.begin(), ts.end());
    if (ts.size() == shortPrompt.size()) return std::vector<kb::BlockHash>{};
    if (ts.size() == fullPrompt.size()) return std::vector<kb::BlockHash>{wantKey};
    ADD_FAILURE() << "unexpected flat token lookup with " << ts.size() << " tokens";
    return std::vector<kb::BlockHash>{};
  };
  idx->index->lookup = [&](const std::vector<kb::BlockHash>& keys, const std::set<std::string>&) {
    EXPECT_FALSE(keys.empty());
    lookupCalls.push_back(keys);
    return KeyToPods{{wantKey, {pe("10.0.0.1:8080")}}};
  };
  auto scorer = fakeScorer();
  scorer->score = [&](const std::vector<kb::BlockHash>& keys, const KeyToPods&) {
    EXPECT_EQ(keys, std::vector<kb::BlockHash>{wantKey});
    return std::map<std::string, double>{{"10.0.0.1:8080", 1.0}};
  };
  auto p = newProducerWithIndexer(idx, scorer);
  auto req = tokenRequest("req-multi-mixed", {shortPrompt, fullPrompt});
  auto eps = freshEndpoints();
  ASSERT_FALSE(p->Produce(&req, eps).has_value());
  ASSERT_EQ(computeCalls, (std::vector<std::vector<std::uint32_t>>{shortPrompt, fullPrompt}));
  ASSERT_EQ(lookupCalls, (std::vector<std::vector<kb::BlockHash>>{{wantKey}}));
  auto info = infoOf(eps[0]);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->MatchBlocks(), 1);
  EXPECT_EQ(info->TotalBlocks(), 1);
  info = infoOf(eps[1]);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->MatchBlocks(), 0);
  EXPECT_EQ(info->TotalBlocks(), 1);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_WritesCachedBlocksByTier
TEST(PrecisePrefixProducer, Produce_WritesCachedBlocksByTier) {
  const std::vector<std::uint32_t> promptA = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::uint32_t> promptB = {20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};
  const std::vector<kb::BlockHash> keysA = {0xA1, 0xA2}, keysB = {0xB1};
  const kb::PodEntry gpuA = pe("10.0.0.1:8080", "gpu"), cpuA = pe("10.0.0.1:8080", "cpu");
  auto idx = fakeIdx();
  idx->computeFromTokens = [&](std::span<const std::uint32_t> ts, const std::string&, const kb::ExtraFeatures&) {
    return ts.size() == promptA.size() ? keysA : keysB;
  };
  idx->index->lookup = [&](const std::vector<kb::BlockHash>& keys, const std::set<std::string>&) {
    if (keys[0] == keysA[0]) return KeyToPods{{keysA[0], {gpuA, cpuA}}, {keysA[1], {gpuA}}};
    return KeyToPods{{keysB[0], {gpuA, cpuA}}};
  };
  auto scorer = fakeScorer();
  scorer->score = [](const std::vector<kb::BlockHash>&, const KeyToPods&) {
    return std::map<std::string, double>{{"10.0.0.1:8080", 1.0}};
  };
  auto p = newProducerWithIndexer(idx, scorer);
  auto req = tokenRequest("req-by-tier", {promptA, promptB});
  auto eps = freshEndpoints();
  ASSERT_FALSE(p->Produce(&req, eps).has_value());
  auto info = infoOf(eps[0]);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->CachedBlockCount(), 3);
  ASSERT_TRUE(info->CachedBlocksByTier().has_value());
  EXPECT_EQ(*info->CachedBlocksByTier(), (std::map<std::string, int>{{"gpu", 3}, {"cpu", 2}}));
  info = infoOf(eps[1]);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->CachedBlockCount(), 0);
  ASSERT_TRUE(info->CachedBlocksByTier().has_value());  // Go: NotNil
  EXPECT_TRUE(info->CachedBlocksByTier()->empty());
}

// (The "salt only" case; the "salt appended after mm hash" case needs multimodal features, not modelled.)
// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_FoldsCacheSalt
TEST(PrecisePrefixProducer, Produce_FoldsCacheSalt) {
  std::vector<std::uint32_t> tokens(16);
  for (std::uint32_t i = 0; i < 16; ++i) tokens[i] = i;
  kb::ExtraFeatures captured;
  auto idx = fakeIdx();
  idx->computeFromTokens = [&](std::span<const std::uint32_t>, const std::string&, const kb::ExtraFeatures& extra) {
    captured = extra;
    return std::vector<kb::BlockHash>{0xAA};
  };
  auto p = newProducerWithIndexer(idx, fakeScorer());
  auto req = tokenRequest("req-salt", {tokens}, "s3cr3t");
  auto eps = freshEndpoints();
  ASSERT_FALSE(p->Produce(&req, eps).has_value());
  ASSERT_TRUE(captured.has_value());
  ASSERT_EQ(captured->size(), 1U);
  ASSERT_TRUE((*captured)[0].has_value());
  EXPECT_EQ((*captured)[0]->MMHashes, (std::vector<kb::MMHash>{{"s3cr3t"}}));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_NoCacheSalt_NoExtraFeatures
TEST(PrecisePrefixProducer, Produce_NoCacheSalt_NoExtraFeatures) {
  std::vector<std::uint32_t> tokens(16);
  for (std::uint32_t i = 0; i < 16; ++i) tokens[i] = i;
  kb::ExtraFeatures captured = std::vector<std::optional<kb::BlockExtraFeatures>>{kb::BlockExtraFeatures{}};  // sentinel
  auto idx = fakeIdx();
  idx->computeFromTokens = [&](std::span<const std::uint32_t>, const std::string&, const kb::ExtraFeatures& extra) {
    captured = extra;
    return std::vector<kb::BlockHash>{0xAA};
  };
  auto p = newProducerWithIndexer(idx, fakeScorer());
  auto req = tokenRequest("req-nosalt", {tokens});
  auto eps = freshEndpoints();
  ASSERT_FALSE(p->Produce(&req, eps).has_value());
  EXPECT_FALSE(captured.has_value());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduce_NoOpPaths
TEST(PrecisePrefixProducer, Produce_NoOpPaths) {
  auto idx = fakeIdx();
  idx->computeFromTokens = [](std::span<const std::uint32_t>, const std::string&, const kb::ExtraFeatures&) -> std::vector<kb::BlockHash> {
    ADD_FAILURE() << "ComputeBlockKeysFromTokens must not be called";
    return {};
  };
  auto p = newProducerWithIndexer(idx, fakeScorer());
  auto eps = freshEndpoints();
  fs::InferenceRequest noBody;
  noBody.RequestID = "x";
  EXPECT_FALSE(p->Produce(&noBody, eps).has_value());
  fs::InferenceRequest emptyBody;
  emptyBody.RequestID = "x";
  emptyBody.Body = std::make_shared<blis::router::fwkrh::InferenceRequestBody>();
  EXPECT_FALSE(p->Produce(&emptyBody, eps).has_value());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestPluginFactory_RejectsTokenizersPoolConfig
TEST(PrecisePrefixProducer, PluginFactory_RejectsTokenizersPoolConfig) {
  const std::string err = factoryError(R"({"indexerConfig":{"tokenizersPoolConfig":{"modelName":"x"}}})");
  EXPECT_NE(err.find("tokenizersPoolConfig is not supported"), std::string::npos) << err;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestProduces_DeclaresPrefixCacheMatchInfo
TEST(PrecisePrefixProducer, Produces_DeclaresPrefixCacheMatchInfo) {
  pp::Producer p;
  p.typedName = fp::TypedName{pp::PluginType, "x"};
  p.dk = ap::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName("x");
  const fp::DataKey expected =
      fp::NewDataKey("PrefixCacheMatchInfoDataKey", "approx-prefix-cache-producer").WithNonEmptyProducerName("x");
  const auto produces = p.Produces();
  EXPECT_TRUE(produces.count(expected));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestConsumes_DeclaresTokenizedPrompt
TEST(PrecisePrefixProducer, Consumes_DeclaresTokenizedPrompt) {
  pp::Producer p;
  p.typedName = fp::TypedName{pp::PluginType, "x"};
  const fp::DataKey expected = fp::NewDataKey("TokenizedPrompt", "token-producer");
  const auto consumes = p.Consumes().Required;
  EXPECT_TRUE(consumes.count(expected));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestNew_BlockSizeFlowsViaTokenProcessor
TEST(PrecisePrefixProducer, New_BlockSizeFlowsViaTokenProcessor) {
  struct Case {
    std::string name;
    kb::TokenProcessorConfig cfg;
    int want;
  };
  kb::TokenProcessorConfig deprecated, canonical;
  deprecated.BlockSize = 64;
  canonical.BlockSizeTokens = 64;
  for (const Case& tc : {Case{"blockSize only (deprecated)", deprecated, 64}, Case{"blockSizeTokens only", canonical, 64}}) {
    SCOPED_TRACE(tc.name);
    pp::PluginConfig cfg;
    cfg.TokenProcessorConfig = tc.cfg;
    cfg.IndexerConfig = blis::router::kvcache::NewDefaultConfig();
    cfg.KVEventsConfig = blis::router::kvevents::DefaultConfig();
    const std::string name = "t-" + tc.name;
    auto p = pp::New(nullptr, name, cfg);
    std::vector<std::uint32_t> tokens(64);
    for (std::uint32_t i = 0; i < 64; ++i) tokens[i] = i + 1;
    auto ep = endpoint("pod-x", "10.0.0.9", "8080");
    auto req = tokenRequest("r", {tokens});
    req.TargetModel = "m";
    ASSERT_FALSE(p->Produce(&req, {ep}).has_value());
    auto info = infoOf(ep, name);
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->BlockSizeTokens(), tc.want);
    EXPECT_EQ(info->TotalBlocks(), 1);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099 TestNewRejectsUnsupportedKVEventEngineType
TEST(PrecisePrefixProducer, NewRejectsUnsupportedKVEventEngineType) {
  pp::PluginConfig cfg;
  cfg.IndexerConfig = blis::router::kvcache::NewDefaultConfig();
  cfg.KVEventsConfig = blis::router::kvevents::DefaultConfig();
  cfg.KVEventsConfig->EngineType = "unsupported";
  try {
    pp::New(nullptr, "unsupported-engine", cfg);
    FAIL() << "New accepted an unsupported engine type";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported engine type: \"unsupported\""), std::string::npos) << e.what();
  }
}

// Original to BLIS: the factory's strict decoding of the nested parameters (encoding/json's texts, wrapped as
// PluginFactory wraps them) and the refusals of what the port does not model.
TEST(PrecisePrefixProducer, PluginFactory_StrictNestedDecoding) {
  const std::string wrap = "failed to parse precise-prefix-cache-producer plugin config: ";
  EXPECT_EQ(factoryError(R"({"bogus":1})"), wrap + "json: unknown field \"bogus\"");
  EXPECT_EQ(factoryError(R"({"tokenProcessorConfig":{"blockSizeTokens":4,"x":1}})"), wrap + "json: unknown field \"x\"");
  EXPECT_EQ(factoryError(R"({"tokenProcessorConfig":{"blockSize":"4"}})"),
            wrap + "json: cannot unmarshal string into Go struct field TokenProcessorConfig.tokenProcessorConfig.blockSize of type int");
  EXPECT_EQ(factoryError(R"({"indexerConfig":{"kvBlockIndexConfig":{"inMemoryConfig":{"size":"big"}}}})"),
            wrap + "json: cannot unmarshal string into Go struct field InMemoryIndexConfig.indexerConfig.kvBlockIndexConfig.inMemoryConfig.size of type int");
  EXPECT_EQ(factoryError(R"({"kvEventsConfig":5})"),
            wrap + "json: cannot unmarshal number into Go struct field PluginConfig.kvEventsConfig of type kvevents.Config");
  EXPECT_EQ(factoryError(R"({"speculativeIndexing":"yes"})"),
            wrap + "json: cannot unmarshal string into Go struct field PluginConfig.speculativeIndexing of type bool");
  EXPECT_EQ(factoryError(R"({"indexerConfig":null})"), "indexerConfig is required");
  EXPECT_EQ(factoryError(R"({"speculativeIndexing":true,"speculativeTTL":"soon"})"),
            "failed to create precise-prefix-cache-producer plugin: invalid speculativeTTL \"soon\": time: invalid duration \"soon\"");
  EXPECT_NE(factoryError(R"({"kvEventsConfig":{"zmqEndpoint":"tcp://*:5557"}})").find("is not modelled by this port"),
            std::string::npos);
  EXPECT_NE(factoryError(R"({"indexerConfig":{"kvBlockIndexConfig":{"redisConfig":{"address":"x"}}}})").find("not modelled"),
            std::string::npos);
  EXPECT_EQ(factoryError(R"({"tokenProcessorConfig":{"blockSizeTokens":8},"kvEventsConfig":{"engineType":"sglang"}})"), "");
}

// Original to BLIS: a decoded configuration reaches New (block size, TTL, backend weights).
TEST(PrecisePrefixProducer, PluginFactory_DecodedConfigReachesNew) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto j = nlohmann::json::parse(
      R"({"tokenProcessorConfig":{"blockSizeTokens":8},"speculativeIndexing":true,"speculativeTTL":"1.5s"})");
  auto p = std::dynamic_pointer_cast<pp::Producer>(pp::PluginFactory("prod", &j, handle));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->TypedName().Type, "precise-prefix-cache-producer");
  EXPECT_EQ(p->TypedName().Name, "prod");
  EXPECT_EQ(p->blockSizeTokens, 8);
  EXPECT_TRUE(p->speculativeEnabled);
  EXPECT_EQ(p->speculativeTTL, 1'500'000'000);
  auto none = pp::PluginFactory("d", nullptr, handle);
  auto d = std::dynamic_pointer_cast<pp::Producer>(none);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->blockSizeTokens, 16);
  EXPECT_FALSE(d->speculativeEnabled);
}

// Original to BLIS: Go's time.ParseDuration as ported for speculativeTTL.
TEST(PrecisePrefixProducer, ParseGoDuration) {
  std::string err;
  EXPECT_EQ(pp::ParseGoDuration("2s", err), 2'000'000'000);
  EXPECT_EQ(pp::ParseGoDuration("1h2m0.5s", err), 3'720'500'000'000);
  EXPECT_EQ(pp::ParseGoDuration("-300ms", err), -300'000'000);
  EXPECT_EQ(pp::ParseGoDuration("0", err), 0);
  EXPECT_EQ(pp::ParseGoDuration("1.5us", err), 1500);
  EXPECT_FALSE(pp::ParseGoDuration("5", err).has_value());
  EXPECT_EQ(err, "time: missing unit in duration \"5\"");
  EXPECT_FALSE(pp::ParseGoDuration("5d", err).has_value());
  EXPECT_EQ(err, "time: unknown unit \"d\" in duration \"5d\"");
  EXPECT_FALSE(pp::ParseGoDuration("", err).has_value());
  EXPECT_EQ(err, "time: invalid duration \"\"");
}
