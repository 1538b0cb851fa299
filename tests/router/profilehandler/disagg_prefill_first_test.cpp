// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the StageOrder and prefill-first tests of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099.
// Multimodal features are not ported: where upstream gives the multimodal decider a multimodal request, a
// mockEncodeDecider answering true stands in, and on a text-only request one answering false.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/router/profilehandler/disagg_test_support.h"

namespace blis::router::disagg {
namespace {

using namespace test;  // NOLINT: the shared helpers of the pinned tests
using profiletest::profileNames;
using profiletest::sorted;
using Want = std::vector<std::string>;

std::shared_ptr<fwksched::SchedulerProfile> mockProfile() {
  return std::make_shared<profiletest::mockSchedulerProfile>();
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Factory_StageOrder
TEST(DisaggPrefillFirst, TestHandler_Factory_StageOrder) {
  struct Case {
    std::string name, params;
    bool expectErr;
    StageOrder expectOrder;
  };
  const std::vector<Case> tests = {
      {"default stageOrder is decode-first", "{}", false, StageOrderDecodeFirst},
      {"stageOrder prefill-first (kebab-case)", R"({"stageOrder": "prefill-first"})", false, StageOrderPrefillFirst},
      {"stageOrder PrefillFirst (PascalCase)", R"({"stageOrder": "PrefillFirst"})", false, StageOrderPrefillFirst},
      {"stageOrder decode-first (explicit)", R"({"stageOrder": "decode-first"})", false, StageOrderDecodeFirst},
      {"stageOrder DecodeFirst (PascalCase)", R"({"stageOrder": "DecodeFirst"})", false, StageOrderDecodeFirst},
      {"invalid stageOrder returns error", R"({"stageOrder": "INVALID_ORDER"})", true, ""},
      {"legacy flat format with stageOrder", R"({"decodeProfile": "decode", "stageOrder": "prefill-first"})", false,
       StageOrderPrefillFirst},
      {"prefill-first with deciders.prefill returns error",
       R"({"stageOrder": "prefill-first", "deciders": {"prefill": "prefix-based-pd-decider"}})", true, ""},
      {"prefill-first with legacy deciderPluginName returns error",
       R"({"stageOrder": "prefill-first", "decodeProfile": "decode", "deciderPluginName": "prefix-based-pd-decider"})",
       true, ""},
      {"prefill-first with legacy prefillDeciderPluginName returns error",
       R"({"stageOrder": "prefill-first", "decodeProfile": "decode", "prefillDeciderPluginName": "prefix-based-pd-decider"})",
       true, ""},
      {"prefill-first with deciders.encode succeeds",
       R"({"stageOrder": "prefill-first", "deciders": {"encode": "always-disagg-multimodal-decider"}})", false,
       StageOrderPrefillFirst},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    HandleWithDeciders h;
    const nlohmann::json raw = nlohmann::json::parse(tt.params);
    if (tt.expectErr) {
      EXPECT_THROW(HandlerFactory("h", &raw, h.handle), fwkplugin::PluginError);
      continue;
    }
    auto p = HandlerFactory("h", &raw, h.handle);
    ASSERT_NE(p, nullptr);
    auto handler = std::dynamic_pointer_cast<Handler>(p);
    ASSERT_NE(handler, nullptr);
    EXPECT_EQ(handler->stageOrder(), tt.expectOrder);
  }
  // ParseStageOrder's other spellings (upstream's switch): "", "decode", "prefill", snake case.
  EXPECT_EQ(ParseStageOrder(""), StageOrderDecodeFirst);
  EXPECT_EQ(ParseStageOrder("decode"), StageOrderDecodeFirst);
  EXPECT_EQ(ParseStageOrder("PREFILL"), StageOrderPrefillFirst);
  EXPECT_EQ(ParseStageOrder("prefill_first"), StageOrderPrefillFirst);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PrefillFirst_PD
TEST(DisaggPrefillFirst, TestHandler_Pick_PrefillFirst_PD) {
  auto req = completionsRequest(testLongPrompt);
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  struct Case {
    std::string name;
    fwksched::ProfileResultMap profileResults;
    Want want;
  };
  std::vector<Case> tests = {
      {"prefill not run → run prefill", {}, {defaultPrefillProfile}},
      {"prefill done → run decode", {{defaultPrefillProfile, makeProfileRunResult({"pod1"})}}, {defaultDecodeProfile}},
      {"prefill failed (nil) → run decode", {{defaultPrefillProfile, nullptr}}, {defaultDecodeProfile}},
      {"decode done → done",
       {{defaultPrefillProfile, makeProfileRunResult({"pod1"})}, {defaultDecodeProfile, makeProfileRunResult({"pod2"})}},
       {}},
      {"decode failed (nil) → done",
       {{defaultPrefillProfile, makeProfileRunResult({"pod1"})}, {defaultDecodeProfile, nullptr}},
       {}},
      {"decode failed (0 endpoints) → done",
       {{defaultPrefillProfile, makeProfileRunResult({"pod1"})},
        {defaultDecodeProfile, std::make_shared<fwksched::ProfileRunResult>()}},
       {}},
  };
  for (Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", nullptr, nullptr)
                 ->WithStageOrder(StageOrderPrefillFirst);
    EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, tt.profileResults)), sorted(tt.want));
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PrefillFirst_EPD_Full
TEST(DisaggPrefillFirst, TestHandler_Pick_PrefillFirst_EPD_Full) {
  const fwksched::ProfileMap profiles = {
      {defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}, {defaultEncodeProfile, mockProfile()}};
  struct Case {
    std::string name;
    bool multimodal;  // multimodalReq (true) or textReq (false): the encode decider's answer
    fwksched::ProfileResultMap profileResults;
    Want want;
  };
  std::vector<Case> tests = {
      {"nothing run, multimodal → run prefill first", true, {}, {defaultPrefillProfile}},
      {"prefill done, multimodal → run encode next", true, {{defaultPrefillProfile, makeProfileRunResult({"pod1"})}},
       {defaultEncodeProfile}},
      {"prefill done, text-only → skip encode, run decode", false,
       {{defaultPrefillProfile, makeProfileRunResult({"pod1"})}}, {defaultDecodeProfile}},
      {"prefill done, encode done → run decode", true,
       {{defaultPrefillProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, makeProfileRunResult({"pod2"})}},
       {defaultDecodeProfile}},
      {"all three done → done", true,
       {{defaultPrefillProfile, makeProfileRunResult({"pod1"})},
        {defaultEncodeProfile, makeProfileRunResult({"pod2"})},
        {defaultDecodeProfile, makeProfileRunResult({"pod3"})}},
       {}},
      {"prefill failed, multimodal → run encode next", true, {{defaultPrefillProfile, nullptr}}, {defaultEncodeProfile}},
  };
  for (Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, defaultEncodeProfile, nullptr,
                                     std::make_shared<mockEncodeDecider>(tt.multimodal))
                 ->WithStageOrder(StageOrderPrefillFirst);
    auto req = textChatRequest();
    EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, tt.profileResults)), sorted(tt.want));
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PrefillFirst_StampsPeerEndpointBeforeDecode
TEST(DisaggPrefillFirst, TestHandler_Pick_PrefillFirst_StampsPeerEndpointBeforeDecode) {
  auto req = completionsRequest(testLongPrompt);
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  auto prefillResult = makeProfileRunResult({"pod-prefill"});
  fwksched::ProfileResultMap profileResults = {{defaultPrefillProfile, prefillResult}};
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", nullptr, nullptr)
               ->WithStageOrder(StageOrderPrefillFirst);
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, profileResults)), Want{defaultDecodeProfile})
      << "decode must run next";
  auto peer = fwksched::ReadRequestAttribute<fwksched::EndpointPtr>(*req, PeerEndpointAttributeKey);
  ASSERT_TRUE(peer.has_value()) << "peer endpoint attribute must be published before decode runs";
  EXPECT_EQ(*peer, prefillResult->TargetEndpoints[0]);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PrefillFirst_NoPeerEndpointWhenPrefillFailed
TEST(DisaggPrefillFirst, TestHandler_Pick_PrefillFirst_NoPeerEndpointWhenPrefillFailed) {
  auto req = completionsRequest(testLongPrompt);
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", nullptr, nullptr)
               ->WithStageOrder(StageOrderPrefillFirst);
  fwksched::ProfileResultMap results = {{defaultPrefillProfile, nullptr}};
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, results)), Want{defaultDecodeProfile}) << "decode must run next";
  EXPECT_FALSE(fwksched::ReadRequestAttribute<fwksched::EndpointPtr>(*req, PeerEndpointAttributeKey).has_value())
      << "peer endpoint attribute must not be published when prefill failed";
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PrefillFirst_CustomProfiles
TEST(DisaggPrefillFirst, TestHandler_Pick_PrefillFirst_CustomProfiles) {
  const fwksched::ProfileMap profiles = {
      {customDecodeProfile, mockProfile()}, {customPrefillProfile, mockProfile()}, {customEncodeProfile, mockProfile()}};
  auto h = NewDisaggProfileHandler(customDecodeProfile, customPrefillProfile, customEncodeProfile, nullptr,
                                   std::make_shared<mockEncodeDecider>(true))
               ->WithStageOrder(StageOrderPrefillFirst);
  auto req = textChatRequest();
  fwksched::ProfileResultMap none;
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, none)), Want{customPrefillProfile});
  fwksched::ProfileResultMap results = {{customPrefillProfile, makeProfileRunResult({"pod1"})}};
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, results)), Want{customEncodeProfile});
  results[customEncodeProfile] = makeProfileRunResult({"pod2"});
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, results)), Want{customDecodeProfile});
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_ProcessResults_PrefillFirst
TEST(DisaggPrefillFirst, TestHandler_ProcessResults_PrefillFirst) {
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "", nullptr, nullptr)
               ->WithStageOrder(StageOrderPrefillFirst);
  const fwksched::ProfileResultMap results = {{defaultDecodeProfile, makeProfileRunResult({"decode-pod"})},
                                              {defaultPrefillProfile, makeProfileRunResult({"prefill-pod"})}};
  fwksched::InferenceRequest req;
  auto out = h->ProcessResults(&req, results);
  ASSERT_FALSE(out.Err.has_value());
  EXPECT_EQ(out.Value->PrimaryProfileName, defaultDecodeProfile);
  EXPECT_TRUE(out.Value->ProfileResults.count(defaultDecodeProfile));
  EXPECT_TRUE(out.Value->ProfileResults.count(defaultPrefillProfile));
}

}  // namespace
}  // namespace blis::router::disagg
