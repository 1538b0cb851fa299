// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ transcription of pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099
// against router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h (single-threaded:
// the concurrency and janitor tests are not applicable; see the report).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/cmd/epp/runner/token_producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h"
#include "tests/router/load/load_test_support.h"

namespace blis::router::inflightload {
namespace {

using loadtest::FullEndpointName;
using loadtest::NewStub;
using requestcontrol::Response;

// producer_test.go newTestProducer: the factory with {"addEstimatedOutputTokens": true}.
std::shared_ptr<InFlightLoadProducer> newTestProducer() {
  static loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  const nlohmann::json params = {{"addEstimatedOutputTokens", true}};
  auto p = std::dynamic_pointer_cast<InFlightLoadProducer>(
      InFlightLoadProducerFactory("inflight-load-producer", &params, handle));
  if (!p) throw std::runtime_error("factory did not return an InFlightLoadProducer");
  return p;
}

// producer_test.go makeSchedulingResult
std::shared_ptr<fwksched::SchedulingResult> makeSchedulingResult(const std::string& endpointName) {
  auto res = std::make_shared<fwksched::SchedulingResult>();
  res->PrimaryProfileName = "default";
  auto run = std::make_shared<fwksched::ProfileRunResult>();
  run->TargetEndpoints = {NewStub(endpointName)};
  res->ProfileResults["default"] = run;
  return res;
}

// A result with the given profiles, each targeting one endpoint.
std::shared_ptr<fwksched::SchedulingResult> makeResult(
    const std::string& primary, const std::vector<std::pair<std::string, fwksched::EndpointPtr>>& profiles) {
  auto res = std::make_shared<fwksched::SchedulingResult>();
  res->PrimaryProfileName = primary;
  for (const auto& [name, ep] : profiles) {
    auto run = std::make_shared<fwksched::ProfileRunResult>();
    run->TargetEndpoints = {ep};
    res->ProfileResults[name] = run;
  }
  return res;
}

// producer_test.go makeTokenRequest: a tokenized prompt of inputTokens token IDs.
std::shared_ptr<fwksched::InferenceRequest> makeTokenRequest(const std::string& requestID, int inputTokens) {
  auto req = std::make_shared<fwksched::InferenceRequest>();
  req->RequestID = requestID;
  req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
  fwkrh::TokenizedPrompt tp;
  tp.PerPromptTokens = {std::vector<std::uint32_t>(static_cast<std::size_t>(inputTokens))};
  req->Body->TokenizedPrompt = tp;
  return req;
}

Response chunk(bool start, bool end) {
  Response r;
  r.StartOfStream = start;
  r.EndOfStream = end;
  return r;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_Consumes
TEST(InFlightLoadProducer, Consumes) {
  const auto deps = newTestProducer()->Consumes();
  // TokenizedPrompt is required so the data-layer DAG auto-creates a token-producer and orders it ahead of this
  // producer.
  EXPECT_TRUE(deps.Required.count(tokenizer::TokenizedPromptDataKey()));
  // PrefixCacheMatchInfo is optional; with no prefixMatchInfoProducerName set, it is the approximate
  // producer's key.
  EXPECT_TRUE(deps.Optional.count(attrprefix::PrefixCacheMatchInfoDataKey));
  EXPECT_FALSE(deps.Required.count(attrprefix::PrefixCacheMatchInfoDataKey));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_PrefixMatchInfoProducerName
TEST(InFlightLoadProducer, PrefixMatchInfoProducerName) {
  const std::string preciseName = "precise-prefix-cache-producer";
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  const nlohmann::json params = {{"prefixMatchInfoProducerName", preciseName}};
  auto producer = std::dynamic_pointer_cast<InFlightLoadProducer>(
      InFlightLoadProducerFactory("inflight-load-producer", &params, handle));
  ASSERT_NE(producer, nullptr);
  const auto preciseKey = attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(preciseName);

  // The optional dependency points at the configured precise producer, not approx.
  EXPECT_TRUE(producer->Consumes().Optional.count(preciseKey));
  EXPECT_FALSE(producer->Consumes().Optional.count(attrprefix::PrefixCacheMatchInfoDataKey));

  auto hit = NewStub("ep-hit");
  hit->Put(preciseKey.String(), attrprefix::NewPrefixCacheMatchInfo(1, 2, 4));
  EXPECT_EQ(producer->estimateRequestTokens(hit.get(), nullptr, 5), 4);

  auto miss = NewStub("ep-miss");
  miss->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(1, 2, 4));
  EXPECT_EQ(producer->estimateRequestTokens(miss.get(), nullptr, 5), 5);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_Produce
TEST(InFlightLoadProducer, Produce) {
  auto producer = newTestProducer();
  auto endpoint = NewStub("test-endpoint");
  std::vector<fwksched::EndpointPtr> endpoints{endpoint};

  EXPECT_FALSE(producer->Produce(nullptr, endpoints).has_value());
  EXPECT_EQ(endpoint->Get(producer->uncachedRequestTokensDk.String()), nullptr);

  auto req = makeTokenRequest("req1", 4);  // 4 input tokens -> 10 total (with output)
  EXPECT_FALSE(producer->Produce(req.get(), endpoints).has_value());
  auto uncached = std::dynamic_pointer_cast<concurrency::UncachedRequestTokens>(
      endpoint->Get(producer->uncachedRequestTokensDk.String()));
  ASSERT_NE(uncached, nullptr);
  EXPECT_EQ(uncached->Tokens, 10);
  EXPECT_EQ(endpoint->Get(producer->dk.String()), nullptr) << "InFlightLoad should not be populated by Produce";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_Extract
TEST(InFlightLoadProducer, Extract) {
  auto producer = newTestProducer();
  const std::string endpointID = FullEndpointName("test-endpoint");
  auto endpoint = NewStub("test-endpoint");
  producer->Extract(EndpointEvent{EventType::EventAddOrUpdate, endpoint});

  const std::string key = producer->dk.String();
  auto load = std::dynamic_pointer_cast<concurrency::InFlightLoad>(endpoint->Get(key));
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->Requests, 0);
  EXPECT_EQ(load->Tokens, 0);

  producer->requestTracker.add(endpointID, 5);
  producer->tokenTracker.add(endpointID, 500);
  auto load2 = std::dynamic_pointer_cast<concurrency::InFlightLoad>(endpoint->Get(key));
  ASSERT_NE(load2, nullptr);
  EXPECT_EQ(load2->Requests, 5);
  EXPECT_EQ(load2->Tokens, 500);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_Lifecycle
TEST(InFlightLoadProducer, Lifecycle) {
  auto producer = newTestProducer();
  const std::string endpointID = FullEndpointName("lifecycle-endpoint");
  auto req = makeTokenRequest("req1", 4);  // 4 input + 6 output = 10 tokens
  auto res = makeSchedulingResult("lifecycle-endpoint");
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 10);

  req->SchedulingResult = res;
  Response end = chunk(false, true);
  producer->ResponseBody(req.get(), &end, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_MultiPodLifecycle
TEST(InFlightLoadProducer, MultiPodLifecycle) {
  auto producer = newTestProducer();
  const std::string idA = FullEndpointName("pod-a");
  const std::string idB = FullEndpointName("pod-b");
  auto req = makeTokenRequest("multi-req", 4);
  auto res = makeResult("prefill", {{"prefill", NewStub("pod-a")}, {"decode", NewStub("pod-b")}});
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(idA), 1);
  EXPECT_EQ(producer->requestTracker.get(idB), 1);

  req->SchedulingResult = res;
  Response first = chunk(true, false);
  producer->ResponseBody(req.get(), &first, nullptr);
  EXPECT_EQ(producer->requestTracker.get(idA), 0) << "PodA should be released after first chunk";
  EXPECT_EQ(producer->requestTracker.get(idB), 1) << "PodB should still be busy";

  Response last = chunk(false, true);
  producer->ResponseBody(req.get(), &last, nullptr);
  EXPECT_EQ(producer->requestTracker.get(idA), 0);
  EXPECT_EQ(producer->requestTracker.get(idB), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_NotificationCleanup
TEST(InFlightLoadProducer, NotificationCleanup) {
  auto producer = newTestProducer();
  const std::string endpointID = FullEndpointName("deleted-endpoint");
  producer->requestTracker.add(endpointID, 10);
  producer->tokenTracker.add(endpointID, 1000);
  producer->Extract(EndpointEvent{EventType::EventDelete, NewStub("deleted-endpoint")});
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_DumpState
TEST(InFlightLoadProducer, DumpState) {
  InFlightLoadProducer producer;
  const std::string podA = FullEndpointName("pod-a");
  const std::string podB = FullEndpointName("pod-b");
  producer.requestTracker.add(podB, 2);
  producer.tokenTracker.add(podA, 10);
  producer.tokenTracker.add(podB, 20);

  const auto state = nlohmann::json::parse(producer.DumpState());
  const nlohmann::json want = {
      {"endpoints",
       {{{"endpoint", podB}, {"requests", 2}, {"tokens", 20}}, {{"endpoint", podA}, {"requests", 0}, {"tokens", 10}}}},
      {"totalEndpoints", 2},
      {"maxEndpoints", maxDebugDumpEndpoints},
      {"truncated", false}};
  EXPECT_EQ(state, want);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_DumpStateCapsEndpoints
TEST(InFlightLoadProducer, DumpStateCapsEndpoints) {
  InFlightLoadProducer producer;
  for (int i = 0; i < maxDebugDumpEndpoints + 5; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "pod-%03d", i);
    producer.requestTracker.add(FullEndpointName(name), i);
  }
  const auto state = nlohmann::json::parse(producer.DumpState());
  EXPECT_TRUE(state["truncated"].get<bool>());
  EXPECT_EQ(state["totalEndpoints"].get<int>(), maxDebugDumpEndpoints + 5);
  EXPECT_EQ(state["maxEndpoints"].get<int>(), maxDebugDumpEndpoints);
  ASSERT_EQ(state["endpoints"].size(), static_cast<std::size_t>(maxDebugDumpEndpoints));
  EXPECT_EQ(state["endpoints"][0]["endpoint"].get<std::string>(), FullEndpointName("pod-104"));
  EXPECT_EQ(state["endpoints"][0]["requests"].get<std::int64_t>(), 104);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_FlapDoesNotUnderflow (its three cases)
TEST(InFlightLoadProducer, FlapDoesNotUnderflow) {
  struct Case {
    std::string name;
    bool addEstimatedOutputTokens;
    Response release;
    bool readTokens;
    int inputA, inputB;
    std::int64_t liveAfterA, liveAfterB, liveAfterReleaseA;
  };
  const std::vector<Case> cases = {
      {"request counter, EndOfStream eviction", false, chunk(false, true), false, 4, 4, 1, 1, 1},
      {"token counter, EndOfStream eviction", true, chunk(false, true), true, 4, 4, 10, 10, 10},
      {"token counter, StartOfStream early release", false, chunk(true, false), true, 4, 6, 4, 6, 6},
  };
  const std::string endpointName = "flap-endpoint";
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto producer = newTestProducer();
    producer->addEstimatedOutputTokens = tc.addEstimatedOutputTokens;
    const std::string endpointID = FullEndpointName(endpointName);
    auto read = [&] {
      return tc.readTokens ? producer->tokenTracker.get(endpointID) : producer->requestTracker.get(endpointID);
    };

    auto epA = NewStub(endpointName);
    producer->Extract(EndpointEvent{EventType::EventAddOrUpdate, epA});
    auto reqA = makeTokenRequest("req-A", tc.inputA);
    auto resA = makeSchedulingResult(endpointName);
    producer->PreRequest(reqA.get(), resA.get());
    EXPECT_EQ(read(), tc.liveAfterA);

    producer->Extract(EndpointEvent{EventType::EventDelete, epA});
    EXPECT_EQ(read(), 0) << "counter dropped on delete";
    auto epB = NewStub(endpointName);
    producer->Extract(EndpointEvent{EventType::EventAddOrUpdate, epB});
    auto reqB = makeTokenRequest("req-B", tc.inputB);
    auto resB = makeSchedulingResult(endpointName);
    producer->PreRequest(reqB.get(), resB.get());
    EXPECT_EQ(read(), tc.liveAfterB) << "B recreated the counter";

    reqA->SchedulingResult = resA;
    Response relA = tc.release;
    producer->ResponseBody(reqA.get(), &relA, nullptr);
    EXPECT_EQ(read(), tc.liveAfterReleaseA) << "A's release must not discount B's live counter";

    reqB->SchedulingResult = resB;
    Response relB = tc.release;
    producer->ResponseBody(reqB.get(), &relB, nullptr);
    EXPECT_EQ(read(), 0) << "counter must settle at 0, never negative";
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_CrashWithHighLoadDoesNotUnderflow
TEST(InFlightLoadProducer, CrashWithHighLoadDoesNotUnderflow) {
  auto producer = newTestProducer();
  const std::string endpointName = "crash-endpoint";
  const std::string endpointID = FullEndpointName(endpointName);
  const int inFlight = 8;

  auto epCrashed = NewStub(endpointName);
  producer->Extract(EndpointEvent{EventType::EventAddOrUpdate, epCrashed});
  std::vector<std::shared_ptr<fwksched::InferenceRequest>> reqs;
  std::vector<std::shared_ptr<fwksched::SchedulingResult>> results;
  for (int i = 0; i < inFlight; ++i) {
    reqs.push_back(makeTokenRequest("crash-req-" + std::to_string(i), 4));
    results.push_back(makeSchedulingResult(endpointName));
    producer->PreRequest(reqs.back().get(), results.back().get());
  }
  EXPECT_EQ(producer->requestTracker.get(endpointID), inFlight);

  producer->Extract(EndpointEvent{EventType::EventDelete, epCrashed});
  auto epNew = NewStub(endpointName);
  producer->Extract(EndpointEvent{EventType::EventAddOrUpdate, epNew});
  auto reqNew = makeTokenRequest("post-crash-req", 4);
  auto resNew = makeSchedulingResult(endpointName);
  producer->PreRequest(reqNew.get(), resNew.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);

  for (int i = 0; i < inFlight; ++i) {
    reqs[i]->SchedulingResult = results[i];
    Response end = chunk(false, true);
    producer->ResponseBody(reqs[i].get(), &end, nullptr);
    EXPECT_EQ(producer->requestTracker.get(endpointID), 1)
        << "crashed request's release must hit the orphan, not the live counter";
  }
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);

  reqNew->SchedulingResult = resNew;
  Response end = chunk(false, true);
  producer->ResponseBody(reqNew.get(), &end, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_StaleDeleteIgnored
TEST(InFlightLoadProducer, StaleDeleteIgnored) {
  auto producer = newTestProducer();
  const std::string endpointName = "stale-delete-endpoint";
  const std::string endpointID = FullEndpointName(endpointName);
  auto current = NewStub(endpointName);
  producer->Extract(EndpointEvent{EventType::EventAddOrUpdate, current});
  producer->requestTracker.add(endpointID, 3);

  auto stale = NewStub(endpointName);
  producer->Extract(EndpointEvent{EventType::EventDelete, stale});
  EXPECT_EQ(producer->requestTracker.get(endpointID), 3)
      << "stale delete for a replaced endpoint must not drop the live counter";

  producer->Extract(EndpointEvent{EventType::EventDelete, current});
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_ConcurrencyStress, run sequentially (the port is
// single-threaded): 50 x 100 PreRequest/EndOfStream pairs leave no drift.
TEST(InFlightLoadProducer, ConcurrencyStressSequential) {
  auto producer = newTestProducer();
  const std::string endpointName = "stress-endpoint";
  const std::string endpointID = FullEndpointName(endpointName);
  for (int g = 0; g < 50; ++g) {
    for (int j = 0; j < 100; ++j) {
      auto res = makeSchedulingResult(endpointName);
      fwksched::InferenceRequest req;
      req.RequestID = "req-" + std::to_string(g) + "-" + std::to_string(j);
      req.SchedulingResult = res;
      producer->PreRequest(&req, res.get());
      Response end = chunk(false, true);
      producer->ResponseBody(&req, &end, nullptr);
    }
  }
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0) << "request count drift detected";
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0) << "token count drift detected";
  EXPECT_EQ(producer->PluginState.Size(), 0u);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_ExcludeOutputTokens_StartOfStreamRelease
TEST(InFlightLoadProducer, ExcludeOutputTokens_StartOfStreamRelease) {
  auto producer = newTestProducer();
  producer->addEstimatedOutputTokens = false;
  const std::string endpointID = FullEndpointName("exclude-output-endpoint");
  auto req = makeTokenRequest("req-no-output", 4);
  auto res = makeSchedulingResult("exclude-output-endpoint");
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 4) << "only input tokens should be tracked";

  req->SchedulingResult = res;
  Response first = chunk(true, false);
  producer->ResponseBody(req.get(), &first, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1) << "request counter should still be held";
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0) << "tokens should be released at StartOfStream";

  Response last = chunk(false, true);
  producer->ResponseBody(req.get(), &last, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_ExcludeOutputTokens_PrefillReleasedAtStartOfStream
TEST(InFlightLoadProducer, ExcludeOutputTokens_PrefillReleasedAtStartOfStream) {
  auto producer = newTestProducer();
  producer->addEstimatedOutputTokens = false;
  const std::string prefillID = FullEndpointName("prefill-endpoint");
  const std::string decodeID = FullEndpointName("decode-endpoint");
  auto req = makeTokenRequest("req-pd-no-output", 4);
  auto res = makeResult("decode", {{"prefill", NewStub("prefill-endpoint")}, {"decode", NewStub("decode-endpoint")}});
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(prefillID), 1);
  EXPECT_EQ(producer->requestTracker.get(decodeID), 1);
  EXPECT_EQ(producer->tokenTracker.get(prefillID), 4);
  EXPECT_EQ(producer->tokenTracker.get(decodeID), 4);

  req->SchedulingResult = res;
  Response first = chunk(true, false);
  producer->ResponseBody(req.get(), &first, nullptr);
  EXPECT_EQ(producer->requestTracker.get(prefillID), 0) << "prefill request should be released at StartOfStream";
  EXPECT_EQ(producer->tokenTracker.get(prefillID), 0);
  EXPECT_EQ(producer->requestTracker.get(decodeID), 1) << "decode request should still be held";
  EXPECT_EQ(producer->tokenTracker.get(decodeID), 0) << "decode tokens should be released at StartOfStream";

  Response last = chunk(false, true);
  producer->ResponseBody(req.get(), &last, nullptr);
  EXPECT_EQ(producer->requestTracker.get(decodeID), 0);
  EXPECT_EQ(producer->tokenTracker.get(decodeID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_ExcludeOutputTokens_SingleChunk
TEST(InFlightLoadProducer, ExcludeOutputTokens_SingleChunk) {
  auto producer = newTestProducer();
  producer->addEstimatedOutputTokens = false;
  const std::string endpointID = FullEndpointName("single-chunk-endpoint");
  auto req = makeTokenRequest("req-single", 4);
  auto res = makeSchedulingResult("single-chunk-endpoint");
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 4);

  req->SchedulingResult = res;
  Response both = chunk(true, true);
  producer->ResponseBody(req.get(), &both, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_PrefixCacheDiscount
TEST(InFlightLoadProducer, PrefixCacheDiscount) {
  auto producer = newTestProducer();
  const std::string endpointID = FullEndpointName("prefix-cache-endpoint");
  // 8 input tokens, output 12; block 4, total 2 blocks, matched 1: uncached input 4, total 16.
  auto endpoint = NewStub("prefix-cache-endpoint");
  endpoint->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(1, 2, 4));
  auto req = makeTokenRequest("req-prefix", 8);
  auto res = makeResult("default", {{"default", endpoint}});
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 16) << "only uncached input (4) plus output (12) should be tracked";

  req->SchedulingResult = res;
  Response end = chunk(false, true);
  producer->ResponseBody(req.get(), &end, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0)
      << "release should subtract the same discounted amount that was added";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_PrefixCacheDiscount_PerEndpoint
TEST(InFlightLoadProducer, PrefixCacheDiscount_PerEndpoint) {
  auto producer = newTestProducer();
  const std::string idA = FullEndpointName("pod-a-cached");
  const std::string idB = FullEndpointName("pod-b-uncached");
  auto epA = NewStub("pod-a-cached");
  epA->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(2, 2, 4));
  auto epB = NewStub("pod-b-uncached");
  epB->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(0, 2, 4));
  auto req = makeTokenRequest("req-multi-cache", 8);
  auto res = makeResult("prefill", {{"prefill", epA}, {"decode", epB}});
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->tokenTracker.get(idA), 0 + 12) << "fully cached: only output tokens";
  EXPECT_EQ(producer->tokenTracker.get(idB), 8 + 12) << "uncached: input + output";

  req->SchedulingResult = res;
  Response first = chunk(true, false);
  producer->ResponseBody(req.get(), &first, nullptr);
  Response last = chunk(false, true);
  producer->ResponseBody(req.get(), &last, nullptr);
  EXPECT_EQ(producer->tokenTracker.get(idA), 0);
  EXPECT_EQ(producer->tokenTracker.get(idB), 0);
  EXPECT_EQ(producer->requestTracker.get(idA), 0);
  EXPECT_EQ(producer->requestTracker.get(idB), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_BalancedAddRelease_MultipleProfilesSameEndpoint
TEST(InFlightLoadProducer, BalancedAddRelease_MultipleProfilesSameEndpoint) {
  auto producer = newTestProducer();
  const std::string endpointName = "shared-endpoint";
  const std::string endpointID = FullEndpointName(endpointName);
  auto req = makeTokenRequest("req-shared", 4);
  auto res = makeResult("prefill", {{"prefill", NewStub(endpointName)}, {"decode", NewStub(endpointName)}});
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 2);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 20);

  req->SchedulingResult = res;
  Response first = chunk(true, false);
  producer->ResponseBody(req.get(), &first, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 10);

  Response last = chunk(false, true);
  producer->ResponseBody(req.get(), &last, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0) << "counters must return to zero with no drift across profiles";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_ExcludeOutputTokens_EndOfStreamWithoutStart
TEST(InFlightLoadProducer, ExcludeOutputTokens_EndOfStreamWithoutStart) {
  auto producer = newTestProducer();
  producer->addEstimatedOutputTokens = false;
  const std::string endpointID = FullEndpointName("no-start-endpoint");
  auto req = makeTokenRequest("req-no-start", 4);
  auto res = makeResult("default", {{"default", NewStub("no-start-endpoint")}});
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 4);

  req->SchedulingResult = res;
  Response end = chunk(false, true);
  producer->ResponseBody(req.get(), &end, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0)
      << "tokens must be released on EndOfStream even if StartOfStream was never seen";
  EXPECT_EQ(producer->PluginState.Read(req->RequestID, addedTokensKey(endpointID, "default")), nullptr)
      << "PluginState entry must be released";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_Eviction
TEST(InFlightLoadProducer, Eviction) {
  auto producer = newTestProducer();
  const std::string endpointID = FullEndpointName("eviction-endpoint");
  auto req = makeTokenRequest("req-eviction", 4);
  auto res = makeSchedulingResult("eviction-endpoint");
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 10);

  producer->PluginState.Delete(req->RequestID);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0) << "request counter should have rolled back via Eviction";
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0) << "token counter should have rolled back via Eviction";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_LateResponseAfterReap
TEST(InFlightLoadProducer, LateResponseAfterReap) {
  auto producer = newTestProducer();
  const std::string endpointID = FullEndpointName("late-endpoint");
  auto req = makeTokenRequest("req-late", 4);
  auto res = makeSchedulingResult("late-endpoint");
  producer->PreRequest(req.get(), res.get());
  EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 10);

  producer->PluginState.Delete(req->RequestID);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0) << "counters should be 0 after reap";

  req->SchedulingResult = res;
  Response end = chunk(false, true);
  producer->ResponseBody(req.get(), &end, nullptr);
  EXPECT_EQ(producer->requestTracker.get(endpointID), 0) << "counters should NOT go negative";
  EXPECT_EQ(producer->tokenTracker.get(endpointID), 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_AtomicTokenRelease_Concurrent, in both sequential orders
// (the port is single-threaded): releaseTokensEarly and Delete together release exactly once.
TEST(InFlightLoadProducer, AtomicTokenRelease_BothOrders) {
  for (bool releaseFirst : {true, false}) {
    SCOPED_TRACE(releaseFirst ? "releaseTokensEarly first" : "Delete first");
    auto producer = newTestProducer();
    const std::string endpointID = FullEndpointName("race-endpoint");
    auto req = makeTokenRequest("req-race", 4);
    auto res = makeSchedulingResult("race-endpoint");
    producer->PreRequest(req.get(), res.get());
    EXPECT_EQ(producer->tokenTracker.get(endpointID), 10);
    const auto& target = res->ProfileResults["default"]->TargetEndpoints[0];
    if (releaseFirst) {
      producer->releaseTokensEarly(target, req.get(), "default");
      EXPECT_EQ(producer->tokenTracker.get(endpointID), 0);
      EXPECT_EQ(producer->requestTracker.get(endpointID), 1);
      producer->PluginState.Delete(req->RequestID);
    } else {
      producer->PluginState.Delete(req->RequestID);
      producer->releaseTokensEarly(target, req.get(), "default");
    }
    EXPECT_EQ(producer->tokenTracker.get(endpointID), 0);
    EXPECT_EQ(producer->requestTracker.get(endpointID), 0);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestUncachedInputTokens_Overestimate
TEST(InFlightLoadProducer, UncachedInputTokens_Overestimate) {
  auto endpoint = NewStub("test-ep");
  endpoint->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(1, 2, 4));
  EXPECT_EQ(uncachedInputTokens(endpoint.get(), 5, attrprefix::PrefixCacheMatchInfoDataKey.String()), 4)
      << "should trust the prefix cache's uncached count (indexed-matched) over the smaller estimate";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducer_PanicSafety (Factory_NilHandle is not applicable: the
// handle is a reference)
TEST(InFlightLoadProducer, PanicSafety) {
  auto producer = newTestProducer();
  auto nilMeta = std::make_shared<loadtest::StubEndpoint>();  // metadata absent

  // ExtractEndpoint
  EXPECT_NO_THROW(producer->Extract(EndpointEvent{EventType::EventDelete, nullptr}));
  EXPECT_NO_THROW(producer->Extract(EndpointEvent{EventType::EventDelete, nilMeta}));

  // Produce
  EXPECT_NO_THROW(producer->Produce(nullptr, {}));
  EXPECT_NO_THROW(producer->Produce(nullptr, {nullptr}));
  EXPECT_NO_THROW(producer->Produce(nullptr, {nilMeta}));

  // PreRequest
  EXPECT_NO_THROW(producer->PreRequest(nullptr, nullptr));
  auto res = makeResult("", {{"default", NewStub("ep1")}});
  EXPECT_NO_THROW(producer->PreRequest(nullptr, res.get()));
  EXPECT_EQ(producer->requestTracker.get(FullEndpointName("ep1")), 0) << "should not increment counters without request";
  fwksched::SchedulingResult resEmpty;
  fwksched::InferenceRequest empty;
  EXPECT_NO_THROW(producer->PreRequest(&empty, &resEmpty));
  fwksched::SchedulingResult resNilProfile;
  resNilProfile.ProfileResults["default"] = nullptr;
  fwksched::InferenceRequest req1;
  req1.RequestID = "req1";
  EXPECT_NO_THROW(producer->PreRequest(&req1, &resNilProfile));
  fwksched::SchedulingResult resEmptyEndpoints;
  resEmptyEndpoints.ProfileResults["default"] = std::make_shared<fwksched::ProfileRunResult>();
  EXPECT_NO_THROW(producer->PreRequest(&req1, &resEmptyEndpoints));
  auto resNilEndpoint = makeResult("", {{"default", nullptr}});
  EXPECT_NO_THROW(producer->PreRequest(&req1, resNilEndpoint.get()));
  auto resNilMeta = makeResult("", {{"default", nilMeta}});
  EXPECT_NO_THROW(producer->PreRequest(&req1, resNilMeta.get()));
  auto resLeak = makeResult("", {{"default", NewStub("ep-leak")}});
  fwksched::InferenceRequest noID;
  EXPECT_NO_THROW(producer->PreRequest(&noID, resLeak.get()));
  EXPECT_EQ(producer->requestTracker.get(FullEndpointName("ep-leak")), 0)
      << "should not increment counters with empty RequestID";

  // ResponseBody
  Response blank;
  EXPECT_NO_THROW(producer->ResponseBody(nullptr, nullptr, nullptr));
  EXPECT_NO_THROW(producer->ResponseBody(&empty, nullptr, nullptr));
  EXPECT_NO_THROW(producer->ResponseBody(nullptr, &blank, nullptr));
  fwksched::InferenceRequest reqNoRes;
  EXPECT_NO_THROW(producer->ResponseBody(&reqNoRes, &blank, nullptr));
  Response end = chunk(false, true);
  fwksched::InferenceRequest reqNilProfile;
  reqNilProfile.SchedulingResult = std::make_shared<fwksched::SchedulingResult>(resNilProfile);
  EXPECT_NO_THROW(producer->ResponseBody(&reqNilProfile, &end, nullptr));
  fwksched::InferenceRequest reqNilEndpoint;
  reqNilEndpoint.SchedulingResult = resNilEndpoint;
  EXPECT_NO_THROW(producer->ResponseBody(&reqNilEndpoint, &end, nullptr));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducerFactory_OutputRatio
TEST(InFlightLoadProducerFactory, OutputRatio) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto make = [&](const nlohmann::json& params) {
    return std::dynamic_pointer_cast<InFlightLoadProducer>(
        InFlightLoadProducerFactory("inflight-load-producer", &params, handle));
  };
  // default when unset
  EXPECT_EQ(make({{"addEstimatedOutputTokens", true}})->tokenEstimator->EstimateOutput(10, std::nullopt), 15);
  // custom ratio applied
  EXPECT_EQ(make({{"addEstimatedOutputTokens", true}, {"outputRatio", 2.0}})->tokenEstimator->EstimateOutput(10, std::nullopt),
            20);
  // zero ratio is valid
  EXPECT_EQ(make({{"addEstimatedOutputTokens", true}, {"outputRatio", 0.0}})->tokenEstimator->EstimateOutput(10, std::nullopt),
            0);
  // negative ratio rejected
  try {
    make({{"addEstimatedOutputTokens", true}, {"outputRatio", -1.0}});
    ADD_FAILURE() << "negative outputRatio accepted";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_STREQ(e.what(), "outputRatio must be non-negative, got -1");
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099 TestInFlightLoadProducerFactory_MaxEstimatedOutputTokens
TEST(InFlightLoadProducerFactory, MaxEstimatedOutputTokens) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto make = [&](const nlohmann::json& params) {
    return std::dynamic_pointer_cast<InFlightLoadProducer>(
        InFlightLoadProducerFactory("inflight-load-producer", &params, handle));
  };
  // operator cap bounds the estimate: 100 * 1.5 = 150, capped to 40
  EXPECT_EQ(make({{"addEstimatedOutputTokens", true}, {"maxEstimatedOutputTokens", 40}})
                ->tokenEstimator->EstimateOutput(100, std::nullopt),
            40);
  // estimate below cap is unaffected
  EXPECT_EQ(make({{"addEstimatedOutputTokens", true}, {"maxEstimatedOutputTokens", 1000}})
                ->tokenEstimator->EstimateOutput(100, std::nullopt),
            150);
  // negative cap rejected
  try {
    make({{"addEstimatedOutputTokens", true}, {"maxEstimatedOutputTokens", -1}});
    ADD_FAILURE() << "negative maxEstimatedOutputTokens accepted";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_STREQ(e.what(), "maxEstimatedOutputTokens must be non-negative, got -1");
  }
}

// Original to BLIS: the factory refuses unknown parameters with encoding/json's text behind upstream's prefix.
TEST(InFlightLoadProducerFactory, RefusesUnknownField) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  const nlohmann::json params = {{"bogus", 1}};
  try {
    InFlightLoadProducerFactory("p", &params, handle);
    ADD_FAILURE() << "unknown field accepted";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_STREQ(e.what(), "failed to decode inflight-load-producer parameters: json: unknown field \"bogus\"");
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/metrics_test.go@71f4f099 TestAddedTokensEntry_Clone
// Go's nil receiver (nilEntry.Clone() is nil) is not modelled: an entry is a value. The metric label fields
// (endpointName, namespace, producerName, fairnessID, priority) are not ported (no metrics); the counts and the
// shared counter instances are.
TEST(AddedTokensEntry, Clone) {
  addedTokensEntry entry;
  entry.tokenCounter = std::make_shared<std::int64_t>(0);
  entry.requestCounter = std::make_shared<std::int64_t>(0);
  entry.tokens = 15;
  entry.requests = 1;

  const std::shared_ptr<addedTokensEntry> cloned = entry.Clone();
  ASSERT_NE(cloned, nullptr);
  EXPECT_NE(cloned.get(), &entry);
  EXPECT_EQ(cloned->tokens, std::int64_t{15});
  EXPECT_EQ(cloned->requests, std::int32_t{1});
  // BLIS: the clone rolls back the same counter instances the entry incremented.
  EXPECT_EQ(cloned->tokenCounter, entry.tokenCounter);
  EXPECT_EQ(cloned->requestCounter, entry.requestCounter);
}

}  // namespace
}  // namespace blis::router::inflightload
