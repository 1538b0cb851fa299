// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity_test.go@71f4f099 and
// session_id_header_test.go@71f4f099 against the C++ port.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.h"
#include "tests/router/session/response_header_cases.h"
#include "tests/router/session/test_support.h"

namespace blis::router::sessionaffinity {
namespace {

using sessiontest::newTestEndpoint;

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity_test.go@71f4f099 TestSessionAffinity_Score
TEST(SessionAffinityScorer, Score) {
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  const std::vector<fwksched::EndpointPtr> inputEndpoints = {endpointA, endpointB};
  const std::string validSessionTokenForEndpointB = "L3BvZC1i";  // base64 of "/pod-b"
  auto sessionAffinityScorer = NewSessionAffinity("test-scorer", "", "");
  auto customHeaderScorer = NewSessionAffinity("test-scorer", "x-custom-session", "");

  struct Case {
    std::string name;
    std::shared_ptr<SessionAffinity> scorer;
    std::map<std::string, std::string> headers;
    std::vector<fwksched::EndpointPtr> input;
    fwksched::ScoreMap wantScores;
  };
  const std::vector<Case> tests = {
      {"selects correct endpoint : endpointB", sessionAffinityScorer,
       {{"x-session-token", validSessionTokenForEndpointB}}, inputEndpoints, {{endpointA, 0.0}, {endpointB, 1.0}}},
      {"custom header selects endpointB", customHeaderScorer, {{"x-custom-session", validSessionTokenForEndpointB}},
       inputEndpoints, {{endpointA, 0.0}, {endpointB, 1.0}}},
      {"custom header ignores default header", customHeaderScorer,
       {{"x-session-token", validSessionTokenForEndpointB}}, inputEndpoints, {{endpointA, 0.0}, {endpointB, 0.0}}},
      {"no session token", sessionAffinityScorer, {}, inputEndpoints, {{endpointA, 0.0}, {endpointB, 0.0}}},
      {"invalid session token", sessionAffinityScorer, {{"x-session-token", "garbage-token"}}, inputEndpoints,
       {{endpointA, 0.0}, {endpointB, 0.0}}},
      {"no endpoints available", sessionAffinityScorer, {}, {}, {}},
  };
  for (const auto& test : tests) {
    SCOPED_TRACE(test.name);
    fwksched::InferenceRequest req;
    req.Headers = test.headers;
    EXPECT_EQ(test.scorer->Score(&req, test.input), test.wantScores);
  }
  EXPECT_EQ(sessionAffinityScorer->Category(), fwksched::Affinity);
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity_test.go@71f4f099 TestSessionAffinity_ResponseHeader
TEST(SessionAffinityScorer, ResponseHeader) {
  const fwkdl::EndpointMetadata targetEndpoint = sessiontest::responseHeaderTarget();
  for (auto test : sessiontest::responseHeaderCases()) {
    SCOPED_TRACE(test.name);
    auto s = NewSessionAffinity("test-scorer", test.sessionHeader, test.profileName);
    s->ResponseHeader(test.request ? &*test.request : nullptr, test.initialResponse ? &*test.initialResponse : nullptr,
                      test.withTargetPod ? &targetEndpoint : nullptr);
    if (!test.initialResponse) continue;
    EXPECT_EQ(test.initialResponse->Headers, test.wantHeaders);
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity_test.go@71f4f099 TestSessionAffinity_FactoryValidation
TEST(SessionAffinityScorer, FactoryValidation) {
  sessiontest::TestHandle handle;
  for (const auto& test : sessiontest::factoryValidationCases()) {
    SCOPED_TRACE(test.name);
    nlohmann::json raw;
    if (!test.params.empty()) raw = nlohmann::json::parse(test.params);
    try {
      auto p = Factory("test", test.params.empty() ? nullptr : &raw, handle.handle);
      EXPECT_FALSE(test.expectErr) << "expected error, got a plugin";
      ASSERT_NE(p, nullptr) << "expected a plugin instance";
      EXPECT_EQ(p->TypedName().Type, SessionAffinityType);
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_TRUE(test.expectErr) << "unexpected error: " << e.what();
    }
  }
}

// Original to BLIS: the factory's error texts.
TEST(SessionAffinityScorer, FactoryErrorTexts) {
  sessiontest::TestHandle handle;
  for (const auto& test : sessiontest::factoryErrorTextCases(SessionAffinityType, "scorer")) {
    SCOPED_TRACE(test.params);
    const nlohmann::json raw = nlohmann::json::parse(test.params);
    try {
      Factory("test", &raw, handle.handle);
      ADD_FAILURE() << "expected an error";
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_EQ(std::string(e.what()), test.want);
    }
  }
}

// ---- session_id_header_test.go ----

std::unique_ptr<sessionIDHeaderStrategy> newTestScorerStrategy(sessiontest::TestHandle& h) {
  parameters p;
  p.Strategy = StrategySessionID;
  p.SessionIDConfig.Sources = {sessionutil::SessionIDSource{sessionutil::DefaultHeader, ""}};
  p.SessionIDConfig.EvictionTTLSeconds = 300;
  p.SessionIDConfig.EvictionSweepSeconds = 10;
  auto built = newSessionIDHeaderStrategy(p, h.handle);
  return std::unique_ptr<sessionIDHeaderStrategy>(static_cast<sessionIDHeaderStrategy*>(built.release()));
}

fwksched::InferenceRequest scorerRequest(const std::string& sessionID) {
  return sessiontest::requestWithSession(sessionID, sessionutil::DefaultHeader);
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderScorer_ScoresBoundPod
TEST(SessionIDHeaderScorer, ScoresBoundPod) {
  sessiontest::TestHandle h;
  auto s = newTestScorerStrategy(h);
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = scorerRequest("s1");
  auto result = sessiontest::schedulingResultFor(endpointB);
  s->preRequest(&req, &result);
  auto again = scorerRequest("s1");
  const fwksched::ScoreMap want = {{endpointA, 0.0}, {endpointB, 1.0}};
  EXPECT_EQ(s->score(&again, {endpointA, endpointB}), want);
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderScorer_NoSessionAbstains
TEST(SessionIDHeaderScorer, NoSessionAbstains) {
  sessiontest::TestHandle h;
  auto s = newTestScorerStrategy(h);
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = scorerRequest("s1");
  auto result = sessiontest::schedulingResultFor(endpointA);
  s->preRequest(&req, &result);
  fwksched::InferenceRequest noSession;
  noSession.RequestID = "req-no-session";
  const fwksched::ScoreMap want = {{endpointA, 0.0}, {endpointB, 0.0}};
  EXPECT_EQ(s->score(&noSession, {endpointA, endpointB}), want);
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderScorer_UnboundAbstains
TEST(SessionIDHeaderScorer, UnboundAbstains) {
  sessiontest::TestHandle h;
  auto s = newTestScorerStrategy(h);
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = scorerRequest("s1");
  auto result = sessiontest::schedulingResultFor(endpointA);
  s->preRequest(&req, &result);
  auto s2 = scorerRequest("s2");
  const fwksched::ScoreMap want = {{endpointA, 0.0}, {endpointB, 0.0}};
  EXPECT_EQ(s->score(&s2, {endpointA, endpointB}), want);
}

// Original to BLIS: through the plugin's hooks, with the session id published by an attribute source (the
// session-id producer's key), a bound session scores its pod 1.0 and a migration follows absence.
TEST(SessionAffinityScorer, SessionIDThroughPluginHooks) {
  sessiontest::TestHandle handle;
  const nlohmann::json params = nlohmann::json::parse(
      R"({"strategy":"session_id","sessionIdConfig":{"sources":[{"attribute":"SessionIDDataKey/session-id-producer"}]}})");
  auto s = std::dynamic_pointer_cast<SessionAffinity>(Factory("aff", &params, handle.handle));
  ASSERT_NE(s, nullptr);
  auto a = newTestEndpoint("pod-a");
  auto b = newTestEndpoint("pod-b");
  fwksched::InferenceRequest r1;
  r1.RequestID = "r1";
  r1.PutAttribute("SessionIDDataKey/session-id-producer", std::string("sess"));
  EXPECT_EQ(s->Score(&r1, {a, b}), (fwksched::ScoreMap{{a, 0.0}, {b, 0.0}})) << "unbound: abstain";
  auto resultA = sessiontest::schedulingResultFor(a);
  EXPECT_FALSE(s->PreRequest(&r1, &resultA).has_value());
  fwksched::InferenceRequest r2 = r1;
  r2.RequestID = "r2";
  EXPECT_EQ(s->Score(&r2, {a, b}), (fwksched::ScoreMap{{a, 1.0}, {b, 0.0}}));
  fwksched::InferenceRequest r3 = r1;
  r3.RequestID = "r3";
  EXPECT_EQ(s->Score(&r3, {b}), (fwksched::ScoreMap{{b, 0.0}})) << "bound pod absent";
  auto resultB = sessiontest::schedulingResultFor(b);
  s->PreRequest(&r3, &resultB);
  fwksched::InferenceRequest r4 = r1;
  r4.RequestID = "r4";
  EXPECT_EQ(s->Score(&r4, {a, b}), (fwksched::ScoreMap{{a, 0.0}, {b, 1.0}})) << "migrated to pod-b";
  requestcontrol::Response resp;
  s->ResponseHeader(&r4, &resp, b->GetMetadata());
  EXPECT_TRUE(resp.Headers.empty()) << "session_id writes nothing back";
}

}  // namespace
}  // namespace blis::router::sessionaffinity
