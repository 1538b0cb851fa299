// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/scheduler_test.go@71f4f099: the scheduler with the
// disagg profile handler, the by-label role filters, the load-aware and prefix-cache scorers and the max-score
// picker. Go's cmp.Diff (ignoring scores and scored candidates) becomes a comparison of profile names and
// target endpoint identities; the picker's tie-breaking draws come from a seeded stream (no case has a tie).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/scheduling/filter/bylabel/filter.h"
#include "router/epp/framework/plugins/scheduling/picker/common.h"
#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.h"
#include "router/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"
#include "router/epp/scheduling/scheduler.h"
#include "router/epp/scheduling/scheduler_profile.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router::disagg {
namespace {

const std::string prefill = "prefill";
const std::string decode = "decode";
constexpr int averageCharactersPerToken = 4;

// completionsBody: a completions body whose tokenized prompt carries len(prompt)/4 token IDs.
std::shared_ptr<fwkrh::InferenceRequestBody> completionsBody(const std::string& prompt) {
  auto body = std::make_shared<fwkrh::InferenceRequestBody>();
  body->Completions = fwkrh::CompletionsRequest{};
  body->Completions->Prompt.Raw = prompt;
  fwkrh::TokenizedPrompt tp;
  tp.PerPromptTokens = {std::vector<std::uint32_t>(prompt.size() / averageCharactersPerToken)};
  body->TokenizedPrompt = tp;
  return body;
}

fwksched::EndpointPtr endpoint(const std::string& name, const std::string& addr, const std::string& role,
                               int waitingQueueSize) {
  fwkdl::EndpointMetadata meta;
  meta.ID = {"", name};
  meta.Address = addr;
  if (!role.empty()) meta.Labels[bylabel::RoleLabel] = role;
  fwkdl::Metrics metrics;
  metrics.WaitingQueueSize = waitingQueueSize;
  return fwksched::NewEndpoint(meta, metrics, fwkdl::NewAttributes());
}

// A result as profile name -> the target endpoints (unwrapped from their ScoredEndpoint).
using Expected = std::map<std::string, std::vector<fwksched::EndpointPtr>>;

void expectResult(const fwksched::SchedulingResult* got, const Expected& want) {
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->PrimaryProfileName, decode);
  std::vector<std::string> gotNames, wantNames;
  for (const auto& [name, r] : got->ProfileResults) gotNames.push_back(name);
  for (const auto& [name, eps] : want) wantNames.push_back(name);
  ASSERT_EQ(gotNames, wantNames);
  for (const auto& [name, eps] : want) {
    const auto& r = got->ProfileResults.at(name);
    ASSERT_NE(r, nullptr) << name;
    ASSERT_EQ(r->TargetEndpoints.size(), eps.size()) << name;
    for (std::size_t i = 0; i < eps.size(); ++i) {
      auto scored = std::dynamic_pointer_cast<fwksched::ScoredEndpoint>(r->TargetEndpoints[i]);
      const fwksched::EndpointPtr ep = scored ? scored->Endpoint : r->TargetEndpoints[i];
      EXPECT_EQ(ep, eps[i]) << name << " target " << i << ": got " << ep->GetMetadata()->ID.Name << ", want "
                            << eps[i]->GetMetadata()->ID.Name;
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/scheduler_test.go@71f4f099 TestPDSchedule
TEST(DisaggScheduler, TestPDSchedule) {
  auto endpoint1 = endpoint("endpoint1", "1.2.3.4", bylabel::RolePrefill, 0);
  auto endpoint2 = endpoint("endpoint2", "5.6.7.8", bylabel::RoleDecode, 0);
  auto noRoleEndpoint1 = endpoint("noRoleEndpoint1", "1.1.1.1", "", 2);
  const Expected prefillDecodeResult = {{decode, {endpoint2}}, {prefill, {endpoint1}}};
  const Expected decodeResult = {{decode, {endpoint2}}};
  struct Case {
    std::string name;
    std::string targetModel;
    std::string prompt;
    std::vector<fwksched::EndpointPtr> input;
    std::optional<Expected> wantRes;
    std::optional<Expected> wantRes2;  // a subsequent call: the prefix cache now covers the prompt
    bool err;
  };
  const std::vector<Case> tests = {
      {"no candidate endpoints", "any-model", "12345678901", {}, std::nullopt, std::nullopt, true},
      // endpoint2 is the only endpoint with the decode role
      {"one decode endpoint, long prompt", "critical", "12345678901", {endpoint2}, decodeResult, std::nullopt, false},
      // no decode endpoint
      {"one prefill endpoint, long prompt", "critical", "12345678901", {endpoint1}, std::nullopt, std::nullopt, true},
      {"1P1D - long prompt", "critical", "12345678906", {endpoint1, endpoint2}, prefillDecodeResult, decodeResult, false},
      // the prompt is too short for disaggregation
      {"1P1Dshort", "critical", "12345", {endpoint1, endpoint2}, decodeResult, decodeResult, false},
      {"TestRolesWithNoDecode", "critical", "12345678901", {endpoint1, noRoleEndpoint1},
       Expected{{decode, {noRoleEndpoint1}}, {prefill, {endpoint1}}}, std::nullopt, false},
      // endpoint2 scores above noRoleEndpoint1 (shorter queue) in the decode profile
      {"1P2D - long prompt", "critical", "1234567890123456789012345678901234567890",
       {endpoint1, endpoint2, noRoleEndpoint1}, prefillDecodeResult, decodeResult, false},
  };
  for (const Case& test : tests) {
    SCOPED_TRACE(test.name);
    testing::SplitMixStream rand(42);
    auto prefixScorer = prefix::New(prefix::PrefixCacheScorerPluginType, "");
    auto prefillSchedulerProfile = scheduling::NewSchedulerProfile()
                                       ->WithFilters({bylabel::NewPrefillRole()})
                                       ->WithPicker(maxscore::NewMaxScorePicker(picker::DefaultMaxNumOfEndpoints, rand));
    ASSERT_FALSE(prefillSchedulerProfile->AddPlugins({scheduling::NewWeightedScorer(prefixScorer, 50)}).has_value());
    auto decodeSchedulerProfile =
        scheduling::NewSchedulerProfile()
            ->WithFilters({bylabel::NewDecodeRole()})
            ->WithScorers({scheduling::NewWeightedScorer(loadaware::NewLoadAware(loadaware::QueueThresholdDefault), 1)})
            ->WithPicker(maxscore::NewMaxScorePicker(picker::DefaultMaxNumOfEndpoints, rand));
    ASSERT_FALSE(decodeSchedulerProfile->AddPlugins({scheduling::NewWeightedScorer(prefixScorer, 0)}).has_value());
    auto deciderPlugin = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{2, 0});
    auto profileHandle = NewDisaggProfileHandler(decode, prefill, "", deciderPlugin, nullptr);
    auto schedulerConfig =
        scheduling::NewSchedulerConfig(profileHandle, {{prefill, prefillSchedulerProfile}, {decode, decodeSchedulerProfile}});
    auto scheduler = scheduling::NewSchedulerWithConfig(*schedulerConfig);

    fwksched::InferenceRequest req;
    req.RequestID = "req-" + test.name;
    req.TargetModel = test.targetModel;
    req.Body = completionsBody(test.prompt);
    const int inputTokens = static_cast<int>(test.prompt.size()) / averageCharactersPerToken;
    for (const auto& pod : test.input) {
      pod->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(0, inputTokens, 1));
    }
    auto got = scheduler->Schedule(&req, test.input);
    EXPECT_EQ(test.err, got.Err.has_value()) << (got.Err ? got.Err->Text : "");
    if (test.wantRes) {
      expectResult(got.Value.get(), *test.wantRes);
    } else {
      EXPECT_EQ(got.Value, nullptr);
    }
    if (test.wantRes2) {  // the prefix match on the decode pod now covers the prompt
      for (const auto& pod : test.input) {
        pod->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(),
                 attrprefix::NewPrefixCacheMatchInfo(inputTokens, inputTokens, 1));
      }
      auto got2 = scheduler->Schedule(&req, test.input);
      EXPECT_EQ(test.err, got2.Err.has_value());
      expectResult(got2.Value.get(), *test.wantRes2);
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/scheduler_test.go@71f4f099 TestPDSchedule_PrefillFirst
TEST(DisaggScheduler, TestPDSchedule_PrefillFirst) {
  auto endpoint1 = endpoint("endpoint1", "1.2.3.4", bylabel::RolePrefill, 0);
  auto endpoint2 = endpoint("endpoint2", "5.6.7.8", bylabel::RoleDecode, 0);
  testing::SplitMixStream rand(7);
  auto prefillSchedulerProfile = scheduling::NewSchedulerProfile()
                                     ->WithFilters({bylabel::NewPrefillRole()})
                                     ->WithPicker(maxscore::NewMaxScorePicker(picker::DefaultMaxNumOfEndpoints, rand));
  auto decodeSchedulerProfile = scheduling::NewSchedulerProfile()
                                    ->WithFilters({bylabel::NewDecodeRole()})
                                    ->WithPicker(maxscore::NewMaxScorePicker(picker::DefaultMaxNumOfEndpoints, rand));
  auto profileHandle = NewDisaggProfileHandler(decode, prefill, "", nullptr, nullptr)->WithStageOrder(StageOrderPrefillFirst);
  auto schedulerConfig =
      scheduling::NewSchedulerConfig(profileHandle, {{prefill, prefillSchedulerProfile}, {decode, decodeSchedulerProfile}});
  auto scheduler = scheduling::NewSchedulerWithConfig(*schedulerConfig);
  fwksched::InferenceRequest req;
  req.RequestID = "req-prefill-first";
  req.TargetModel = "critical";
  req.Body = completionsBody("12345678906");
  auto got = scheduler->Schedule(&req, {endpoint1, endpoint2});
  ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
  expectResult(got.Value.get(), {{decode, {endpoint2}}, {prefill, {endpoint1}}});
  // The prefill pick was published for the decode profile (the peer-endpoint attribute).
  auto peer = fwksched::ReadRequestAttribute<fwksched::EndpointPtr>(req, PeerEndpointAttributeKey);
  ASSERT_TRUE(peer.has_value());
  auto scored = std::dynamic_pointer_cast<fwksched::ScoredEndpoint>(*peer);
  EXPECT_EQ(scored ? scored->Endpoint : *peer, endpoint1);
}

}  // namespace
}  // namespace blis::router::disagg
