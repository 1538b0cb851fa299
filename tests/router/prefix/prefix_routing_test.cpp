// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: an end-to-end check of llm-d's default scheduling profile (pkg/epp/config/loader/
// defaults.go@71f4f099 loadDefaultConfig: queue-scorer 2, kv-cache-utilization-scorer 2, prefix-cache-scorer
// 3, the max-score picker, the single profile handler) fed by the approximate prefix producer
// (pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099) with its
// default config, called as the director does: Produce before Schedule, PreRequest after the pick.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.h"
#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"
#include "router/epp/framework/plugins/scheduling/scorer/queuedepth/queue.h"
#include "router/epp/scheduling/scheduler.h"
#include "router/epp/scheduling/scheduler_profile.h"
#include "router/epp/scheduling/weighted_scorer.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router {
namespace {

using Tokens = std::vector<std::uint32_t>;

// The default profile of loadDefaultConfig, behind a Scheduler with the single profile handler.
std::shared_ptr<scheduling::Scheduler> defaultScheduler(RandomStream& rand) {
  auto profile = scheduling::NewSchedulerProfile();
  const auto err = profile->AddPlugins({
      scheduling::NewWeightedScorer(queuedepth::NewQueueScorer(), 2.0),
      scheduling::NewWeightedScorer(kvcacheutilization::NewKVCacheUtilizationScorer(), 2.0),
      scheduling::NewWeightedScorer(prefix::PrefixCachePluginFactory(prefix::PrefixCacheScorerPluginType, std::nullopt),
                                    3.0),
      maxscore::NewMaxScorePicker(picker::DefaultMaxNumOfEndpoints, rand),
  });
  EXPECT_FALSE(err.has_value());
  return std::make_shared<scheduling::Scheduler>(single::NewSingleProfileHandler(),
                                                 fwksched::ProfileMap{{"default", profile}});
}

fwksched::EndpointPtr server(const std::string& name, int waitingQueue, double kvUsage) {
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{"default", name};
  fwkdl::Metrics m;
  m.WaitingQueueSize = waitingQueue;
  m.KVCacheUsagePercent = kvUsage;
  m.CacheBlockSize = 16;    // vLLM's default: GetBlockSize clamps it to 64
  m.CacheNumBlocks = 4096;  // the LRU capacity PreRequest gives the pod under AutoTune
  return fwksched::NewEndpoint(meta, m);
}

fwksched::InferenceRequest request(const std::string& id, Tokens tokens) {
  fwksched::InferenceRequest req;
  req.RequestID = id;
  req.TargetModel = "m";
  req.Body = std::make_shared<fwkrh::InferenceRequestBody>();
  req.Body->TokenizedPrompt = fwkrh::TokenizedPrompt{{std::move(tokens)}, ""};
  return req;
}

Tokens prompt(std::uint32_t first, std::size_t n) {
  Tokens t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = first + static_cast<std::uint32_t>(i);
  return t;
}

// What a simulator adapter does per request: Produce, Schedule, PreRequest; returns the picked endpoint.
fwksched::EndpointPtr route(approximateprefix::dataProducer& producer, scheduling::Scheduler& scheduler,
                            fwksched::InferenceRequest& req, const std::vector<fwksched::EndpointPtr>& endpoints) {
  producer.Produce(&req, endpoints);
  const auto outcome = scheduler.Schedule(&req, endpoints);
  EXPECT_FALSE(outcome.Err.has_value());
  if (outcome.Value == nullptr) return nullptr;
  producer.PreRequest(&req, *outcome.Value);
  const auto& primary = outcome.Value->ProfileResults.at(outcome.Value->PrimaryProfileName);
  if (primary == nullptr || primary->TargetEndpoints.empty()) return nullptr;
  return primary->TargetEndpoints[0];
}

std::string nameOf(const fwksched::EndpointPtr& e) { return e->GetMetadata()->ID.Name; }

// Equal loads: the first request's pick is a random tie-break among the three servers; a second request that
// shares its first 192 tokens (3 of 64-token blocks) goes to that same server, on every seed.
TEST(PrefixRouting, SharedPrefixFollowsFirstPickAtEqualLoad) {
  std::set<std::string> firstPicks;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    testing::SplitMixStream rand(seed);
    auto scheduler = defaultScheduler(rand);
    auto producer = approximateprefix::ApproxPrefixCacheFactory(
        std::string(approximateprefix::ApproxPrefixCachePluginType), std::nullopt);
    const std::vector<fwksched::EndpointPtr> endpoints = {server("a", 0, 0.1), server("b", 0, 0.1),
                                                          server("c", 0, 0.1)};
    auto req1 = request("r1", prompt(1, 256));
    const auto first = route(*producer, *scheduler, req1, endpoints);
    ASSERT_NE(first, nullptr);
    firstPicks.insert(nameOf(first));

    Tokens shared = prompt(1, 192);
    const Tokens tail = prompt(10000, 130);
    shared.insert(shared.end(), tail.begin(), tail.end());  // 322 tokens: 5 full blocks + 1 partial block
    auto req2 = request("r2", shared);
    const auto second = route(*producer, *scheduler, req2, endpoints);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(nameOf(second), nameOf(first));

    // The producer's attribute on the first pick: 3 of 6 blocks matched, block size 64.
    const auto info = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(
        first->Get(producer->AttributeKey()));
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->MatchBlocks(), 3);
    EXPECT_EQ(info->TotalBlocks(), 6);
    EXPECT_EQ(info->BlockSizeTokens(), 64);
    // PreRequest cleared both requests' state.
    EXPECT_EQ(producer->PluginState().Size(), 0u);
  }
  // The first pick is a genuine tie-break (more than one server is chosen across seeds).
  EXPECT_GT(firstPicks.size(), 1u);
}

// The prefix affinity outweighs a small load difference but not a large one. Weighted totals are
// 2 x queue score ((max - q) / (max - min), 1 when all equal) + 2 x (1 - KV usage) + 3 x matched/total blocks.
TEST(PrefixRouting, PrefixAffinityAgainstLoad) {
  testing::SplitMixStream rand(7);
  auto scheduler = defaultScheduler(rand);
  auto producer = approximateprefix::ApproxPrefixCacheFactory("approx-prefix-cache-producer", std::nullopt);
  auto a = server("a", 0, 0.0);
  const std::vector<fwksched::EndpointPtr> only = {a};
  auto req1 = request("r1", prompt(1, 256));
  ASSERT_EQ(nameOf(route(*producer, *scheduler, req1, only)), "a");

  // a is busier on KV cache (0.5 vs 0) but holds 2 of the 4 blocks: a = 2 + 1.0 + 1.5 = 4.5, b = 2 + 2 + 0 = 4.
  {
    std::vector<fwksched::EndpointPtr> eps = {server("a", 0, 0.5), server("b", 0, 0.0)};
    auto req2 = request("r2", [] {
      Tokens t = prompt(1, 128);
      const Tokens tail = prompt(5000, 128);
      t.insert(t.end(), tail.begin(), tail.end());
      return t;
    }());
    EXPECT_EQ(nameOf(route(*producer, *scheduler, req2, eps)), "a");
  }
  // a holds all 4 blocks but has the longest queue (10 vs 0) and KV usage 0.6: a = 0 + 0.8 + 3.0 = 3.8,
  // b = 2 + 2 + 0 = 4.0.
  {
    std::vector<fwksched::EndpointPtr> eps = {server("a", 10, 0.6), server("b", 0, 0.0)};
    auto req3 = request("r3", prompt(1, 256));
    EXPECT_EQ(nameOf(route(*producer, *scheduler, req3, eps)), "b");
  }
}

}  // namespace
}  // namespace blis::router
