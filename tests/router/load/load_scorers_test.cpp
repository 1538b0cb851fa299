// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ transcription of pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware_test.go@71f4f099,
// scheduling/scorer/activerequest/active_request_test.go@71f4f099 and scheduling/scorer/tokenload/token_load_test.go@71f4f099.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h"
#include "router/epp/framework/plugins/scheduling/scorer/activerequest/active_request.h"
#include "router/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.h"
#include "router/epp/framework/plugins/scheduling/scorer/tokenload/token_load.h"
#include "tests/router/load/load_test_support.h"

namespace blis::router {
namespace {

using loadtest::NewStub;

fwksched::EndpointPtr endpointWithQueue(const std::string& name, int waiting) {
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{"", name};
  fwkdl::Metrics m;
  m.WaitingQueueSize = waiting;
  return fwksched::NewEndpoint(meta, m);
}

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware_test.go@71f4f099 TestLoadBasedScorer
TEST(LoadAwareScorer, LoadBasedScorer) {
  auto endpointA = endpointWithQueue("pod-a", 2);
  auto endpointB = endpointWithQueue("pod-b", 0);
  auto endpointC = endpointWithQueue("pod-c", 15);
  auto scorer = loadaware::NewLoadAware(10);
  const fwksched::ScoreMap got = scorer->Score(nullptr, {endpointA, endpointB, endpointC});
  const fwksched::ScoreMap want = {{endpointA, 0.4}, {endpointB, 0.5}, {endpointC, 0}};
  EXPECT_EQ(got, want);
}

// Original to BLIS: the factory's default threshold, its fallback for a non-positive one, and its error text.
TEST(LoadAwareScorer, Factory) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto p = std::dynamic_pointer_cast<loadaware::LoadAware>(loadaware::Factory("la", nullptr, handle));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->TypedName().Type, loadaware::LoadAwareType);
  EXPECT_EQ(p->TypedName().Name, "la");
  EXPECT_EQ(p->queueThreshold(), 128.0);
  const nlohmann::json neg = {{"threshold", -3}};
  EXPECT_EQ(std::dynamic_pointer_cast<loadaware::LoadAware>(loadaware::Factory("la", &neg, handle))->queueThreshold(),
            128.0);
  const nlohmann::json bad = {{"threshold", "x"}};
  try {
    loadaware::Factory("la", &bad, handle);
    ADD_FAILURE() << "string threshold accepted";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_STREQ(e.what(), "failed to parse the parameters of the 'load-aware-scorer' scorer - json: cannot unmarshal "
                           "string into Go struct field loadAwareParameters.threshold of type int");
  }
}

std::shared_ptr<loadtest::StubEndpoint> withLoad(const std::string& name, std::int64_t requests) {
  auto ep = NewStub(name, fwkdl::Metrics{});
  ep->Put(concurrency::InFlightLoadDataKey.String(), std::make_shared<concurrency::InFlightLoad>(0, requests));
  return ep;
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestActiveRequestScorer_Score
TEST(ActiveRequestScorer, Score) {
  struct Case {
    std::string name;
    std::vector<fwksched::EndpointPtr> endpoints;
    std::vector<double> want;
  };
  std::vector<Case> cases = {
      {"no load attribute set",
       {NewStub("pod-a", fwkdl::Metrics{}), NewStub("pod-b", fwkdl::Metrics{}), NewStub("pod-c", fwkdl::Metrics{})},
       {1.0, 1.0, 1.0}},
      {"all endpoints have different request counts", {withLoad("pod-a", 3), withLoad("pod-b", 0), withLoad("pod-c", 6)},
       {0.5, 1.0, 0.0}},
      {"some endpoints have load data", {withLoad("pod-a", 4), NewStub("pod-b", fwkdl::Metrics{}), withLoad("pod-c", 1)},
       {0.0, 1.0, 0.75}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto scorer = activerequest::NewActiveRequest(nullptr);
    const auto got = scorer->Score(nullptr, tc.endpoints);
    for (std::size_t i = 0; i < tc.endpoints.size(); ++i) {
      auto it = got.find(tc.endpoints[i]);
      ASSERT_NE(it, got.end());
      EXPECT_EQ(it->second, tc.want[i]);
    }
  }
}

std::int64_t inFlightRequests(const fwksched::Endpoint& endpoint) {
  auto load = std::dynamic_pointer_cast<concurrency::InFlightLoad>(endpoint.Get(concurrency::InFlightLoadDataKey.String()));
  if (!load) throw std::runtime_error("no InFlightLoad attribute");
  return load->Requests;
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestActiveRequestScorer_UsesInFlightLoadProducerLifecycle
TEST(ActiveRequestScorer, UsesInFlightLoadProducerLifecycle) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto producer = std::dynamic_pointer_cast<inflightload::InFlightLoadProducer>(inflightload::InFlightLoadProducerFactory(
      std::string(inflightload::InFlightLoadProducerType), nullptr, handle));
  ASSERT_NE(producer, nullptr);
  auto scorer = activerequest::NewActiveRequest(nullptr);

  auto podA = NewStub("pod-a", fwkdl::Metrics{});
  auto podB = NewStub("pod-b", fwkdl::Metrics{});
  std::vector<fwksched::EndpointPtr> endpoints{podA, podB};
  producer->Extract({inflightload::EventType::EventAddOrUpdate, podA});
  producer->Extract({inflightload::EventType::EventAddOrUpdate, podB});

  fwksched::InferenceRequest req;
  req.RequestID = "req-1";
  req.RequestSizeBytes = 4;
  auto result = std::make_shared<fwksched::SchedulingResult>();
  result->PrimaryProfileName = "default";
  result->ProfileResults["default"] = std::make_shared<fwksched::ProfileRunResult>();
  result->ProfileResults["default"]->TargetEndpoints = {podA};

  producer->PreRequest(&req, result.get());
  EXPECT_FALSE(producer->Produce(&req, endpoints).has_value());
  EXPECT_EQ(inFlightRequests(*podA), 1);
  EXPECT_EQ(inFlightRequests(*podB), 0);
  auto scores = scorer->Score(&req, endpoints);
  EXPECT_EQ(scores[podA], 0.0);
  EXPECT_EQ(scores[podB], 1.0);

  req.SchedulingResult = result;
  requestcontrol::Response end;
  end.EndOfStream = true;
  producer->ResponseBody(&req, &end, nullptr);
  EXPECT_FALSE(producer->Produce(&req, endpoints).has_value());
  EXPECT_EQ(inFlightRequests(*podA), 0);
  EXPECT_EQ(inFlightRequests(*podB), 0);
  scores = scorer->Score(&req, endpoints);
  EXPECT_EQ(scores[podA], 1.0);
  EXPECT_EQ(scores[podB], 1.0);
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestNewActiveRequestScorer_DeprecatedRequestTimeoutIgnored
TEST(ActiveRequestScorer, DeprecatedRequestTimeoutIgnored) {
  activerequest::Parameters params;
  params.RequestTimeout = "invalid";
  EXPECT_NE(activerequest::NewActiveRequest(&params), nullptr);
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestActiveRequestScorer_Consumes (the Required keys)
TEST(ActiveRequestScorer, Consumes) {
  const auto consumes = activerequest::NewActiveRequest(nullptr)->Consumes().Required;
  ASSERT_EQ(consumes.size(), 1u);
  EXPECT_EQ(consumes.begin()->first, concurrency::InFlightLoadDataKey);
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestActiveRequestScorer_TypedName
TEST(ActiveRequestScorer, TypedName) {
  EXPECT_EQ(activerequest::NewActiveRequest(nullptr)->TypedName().Type, activerequest::ActiveRequestType);
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestActiveRequestScorer_WithName
TEST(ActiveRequestScorer, WithName) {
  auto scorer = activerequest::NewActiveRequest(nullptr)->WithName("test-scorer");
  EXPECT_EQ(scorer->TypedName().Name, "test-scorer");
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestActiveRequest_IdleThresholdAndMaxBusyScore
TEST(ActiveRequestScorer, IdleThresholdAndMaxBusyScore) {
  {
    SCOPED_TRACE("binary mode: idleThreshold=0, maxBusyScore=0");
    activerequest::Parameters params;
    params.IdleThreshold = 0;
    params.MaxBusyScore = 0.0;
    auto scorer = activerequest::NewActiveRequest(&params);
    auto podA = NewStub("pod-a", fwkdl::Metrics{});
    auto podB = NewStub("pod-b", fwkdl::Metrics{});
    auto scores = scorer->Score(nullptr, {podA, podB});
    EXPECT_EQ(scores[podA], 1.0);
    EXPECT_EQ(scores[podB], 1.0);
    podA->Put(concurrency::InFlightLoadDataKey.String(), std::make_shared<concurrency::InFlightLoad>(0, 1));
    scores = scorer->Score(nullptr, {podA, podB});
    EXPECT_EQ(scores[podA], 0.0) << "Busy pod scores 0.0 in binary mode";
    EXPECT_EQ(scores[podB], 1.0) << "Idle pod scores 1.0";
  }
  {
    SCOPED_TRACE("hybrid mode: idleThreshold=1, maxBusyScore=0.5");
    activerequest::Parameters params;
    params.IdleThreshold = 1;
    params.MaxBusyScore = 0.5;
    auto scorer = activerequest::NewActiveRequest(&params);
    auto podA = withLoad("pod-a", 1);
    auto podB = withLoad("pod-b", 2);
    auto podC = NewStub("pod-c", fwkdl::Metrics{});
    auto scores = scorer->Score(nullptr, {podA, podB, podC});
    EXPECT_EQ(scores[podA], 1.0) << "Pod with 1 request is idle (threshold=1)";
    EXPECT_EQ(scores[podB], 0.0) << "Pod with 2 requests (busiest) scores 0.0";
    EXPECT_EQ(scores[podC], 1.0) << "Pod with 0 requests is idle";
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request_test.go@71f4f099 TestActiveRequest_DefaultParamsProduceContinuousScores
TEST(ActiveRequestScorer, DefaultParamsProduceContinuousScores) {
  activerequest::Parameters params;
  auto scorer = activerequest::NewActiveRequest(&params);
  auto podLight = withLoad("pod-light", 3);
  auto podHeavy = withLoad("pod-heavy", 11);
  auto scores = scorer->Score(nullptr, {podLight, podHeavy});
  EXPECT_NEAR(scores[podLight], 0.7272, 0.001) << "light pod must get a non-zero score when no parameters are configured";
  EXPECT_EQ(scores[podHeavy], 0.0);
}

// Original to BLIS: a busy, not busiest, endpoint scores (max - count) / max * maxBusyScore (upstream's tests
// only check scores of 0 and 1, which do not depend on maxBusyScore).
TEST(ActiveRequestScorer, BusyScoreScaledByMaxBusyScore) {
  activerequest::Parameters params;
  params.MaxBusyScore = 0.5;
  auto scorer = activerequest::NewActiveRequest(&params);
  auto podA = withLoad("pod-a", 1);
  auto podB = withLoad("pod-b", 3);
  auto scores = scorer->Score(nullptr, {podA, podB});
  EXPECT_EQ(scores[podA], 2.0 / 3.0 * 0.5);
  EXPECT_EQ(scores[podB], 0.0);
}

// Original to BLIS: the factory decodes maxBusyScore as a pointer (absent -> 1.0; out of range -> 1.0).
TEST(ActiveRequestScorer, FactoryMaxBusyScore) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto make = [&](const nlohmann::json& j) {
    return std::dynamic_pointer_cast<activerequest::ActiveRequest>(activerequest::Factory("ar", &j, handle));
  };
  EXPECT_EQ(make(nlohmann::json::object())->maxBusyScore(), 1.0);
  EXPECT_EQ(make({{"maxBusyScore", 0.0}})->maxBusyScore(), 0.0);
  EXPECT_EQ(make({{"maxBusyScore", 1.5}})->maxBusyScore(), 1.0);
  EXPECT_EQ(make({{"idleThreshold", 2}})->idleThreshold(), 2);
  EXPECT_EQ(make({{"idleThreshold", 2}})->TypedName().Name, "ar");
}

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load_test.go@71f4f099 TestTokenLoadScorer
TEST(TokenLoadScorer, TokenLoadScorer) {
  tokenload::TokenLoadScorer scorer;
  scorer.typedName = fwkplugin::TypedName{tokenload::TokenLoadScorerType, tokenload::TokenLoadScorerType};
  scorer.queueThresholdTokens = 1000.0;
  scorer.inFlightLoadDataKey = concurrency::InFlightLoadDataKey.WithNonEmptyProducerName("");
  scorer.uncachedRequestTokensDataKey = concurrency::UncachedRequestTokensDataKey.WithNonEmptyProducerName("");
  auto mk = [](const std::string& name) {
    fwkdl::EndpointMetadata meta;
    meta.ID = fwkdl::NamespacedName{"default", name};
    return fwksched::NewEndpoint(meta, fwkdl::Metrics{});
  };
  auto putLoad = [&](const fwksched::EndpointPtr& ep, std::int64_t tokens) {
    ep->Put(scorer.inFlightLoadDataKey.String(), std::make_shared<concurrency::InFlightLoad>(tokens, 0));
  };
  auto putUncached = [&](const fwksched::EndpointPtr& ep, std::int64_t tokens) {
    ep->Put(scorer.uncachedRequestTokensDataKey.String(), std::make_shared<concurrency::UncachedRequestTokens>(tokens));
  };
  fwksched::InferenceRequest req;
  {
    SCOPED_TRACE("in-flight load only");
    std::vector<fwksched::EndpointPtr> eps{mk("pod1"), mk("pod2"), mk("pod3")};
    putLoad(eps[1], 500);
    putLoad(eps[2], 1000);
    auto scores = scorer.Score(&req, eps);
    EXPECT_NEAR(scores[eps[0]], 1.0, 0.0001);
    EXPECT_NEAR(scores[eps[1]], 0.5, 0.0001);
    EXPECT_NEAR(scores[eps[2]], 0.0, 0.0001);
  }
  {
    SCOPED_TRACE("in-flight load plus current request impact");
    std::vector<fwksched::EndpointPtr> eps{mk("pod1"), mk("pod2"), mk("pod3")};
    putLoad(eps[0], 0);
    putUncached(eps[0], 250);
    putLoad(eps[1], 250);
    putUncached(eps[1], 250);
    putLoad(eps[2], 750);
    putUncached(eps[2], 250);
    auto scores = scorer.Score(&req, eps);
    EXPECT_NEAR(scores[eps[0]], 0.75, 0.0001);
    EXPECT_NEAR(scores[eps[1]], 0.5, 0.0001);
    EXPECT_NEAR(scores[eps[2]], 0.0, 0.0001);
  }
  {
    SCOPED_TRACE("missing data key degrades gracefully");
    std::vector<fwksched::EndpointPtr> eps{mk("pod-no-data")};
    EXPECT_EQ(scorer.Score(&req, eps)[eps[0]], 1.0);
  }
  {
    // Typed nil attribute: Go stores a nil *InFlightLoad; Attributes.Put ignores a nullptr here, so the
    // endpoint reads as having no attribute, with the same score.
    SCOPED_TRACE("typed nil attribute handles gracefully");
    std::vector<fwksched::EndpointPtr> eps{mk("pod-typed-nil")};
    eps[0]->Put(scorer.inFlightLoadDataKey.String(), std::shared_ptr<concurrency::InFlightLoad>());
    eps[0]->Put(scorer.uncachedRequestTokensDataKey.String(), std::shared_ptr<concurrency::UncachedRequestTokens>());
    EXPECT_EQ(scorer.Score(&req, eps)[eps[0]], 1.0);
  }
}

// Original to BLIS: the factory's default threshold, named producer keys, and error prefix.
TEST(TokenLoadScorer, Factory) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  const nlohmann::json params = {{"queueThresholdTokens", 0}, {"inFlightLoadProducerName", "ilp"}};
  auto s = std::dynamic_pointer_cast<tokenload::TokenLoadScorer>(tokenload::TokenLoadScorerFactory("tl", &params, handle));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->queueThresholdTokens, 4194304.0);
  EXPECT_EQ(s->inFlightLoadDataKey.String(), "InFlightLoadDataKey/ilp");
  EXPECT_EQ(s->uncachedRequestTokensDataKey.String(), "UncachedRequestTokensDataKey/ilp");
  const nlohmann::json bad = {{"queueThresholdTokens", 1.5}};
  try {
    tokenload::TokenLoadScorerFactory("tl", &bad, handle);
    ADD_FAILURE() << "fractional threshold accepted";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_STREQ(e.what(), "failed to unmarshal token load scorer config: json: cannot unmarshal number 1.5 into Go "
                           "struct field Config.queueThresholdTokens of type int64");
  }
}

}  // namespace
}  // namespace blis::router
