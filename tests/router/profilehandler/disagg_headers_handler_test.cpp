// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 (TestMain's
// registrations become a local fwkplugin::Registry). The factory's "invalid json" case is not applicable (a
// JSON syntax error is raised by the config loader, before any factory sees parameters); Go's NotPanics
// checks become plain calls (a crash fails the test).
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "router/common/routing/common.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.h"
#include "tests/router/profilehandler/test_support.h"

namespace blis::router::disagg {
namespace {

const std::string testAddr = "10.0.0.5";
const std::string testPort = "8000";
const std::string testIPv6Addr = "fd00::1";

fwksched::EndpointPtr makeEndpoint(const std::string& name, const std::string& addr) {
  fwkdl::EndpointMetadata meta;
  meta.ID = {"default", name};
  meta.Address = addr;
  meta.Port = testPort;
  return fwksched::NewEndpoint(meta, fwkdl::Metrics{});
}
// makeEndpointByAddr / makeEncodeEndpoint
fwksched::EndpointPtr makeEndpointByAddr(const std::string& addr) { return makeEndpoint("prefill-pod", addr); }
fwksched::EndpointPtr makeEncodeEndpoint(const std::string& addr) { return makeEndpoint("encode-pod", addr); }

// A scheduling result with primary profile "decode" and the given results.
fwksched::SchedulingResult resultWith(const std::map<std::string, std::vector<fwksched::EndpointPtr>>& targets,
                                      const std::vector<std::string>& nilProfiles = {}) {
  fwksched::SchedulingResult r;
  r.PrimaryProfileName = "decode";
  for (const auto& [name, eps] : targets) {
    r.ProfileResults[name] = std::make_shared<fwksched::ProfileRunResult>();
    r.ProfileResults[name]->TargetEndpoints = eps;
  }
  for (const auto& name : nilProfiles) r.ProfileResults[name] = nullptr;
  return r;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestHeadersHandlerFactory
TEST(DisaggHeadersHandler, TestHeadersHandlerFactory) {
  struct Case {
    std::string name, pluginName, rawParams;
    bool expectErr;
    std::string expectPrefillProfile, expectEncodeProfile, expectName;
  };
  const std::vector<Case> tests = {
      {"default parameters", "my-handler", "", false, "prefill", "encode", "my-handler"},
      {"custom prefill profile", "custom-handler", R"({"prefillProfile": "my-prefill"})", false, "my-prefill", "encode",
       "custom-handler"},
      {"custom encode profile", "custom-handler", R"({"encodeProfile": "my-encode"})", false, "prefill", "my-encode",
       "custom-handler"},
      {"unknown field (strict decoding)", "bad-handler", R"({"decodeProfile": "d"})", true, "", "", ""},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    profiletest::TestHandle h;
    nlohmann::json raw;
    fwkplugin::Parameters params = nullptr;
    if (!tt.rawParams.empty()) {
      raw = nlohmann::json::parse(tt.rawParams);
      params = &raw;
    }
    if (tt.expectErr) {
      try {
        HeadersHandlerFactory(tt.pluginName, params, h.handle);
        FAIL() << "expected an error";
      } catch (const fwkplugin::PluginError& e) {
        EXPECT_STREQ(e.what(),
                     "failed to parse the parameters of the 'disagg-headers-handler' pre-request plugin - json: "
                     "unknown field \"decodeProfile\"");
      }
      continue;
    }
    auto handler = std::dynamic_pointer_cast<HeadersHandler>(HeadersHandlerFactory(tt.pluginName, params, h.handle));
    ASSERT_NE(handler, nullptr);
    EXPECT_EQ(handler->TypedName().Name, tt.expectName);
    EXPECT_EQ(handler->TypedName().Type, DisaggHeadersHandlerType);
    EXPECT_EQ(handler->prefillProfile(), tt.expectPrefillProfile);
    EXPECT_EQ(handler->encodeProfile(), tt.expectEncodeProfile);
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestNilRequest
TEST(DisaggHeadersHandler, TestPreRequestNilRequest) {
  auto handler = NewHeadersHandler("prefill", "encode")->WithName("test");
  fwksched::SchedulingResult result;
  handler->PreRequest(nullptr, &result);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestNilSchedulingResult
TEST(DisaggHeadersHandler, TestPreRequestNilSchedulingResult) {
  auto handler = NewHeadersHandler("prefill", "encode")->WithName("test");
  fwksched::InferenceRequest request;
  request.RequestID = "req-123";
  request.Headers[routing::PrefillEndpointHeader] = "kept:1";
  handler->PreRequest(&request, nullptr);
  EXPECT_EQ(request.Headers[routing::PrefillEndpointHeader], "kept:1");  // a no-op: nothing cleared
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPrefillHeaderHandlerBackwardCompat
TEST(DisaggHeadersHandler, TestPrefillHeaderHandlerBackwardCompat) {
  fwkplugin::Registry registry;  // TestMain's registrations
  registry.Register(DisaggHeadersHandlerType, fwkplugin::StabilityLevel::Beta, HeadersHandlerFactory);
  registry.Register(PrefillHeaderHandlerType, fwkplugin::StabilityLevel::Beta, HeadersHandlerFactory);
  auto factory = registry.Factories.find(PrefillHeaderHandlerType);
  ASSERT_NE(factory, registry.Factories.end()) << "prefill-header-handler must be in the registry";
  profiletest::TestHandle h;
  const nlohmann::json raw = nlohmann::json::parse(R"({"prefillProfile": "prefill"})");
  auto handler = std::dynamic_pointer_cast<HeadersHandler>(factory->second("compat-handler", &raw, h.handle));
  ASSERT_NE(handler, nullptr);
  EXPECT_EQ(handler->prefillProfile(), "prefill");
  EXPECT_EQ(handler->encodeProfile(), "encode");
  // A PD-only scheduling result.
  fwksched::InferenceRequest request;
  request.RequestID = "req-123";
  auto result = resultWith({{"prefill", {makeEndpointByAddr(testAddr)}}});
  handler->PreRequest(&request, &result);
  EXPECT_EQ(request.Headers[routing::PrefillEndpointHeader], routing::JoinHostPort(testAddr, testPort));
  EXPECT_FALSE(request.Headers.count(routing::EncoderEndpointsHeader))
      << "encode header must not be set in PD-only scenario";
}

// One PreRequest case: the handler's profile names, the headers before, the result, the header after
// (std::nullopt: absent).
struct HeaderCase {
  std::string name;
  std::string prefillProfile, encodeProfile;
  std::map<std::string, std::string> headers;
  fwksched::SchedulingResult result;
  std::string header;
  std::optional<std::string> want;
};

void runHeaderCase(const HeaderCase& tt) {
  SCOPED_TRACE(tt.name);
  auto handler = NewHeadersHandler(tt.prefillProfile, tt.encodeProfile)->WithName("test");
  fwksched::InferenceRequest request;
  request.TargetModel = "test-model";
  request.RequestID = "req-123";
  request.Headers = tt.headers;
  fwksched::SchedulingResult result = tt.result;
  EXPECT_FALSE(handler->PreRequest(&request, &result).has_value());  // upstream's error is always nil
  auto it = request.Headers.find(tt.header);
  if (!tt.want) {
    EXPECT_EQ(it, request.Headers.end());
  } else {
    ASSERT_NE(it, request.Headers.end());
    EXPECT_EQ(it->second, *tt.want);
  }
}

const std::string P = routing::PrefillEndpointHeader;
const std::string E = routing::EncoderEndpointsHeader;

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestPrefillProfileExists
// and the other prefill-header tests (one case each, in upstream's order): TestPreRequestPrefillProfileNotExists,
// TestPreRequestClearsExistingPrefillHeader, TestPreRequestClearsHeaderWhenNoPrefillResult (Go reads "" from the
// absent key), TestPreRequestCustomPrefillProfile, TestPreRequestPrefillProfileNilResult,
// TestPreRequestPrefillEmptyTargetEndpoints, TestPreRequestPrefillIPv6Address.
TEST(DisaggHeadersHandler, TestPreRequestPrefillHeader) {
  const std::string hp = testAddr + ":" + testPort;
  const std::vector<HeaderCase> tests = {
      {"TestPreRequestPrefillProfileExists", "prefill", "encode", {},
       resultWith({{"prefill", {makeEndpointByAddr(testAddr)}}}), P, hp},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestPrefillProfileNotExists
      {"TestPreRequestPrefillProfileNotExists", "prefill", "encode", {}, resultWith({}), P, std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestClearsExistingPrefillHeader
      {"TestPreRequestClearsExistingPrefillHeader", "prefill", "encode", {{P, "old-host:9999"}},
       resultWith({{"prefill", {makeEndpointByAddr(testAddr)}}}), P, hp},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestClearsHeaderWhenNoPrefillResult
      {"TestPreRequestClearsHeaderWhenNoPrefillResult", "prefill", "encode", {{P, "stale-host:9999"}}, resultWith({}), P,
       std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestCustomPrefillProfile
      {"TestPreRequestCustomPrefillProfile", "my-custom-prefill", "encode", {},
       resultWith({{"my-custom-prefill", {makeEndpointByAddr(testAddr)}}}), P, hp},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestPrefillProfileNilResult
      {"TestPreRequestPrefillProfileNilResult", "prefill", "encode", {}, resultWith({}, {"prefill"}), P, std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestPrefillEmptyTargetEndpoints
      {"TestPreRequestPrefillEmptyTargetEndpoints", "prefill", "encode", {}, resultWith({{"prefill", {}}}), P,
       std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestPrefillIPv6Address
      {"TestPreRequestPrefillIPv6Address", "prefill", "encode", {},
       resultWith({{"prefill", {makeEndpointByAddr(testIPv6Addr)}}}), P, "[fd00::1]:8000"},
  };
  for (const HeaderCase& tt : tests) runHeaderCase(tt);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeProfileExists
// and the other encode-header tests (one case each, in upstream's order): TestPreRequestEncodeProfileNotExists,
// TestPreRequestEncodeClearsExistingHeader, TestPreRequestEncodeClearsHeaderWhenNoEncodeResult,
// TestPreRequestEncodeCustomProfile, TestPreRequestEncodeIPv6Address, TestPreRequestEncodeProfileNilResult,
// TestPreRequestEncodeEmptyTargetEndpoints, TestPreRequestEncodeMultipleEndpoints.
TEST(DisaggHeadersHandler, TestPreRequestEncodeHeader) {
  const std::string hp = testAddr + ":" + testPort;
  const std::vector<HeaderCase> tests = {
      {"TestPreRequestEncodeProfileExists", "prefill", "encode", {},
       resultWith({{"encode", {makeEncodeEndpoint(testAddr)}}}), E, hp},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeProfileNotExists
      {"TestPreRequestEncodeProfileNotExists", "prefill", "encode", {}, resultWith({}), E, std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeClearsExistingHeader
      {"TestPreRequestEncodeClearsExistingHeader", "prefill", "encode", {{E, "old-host:9999"}},
       resultWith({{"encode", {makeEncodeEndpoint(testAddr)}}}), E, hp},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeClearsHeaderWhenNoEncodeResult
      {"TestPreRequestEncodeClearsHeaderWhenNoEncodeResult", "prefill", "encode", {{E, "stale-host:9999"}},
       resultWith({}), E, std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeCustomProfile
      {"TestPreRequestEncodeCustomProfile", "prefill", "my-custom-encode", {},
       resultWith({{"my-custom-encode", {makeEncodeEndpoint(testAddr)}}}), E, hp},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeIPv6Address
      {"TestPreRequestEncodeIPv6Address", "prefill", "encode", {},
       resultWith({{"encode", {makeEncodeEndpoint(testIPv6Addr)}}}), E, "[fd00::1]:8000"},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeProfileNilResult
      {"TestPreRequestEncodeProfileNilResult", "prefill", "encode", {}, resultWith({}, {"encode"}), E, std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeEmptyTargetEndpoints
      {"TestPreRequestEncodeEmptyTargetEndpoints", "prefill", "encode", {{E, "stale-host:9999"}},
       resultWith({{"encode", {}}}), E, std::nullopt},
      // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler_test.go@71f4f099 TestPreRequestEncodeMultipleEndpoints
      {"TestPreRequestEncodeMultipleEndpoints", "prefill", "encode", {},
       resultWith({{"encode", {makeEncodeEndpoint(testAddr), makeEncodeEndpoint("10.0.0.6")}}}), E,
       hp + ",10.0.0.6:8000"},
  };
  for (const HeaderCase& tt : tests) runHeaderCase(tt);
}

}  // namespace
}  // namespace blis::router::disagg
