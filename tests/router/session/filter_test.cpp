// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity_test.go@71f4f099 and
// session_id_header_test.go@71f4f099 against the C++ port (multicluster_test.go is not applicable: the
// multi-cluster filter is refused, which the last test checks).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.h"
#include "tests/router/session/response_header_cases.h"
#include "tests/router/session/test_support.h"

namespace blis::router::sessionaffinityfilter {
namespace {

using sessiontest::elementsMatch;
using sessiontest::names;
using sessiontest::newTestEndpoint;

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity_test.go@71f4f099 TestSessionAffinity_Filter
TEST(SessionAffinityFilter, Filter) {
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  const std::vector<fwksched::EndpointPtr> inputEndpoints = {endpointA, endpointB};
  const std::string validSessionTokenForEndpointB = "L3BvZC1i";  // base64 of "/pod-b"
  const std::string tokenForMissingPod = "cG9kLW1pc3Npbmc=";      // base64 of "pod-missing"
  auto sessionAffinityFilter = NewSessionAffinity("test-filter", "", "");
  auto customHeaderFilter = NewSessionAffinity("test-filter", "x-custom-session", "");

  struct Case {
    std::string name;
    std::shared_ptr<SessionAffinity> filter;
    std::map<std::string, std::string> headers;
    std::vector<fwksched::EndpointPtr> input;
    std::vector<std::string> wantPods;
  };
  const std::vector<Case> tests = {
      {"selects the session endpoint : endpointB", sessionAffinityFilter,
       {{"x-session-token", validSessionTokenForEndpointB}}, inputEndpoints, {"pod-b"}},
      {"custom header selects the session endpoint : endpointB", customHeaderFilter,
       {{"x-custom-session", validSessionTokenForEndpointB}}, inputEndpoints, {"pod-b"}},
      {"custom header ignores default header", customHeaderFilter,
       {{"x-session-token", validSessionTokenForEndpointB}}, inputEndpoints, {"pod-a", "pod-b"}},
      {"no session token returns all endpoints", sessionAffinityFilter, {}, inputEndpoints, {"pod-a", "pod-b"}},
      {"invalid session token returns all endpoints", sessionAffinityFilter, {{"x-session-token", "garbage-token"}},
       inputEndpoints, {"pod-a", "pod-b"}},
      {"session pod not among candidates returns all endpoints", sessionAffinityFilter,
       {{"x-session-token", tokenForMissingPod}}, inputEndpoints, {"pod-a", "pod-b"}},
      {"no endpoints available", sessionAffinityFilter, {{"x-session-token", validSessionTokenForEndpointB}}, {}, {}},
  };
  for (const auto& test : tests) {
    SCOPED_TRACE(test.name);
    fwksched::InferenceRequest req;
    req.Headers = test.headers;
    auto got = test.filter->Filter(&req, test.input);
    EXPECT_TRUE(elementsMatch(names(got), test.wantPods)) << "filtered endpoints should match expected endpoints";
    EXPECT_EQ(got.size(), test.wantPods.size()) << "filtered endpoints count should match expected count";
  }
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity_test.go@71f4f099 TestSessionAffinity_ResponseHeader
TEST(SessionAffinityFilter, ResponseHeader) {
  const fwkdl::EndpointMetadata targetEndpoint = sessiontest::responseHeaderTarget();
  for (auto test : sessiontest::responseHeaderCases()) {
    SCOPED_TRACE(test.name);
    auto s = NewSessionAffinity("test-filter", test.sessionHeader, test.profileName);
    s->ResponseHeader(test.request ? &*test.request : nullptr, test.initialResponse ? &*test.initialResponse : nullptr,
                      test.withTargetPod ? &targetEndpoint : nullptr);
    if (!test.initialResponse) continue;
    EXPECT_EQ(test.initialResponse->Headers, test.wantHeaders);
  }
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity_test.go@71f4f099 TestSessionAffinity_FactoryValidation
TEST(SessionAffinityFilter, FactoryValidation) {
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
      EXPECT_EQ(p->TypedName().Name, "test");
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_TRUE(test.expectErr) << "unexpected error: " << e.what();
    }
  }
}

// Original to BLIS: the factory's error texts.
TEST(SessionAffinityFilter, FactoryErrorTexts) {
  sessiontest::TestHandle handle;
  for (const auto& test : sessiontest::factoryErrorTextCases(SessionAffinityType, "filter")) {
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

// Original to BLIS: the factory wires the decoded strategy: session_id with a custom header source and the
// encoded_endpoint_header strategy with a custom header (matched case-insensitively, as encoding/json).
TEST(SessionAffinityFilter, FactoryBuildsConfiguredStrategy) {
  sessiontest::TestHandle handle;
  auto a = newTestEndpoint("pod-a");
  auto b = newTestEndpoint("pod-b");
  const nlohmann::json sid = nlohmann::json::parse(
      R"({"strategy":"session_id","sessionIdConfig":{"sources":[{"header":"X-My-Session"}]}})");
  auto f = std::dynamic_pointer_cast<SessionAffinity>(Factory("f", &sid, handle.handle));
  ASSERT_NE(f, nullptr);
  auto req = sessiontest::requestWithSession("s1", "x-my-session");
  auto result = sessiontest::schedulingResultFor(b);
  f->PreRequest(&req, &result);
  EXPECT_EQ(names(f->Filter(&req, {a, b})), std::vector<std::string>{"pod-b"});

  const nlohmann::json eeh = nlohmann::json::parse(R"({"EncodedEndpointHeaderConfig":{"Header":"X-Tok"}})");
  auto g = std::dynamic_pointer_cast<SessionAffinity>(Factory("g", &eeh, handle.handle));
  ASSERT_NE(g, nullptr);
  fwksched::InferenceRequest tokReq;
  tokReq.Headers["x-tok"] = "L3BvZC1i";
  EXPECT_EQ(names(g->Filter(&tokReq, {a, b})), std::vector<std::string>{"pod-b"});
}

// ---- session_id_header_test.go ----

std::unique_ptr<sessionIDHeaderStrategy> newTestFilterStrategy(sessiontest::TestHandle& h) {
  parameters p;
  p.Strategy = StrategySessionID;
  p.SessionIDConfig.Sources = {sessionutil::SessionIDSource{sessionutil::DefaultHeader, ""}};
  p.SessionIDConfig.EvictionTTLSeconds = 300;
  p.SessionIDConfig.EvictionSweepSeconds = 10;
  auto built = newSessionIDHeaderStrategy(p, h.handle);
  return std::unique_ptr<sessionIDHeaderStrategy>(static_cast<sessionIDHeaderStrategy*>(built.release()));
}

fwksched::InferenceRequest filterRequest(const std::string& sessionID) {
  return sessiontest::requestWithSession(sessionID, sessionutil::DefaultHeader);
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderFilter_BoundPresentReturnsAlone
TEST(SessionIDHeaderFilter, BoundPresentReturnsAlone) {
  sessiontest::TestHandle h;
  auto s = newTestFilterStrategy(h);
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = filterRequest("s1");
  auto result = sessiontest::schedulingResultFor(endpointB);
  s->preRequest(&req, &result);
  auto again = filterRequest("s1");
  EXPECT_EQ(names(s->filter(&again, {endpointA, endpointB})), std::vector<std::string>{"pod-b"});
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderFilter_NoSessionReturnsAll
TEST(SessionIDHeaderFilter, NoSessionReturnsAll) {
  sessiontest::TestHandle h;
  auto s = newTestFilterStrategy(h);
  fwksched::InferenceRequest noSession;
  noSession.RequestID = "req-no-session";
  auto got = s->filter(&noSession, {newTestEndpoint("pod-a"), newTestEndpoint("pod-b")});
  EXPECT_TRUE(elementsMatch(names(got), {"pod-a", "pod-b"}));
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderFilter_UnboundReturnsAll
TEST(SessionIDHeaderFilter, UnboundReturnsAll) {
  sessiontest::TestHandle h;
  auto s = newTestFilterStrategy(h);
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = filterRequest("s1");
  auto result = sessiontest::schedulingResultFor(endpointA);
  s->preRequest(&req, &result);
  auto s2 = filterRequest("s2");
  EXPECT_TRUE(elementsMatch(names(s->filter(&s2, {endpointA, endpointB})), {"pod-a", "pod-b"}));
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderFilter_MigratesOnAbsence
TEST(SessionIDHeaderFilter, MigratesOnAbsence) {
  sessiontest::TestHandle h;
  auto s = newTestFilterStrategy(h);
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto first = filterRequest("s1");
  auto resultA = sessiontest::schedulingResultFor(endpointA);
  s->preRequest(&first, &resultA);
  auto req = filterRequest("s1");
  s->filter(&req, {endpointB});  // only pod-b: pod-a is genuinely absent
  auto resultB = sessiontest::schedulingResultFor(endpointB);
  s->preRequest(&req, &resultB);
  auto again = filterRequest("s1");
  EXPECT_EQ(names(s->filter(&again, {endpointA, endpointB})), std::vector<std::string>{"pod-b"});
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header_test.go@71f4f099 TestSessionIDHeaderFilter_NeverNarrowsToEmpty
TEST(SessionIDHeaderFilter, NeverNarrowsToEmpty) {
  sessiontest::TestHandle h;
  auto s = newTestFilterStrategy(h);
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  const std::vector<fwksched::EndpointPtr> endpoints = {endpointA, endpointB};
  auto r1 = filterRequest("s1");
  auto gone = sessiontest::schedulingResultFor(newTestEndpoint("pod-gone"));
  s->preRequest(&r1, &gone);
  auto r3 = filterRequest("s3");
  auto resultA = sessiontest::schedulingResultFor(endpointA);
  s->preRequest(&r3, &resultA);

  fwksched::InferenceRequest none;
  none.RequestID = "req-none";
  const std::map<std::string, fwksched::InferenceRequest> nonEmpty = {
      {"no session", none},
      {"unbound", filterRequest("s2")},
      {"bound absent", filterRequest("s1")},
      {"bound present", filterRequest("s3")},
  };
  for (const auto& [name, req] : nonEmpty) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(s->filter(&req, endpoints).empty()) << "filter narrowed a non-empty set to empty";
  }
  auto s3 = filterRequest("s3");
  EXPECT_TRUE(s->filter(&s3, {}).empty()) << "empty input passes through";
}

// Original to BLIS: multicluster.go's filter is not ported; its factory refuses by name.
TEST(SessionAffinityFilter, MultiClusterRefused) {
  sessiontest::TestHandle h;
  try {
    MultiClusterFactory("mc", nullptr, h.handle);
    ADD_FAILURE() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("multicluster-session-affinity-filter is not modelled by this port"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace blis::router::sessionaffinityfilter
