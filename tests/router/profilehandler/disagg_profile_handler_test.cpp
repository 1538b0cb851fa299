// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the factory, P/D and custom-profile tests of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 (the
// E/PD, nil-decider, PreRequest, peer-endpoint and prefill-first tests are in
// disagg_profile_handler_stages_test.cpp). Not applicable: TestHasMultimodalContent (multimodal features are
// not ported) and TestHandlerFactory_InvalidJSON (a JSON syntax error is raised by the config loader, before
// any factory sees parameters). Where upstream gives the multimodal decider a multimodal request, a
// mockEncodeDecider answering true stands in (see disagg_test_support.h).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/router/profilehandler/disagg_test_support.h"

namespace blis::router::disagg {
namespace {

using namespace test;  // NOLINT: the shared helpers of the pinned tests
using profiletest::profileNames;
using profiletest::sorted;

std::shared_ptr<fwksched::SchedulerProfile> mockProfile() {
  return std::make_shared<profiletest::mockSchedulerProfile>();
}

// HandlerFactory on JSON text: the plugin, or the PluginError's text in *err.
std::shared_ptr<fwkplugin::Plugin> factory(const std::string& params, fwkplugin::Handle& handle, std::string* err) {
  const nlohmann::json raw = nlohmann::json::parse(params);
  try {
    return HandlerFactory("h", &raw, handle);
  } catch (const fwkplugin::PluginError& e) {
    *err = e.what();
    return nullptr;
  }
}

struct FactoryCase {
  std::string name;
  std::string params;
  bool expectErr;
};

void runFactoryCases(const std::vector<FactoryCase>& tests) {
  for (const FactoryCase& tt : tests) {
    SCOPED_TRACE(tt.name);
    HandleWithDeciders h;
    std::string err;
    auto p = factory(tt.params, h.handle, &err);
    if (tt.expectErr) {
      EXPECT_EQ(p, nullptr);
      EXPECT_FALSE(err.empty());
    } else {
      EXPECT_NE(p, nullptr) << err;
      EXPECT_TRUE(err.empty()) << err;
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_TypedName
TEST(DisaggProfileHandler, TestHandler_TypedName) {
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, "", defaultEncodeProfile, nullptr, nullptr);
  EXPECT_EQ(h->TypedName().Type, DisaggProfileHandlerType);
  EXPECT_TRUE(h->TypedName().Name.empty());
  h->WithName("my-handler");
  EXPECT_EQ(h->TypedName().Name, "my-handler");
  EXPECT_EQ(h->TypedName().Type, DisaggProfileHandlerType);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandlerFactory
TEST(DisaggProfileHandler, TestHandlerFactory) {
  runFactoryCases({
      {"decode only defaults", "{}", false},
      {"PD style", R"({"deciders": {"prefill": "always-disagg-pd-decider"}})", false},
      {"PD custom profiles",
       R"({"profiles": {"decode": "my-decode", "prefill": "my-prefill"}, "deciders": {"prefill": "prefix-based-pd-decider"}})",
       false},
      {"EPD style", R"({"profiles": {"encode": "encode"}})", false},
      {"EPD with encode decider",
       R"({"profiles": {"encode": "encode"}, "deciders": {"encode": "always-disagg-multimodal-decider"}})", false},
      {"full EPD",
       R"({"profiles": {"prefill": "prefill", "encode": "encode"},
           "deciders": {"prefill": "prefix-based-pd-decider", "encode": "always-disagg-multimodal-decider"}})",
       false},
      {"prefill without pdDecider is ok (stage inactive)", R"({"profiles": {"prefill": "prefill"}})", false},
      {"unknown pdDecider", R"({"profiles": {"prefill": "prefill"}, "deciders": {"prefill": "INVALID"}})", true},
      {"unknown encodeDecider", R"({"deciders": {"encode": "INVALID"}})", true},
  });
}

// HandlerFactory's error texts and resolved fields (upstream's texts; no upstream test of its own).
TEST(DisaggProfileHandler, HandlerFactoryErrorTextsAndFields) {
  HandleWithDeciders h;
  std::string err;
  EXPECT_EQ(factory(R"({"deciders": {"prefill": "INVALID"}})", h.handle, &err), nullptr);
  EXPECT_EQ(err, "deciders.prefill plugin not found: INVALID");
  EXPECT_EQ(factory(R"({"deciders": {"encode": "INVALID"}})", h.handle, &err), nullptr);
  EXPECT_EQ(err, "deciders.encode plugin not found: INVALID");
  h.handle.AddPlugin("not-a-decider", NewDisaggProfileHandler("d", "p", "e", nullptr, nullptr));
  EXPECT_EQ(factory(R"({"deciders": {"prefill": "not-a-decider"}})", h.handle, &err), nullptr);
  EXPECT_EQ(err, "plugin not-a-decider does not implement prefillDeciderPlugin");
  EXPECT_EQ(factory(R"({"deciders": {"encode": "not-a-decider"}})", h.handle, &err), nullptr);
  EXPECT_EQ(err, "plugin not-a-decider does not implement encodeDeciderPlugin");
  EXPECT_EQ(factory(R"({"stageOrder": "INVALID_ORDER"})", h.handle, &err), nullptr);
  EXPECT_EQ(err, R"(invalid stage order "INVALID_ORDER", must be "decode-first" or "prefill-first")");
  EXPECT_EQ(factory(R"({"stageOrder": "prefill-first", "deciders": {"prefill": "prefix-based-pd-decider"}})",
                    h.handle, &err),
            nullptr);
  EXPECT_EQ(err, "prefill decider is not supported in prefill-first stage order");
  EXPECT_EQ(factory(R"({"profiles": {"decode": "d"}, "unknownField": "ignored"})", h.handle, &err), nullptr);
  EXPECT_EQ(err,
            "failed to parse parameters of the disagg-profile-handler: nested schema error: json: unknown field "
            "\"unknownField\"; legacy schema error: json: unknown field \"profiles\" (use one format exclusively: "
            "either nested profiles/deciders or the deprecated flat fields)");

  err.clear();
  auto handler = std::dynamic_pointer_cast<Handler>(factory(
      R"({"profiles": {"decode": "my-decode"}, "deciders": {"prefill": "prefix-based-pd-decider"}})", h.handle, &err));
  ASSERT_NE(handler, nullptr) << err;
  EXPECT_EQ(handler->TypedName(), (fwkplugin::TypedName{DisaggProfileHandlerType, "h"}));
  EXPECT_EQ(handler->decodeProfile(), "my-decode");
  EXPECT_EQ(handler->prefillProfile(), defaultPrefillProfile);  // defaults applied to unset names
  EXPECT_EQ(handler->encodeProfile(), defaultEncodeProfile);
  EXPECT_EQ(handler->pdDecider(), h.handle.GetPlugin(PrefixBasedPDDeciderPluginType));
  EXPECT_EQ(handler->encodeDecider(), nullptr);

  // No parameters at all: decode-only defaults.
  auto bare = std::dynamic_pointer_cast<Handler>(HandlerFactory("bare", nullptr, h.handle));
  ASSERT_NE(bare, nullptr);
  EXPECT_EQ(bare->decodeProfile(), defaultDecodeProfile);
  EXPECT_EQ(bare->stageOrder(), StageOrderDecodeFirst);
  EXPECT_EQ(bare->pdDecider(), nullptr);

  // The config parser alone (RegisterWithPluginDependencies): the deprecated flat schema mapped to nested.
  const nlohmann::json legacy = nlohmann::json::parse(
      R"({"decodeProfile": "D", "deciderPluginName": "x", "encodeDeciderPluginName": "y"})");
  const auto p = std::any_cast<DisaggProfileHandlerParameters>(DisaggProfileHandlerConfigParser(&legacy, h.handle));
  EXPECT_EQ(p.Profiles.Decode, "D");
  EXPECT_EQ(p.Profiles.Prefill, defaultPrefillProfile);
  EXPECT_EQ(p.Deciders.Prefill, "x");
  EXPECT_EQ(p.Deciders.Encode, "y");
  EXPECT_EQ(p.StageOrder, StageOrderDecodeFirst);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandlerFactory_DeprecatedFlatParams
TEST(DisaggProfileHandler, TestHandlerFactory_DeprecatedFlatParams) {
  runFactoryCases({
      {"deprecated prefillDeciderPluginName", R"({"prefillDeciderPluginName": "prefix-based-pd-decider"})", false},
      {"deprecated encodeDeciderPluginName", R"({"encodeDeciderPluginName": "always-disagg-multimodal-decider"})",
       false},
      {"deprecated custom profile names",
       R"({"decodeProfile": "my-decode", "prefillProfile": "my-prefill", "encodeProfile": "my-encode",
           "prefillDeciderPluginName": "prefix-based-pd-decider"})",
       false},
      {"nested format with unknown extra fields is rejected",
       R"({"profiles": {"decode": "decode"}, "unknownField": "ignored"})", true},
      {"mixing deprecated and nested fields is an error",
       R"({"decodeProfile": "my-decode", "profiles": {"decode": "other-decode"}})", true},
      {"mixing deprecated decider and nested deciders is an error",
       R"({"prefillDeciderPluginName": "prefix-based-pd-decider", "deciders": {"prefill": "always-disagg-pd-decider"}})",
       true},
  });
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandlerFactory_PdProfileHandlerParams
TEST(DisaggProfileHandler, TestHandlerFactory_PdProfileHandlerParams) {
  runFactoryCases({
      {"pd-profile-handler defaults (no params)", "{}", false},
      {"pd-profile-handler with deciderPluginName",
       R"({"decodeProfile": "decode", "prefillProfile": "prefill", "deciderPluginName": "prefix-based-pd-decider"})",
       false},
      {"pd-profile-handler with unknown fields is rejected",
       R"({"decodeProfile": "decode", "prefillProfile": "prefill", "deciderPluginName": "prefix-based-pd-decider",
           "prefixPluginType": "prefix-cache-scorer", "prefixPluginName": "prefix-cache-scorer", "primaryPort": 8080})",
       true},
      {"pd-profile-handler unknown deciderPluginName", R"({"deciderPluginName": "INVALID"})", true},
  });
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PD
TEST(DisaggProfileHandler, TestHandler_Pick_PD) {
  auto req = completionsRequest("hello world hello world hello world");  // ~8 tokens
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  struct Case {
    std::string name;
    int nonCachedTokens;
    int cachedTokens;
    fwksched::ProfileResultMap profileResults;
    std::vector<std::string> want;
  };
  std::vector<Case> tests = {
      {"decode not run → run decode", 4, 0, {}, {defaultDecodeProfile}},
      {"decode failed → done", 4, 0, {{defaultDecodeProfile, nullptr}}, {}},
      {"all profiles done → done",
       4,
       0,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultPrefillProfile, makeProfileRunResult({"pod2"})}},
       {}},
      {"enough uncached tokens → run prefill", 4, 2, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}},
       {defaultPrefillProfile}},
      {"short uncached suffix → skip prefill", 4, 5, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {}},
  };
  for (Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{tt.nonCachedTokens, 0});
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", decider, nullptr);
    const int inputTokens = static_cast<int>(req->Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken;
    injectPrefixCache(tt.profileResults, tt.cachedTokens, inputTokens);
    EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, tt.profileResults)), sorted(tt.want));
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PD_InputTokenError
TEST(DisaggProfileHandler, TestHandler_Pick_PD_InputTokenError) {
  // A body with neither Completions nor ChatCompletions (and no tokenized prompt).
  fwksched::InferenceRequest req;
  req.Body = std::make_shared<fwkrh::InferenceRequestBody>();
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  fwksched::ProfileResultMap results = {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}};
  auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{1, 0});
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", decider, nullptr);
  EXPECT_TRUE(h->Pick(&req, profiles, results).empty()) << "should return empty map on input token estimation error";
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PD_Series
TEST(DisaggProfileHandler, TestHandler_Pick_PD_Series) {
  auto shortReq = completionsRequest("hello world, hello world!");
  auto longReq = completionsRequest("hello world, hello world! and some additional padding text here");
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  const int shortTokens = static_cast<int>(shortReq->Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken;
  struct Step {
    std::shared_ptr<fwksched::InferenceRequest> req;
    int cachedTokens;
    std::vector<std::string> want;
  };
  struct Case {
    std::string name;
    int nonCachedTokens;
    std::vector<Step> steps;
  };
  const std::vector<Case> tests = {
      {"same request twice: first disaggregates, second hits cache",
       2,
       {{shortReq, 0, {defaultPrefillProfile}}, {shortReq, shortTokens, {}}}},
      {"short then long: long triggers disaggregation",
       2,
       {{shortReq, 0, {defaultPrefillProfile}}, {longReq, shortTokens, {defaultPrefillProfile}}}},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{tt.nonCachedTokens, 0});
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", decider, nullptr);
    for (const Step& step : tt.steps) {
      fwksched::ProfileResultMap results = {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}};
      const int inputTokens =
          static_cast<int>(step.req->Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken;
      injectPrefixCache(results, step.cachedTokens, inputTokens);
      EXPECT_EQ(profileNames(h->Pick(step.req.get(), profiles, results)), sorted(step.want));
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_ProcessResults_PD
TEST(DisaggProfileHandler, TestHandler_ProcessResults_PD) {
  struct Case {
    std::string name;
    fwksched::ProfileResultMap results;
    bool expectErr;
    std::function<void(const fwksched::SchedulingResult&)> check;
  };
  const std::vector<Case> tests = {
      {"decode failed → error", {{defaultDecodeProfile, nullptr}}, true, nullptr},
      {"decode only",
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}},
       false,
       [](const fwksched::SchedulingResult& res) {
         EXPECT_EQ(res.PrimaryProfileName, defaultDecodeProfile);
         EXPECT_TRUE(res.ProfileResults.count(defaultDecodeProfile));
         EXPECT_FALSE(res.ProfileResults.count(defaultPrefillProfile));
         EXPECT_EQ(res.ProfileResults.at(defaultDecodeProfile)->TargetEndpoints[0]->GetMetadata()->Port, testPodPort);
       }},
      {"decode + prefill",
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultPrefillProfile, makeProfileRunResult({"pod2"})}},
       false,
       [](const fwksched::SchedulingResult& res) {
         EXPECT_TRUE(res.ProfileResults.count(defaultDecodeProfile));
         EXPECT_TRUE(res.ProfileResults.count(defaultPrefillProfile));
       }},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{});
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", decider, nullptr);
    fwksched::InferenceRequest req;
    auto out = h->ProcessResults(&req, tt.results);
    if (tt.expectErr) {
      ASSERT_TRUE(out.Err.has_value());
      EXPECT_EQ(out.Err->Text, "failed to find available decode workers");
      continue;
    }
    ASSERT_FALSE(out.Err.has_value()) << out.Err->Text;
    tt.check(*out.Value);
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_ProcessResults_NilRequest
TEST(DisaggProfileHandler, TestHandler_ProcessResults_NilRequest) {
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", nullptr, nullptr);
  const fwksched::ProfileResultMap results = {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}};
  auto out = h->ProcessResults(nullptr, results);
  ASSERT_TRUE(out.Err.has_value());
  EXPECT_NE(out.Err->Text.find("request is nil"), std::string::npos);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_CustomProfiles
// (the multimodal decider on an image request: a mockEncodeDecider answering true)
TEST(DisaggProfileHandler, TestHandler_Pick_CustomProfiles) {
  const fwksched::ProfileMap profiles = {
      {customDecodeProfile, mockProfile()}, {customPrefillProfile, mockProfile()}, {customEncodeProfile, mockProfile()}};
  auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{1, 0});
  auto h = NewDisaggProfileHandler(customDecodeProfile, customPrefillProfile, customEncodeProfile, decider,
                                   std::make_shared<mockEncodeDecider>(true));
  auto req = textChatRequest();
  // Stage 1: decode not run → run decode.
  fwksched::ProfileResultMap none;
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, none)), std::vector<std::string>{customDecodeProfile});
  // Stage 2: decode done, multimodal → run encode.
  fwksched::ProfileResultMap results = {{customDecodeProfile, makeProfileRunResult({"pod1"})}};
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, results)), std::vector<std::string>{customEncodeProfile});
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_ProcessResults_CustomProfiles
TEST(DisaggProfileHandler, TestHandler_ProcessResults_CustomProfiles) {
  auto h = NewDisaggProfileHandler(customDecodeProfile, customPrefillProfile, customEncodeProfile, nullptr, nullptr);
  const fwksched::ProfileResultMap results = {{customDecodeProfile, makeProfileRunResult({"pod1"})},
                                              {customPrefillProfile, makeProfileRunResult({"pod2"})},
                                              {customEncodeProfile, makeProfileRunResult({"pod3"})}};
  fwksched::InferenceRequest req;
  auto out = h->ProcessResults(&req, results);
  ASSERT_FALSE(out.Err.has_value());
  EXPECT_EQ(out.Value->PrimaryProfileName, customDecodeProfile);
  EXPECT_TRUE(out.Value->ProfileResults.count(customDecodeProfile));
  EXPECT_TRUE(out.Value->ProfileResults.count(customPrefillProfile));
  EXPECT_TRUE(out.Value->ProfileResults.count(customEncodeProfile));
}

}  // namespace
}  // namespace blis::router::disagg
