// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the E/PD, E/P/D, nil-decider, PreRequest, peer-endpoint and stage-order tests
// of pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099.
// Multimodal features are not ported: where upstream gives the multimodal decider
// (NewAlwaysDisaggEncodeDecider) a multimodal request, a mockEncodeDecider answering true stands in, and on a
// text-only request one answering false (the multimodal decider's answers on those requests).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "router/common/routing/common.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.h"
#include "tests/router/profilehandler/disagg_test_support.h"

namespace blis::router::disagg {
namespace {

using namespace test;  // NOLINT: the shared helpers of the pinned tests
using profiletest::profileNames;
using profiletest::sorted;

std::shared_ptr<fwksched::SchedulerProfile> mockProfile() {
  return std::make_shared<profiletest::mockSchedulerProfile>();
}
// The multimodal decider's stand-in on a request with (true) or without (false) multimodal content.
std::shared_ptr<deciderPlugin> mmDecider(bool multimodal) { return std::make_shared<mockEncodeDecider>(multimodal); }
// withPrompt(chatRequest(true, false, false), testLongPrompt): the text part of upstream's multimodal request.
std::shared_ptr<fwksched::InferenceRequest> multimodalLong() { return withPrompt(textChatRequest(), testLongPrompt); }

const fwksched::ProfileMap& threeProfiles() {
  static const fwksched::ProfileMap p = {
      {defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}, {defaultEncodeProfile, mockProfile()}};
  return p;
}

using Want = std::vector<std::string>;

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_EPD
TEST(DisaggProfileHandlerStages, TestHandler_Pick_EPD) {
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultEncodeProfile, mockProfile()}};
  struct Case {
    std::string name;
    bool multimodal;
    fwksched::ProfileResultMap results;
    Want want;
  };
  std::vector<Case> tests = {
      {"decode not run → run decode", true, {}, {defaultDecodeProfile}},
      {"decode failed → done", true, {{defaultDecodeProfile, nullptr}}, {}},
      {"no multimodal → skip encode", false, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {}},
      {"image → run encode", true, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {defaultEncodeProfile}},
      {"video → run encode", true, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {defaultEncodeProfile}},
      {"audio → run encode", true, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {defaultEncodeProfile}},
      {"encode failed → done",
       true,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, nullptr}},
       {}},
      {"all profiles done → done",
       true,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, makeProfileRunResult({"pod2"})}},
       {}},
  };
  for (Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, "", defaultEncodeProfile, nullptr, mmDecider(tt.multimodal));
    auto req = textChatRequest();
    EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, tt.results)), sorted(tt.want));
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_EPD_EncodeDecider
TEST(DisaggProfileHandlerStages, TestHandler_Pick_EPD_EncodeDecider) {
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultEncodeProfile, mockProfile()}};
  struct Case {
    std::string name;
    bool allow;
    Want want;
  };
  const std::vector<Case> tests = {
      {"decider approves → run encode", true, {defaultEncodeProfile}},
      {"decider rejects → skip encode", false, {}},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    fwksched::ProfileResultMap results = {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}};
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, "", defaultEncodeProfile, nullptr,
                                     std::make_shared<mockEncodeDecider>(tt.allow));
    auto req = textChatRequest();
    EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, results)), tt.want);
  }
}

// The ProcessResults tables of the E/PD, E/P/D and nil-decider tests: results in, an error or checks out.
struct ProcessCase {
  std::string name;
  std::shared_ptr<deciderPlugin> pdDecider;
  std::shared_ptr<deciderPlugin> encodeDecider;
  fwksched::ProfileResultMap results;
  bool expectErr;
  std::vector<std::string> contains;
  std::vector<std::string> notContains;
};

void runProcessCases(const std::vector<ProcessCase>& tests, const std::string& prefillProfile) {
  for (const ProcessCase& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, prefillProfile, defaultEncodeProfile, tt.pdDecider,
                                     tt.encodeDecider);
    fwksched::InferenceRequest req;
    auto out = h->ProcessResults(&req, tt.results);
    if (tt.expectErr) {
      EXPECT_TRUE(out.Err.has_value());
      EXPECT_EQ(out.Value, nullptr);
      continue;
    }
    ASSERT_FALSE(out.Err.has_value()) << out.Err->Text;
    EXPECT_EQ(out.Value->PrimaryProfileName, defaultDecodeProfile);
    for (const auto& n : tt.contains) EXPECT_TRUE(out.Value->ProfileResults.count(n)) << n;
    for (const auto& n : tt.notContains) EXPECT_FALSE(out.Value->ProfileResults.count(n)) << n;
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_ProcessResults_EPD
TEST(DisaggProfileHandlerStages, TestHandler_ProcessResults_EPD) {
  auto d = mmDecider(true);
  const fwksched::ProfileResultMap emptyEncode = {
      {defaultDecodeProfile, makeProfileRunResult({"pod1"})},
      {defaultEncodeProfile, std::make_shared<fwksched::ProfileRunResult>()}};
  runProcessCases(
      {
          {"decode failed → error", nullptr, d, {{defaultDecodeProfile, nullptr}}, true, {}, {}},
          {"decode only", nullptr, d, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, false,
           {defaultDecodeProfile}, {defaultEncodeProfile}},
          {"decode + encode", nullptr, d,
           {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, makeProfileRunResult({"pod2"})}},
           false, {defaultDecodeProfile, defaultEncodeProfile}, {}},
          {"encode nil (rejected) → omitted", nullptr, d,
           {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, nullptr}}, false,
           {defaultDecodeProfile}, {defaultEncodeProfile}},
          {"encode ran but returned 0 endpoints - included in results", nullptr, d, emptyEncode, false,
           {defaultDecodeProfile, defaultEncodeProfile}, {}},
      },
      "");
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, "", defaultEncodeProfile, nullptr, d);
  fwksched::InferenceRequest req;
  EXPECT_TRUE(h->ProcessResults(&req, emptyEncode).Value->ProfileResults.at(defaultEncodeProfile)->TargetEndpoints.empty());
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_EPD_Full
TEST(DisaggProfileHandlerStages, TestHandler_Pick_EPD_Full) {
  struct Case {
    std::string name;
    bool multimodal;  // multimodalLong (true) or completionsRequest(testLongPrompt) (false)
    int nonCachedTokens;
    int cachedTokens;
    fwksched::ProfileResultMap results;
    Want want;
  };
  std::vector<Case> tests = {
      {"decode not run → run decode", true, 1, 0, {}, {defaultDecodeProfile}},
      {"decode failed → done", true, 1, 0, {{defaultDecodeProfile, nullptr}}, {}},
      {"multimodal → run encode next", true, 1, 0, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}},
       {defaultEncodeProfile}},
      {"text-only, high uncached tokens → skip encode, run prefill", false, 1, 0,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {defaultPrefillProfile}},
      {"text-only, prefill not needed → done", false, 100, 0, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}},
       {}},
      {"encode failed → fall through, run prefill", true, 1, 0,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, nullptr}},
       {defaultPrefillProfile}},
      {"encode done → run prefill", true, 1, 0,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, makeProfileRunResult({"pod2"})}},
       {defaultPrefillProfile}},
      {"all three done → done", true, 1, 0,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})},
        {defaultEncodeProfile, makeProfileRunResult({"pod2"})},
        {defaultPrefillProfile, makeProfileRunResult({"pod3"})}},
       {}},
  };
  for (Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{tt.nonCachedTokens, 0});
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, defaultEncodeProfile, decider,
                                     mmDecider(tt.multimodal));
    auto req = tt.multimodal ? multimodalLong() : completionsRequest(testLongPrompt);
    // Both request kinds carry a completions body, whose prompt gives upstream's input token count.
    const int inputTokens = static_cast<int>(req->Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken;
    injectPrefixCache(tt.results, tt.cachedTokens, inputTokens);
    EXPECT_EQ(profileNames(h->Pick(req.get(), threeProfiles(), tt.results)), sorted(tt.want));
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_EPD_Full_EncodeDecider
TEST(DisaggProfileHandlerStages, TestHandler_Pick_EPD_Full_EncodeDecider) {
  struct Case {
    std::string name;
    bool allow;
    Want wantNext;
  };
  const std::vector<Case> tests = {
      {"decider approves → run encode next", true, {defaultEncodeProfile}},
      {"decider rejects → skip encode, run prefill next", false, {defaultPrefillProfile}},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{1, 0});
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, defaultEncodeProfile, decider,
                                     std::make_shared<mockEncodeDecider>(tt.allow));
    fwksched::ProfileResultMap results = {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}};
    injectPrefixCache(results, 0, static_cast<int>(testLongPrompt.size()) / averageCharactersPerToken);
    auto req = multimodalLong();
    EXPECT_EQ(profileNames(h->Pick(req.get(), threeProfiles(), results)), tt.wantNext);
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_ProcessResults_EPD_Full
TEST(DisaggProfileHandlerStages, TestHandler_ProcessResults_EPD_Full) {
  auto pd = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{});
  auto mm = mmDecider(true);
  runProcessCases(
      {
          {"decode failed → error", pd, mm, {{defaultDecodeProfile, nullptr}}, true, {}, {}},
          {"decode only", pd, mm, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, false,
           {defaultDecodeProfile}, {defaultEncodeProfile, defaultPrefillProfile}},
          {"all three stages", pd, mm,
           {{defaultDecodeProfile, makeProfileRunResult({"pod1"})},
            {defaultEncodeProfile, makeProfileRunResult({"pod2"})},
            {defaultPrefillProfile, makeProfileRunResult({"pod3"})}},
           false, {defaultDecodeProfile, defaultEncodeProfile, defaultPrefillProfile}, {}},
          {"encode nil → omitted", pd, mm,
           {{defaultDecodeProfile, makeProfileRunResult({"pod1"})},
            {defaultEncodeProfile, nullptr},
            {defaultPrefillProfile, makeProfileRunResult({"pod3"})}},
           false, {defaultDecodeProfile, defaultPrefillProfile}, {defaultEncodeProfile}},
      },
      defaultPrefillProfile);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_NilDeciders
TEST(DisaggProfileHandlerStages, TestHandler_Pick_NilDeciders) {
  struct Case {
    std::string name;
    std::shared_ptr<deciderPlugin> pdDecider;
    std::shared_ptr<deciderPlugin> encodeDecider;
    bool textOnly;  // completionsRequest(testLongPrompt) instead of multimodalLong
    fwksched::ProfileResultMap results;
    Want want;
    std::string description;
  };
  std::vector<Case> tests = {
      {"both deciders nil, decode not run → run decode", nullptr, nullptr, false, {}, {defaultDecodeProfile},
       "Should run decode first regardless of nil deciders"},
      {"both deciders nil, decode done → skip both encode and prefill", nullptr, nullptr, false,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {},
       "With nil deciders, both encode and prefill should be skipped"},
      {"pdDecider nil, encodeDecider present, multimodal → run encode", nullptr, mmDecider(true), false,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {defaultEncodeProfile},
       "Nil pdDecider should not affect encode stage"},
      {"pdDecider nil, encodeDecider present, encode done → skip prefill", nullptr, mmDecider(true), false,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, makeProfileRunResult({"pod2"})}},
       {}, "Nil pdDecider should cause prefill to be skipped"},
      {"encodeDecider nil, pdDecider present, text-only → run prefill", newAlwaysDisaggPDDecider(), nullptr, true,
       {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {defaultPrefillProfile},
       "Nil encodeDecider should not affect prefill stage for text-only"},
      {"encodeDecider nil, pdDecider present, multimodal → skip encode, run prefill", newAlwaysDisaggPDDecider(),
       nullptr, false, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}}, {defaultPrefillProfile},
       "Nil encodeDecider should skip encode even for multimodal, then run prefill"},
  };
  for (Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, defaultEncodeProfile, tt.pdDecider,
                                     tt.encodeDecider);
    auto req = tt.textOnly ? completionsRequest(testLongPrompt) : multimodalLong();
    injectPrefixCache(tt.results, 0, static_cast<int>(req->Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken);
    EXPECT_EQ(profileNames(h->Pick(req.get(), threeProfiles(), tt.results)), sorted(tt.want)) << tt.description;
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_ProcessResults_NilDeciders
TEST(DisaggProfileHandlerStages, TestHandler_ProcessResults_NilDeciders) {
  runProcessCases(
      {
          {"both deciders nil, decode only", nullptr, nullptr, {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}},
           false, {defaultDecodeProfile}, {defaultEncodeProfile, defaultPrefillProfile}},
          {"pdDecider nil, encode ran successfully", nullptr, mmDecider(true),
           {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultEncodeProfile, makeProfileRunResult({"pod2"})}},
           false, {defaultDecodeProfile, defaultEncodeProfile}, {defaultPrefillProfile}},
          {"encodeDecider nil, prefill ran successfully", newAlwaysDisaggPDDecider(), nullptr,
           {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}, {defaultPrefillProfile, makeProfileRunResult({"pod3"})}},
           false, {defaultDecodeProfile, defaultPrefillProfile}, {defaultEncodeProfile}},
          {"both deciders nil, decode failed → error", nullptr, nullptr, {{defaultDecodeProfile, nullptr}}, true, {}, {}},
      },
      defaultPrefillProfile);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Factory_NilDeciders
TEST(DisaggProfileHandlerStages, TestHandler_Factory_NilDeciders) {
  const std::vector<std::pair<std::string, std::string>> tests = {
      {"prefillProfile set, no pdDecider → valid (decider optional)", R"({"profiles": {"prefill": "prefill"}})"},
      {"encodeProfile set, no encodeDecider → valid (decider optional)", R"({"profiles": {"encode": "encode"}})"},
      {"both profiles set, no deciders → valid", R"({"profiles": {"prefill": "prefill", "encode": "encode"}})"},
      {"no profiles, no deciders → valid (decode-only)", "{}"},
  };
  for (const auto& [name, params] : tests) {
    SCOPED_TRACE(name);
    HandleWithDeciders h;
    const nlohmann::json raw = nlohmann::json::parse(params);
    auto p = std::dynamic_pointer_cast<Handler>(HandlerFactory("h", &raw, h.handle));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->pdDecider(), nullptr);
    EXPECT_EQ(p->encodeDecider(), nullptr);
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestBothProfileAndHeadersHandlerPreRequest
TEST(DisaggProfileHandlerStages, TestBothProfileAndHeadersHandlerPreRequest) {
  auto profileHandler = NewDisaggProfileHandler("decode", "prefill", "encode", nullptr, nullptr)->WithName("profile");
  auto headersHandler = NewHeadersHandler("prefill", "encode")->WithName("headers");
  fwkdl::EndpointMetadata meta;
  meta.ID = {"default", "prefill-pod"};
  meta.Address = "10.0.0.5";
  meta.Port = "8080";
  auto ep = fwksched::NewEndpoint(meta, fwkdl::Metrics{});
  fwksched::InferenceRequest request;
  request.RequestID = "req-both";
  fwksched::SchedulingResult result;
  result.PrimaryProfileName = "decode";
  result.ProfileResults["prefill"] = std::make_shared<fwksched::ProfileRunResult>();
  result.ProfileResults["prefill"]->TargetEndpoints = {ep};
  EXPECT_FALSE(profileHandler->PreRequest(&request, &result).has_value());
  // Both are PreRequest plugins (upstream's compile-time assertions).
  EXPECT_NE(std::dynamic_pointer_cast<requestcontrol::PreRequestPlugin>(
                std::static_pointer_cast<fwksched::ProfileHandler>(profileHandler)),
            nullptr);
  headersHandler->PreRequest(&request, &result);
  EXPECT_EQ(request.Headers[routing::PrefillEndpointHeader], routing::JoinHostPort("10.0.0.5", "8080"))
      << "both handlers set the same prefill header — redundant but no conflict";
  EXPECT_EQ(request.Headers[routing::PrefillEndpointHeader], "10.0.0.5:8080");
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_PreRequest_EncodeMultipleEndpoints
TEST(DisaggProfileHandlerStages, TestHandler_PreRequest_EncodeMultipleEndpoints) {
  auto h = NewDisaggProfileHandler("decode", "", "encode", nullptr, nullptr);
  fwkdl::EndpointMetadata m1, m2;
  m1.Address = "10.0.0.1";
  m1.Port = "8000";
  m2.Address = "10.0.0.2";
  m2.Port = "8000";
  fwksched::InferenceRequest request;
  fwksched::SchedulingResult result;
  result.PrimaryProfileName = "decode";
  result.ProfileResults["encode"] = std::make_shared<fwksched::ProfileRunResult>();
  result.ProfileResults["encode"]->TargetEndpoints = {fwksched::NewEndpoint(m1, std::nullopt),
                                                      fwksched::NewEndpoint(m2, std::nullopt)};
  h->PreRequest(&request, &result);
  EXPECT_EQ(request.Headers[routing::EncoderEndpointsHeader], "10.0.0.1:8000,10.0.0.2:8000");
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PD_StampsPeerEndpointBeforePrefill
TEST(DisaggProfileHandlerStages, TestHandler_Pick_PD_StampsPeerEndpointBeforePrefill) {
  auto req = completionsRequest(testLongPrompt);
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  auto decodeResult = makeProfileRunResult({"pod1"});
  fwksched::ProfileResultMap profileResults = {{defaultDecodeProfile, decodeResult}};
  const int inputTokens = static_cast<int>(req->Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken;
  injectPrefixCache(profileResults, 2, inputTokens);  // few cached tokens → prefill needed
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "",
                                   NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{4, 0}), nullptr);
  EXPECT_EQ(profileNames(h->Pick(req.get(), profiles, profileResults)), Want{defaultPrefillProfile}) << "prefill must run";
  auto peer = fwksched::ReadRequestAttribute<fwksched::EndpointPtr>(*req, PeerEndpointAttributeKey);
  ASSERT_TRUE(peer.has_value()) << "peer endpoint attribute must be published before prefill runs";
  EXPECT_EQ(*peer, decodeResult->TargetEndpoints[0]);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 TestHandler_Pick_PD_NoPeerEndpointWhenPrefillSkipped
TEST(DisaggProfileHandlerStages, TestHandler_Pick_PD_NoPeerEndpointWhenPrefillSkipped) {
  auto req = completionsRequest(testLongPrompt);
  const fwksched::ProfileMap profiles = {{defaultDecodeProfile, mockProfile()}, {defaultPrefillProfile, mockProfile()}};
  fwksched::ProfileResultMap profileResults = {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}};
  const int inputTokens = static_cast<int>(req->Body->Completions->Prompt.Raw.size()) / averageCharactersPerToken;
  injectPrefixCache(profileResults, inputTokens, inputTokens);  // fully cached → no prefill needed
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, "",
                                   NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{4, 0}), nullptr);
  EXPECT_TRUE(h->Pick(req.get(), profiles, profileResults).empty()) << "prefill must be skipped";
  EXPECT_FALSE(fwksched::ReadRequestAttribute<fwksched::EndpointPtr>(*req, PeerEndpointAttributeKey).has_value())
      << "peer endpoint attribute must not be published when prefill is skipped";
}

// Original to BLIS (no upstream test): Go's Pick writes its "declined" nil marker into the caller's map, so the
// scheduler's next Pick does not ask the encode decider again and ProcessResults sees the nil entry.
TEST(DisaggProfileHandlerStages, DeclinedStageIsMarkedInCallersResults) {
  auto encode = std::make_shared<mockEncodeDecider>(false);
  auto h = NewDisaggProfileHandler(defaultDecodeProfile, defaultPrefillProfile, defaultEncodeProfile,
                                   newAlwaysDisaggPDDecider(), encode);
  auto req = completionsRequest(testLongPrompt);
  fwksched::ProfileResultMap results = {{defaultDecodeProfile, makeProfileRunResult({"pod1"})}};
  EXPECT_EQ(profileNames(h->Pick(req.get(), threeProfiles(), results)), Want{defaultPrefillProfile});
  ASSERT_TRUE(results.count(defaultEncodeProfile));
  EXPECT_EQ(results.at(defaultEncodeProfile), nullptr);
  results[defaultPrefillProfile] = makeProfileRunResult({"pod2"});
  EXPECT_TRUE(h->Pick(req.get(), threeProfiles(), results).empty());
  EXPECT_EQ(encode->calls, 1);
}

}  // namespace
}  // namespace blis::router::disagg
