// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler_test.go@71f4f099. The
// factory's "malformed JSON" case is not applicable (a JSON syntax error is raised by the config loader,
// before any factory sees parameters); the prefix plugin type/name of TestPdProfileHandler_Pick's cases are
// never read upstream (deprecated fields) and are left out.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "router/common/routing/common.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.h"
#include "tests/router/profilehandler/disagg_test_support.h"

namespace blis::router::disagg {
namespace {

using namespace test;  // NOLINT: the shared helpers of the pinned tests
using profiletest::newMockProfileRunResult;
using profiletest::profileNames;
using profiletest::sorted;
using Want = std::vector<std::string>;

const std::string DefaultTestPodPort = "8000";

std::shared_ptr<fwksched::SchedulerProfile> newMockSchedulerProfile() {
  return std::make_shared<profiletest::mockSchedulerProfile>();
}

// createHandleWithDeciderPlugins: the prefix-based (nonCachedTokens 4) and always-disagg PD deciders.
struct HandleWithPdDeciders : profiletest::TestHandle {
  HandleWithPdDeciders() {
    handle.AddPlugin(PrefixBasedPDDeciderPluginType, NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{4, 0}));
    handle.AddPlugin(AlwaysDisaggPDDeciderPluginType, newAlwaysDisaggPDDecider());
  }
};

// Sets the prefix match info of the decode result's endpoints (the loop upstream's Pick tests inline).
void setCachedTokens(const fwksched::ProfileResultMap& results, int cachedTokens, int inputTokens) {
  auto it = results.find(defaultDecodeProfile);
  if (it == results.end() || it->second == nullptr) return;
  for (const auto& ep : it->second->TargetEndpoints) {
    ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(),
            attrprefix::NewPrefixCacheMatchInfo(cachedTokens, inputTokens, 1));
  }
}

int inputTokensOf(const fwksched::InferenceRequest& r) {
  return static_cast<int>(r.Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler_test.go@71f4f099 TestPdProfileHandlerFactory
TEST(PdProfileHandler, TestPdProfileHandlerFactory) {
  struct Case {
    std::string name, pluginName, params;
    bool expectErr;
  };
  const std::vector<Case> tests = {
      {"valid configuration with all defaults", "default-handler", "{}", false},
      {"valid configuration with custom values", "custom-handler",
       R"({"decodeProfile": "my-decode", "prefillProfile": "my-prefill", "prefixPluginName": "my-prefix-cache",
           "primaryPort": 8080, "deciderPluginName": "prefix-based-pd-decider"})",
       false},
      {"zero primaryPort is allowed", "zero-port", R"({"primaryPort": 0})", false},
      {"nonCachedTokens = 0 is allowed", "zero-non-cached-tokens", R"({"deciderPluginName": "prefix-based-pd-decider"})",
       false},
      {"primaryPort below range should error", "port-too-low", R"({"primaryPort": 0})", false},  // OK upstream
      {"primaryPort = 1 is valid", "port-min", R"({"primaryPort": 1})", false},
      {"primaryPort = 65535 is valid", "port-max", R"({"primaryPort": 65535})", false},
      {"empty decodeProfile is valid", "empty-decode", R"({"decodeProfile": ""})", false},
      {"empty prefillProfile is valid", "empty-prefill", R"({"prefillProfile": ""})", false},
      {"empty prefixPluginName is valid", "empty-prefix-plugin", R"({"prefixPluginName": ""})", false},
      {"primaryPort = 65536 should error", "port-too-high", R"({"primaryPort": 65536})", true},
      {"primaryPort = -10 should error", "port-negative", R"({"primaryPort": -10})", true},
  };
  HandleWithPdDeciders h;
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    const nlohmann::json raw = nlohmann::json::parse(tt.params);
    if (tt.expectErr) {
      EXPECT_THROW(PdProfileHandlerFactory(tt.pluginName, &raw, h.handle), fwkplugin::PluginError);
      continue;
    }
    auto p = std::dynamic_pointer_cast<PdProfileHandler>(PdProfileHandlerFactory(tt.pluginName, &raw, h.handle));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->TypedName(), (fwkplugin::TypedName{PdProfileHandlerType, tt.pluginName}));
  }
  // The resolved fields of the custom case, and the default decider by name.
  const nlohmann::json custom = nlohmann::json::parse(
      R"({"decodeProfile": "my-decode", "prefillProfile": "my-prefill", "primaryPort": 8080})");
  auto p = std::dynamic_pointer_cast<PdProfileHandler>(PdProfileHandlerFactory("c", &custom, h.handle));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->decodeProfile(), "my-decode");
  EXPECT_EQ(p->prefillProfile(), "my-prefill");
  EXPECT_EQ(p->primaryPort(), "8080");
  EXPECT_EQ(p->decider(), h.handle.GetPlugin(PrefixBasedPDDeciderPluginType));
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler_test.go@71f4f099 TestPdProfileHandlerFactoryInvalidJSON
// (with upstream's error texts; the "malformed JSON" case is not applicable: see the file header)
TEST(PdProfileHandler, TestPdProfileHandlerFactoryInvalidJSON) {
  struct Case {
    std::string name, jsonParams, wantErr;
  };
  const std::vector<Case> tests = {
      {"invalid decider plugin type", R"({"deciderPluginName": "INVALID"})", "invalid decider plugin type: INVALID"},
      {"primaryPort as float", R"({"primaryPort": 8080.5})",
       "failed to parse the parameters of the 'pd-profile-handler' profile handler - json: cannot unmarshal number "
       "8080.5 into Go struct field PdProfileHandlerParameters.primaryPort of type int"},
      {"empty decider plugin name", R"({"deciderPluginName": ""})", "decider plugin name is not defined"},
      {"primaryPort out of range", R"({"primaryPort": -10})",
       "invalid primaryPort: must be between 1 and 65535, got -10"},
  };
  HandleWithPdDeciders h;
  h.handle.AddPlugin("not-a-decider", NewDisaggProfileHandler("d", "p", "e", nullptr, nullptr));
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    const nlohmann::json raw = nlohmann::json::parse(tt.jsonParams);
    try {
      PdProfileHandlerFactory("test", &raw, h.handle);
      FAIL() << "expected an error";
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_EQ(std::string(e.what()), tt.wantErr);
    }
  }
  const nlohmann::json notDecider = nlohmann::json::parse(R"({"deciderPluginName": "not-a-decider"})");
  EXPECT_THROW(PdProfileHandlerFactory("test", &notDecider, h.handle), fwkplugin::PluginError);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler_test.go@71f4f099 TestPdProfileHandler_Pick
TEST(PdProfileHandler, TestPdProfileHandler_Pick) {
  auto request = completionsRequest("hello world hello world hello world");
  const fwksched::ProfileMap profiles = {{"decode", newMockSchedulerProfile()}, {"prefill", newMockSchedulerProfile()}};
  struct Case {
    std::string name;
    int nonCachedTokensLimit;
    int cachedTokens;
    fwksched::ProfileResultMap profileResults;
    Want expectedProfiles;
  };
  const std::vector<Case> tests = {
      {"decode not executed yet → run decode", 10, 0, {}, {defaultDecodeProfile}},
      {"decode failed (nil result) → run nothing", 10, 0, {{defaultDecodeProfile, nullptr}}, {}},
      {"all profiles already executed → run nothing",
       10,
       0,
       {{defaultDecodeProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod1"})},
        {defaultPrefillProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod2"})}},
       {}},
      // 35 chars (8 tokens), 2 cached: 6 >= 4 non-cached -> disaggregated prefill
      {"has enough not-cached tokens → run prefill", 4, 2,
       {{defaultDecodeProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod1"})}}, {defaultPrefillProfile}},
      // 35 chars (8 tokens), 5 cached: 3 < 4 -> skip prefill
      {"short non-cached suffix → skip prefill", 4, 5,
       {{defaultDecodeProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod1"})}}, {}},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{tt.nonCachedTokensLimit, 0});
    PdProfileHandlerParameters params;
    params.PrefillProfile = defaultPrefillProfile;
    params.DecodeProfile = defaultDecodeProfile;
    auto handler = NewPdProfileHandler("test-handler", params, decider);
    setCachedTokens(tt.profileResults, tt.cachedTokens, inputTokensOf(*request));
    EXPECT_EQ(profileNames(handler->Pick(request.get(), profiles, tt.profileResults)), sorted(tt.expectedProfiles));
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler_test.go@71f4f099 TestPdProfileHandler_PickSeries
TEST(PdProfileHandler, TestPdProfileHandler_PickSeries) {
  const std::string prompt =
      "hello world, hello world, hello world, hello world, hello world, hello world, hello world!";
  auto request = completionsRequest(prompt);
  auto longerRequest = completionsRequest(prompt + "123");
  auto longRequest = completionsRequest(prompt + prompt);
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, newMockSchedulerProfile()},
                                         {defaultPrefillProfile, newMockSchedulerProfile()}};
  const fwksched::ProfileResultMap profileResults = {
      {defaultDecodeProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod1"})}};
  struct testData {
    std::shared_ptr<fwksched::InferenceRequest> request;
    int cachedTokens;
    Want expectedProfiles;
  };
  struct Case {
    std::string name;
    int nonCachedTokensLimit;
    std::vector<testData> tests;
  };
  const int cached = inputTokensOf(*request);
  const std::vector<Case> tests = {
      {"same request twice", 2, {{request, 0, {defaultPrefillProfile}}, {request, cached, {}}}},
      // the longer request is 4 chars longer than the request: no disaggregated prefill
      {"short request and a little bit longer after it", 2,
       {{request, 0, {defaultPrefillProfile}}, {longerRequest, cached, {}}}},
      // the long request is long enough past the cached part: disaggregated prefill
      {"short request and a long one after it", 2,
       {{request, 0, {defaultPrefillProfile}}, {longRequest, cached, {defaultPrefillProfile}}}},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{tt.nonCachedTokensLimit, 0});
    PdProfileHandlerParameters params;
    params.PrefillProfile = defaultPrefillProfile;
    params.DecodeProfile = defaultDecodeProfile;
    auto handler = NewPdProfileHandler("test-handler", params, decider);
    for (const testData& inner : tt.tests) {
      setCachedTokens(profileResults, inner.cachedTokens, inputTokensOf(*inner.request));
      EXPECT_EQ(profileNames(handler->Pick(inner.request.get(), profiles, profileResults)),
                sorted(inner.expectedProfiles));
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler_test.go@71f4f099 TestPdProfileHandler_ProcessResults
TEST(PdProfileHandler, TestPdProfileHandler_ProcessResults) {
  using Check = std::function<void(const fwksched::SchedulingResult&, const std::map<std::string, std::string>&)>;
  struct Case {
    std::string name;
    int primaryPort;
    fwksched::ProfileResultMap profileResults;
    bool expectError;
    Check checkResult;
  };
  const std::vector<Case> tests = {
      {"decode failed → error", 0, {{defaultDecodeProfile, nullptr}}, true, nullptr},
      {"decode success, no prefill, no primaryPort",
       0,
       {{defaultDecodeProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod1"})}},
       false,
       [](const fwksched::SchedulingResult& res, const std::map<std::string, std::string>& headers) {
         EXPECT_EQ(res.PrimaryProfileName, defaultDecodeProfile);
         EXPECT_TRUE(res.ProfileResults.count(defaultDecodeProfile));
         EXPECT_FALSE(res.ProfileResults.count(defaultPrefillProfile));
         EXPECT_EQ(res.ProfileResults.at(defaultDecodeProfile)->TargetEndpoints[0]->GetMetadata()->Port,
                   DefaultTestPodPort);
         EXPECT_FALSE(headers.count(routing::DataParallelEndpointHeader));
       }},
      {"decode success, with prefill",
       0,
       {{defaultDecodeProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod1"})},
        {defaultPrefillProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod2"})}},
       false,
       [](const fwksched::SchedulingResult& res, const std::map<std::string, std::string>&) {
         EXPECT_EQ(res.PrimaryProfileName, defaultDecodeProfile);
         EXPECT_TRUE(res.ProfileResults.count(defaultDecodeProfile));
         EXPECT_TRUE(res.ProfileResults.count(defaultPrefillProfile));
       }},
      {"with primaryPort → port updated and header set",
       9000,
       {{defaultDecodeProfile, newMockProfileRunResult(DefaultTestPodPort, {"pod1"})}},
       false,
       [](const fwksched::SchedulingResult& res, const std::map<std::string, std::string>& headers) {
         EXPECT_EQ(res.ProfileResults.at(defaultDecodeProfile)->TargetEndpoints[0]->GetMetadata()->Port, "9000");
         EXPECT_EQ(headers.at(routing::DataParallelEndpointHeader), "10.0.0.1:8000");
       }},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{0, 0});
    PdProfileHandlerParameters params;
    params.PrefillProfile = defaultPrefillProfile;
    params.DecodeProfile = defaultDecodeProfile;
    params.PrimaryPort = tt.primaryPort;
    auto handler = NewPdProfileHandler("test-handler", params, decider);
    fwksched::InferenceRequest req;
    auto out = handler->ProcessResults(&req, tt.profileResults);
    if (tt.expectError) {
      ASSERT_TRUE(out.Err.has_value());
      EXPECT_EQ(out.Err->Text, "failed to find available decode workers");
      continue;
    }
    ASSERT_FALSE(out.Err.has_value()) << out.Err->Text;
    ASSERT_NE(out.Value, nullptr);
    tt.checkResult(*out.Value, req.Headers);
  }
}

}  // namespace
}  // namespace blis::router::disagg
