// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache_test.go@71f4f099 (the tests
// that need no tokenizer pool; the legacyProducer pool tests are not applicable, see the report).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.h"
#include "test_support.h"

using namespace precisetest;
namespace fp = blis::router::fwkplugin;
namespace sc = blis::router::preciseprefixcachescorer;
namespace rc = blis::router::requestcontrol;

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache_test.go@71f4f099 TestAnyMMHit
TEST(PrecisePrefixScorer, AnyMMHit) {
  const std::string producerName = "test-producer";
  const std::string key = ap::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(producerName).String();
  auto makeEndpoint = [&](const std::string& name, std::shared_ptr<ap::PrefixCacheMatchInfo> info) {
    fdl::EndpointMetadata m;
    m.ID.Name = name;
    auto ep = fs::NewEndpoint(m, fdl::Metrics{});
    if (info) ep->Put(key, info);
    return ep;
  };
  struct Case {
    std::string name;
    std::vector<fs::EndpointPtr> endpoints;
    bool wantHit = false;
    bool wantTracked = false;
  };
  const std::vector<Case> tests = {
      {"no endpoints", {}},
      {"no match info attached", {makeEndpoint("a", nullptr), makeEndpoint("b", nullptr)}},
      {"no producer tracked mm",
       {makeEndpoint("a", ap::NewPrefixCacheMatchInfo(5, 10, 16)), makeEndpoint("b", ap::NewPrefixCacheMatchInfo(8, 10, 16))}},
      {"tracked but zero mm matches",
       {makeEndpoint("a", ap::NewPrefixCacheMatchInfo(5, 10, 16)),
        makeEndpoint("b", ap::NewPrefixCacheMatchInfo(8, 10, 16)->WithMM(ap::MMMatchInfo{0}))},
       false,
       true},
      {"one endpoint reports mm match",
       {makeEndpoint("a", ap::NewPrefixCacheMatchInfo(5, 10, 16)),
        makeEndpoint("b", ap::NewPrefixCacheMatchInfo(8, 10, 16)->WithMM(ap::MMMatchInfo{2}))},
       true,
       true},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    const auto [hit, tracked] = sc::anyMMHit(tt.endpoints, key);
    EXPECT_EQ(hit, tt.wantHit) << "hit";
    EXPECT_EQ(tracked, tt.wantTracked) << "tracked";
  }
}

// (Scorer, DataProducer and PreRequest; EndpointExtractor is not ported: it installs per-pod ZMQ subscribers.)
// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache_test.go@71f4f099 TestPluginFactory_SelfHostInterfaces
TEST(PrecisePrefixScorer, PluginFactory_SelfHostInterfaces) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto j = nlohmann::json::parse("{}");
  auto plg = sc::PluginFactory("test", &j, handle);
  EXPECT_NE(std::dynamic_pointer_cast<fs::Scorer>(plg), nullptr) << "plugin must be a Scorer";
  EXPECT_NE(std::dynamic_pointer_cast<rc::DataProducer>(plg), nullptr) << "plugin must be a DataProducer";
  EXPECT_NE(std::dynamic_pointer_cast<rc::PreRequestPlugin>(plg), nullptr) << "plugin must be a PreRequest";
  EXPECT_EQ(plg->TypedName().Type, "precise-prefix-cache-scorer");
}

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache_test.go@71f4f099 TestPluginFactory_InnerScorerConsumesProducerKeys
TEST(PrecisePrefixScorer, PluginFactory_InnerScorerConsumesProducerKeys) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto j = nlohmann::json::parse("{}");
  auto p = std::dynamic_pointer_cast<sc::Plugin>(sc::PluginFactory("test", &j, handle));
  ASSERT_NE(p, nullptr);
  const auto produces = p->Produces();
  ASSERT_EQ(produces.size(), 1U);
  const auto consumes = p->Consumes().Required;
  for (const auto& [k, zero] : produces) {
    EXPECT_TRUE(consumes.count(k)) << "Consumes must include produced key " << k.String();
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache_test.go@71f4f099 TestPluginFactory_DefersToExistingProducer
TEST(PrecisePrefixScorer, PluginFactory_DefersToExistingProducer) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto existing = pp::PluginFactory("my-precise", nullptr, handle);
  handle.AddPlugin(existing->TypedName().Name, existing);
  auto j = nlohmann::json::parse(R"({"speculativeIndexing":true})");
  auto plg = sc::PluginFactory("test", &j, handle);
  EXPECT_NE(std::dynamic_pointer_cast<fs::Scorer>(plg), nullptr);
  EXPECT_EQ(std::dynamic_pointer_cast<rc::DataProducer>(plg), nullptr) << "defer-mode plugin must not be a DataProducer";
  auto inner = std::dynamic_pointer_cast<blis::router::prefix::Plugin>(plg);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->prefixMatchDataKey().String(),
            ap::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName("my-precise").String());
}

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache_test.go@71f4f099 TestPluginFactory_RejectsMultipleExistingProducers
TEST(PrecisePrefixScorer, PluginFactory_RejectsMultipleExistingProducers) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto first = pp::PluginFactory("first", nullptr, handle);
  handle.AddPlugin(first->TypedName().Name, first);
  auto second = pp::PluginFactory("second", nullptr, handle);
  handle.AddPlugin(second->TypedName().Name, second);
  auto j = nlohmann::json::parse("{}");
  try {
    sc::PluginFactory("test", &j, handle);
    FAIL() << "expected an error";
  } catch (const fp::PluginError& e) {
    EXPECT_NE(std::string(e.what()).find("multiple precise-prefix-cache-producer instances"), std::string::npos) << e.what();
  }
}

// Original to BLIS: the legacy tokenizer pool is refused by name; a bad parameter is wrapped with the scorer's text.
TEST(PrecisePrefixScorer, PluginFactory_RefusesTokenizerPoolAndWrapsDecodeErrors) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto pool = nlohmann::json::parse(R"({"indexerConfig":{"tokenizersPoolConfig":{"modelName":"x"}}})");
  try {
    sc::PluginFactory("test", &pool, handle);
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is not modelled by this port"), std::string::npos) << e.what();
  }
  auto bad = nlohmann::json::parse(R"({"speculativeTTL":3})");
  try {
    sc::PluginFactory("test", &bad, handle);
    FAIL() << "expected a decode error";
  } catch (const fp::PluginError& e) {
    EXPECT_EQ(std::string(e.what()),
              "failed to parse precise-prefix-cache-scorer config: json: cannot unmarshal number into Go struct field "
              "PluginConfig.speculativeTTL of type string");
  }
}
