// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: the TestSessionAffinity_ResponseHeader case table shared, verbatim, by
// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity_test.go@71f4f099 and
// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity_test.go@71f4f099, as one C++ table
// both transcriptions run (Go's "nil headers map" is the empty map here).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/requestcontrol/types.h"
#include "router/epp/framework/interface/scheduling/types.h"
#include "tests/router/session/test_support.h"

namespace blis::router::sessiontest {

struct ResponseHeaderCase {
  std::string name;
  std::string sessionHeader;
  std::string profileName;
  std::optional<requestcontrol::Response> initialResponse;  // std::nullopt: nil
  bool withTargetPod = true;                                  // false: nil targetPod
  std::optional<fwksched::InferenceRequest> request;        // std::nullopt: nil
  std::map<std::string, std::string> wantHeaders;
};

// The target endpoint every case passes: {Namespace: "default", Name: "pod1"}, address 1.2.3.4.
inline fwkdl::EndpointMetadata responseHeaderTarget() {
  fwkdl::EndpointMetadata md;
  md.ID = {"default", "pod1"};
  md.Address = "1.2.3.4";
  return md;
}

inline std::vector<ResponseHeaderCase> responseHeaderCases() {
  // wantToken: base64 of "default/pod1"; the prefill token: base64 of "default/prefill-pod".
  const std::string wantToken = "ZGVmYXVsdC9wb2Qx";
  const std::string prefillToken = "ZGVmYXVsdC9wcmVmaWxsLXBvZA==";
  auto response = [](const std::string& id) {
    requestcontrol::Response r;
    r.RequestID = id;
    return r;
  };
  auto requestWith = [](const std::string& id, std::optional<fwksched::SchedulingResult> sr) {
    fwksched::InferenceRequest r;
    r.RequestID = id;
    if (sr) r.SchedulingResult = std::make_shared<fwksched::SchedulingResult>(*sr);
    return r;
  };
  fwksched::SchedulingResult prefillResult;
  {
    auto pr = std::make_shared<fwksched::ProfileRunResult>();
    pr->TargetEndpoints = {newTestEndpoint("prefill-pod", "default")};
    prefillResult.ProfileResults["prefill"] = pr;
  }
  fwksched::SchedulingResult emptyResults;
  fwksched::SchedulingResult emptyTargets;
  emptyTargets.ProfileResults["prefill"] = std::make_shared<fwksched::ProfileRunResult>();

  return {
      {"standard case with existing headers map", "", "", response("req-1"), true, std::nullopt,
       {{"x-session-token", wantToken}}},
      {"response with nil headers map", "", "", response("req-2"), true, std::nullopt,
       {{"x-session-token", wantToken}}},
      {"custom header carries the token", "x-custom-session", "", response("req-custom"), true, std::nullopt,
       {{"x-custom-session", wantToken}}},
      {"nil targetPod should do nothing", "", "", response("req-3"), false, std::nullopt, {}},
      {"nil response should do nothing", "", "", std::nullopt, true, std::nullopt, {}},
      {"prefill profile lookup", "x-session-token-prefill", "prefill", response("req-prefill"), true,
       requestWith("req-prefill", prefillResult), {{"x-session-token-prefill", prefillToken}}},
      {"profile set but absent from results (decode-only) writes no header", "x-session-token-prefill", "prefill",
       response("req-decode-only"), true, requestWith("req-decode-only", emptyResults), {}},
      {"profile set but TargetEndpoints empty writes no header", "x-session-token-prefill", "prefill",
       response("req-empty-ep"), true, requestWith("req-empty-ep", emptyTargets), {}},
      {"profile set but nil SchedulingResult writes no header", "x-session-token-prefill", "prefill",
       response("req-nil-sr"), true, requestWith("req-nil-sr", std::nullopt), {}},
      {"profile set but nil request writes no header", "x-session-token-prefill", "prefill", response("req-nil-req"),
       true, std::nullopt, {}},
  };
}

// The TestSessionAffinity_FactoryValidation case table, shared verbatim by the filter's and scorer's tests.
struct FactoryCase {
  std::string name;
  std::string params;  // "": no parameters (nil)
  bool expectErr;
};

inline std::vector<FactoryCase> factoryValidationCases() {
  return {
      {"empty params default to encoded_endpoint_header", "", false},
      {"explicit encoded_endpoint_header", R"({"strategy":"encoded_endpoint_header"})", false},
      {"session_id with defaults", R"({"strategy":"session_id"})", false},
      {"session_id with attribute source",
       R"({"strategy":"session_id","sessionIdConfig":{"sources":[{"attribute":"agent-identity"}]}})", false},
      {"session_id header then attribute fallback sources",
       R"({"strategy":"session_id","sessionIdConfig":{"sources":[{"header":"x-session-id"},{"attribute":"agent-identity"}]}})",
       false},
      {"session_id empty sources defaults, valid", R"({"strategy":"session_id","sessionIdConfig":{"sources":[]}})",
       false},
      {"session_id zero ttl defaults, valid", R"({"strategy":"session_id","sessionIdConfig":{"evictionTtlSeconds":0}})",
       false},
      {"unknown strategy rejected", R"({"strategy":"bogus"})", true},
      {"session_id source with both header and attribute rejected",
       R"({"strategy":"session_id","sessionIdConfig":{"sources":[{"header":"h","attribute":"a"}]}})", true},
      {"session_id negative ttl rejected", R"({"strategy":"session_id","sessionIdConfig":{"evictionTtlSeconds":-1}})",
       true},
      {"session_id negative sweep rejected",
       R"({"strategy":"session_id","sessionIdConfig":{"evictionSweepSeconds":-1}})", true},
  };
}

}  // namespace blis::router::sessiontest

namespace blis::router::sessiontest {

// Original to BLIS: full factory error texts (upstream's tests check only that an error occurs); pluginType is
// the plugin's type, kind "filter" or "scorer" as its Factory words it.
struct FactoryErrorCase {
  std::string params;
  std::string want;
};

inline std::vector<FactoryErrorCase> factoryErrorTextCases(const std::string& pluginType, const std::string& kind) {
  const std::string parse = "failed to parse the parameters of the '" + pluginType + "' " + kind + " - ";
  const std::string invalid = "invalid parameters of the '" + pluginType + "' " + kind + " - ";
  return {
      {R"({"strategy":"bogus"})",
       invalid + R"(strategy must be "encoded_endpoint_header" or "session_id", got "bogus")"},
      {R"({"strategy":"sess\"ion"})",
       invalid + R"(strategy must be "encoded_endpoint_header" or "session_id", got "sess\"ion")"},
      {R"({"strategy":"session_id","sessionIdConfig":{"sources":[{"header":"h","attribute":"a"}]}})",
       invalid + "sources[0]: exactly one of header or attribute must be set"},
      {R"({"strategy":"session_id","sessionIdConfig":{"sources":[{"header":"h"},null]}})",
       invalid + "sources[1]: exactly one of header or attribute must be set"},
      {R"({"strategy":"session_id","sessionIdConfig":{"evictionTtlSeconds":-1}})",
       invalid + "evictionTtlSeconds must be > 0, got -1"},
      {R"({"strategy":"session_id","sessionIdConfig":{"evictionSweepSeconds":-0.5}})",
       invalid + "evictionSweepSeconds must be > 0, got -0.5"},
      {R"({"bogus":1})", parse + R"(json: unknown field "bogus")"},
      {R"({"sessionIdConfig":{"sources":[{"header":"h","extra":"x"}]}})", parse + R"(json: unknown field "extra")"},
      {R"({"strategy":5})",
       parse + "json: cannot unmarshal number into Go struct field parameters.strategy of type string"},
      {R"({"encodedEndpointHeaderConfig":5})",
       parse + "json: cannot unmarshal number into Go struct field parameters.encodedEndpointHeaderConfig of type "
               "sessionaffinity.EncodedEndpointHeaderConfig"},
      {R"({"encodedEndpointHeaderConfig":{"header":true}})",
       parse + "json: cannot unmarshal bool into Go struct field "
               "EncodedEndpointHeaderConfig.encodedEndpointHeaderConfig.header of type string"},
      {R"({"sessionIdConfig":{"evictionTtlSeconds":"x"}})",
       parse + "json: cannot unmarshal string into Go struct field SessionIDConfig.sessionIdConfig.evictionTtlSeconds "
               "of type float64"},
      {R"({"sessionIdConfig":{"sources":"x"}})",
       parse + "json: cannot unmarshal string into Go struct field SessionIDConfig.sessionIdConfig.sources of type "
               "[]sessionaffinity.SessionIDSource"},
      {R"({"sessionIdConfig":{"sources":["x"]}})",
       parse + "json: cannot unmarshal string into Go struct field SessionIDConfig.sessionIdConfig.sources of type "
               "sessionaffinity.SessionIDSource"},
      {R"({"sessionIdConfig":{"sources":[{"attribute":[]}]}})",
       parse + "json: cannot unmarshal array into Go struct field SessionIDSource.sessionIdConfig.sources.attribute "
               "of type string"},
      {R"("x")", parse + "json: cannot unmarshal string into Go value of type sessionaffinity.parameters"},
  };
}

}  // namespace blis::router::sessiontest
