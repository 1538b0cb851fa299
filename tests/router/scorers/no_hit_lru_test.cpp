// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099
// (TestDumpStateConcurrentWithPreRequest is not applicable: the port is single-threaded).
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"
#include "tests/router/scorers/test_support.h"

namespace blis::router::nohitlru {
namespace {

// A plugin of a given TypedName (the test file's stubPlugin).
class stubPlugin final : public fwkplugin::Plugin {
 public:
  explicit stubPlugin(fwkplugin::TypedName n) : name_(std::move(n)) {}
  fwkplugin::TypedName TypedName() const override { return name_; }

 private:
  fwkplugin::TypedName name_;
};

// newCold: an endpoint without prefix-cache match info.
fwksched::EndpointPtr newCold(const std::string& name) {
  fwkdl::EndpointMetadata meta;
  meta.ID = {"", name};
  return fwksched::NewEndpoint(meta, fwkdl::Metrics{});
}
// newColdNS: a cold endpoint in the "default" namespace.
fwksched::EndpointPtr newColdNS(const std::string& name) {
  fwkdl::EndpointMetadata meta;
  meta.ID = {"default", name};
  return fwksched::NewEndpoint(meta, fwkdl::Metrics{});
}
// newWarm: an endpoint whose prefix-cache match info reports a hit.
fwksched::EndpointPtr newWarm(const std::string& name) {
  auto ep = newCold(name);
  ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(5, 10, 1));
  return ep;
}

fwksched::InferenceRequest req(const std::string& id) {
  fwksched::InferenceRequest r;
  r.RequestID = id;
  return r;
}

// A SchedulingResult whose profiles each target one endpoint.
fwksched::SchedulingResult result(const std::string& primary,
                                  const std::vector<std::pair<std::string, fwksched::EndpointPtr>>& targets) {
  fwksched::SchedulingResult r;
  r.PrimaryProfileName = primary;
  for (const auto& [profile, ep] : targets) {
    auto pr = std::make_shared<fwksched::ProfileRunResult>();
    pr->TargetEndpoints = {ep};
    r.ProfileResults[profile] = pr;
  }
  return r;
}

double at(const fwksched::ScoreMap& m, const fwksched::EndpointPtr& e) {
  auto it = m.find(e);
  return it == m.end() ? 0.0 : it->second;
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestNoHitLRUFactoryDependencyValidation
TEST(NoHitLRU, TestNoHitLRUFactoryDependencyValidation) {
  {
    SCOPED_TRACE("missing prefix cache plugin - should work as optimization");
    scorertest::TestHandle h;
    EXPECT_NE(Factory("test", nullptr, h.handle), nullptr);
  }
  {
    SCOPED_TRACE("prefix plugin present - should work");
    scorertest::TestHandle h;
    h.handle.AddPlugin(prefix::PrefixCacheScorerPluginType,
                       std::make_shared<stubPlugin>(fwkplugin::TypedName{prefix::PrefixCacheScorerPluginType,
                                                                         prefix::PrefixCacheScorerPluginType}));
    EXPECT_NE(Factory("test", nullptr, h.handle), nullptr);
  }
}

// BLIS: the factory's parameters (no_hit_lru.go Factory/NewNoHitLRU; no upstream case): lruSize bounds the
// LRU, the producer name selects the attribute key, and decoding errors keep encoding/json's texts.
TEST(NoHitLRU, FactoryParameters) {
  scorertest::TestHandle h;
  const nlohmann::json params = nlohmann::json::parse(
      R"({"lruSize": 2, "prefixMatchInfoProducerName": "my-producer", "prefixPluginType": "x", "prefixPluginName": "y"})");
  auto s = std::dynamic_pointer_cast<NoHitLRU>(Factory("n", &params, h.handle));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->TypedName(), (fwkplugin::TypedName{NoHitLRUType, "n"}));
  for (const char* name : {"a", "b", "c"}) {
    auto r = req(std::string("r-") + name);
    auto ep = newColdNS(name);
    s->Score(&r, {ep});
    const auto sr = result("p", {{"p", ep}});
    s->PreRequest(&r, &sr);
  }
  EXPECT_EQ(s->DumpState(), R"({"endpoints":["default/b","default/c"],"totalEndpoints":2,"maxEndpoints":100})");
  // A hit under the default producer's key does not count: this scorer reads "my-producer"'s key.
  auto defaultKeyed = newWarm("w");
  auto r1 = req("warm-default");
  EXPECT_EQ(s->Score(&r1, {defaultKeyed, newCold("x")}).at(defaultKeyed), 1.0);
  auto producerKeyed = newCold("w2");
  producerKeyed->Put(attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName("my-producer").String(),
                     attrprefix::NewPrefixCacheMatchInfo(1, 2, 1));
  auto r2 = req("warm-producer");
  EXPECT_EQ(s->Score(&r2, {producerKeyed, newCold("x")}).at(producerKeyed), 0.5);

  const nlohmann::json bad = nlohmann::json::parse(R"({"lruSize": "big"})");
  try {
    Factory("n", &bad, h.handle);
    ADD_FAILURE() << "expected an error";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_EQ(std::string(e.what()),
              "failed to parse the parameters of the 'no-hit-lru-scorer' scorer - json: cannot unmarshal string into "
              "Go struct field Parameters.lruSize of type int");
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestNoHitLRUScorer
TEST(NoHitLRU, TestNoHitLRUScorer) {
  struct Case {
    std::string name;
    std::vector<fwksched::EndpointPtr> input;
    std::vector<double> wantScores;
  };
  const std::vector<Case> tests = {
      {"cold request - all endpoints never used", {newCold("pod-a"), newCold("pod-b"), newCold("pod-c")}, {1.0, 0.5, 0.0}},
      {"cache hit - neutral scores", {newWarm("pod-a"), newCold("pod-b"), newCold("pod-c")}, {0.5, 0.5, 0.5}},
      {"single endpoint - max score", {newCold("pod-a")}, {1.0}},
  };
  for (const auto& test : tests) {
    SCOPED_TRACE(test.name);
    auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
    fwksched::InferenceRequest r;
    r.TargetModel = "test-model";
    const auto got = scorer->Score(&r, test.input);
    fwksched::ScoreMap want;
    for (std::size_t i = 0; i < test.input.size(); ++i) want[test.input[i]] = test.wantScores[i];
    EXPECT_EQ(got, want);
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestNoHitLRUBasicFunctionality
TEST(NoHitLRU, TestNoHitLRUBasicFunctionality) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  auto endpointA = newCold("pod-a");
  auto endpointB = newCold("pod-b");
  auto r = req("");
  const auto scores = scorer->Score(&r, {endpointA, endpointB});
  EXPECT_EQ(scores.size(), 2u);
  for (const auto& [endpoint, score] : scores) {
    EXPECT_GE(score, 0.0);
    EXPECT_LE(score, 1.0);
  }
  EXPECT_NE(at(scores, endpointA), at(scores, endpointB));
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestNoPrefixCacheStateFound
TEST(NoHitLRU, TestNoPrefixCacheStateFound) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  auto endpointA = newCold("pod-a");
  auto r = req("");
  EXPECT_EQ(at(scorer->Score(&r, {endpointA}), endpointA), 1.0)
      << "No prefix cache attributes should result in cold request scoring";
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestNoHitLRUPreferLeastRecentlyUsedAfterColdRequests
TEST(NoHitLRU, TestNoHitLRUPreferLeastRecentlyUsedAfterColdRequests) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  auto endpointA = newColdNS("pod-a");
  auto endpointB = newColdNS("pod-b");
  auto endpointC = newColdNS("pod-c");
  const std::vector<fwksched::EndpointPtr> endpoints = {endpointA, endpointB, endpointC};
  const std::string primaryProfile = "primary-profile";

  auto warmEndpoints = [&] {
    fwkdl::EndpointMetadata meta;
    meta.ID = {"default", "pod-a"};
    auto w = fwksched::NewEndpoint(meta, fwkdl::Metrics{});
    w->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(5, 10, 1));
    return std::vector<fwksched::EndpointPtr>{w, endpointB, endpointC};
  };
  auto requestToEndpoint = [&](const fwksched::EndpointPtr& target) {
    return result(primaryProfile, {{primaryProfile, target}});
  };
  // The highest-scored endpoint must be the expected one (Go iterates the map; scores here are distinct).
  auto assertHighestScoredPod = [&](const fwksched::EndpointPtr& expected, const std::string& testName) {
    auto coldReq = req(testName + "-scoring-check");
    const auto scores = scorer->Score(&coldReq, endpoints);
    double highestScore = -1.0;
    fwksched::EndpointPtr highest;
    for (const auto& [endpoint, score] : scores) {
      if (score > highestScore) {
        highestScore = score;
        highest = endpoint;
      }
    }
    ASSERT_NE(highest, nullptr);
    EXPECT_EQ(highest->GetMetadata()->ID.String(), expected->GetMetadata()->ID.String()) << testName;
  };

  {
    SCOPED_TRACE("initial cold request seeds cache");
    auto coldReqA = req("cold-1");
    scorer->Score(&coldReqA, endpoints);
    const auto r = requestToEndpoint(endpointA);
    scorer->PreRequest(&coldReqA, &r);
    assertHighestScoredPod(endpointB, "after-endpointA-used");
  }
  {
    SCOPED_TRACE("unused endpoints rank above existing ones");
    auto coldReqCheck = req("cold-check");
    const auto coldScores = scorer->Score(&coldReqCheck, endpoints);
    EXPECT_GT(at(coldScores, endpointB), at(coldScores, endpointA));
    EXPECT_EQ(at(coldScores, endpointB), 1.0);
    EXPECT_EQ(at(coldScores, endpointC), 0.5);
  }
  {
    SCOPED_TRACE("warm request leaves LRU untouched");
    auto warmReq = req("warm-1");
    for (const auto& [ep, score] : scorer->Score(&warmReq, warmEndpoints())) EXPECT_EQ(score, 0.5);
    const auto r = requestToEndpoint(endpointB);
    scorer->PreRequest(&warmReq, &r);
    auto postWarmReq = req("cold-after-warm");
    const auto postWarmScores = scorer->Score(&postWarmReq, endpoints);
    EXPECT_GT(at(postWarmScores, endpointB), at(postWarmScores, endpointA));
  }
  {
    SCOPED_TRACE("second cold request rotates to endpointB");
    auto coldReqB = req("cold-2");
    scorer->Score(&coldReqB, endpoints);
    const auto r = requestToEndpoint(endpointB);
    scorer->PreRequest(&coldReqB, &r);
    assertHighestScoredPod(endpointC, "after-endpointB-used");
  }
  {
    SCOPED_TRACE("third cold request rotates back to endpointA");
    auto coldReqC = req("cold-3");
    scorer->Score(&coldReqC, endpoints);
    const auto r = requestToEndpoint(endpointC);
    scorer->PreRequest(&coldReqC, &r);
    assertHighestScoredPod(endpointA, "after-endpointC-used");
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestNoHitLRUEdgeCases
// (Go's empty and nil endpoint slices are both the empty vector.)
TEST(NoHitLRU, TestNoHitLRUEdgeCases) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  auto r = req("");
  EXPECT_TRUE(scorer->Score(&r, {}).empty()) << "empty endpoints list";
  const std::vector<fwksched::EndpointPtr> endpoints = {newCold("pod-a")};
  EXPECT_EQ(at(scorer->Score(&r, endpoints), endpoints[0]), 1.0) << "single endpoint returns 1.0";
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestNoHitLRUPrefillDecodeTracking
TEST(NoHitLRU, TestNoHitLRUPrefillDecodeTracking) {
  auto prefillEndpointA = newColdNS("prefill-a");
  auto prefillEndpointB = newColdNS("prefill-b");
  auto decodeEndpointA = newColdNS("decode-a");
  auto decodeEndpointB = newColdNS("decode-b");
  const std::vector<fwksched::EndpointPtr> prefillEndpoints = {prefillEndpointA, prefillEndpointB};
  const std::vector<fwksched::EndpointPtr> decodeEndpoints = {decodeEndpointA, decodeEndpointB};
  {
    SCOPED_TRACE("P/D scenario - both profiles tracked separately");
    auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
    auto req1 = req("pd-request-1");
    scorer->Score(&req1, {prefillEndpointA, prefillEndpointB, decodeEndpointA, decodeEndpointB});
    const auto pdResult = result("decode", {{"prefill", prefillEndpointA}, {"decode", decodeEndpointA}});
    scorer->PreRequest(&req1, &pdResult);
    auto req2 = req("pd-request-2");
    const auto prefillScores = scorer->Score(&req2, prefillEndpoints);
    const auto decodeScores = scorer->Score(&req2, decodeEndpoints);
    EXPECT_GT(at(prefillScores, prefillEndpointB), at(prefillScores, prefillEndpointA));
    EXPECT_GT(at(decodeScores, decodeEndpointB), at(decodeScores, decodeEndpointA));
  }
  {
    SCOPED_TRACE("non-P/D scenario - only primary profile exists");
    auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
    auto r = req("non-pd-request");
    scorer->Score(&r, decodeEndpoints);
    const auto res = result("decode", {{"decode", decodeEndpointA}});
    scorer->PreRequest(&r, &res);
    auto req2 = req("non-pd-request-2");
    const auto scores = scorer->Score(&req2, decodeEndpoints);
    EXPECT_GT(at(scores, decodeEndpointB), at(scores, decodeEndpointA));
  }
  {
    SCOPED_TRACE("nil scheduling result - graceful handling");
    auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
    auto r = req("nil-result");
    scorer->Score(&r, decodeEndpoints);
    EXPECT_NO_THROW(scorer->PreRequest(&r, nullptr));
    EXPECT_EQ(scorer->DumpState(), R"({"endpoints":[],"totalEndpoints":0,"maxEndpoints":100})");
  }
  {
    SCOPED_TRACE("empty profile results - graceful handling");
    auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
    auto r = req("empty-results");
    scorer->Score(&r, decodeEndpoints);
    const auto res = result("decode", {});
    EXPECT_NO_THROW(scorer->PreRequest(&r, &res));
    EXPECT_EQ(scorer->DumpState(), R"({"endpoints":[],"totalEndpoints":0,"maxEndpoints":100})");
  }
}

// BLIS: PreRequest drops the request's state (no_hit_lru.go PreRequest; no upstream case).
TEST(NoHitLRU, PreRequestDropsState) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  auto r = req("r");
  auto ep = newColdNS("a");
  scorer->Score(&r, {ep});
  EXPECT_EQ(scorer->pluginState().Size(), 1u);
  const auto res = result("p", {{"p", ep}});
  scorer->PreRequest(&r, &res);
  EXPECT_EQ(scorer->pluginState().Size(), 0u);
  // A second PreRequest without state leaves the LRU as it is.
  scorer->PreRequest(&r, &res);
  EXPECT_EQ(scorer->DumpState(), R"({"endpoints":["default/a"],"totalEndpoints":1,"maxEndpoints":100})");
}

struct dumpedLRUState {
  std::vector<std::string> Endpoints;
  int TotalEndpoints = 0;
  int MaxEndpoints = 0;
  bool endpointsNull = false;
};

// seedCold: one cold request targeting the endpoint.
void seedCold(NoHitLRU& scorer, const fwksched::EndpointPtr& target, const std::string& id) {
  auto r = req(id);
  scorer.Score(&r, {target});
  const auto res = result("p", {{"p", target}});
  scorer.PreRequest(&r, &res);
}

dumpedLRUState dumpLRU(const NoHitLRU& scorer) {
  const auto payload = nlohmann::json::parse(scorer.DumpState());  // throws on invalid JSON
  dumpedLRUState s;
  s.endpointsNull = payload.at("endpoints").is_null();
  if (!s.endpointsNull) s.Endpoints = payload.at("endpoints").get<std::vector<std::string>>();
  s.TotalEndpoints = payload.at("totalEndpoints").get<int>();
  s.MaxEndpoints = payload.at("maxEndpoints").get<int>();
  return s;
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestDumpState
TEST(NoHitLRU, TestDumpState) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  seedCold(*scorer, newColdNS("pod-a"), "cold-a");
  seedCold(*scorer, newColdNS("pod-b"), "cold-b");
  const auto state = dumpLRU(*scorer);
  EXPECT_EQ(state.Endpoints, (std::vector<std::string>{"default/pod-a", "default/pod-b"}));
  EXPECT_EQ(state.TotalEndpoints, 2);
  EXPECT_EQ(state.MaxEndpoints, 100);
  EXPECT_LE(state.TotalEndpoints, state.MaxEndpoints);
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestDumpStateCaps
TEST(NoHitLRU, TestDumpStateCaps) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  const int total = 105;
  for (int i = 0; i < total; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "pod-%03d", i);
    seedCold(*scorer, newColdNS(name), name);
  }
  const auto state = dumpLRU(*scorer);
  EXPECT_GT(state.TotalEndpoints, state.MaxEndpoints);
  EXPECT_EQ(state.TotalEndpoints, total);
  ASSERT_EQ(static_cast<int>(state.Endpoints.size()), state.MaxEndpoints);
  EXPECT_EQ(state.Endpoints.front(), "default/pod-000");
  EXPECT_EQ(state.Endpoints.back(), "default/pod-099");
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru_test.go@71f4f099 TestDumpStateEmpty
TEST(NoHitLRU, TestDumpStateEmpty) {
  auto scorer = NewNoHitLRU(NoHitLRUType, nullptr);
  auto state = dumpLRU(*scorer);
  EXPECT_EQ(state.TotalEndpoints, 0);
  EXPECT_TRUE(state.Endpoints.empty());
  EXPECT_EQ(state.MaxEndpoints, 100);
  // Zero-value scorer: no LRU, must not fail (Go marshals its nil slice as null).
  const NoHitLRU zero;
  state = dumpLRU(zero);
  EXPECT_EQ(state.TotalEndpoints, 0);
  EXPECT_TRUE(state.Endpoints.empty());
  EXPECT_TRUE(state.endpointsNull);
}

}  // namespace
}  // namespace blis::router::nohitlru
