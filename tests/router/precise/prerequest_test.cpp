// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest_test.go@71f4f099, plus the
// speculative entries' TTL on the simulated clock (ttlcache's expiry, which upstream's tests do not exercise).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/interface/plugin/handle.h"
#include "test_support.h"

using namespace precisetest;

namespace {
struct addCall {
  std::vector<kb::BlockHash> keys;
  std::vector<kb::PodEntry> entries;
};

// prerequest_test.go newProducerForPreRequest (a one-minute TTL)
std::shared_ptr<pp::Producer> newProducerForPreRequest(bool speculativeEnabled, std::shared_ptr<fakeKVBlockIndex> idx,
                                                       ClockRuntime* rt) {
  auto indexer = std::make_shared<fakeKVCacheIndexer>();
  indexer->index = std::move(idx);
  auto p = std::make_shared<pp::Producer>();
  p->typedName = blis::router::fwkplugin::TypedName{pp::PluginType, "test"};
  p->kvCacheIndexerInst = indexer;
  p->speculative.emplace();
  p->speculativeTTL = 60'000'000'000;
  p->speculativeEnabled = speculativeEnabled;
  p->runtime = rt;
  return p;
}

// prerequest_test.go primaryOnly
fs::SchedulingResult primaryOnly(const std::string& name, fs::EndpointPtr ep) {
  fs::SchedulingResult r;
  r.PrimaryProfileName = name;
  auto pr = std::make_shared<fs::ProfileRunResult>();
  pr->TargetEndpoints = {std::move(ep)};
  r.ProfileResults[name] = pr;
  return r;
}

const pp::speculativeEntries* cachedOf(const pp::Producer& p, const std::string& id) {
  auto it = p.speculative->items.find(id);
  return it == p.speculative->items.end() ? nullptr : &it->second.value;
}
}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest_test.go@71f4f099 TestPreRequest_SeedsSpeculativeForPrimary
TEST(PrecisePrefixPreRequest, SeedsSpeculativeForPrimary) {
  ClockRuntime rt;
  std::vector<addCall> calls;
  auto idx = std::make_shared<fakeKVBlockIndex>();
  idx->addFn = [&](const std::vector<kb::BlockHash>*, const std::vector<kb::BlockHash>& keys, const std::vector<kb::PodEntry>& entries) {
    calls.push_back({keys, entries});
  };
  auto p = newProducerForPreRequest(true, idx, &rt);
  const std::vector<kb::BlockHash> blockKeys = {0xAA, 0xBB};
  fs::InferenceRequest req;
  req.RequestID = "req-pre-1";
  p->pluginState.Write(req.RequestID, pp::blockKeysStateKey, pp::blockKeysState{{blockKeys}});
  auto eps = freshEndpoints();
  auto result = primaryOnly("default", eps[0]);
  (void)p->PreRequest(&req, &result);

  ASSERT_EQ(calls.size(), 1U);
  EXPECT_EQ(calls[0].keys, blockKeys);
  ASSERT_EQ(calls[0].entries.size(), 1U);
  EXPECT_EQ(calls[0].entries[0].PodIdentifier, "10.0.0.1:8080");
  EXPECT_TRUE(calls[0].entries[0].Speculative);
  const auto* cached = cachedOf(*p, req.RequestID);
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(cached->perPromptKeys, (std::vector<std::vector<kb::BlockHash>>{blockKeys}));
  ASSERT_EQ(cached->podEntries.size(), 1U);
  EXPECT_EQ(cached->podEntries[0].PodIdentifier, "10.0.0.1:8080");
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest_test.go@71f4f099 TestPreRequest_EmptyBlockKeys_NoAdd
TEST(PrecisePrefixPreRequest, EmptyBlockKeys_NoAdd) {
  ClockRuntime rt;
  auto idx = std::make_shared<fakeKVBlockIndex>();
  idx->addFn = [](const std::vector<kb::BlockHash>*, const std::vector<kb::BlockHash>&, const std::vector<kb::PodEntry>&) {
    ADD_FAILURE() << "index.Add must not be called when blockKeys are empty";
  };
  auto p = newProducerForPreRequest(true, idx, &rt);
  fs::InferenceRequest req;
  req.RequestID = "req-pre-empty";
  p->pluginState.Write(req.RequestID, pp::blockKeysStateKey, pp::blockKeysState{});
  auto eps = freshEndpoints();
  auto result = primaryOnly("default", eps[0]);
  (void)p->PreRequest(&req, &result);
  EXPECT_EQ(cachedOf(*p, req.RequestID), nullptr);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest_test.go@71f4f099 TestPreRequest_PrefillProfile_SeedsBoth
TEST(PrecisePrefixPreRequest, PrefillProfile_SeedsBoth) {
  ClockRuntime rt;
  std::vector<addCall> calls;
  auto idx = std::make_shared<fakeKVBlockIndex>();
  idx->addFn = [&](const std::vector<kb::BlockHash>*, const std::vector<kb::BlockHash>& keys, const std::vector<kb::PodEntry>& entries) {
    calls.push_back({keys, entries});
  };
  auto p = newProducerForPreRequest(true, idx, &rt);
  fs::InferenceRequest req;
  req.RequestID = "req-pre-pd";
  p->pluginState.Write(req.RequestID, pp::blockKeysStateKey, pp::blockKeysState{{{0xCC}}});
  auto eps = freshEndpoints();
  fs::SchedulingResult result;
  result.PrimaryProfileName = "decode";
  result.ProfileResults["decode"] = std::make_shared<fs::ProfileRunResult>();
  result.ProfileResults["decode"]->TargetEndpoints = {eps[0]};
  result.ProfileResults[pp::experimentalPrefillProfile] = std::make_shared<fs::ProfileRunResult>();
  result.ProfileResults[pp::experimentalPrefillProfile]->TargetEndpoints = {eps[1]};
  (void)p->PreRequest(&req, &result);

  ASSERT_EQ(calls.size(), 2U);
  EXPECT_EQ(calls[0].entries[0].PodIdentifier, "10.0.0.1:8080");
  EXPECT_EQ(calls[1].entries[0].PodIdentifier, "10.0.0.2:8080");
  const auto* cached = cachedOf(*p, req.RequestID);
  ASSERT_NE(cached, nullptr);
  ASSERT_EQ(cached->podEntries.size(), 2U);
  EXPECT_EQ(cached->podEntries[0].PodIdentifier, "10.0.0.1:8080");
  EXPECT_EQ(cached->podEntries[1].PodIdentifier, "10.0.0.2:8080");
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest_test.go@71f4f099 TestPreRequest_SpeculativeDisabled_NoOp
TEST(PrecisePrefixPreRequest, SpeculativeDisabled_NoOp) {
  ClockRuntime rt;
  auto idx = std::make_shared<fakeKVBlockIndex>();
  idx->addFn = [](const std::vector<kb::BlockHash>*, const std::vector<kb::BlockHash>&, const std::vector<kb::PodEntry>&) {
    ADD_FAILURE() << "index.Add must not be called when speculative indexing is disabled";
  };
  auto p = newProducerForPreRequest(false, idx, &rt);
  fs::InferenceRequest req;
  req.RequestID = "req-pre-off";
  p->pluginState.Write(req.RequestID, pp::blockKeysStateKey, pp::blockKeysState{{{0xDD}}});
  auto eps = freshEndpoints();
  auto result = primaryOnly("default", eps[0]);
  (void)p->PreRequest(&req, &result);
  EXPECT_EQ(cachedOf(*p, req.RequestID), nullptr);
  EXPECT_EQ(p->pluginState.Size(), 1U);  // PluginState left untouched
}

// Original to BLIS: ttlcache's expiry on the simulated clock: the speculative rows stay until now > set + TTL,
// then the next Produce evicts them from the index as request keys (the real in-memory index).
TEST(PrecisePrefixPreRequest, SpeculativeEntriesExpireOnTheSimulatedClock) {
  ClockRuntime rt;
  blis::router::fwkplugin::Handle handle(rt);
  auto j = nlohmann::json::parse(R"({"speculativeIndexing":true,"speculativeTTL":"2s"})");
  auto p = std::dynamic_pointer_cast<pp::Producer>(pp::PluginFactory("spec", &j, handle));
  ASSERT_NE(p, nullptr);
  std::vector<std::uint32_t> tokens(32);
  for (std::uint32_t i = 0; i < 32; ++i) tokens[i] = 100 + i;
  auto eps = freshEndpoints();
  auto req = tokenRequest("r1", {tokens});
  ASSERT_FALSE(p->Produce(&req, eps).has_value());
  EXPECT_EQ(infoOf(eps[0], "spec")->MatchBlocks(), 0);
  auto result = primaryOnly("default", eps[1]);
  ASSERT_FALSE(p->PreRequest(&req, &result).has_value());

  rt.now = 2'000'000;  // exactly at expiry: not yet expired
  auto eps2 = freshEndpoints();
  auto req2 = tokenRequest("r2", {tokens});
  ASSERT_FALSE(p->Produce(&req2, eps2).has_value());
  EXPECT_EQ(infoOf(eps2[1], "spec")->MatchBlocks(), 2);
  EXPECT_EQ(infoOf(eps2[1], "spec")->CachedBlocksByTier()->at(ap::SpeculativeTierKey), 2);
  EXPECT_EQ(infoOf(eps2[0], "spec")->MatchBlocks(), 0);

  rt.now = 2'000'001;
  auto eps3 = freshEndpoints();
  auto req3 = tokenRequest("r3", {tokens});
  ASSERT_FALSE(p->Produce(&req3, eps3).has_value());
  EXPECT_EQ(infoOf(eps3[1], "spec")->MatchBlocks(), 0);
  EXPECT_TRUE(p->speculative->items.count("r1") == 0);
}
