// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler_profile_test.go@71f4f099; the tracing tests
// (TestRequestSpanAttributes, TestRunScorerPluginsTracing, TestRunScorerEmptyCandidateAvg) are not
// transcribed: tracing is not ported.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/scheduling/scheduler_profile.h"
#include "tests/router/scheduling/test_plugin.h"

namespace blis::router::scheduling {
namespace {

using testplugins::countingFilter;
using testplugins::filterOnlyPlugin;
using testplugins::makeTestPlugin;
using testplugins::orderTrackingFilter;
using testplugins::pod;
using testplugins::testPlugin;

fwksched::InferenceRequest newRequest() {
  fwksched::InferenceRequest request;
  request.TargetModel = "test-model";
  request.RequestID = "request-under-test";  // uuid.NewString() upstream; its value is never read
  return request;
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestSchedulePlugins
TEST(SchedulerProfile, TestSchedulePlugins) {
  auto tp1 = makeTestPlugin("test1");
  tp1->ScoreRes = 0.3;
  tp1->FilterRes = {{"", "pod1"}, {"", "pod2"}, {"", "pod3"}};
  auto tp2 = makeTestPlugin("test2");
  tp2->ScoreRes = 0.8;
  tp2->FilterRes = {{"", "pod1"}, {"", "pod2"}};
  auto tpFilterAll = makeTestPlugin("filter all");
  auto pickerPlugin = makeTestPlugin("picker");
  pickerPlugin->PickRes = {"", "pod1"};

  struct Case {
    std::string name;
    std::shared_ptr<SchedulerProfile> profile;
    std::vector<fwksched::EndpointPtr> input;
    fwkdl::NamespacedName wantTargetEndpoint;
    double targetEndpointScore;
    int numEndpointsToScore;  // endpoints to score (after the filters)
    bool err;
  };
  const std::vector<Case> tests = {
      {"all plugins executed successfully, all scorers with same weight",
       NewSchedulerProfile()
           ->WithFilters({tp1, tp2})
           ->WithScorers({NewWeightedScorer(tp1, 1), NewWeightedScorer(tp2, 1)})
           ->WithPicker(pickerPlugin),
       {pod("pod1"), pod("pod2"), pod("pod3")},
       {"", "pod1"},
       1.1,
       2,
       false},
      {"all plugins executed successfully, different scorers weights",
       NewSchedulerProfile()
           ->WithFilters({tp1, tp2})
           ->WithScorers({NewWeightedScorer(tp1, 60), NewWeightedScorer(tp2, 40)})
           ->WithPicker(pickerPlugin),
       {pod("pod1"), pod("pod2"), pod("pod3")},
       {"", "pod1"},
       50,
       2,
       false},
      {"filter all",
       NewSchedulerProfile()
           ->WithFilters({tp1, tpFilterAll})
           ->WithScorers({NewWeightedScorer(tp1, 1), NewWeightedScorer(tp2, 1)})
           ->WithPicker(pickerPlugin),
       {pod("pod1"), pod("pod2"), pod("pod3")},
       {},
       0,
       0,
       true},  // no available endpoints after filter all
  };

  for (const auto& test : tests) {
    // Reset all plugins before each new case.
    for (const auto& plugin : test.profile->filters()) std::dynamic_pointer_cast<testPlugin>(plugin)->reset();
    for (const auto& plugin : test.profile->scorers()) std::dynamic_pointer_cast<testPlugin>(plugin->Scorer)->reset();
    std::dynamic_pointer_cast<testPlugin>(test.profile->picker())->reset();

    auto request = newRequest();
    auto got = test.profile->Run(&request, test.input);

    ASSERT_EQ(test.err, got.Err.has_value()) << test.name << ": unexpected error state";
    if (got.Err) continue;

    // wantRes: TargetEndpoints = [NewEndpoint({ID: wantTargetEndpoint}, nil)] (ScoredCandidates ignored).
    ASSERT_NE(got.Value, nullptr) << test.name;
    fwkdl::EndpointMetadata wantMeta;
    wantMeta.ID = test.wantTargetEndpoint;
    auto want = fwksched::NewEndpoint(wantMeta, std::nullopt);
    ASSERT_EQ(got.Value->TargetEndpoints.size(), 1u) << test.name;
    EXPECT_TRUE(fwksched::EndpointComparer(*want, *got.Value->TargetEndpoints[0])) << test.name;

    // The plugin call counts.
    for (const auto& plugin : test.profile->filters()) {
      auto tp = std::dynamic_pointer_cast<testPlugin>(plugin);
      EXPECT_EQ(tp->FilterCallCount, 1) << test.name << ": plugin " << tp->TypeRes << " Filter() calls";
    }
    for (const auto& plugin : test.profile->scorers()) {
      auto tp = std::dynamic_pointer_cast<testPlugin>(plugin->Scorer);
      EXPECT_EQ(tp->ScoreCallCount, 1) << test.name << ": plugin " << tp->TypeRes << " Score() calls";
      EXPECT_EQ(test.numEndpointsToScore, tp->NumOfScoredEndpoints) << test.name << ": plugin " << tp->TypeRes;
    }
    auto tp = std::dynamic_pointer_cast<testPlugin>(test.profile->picker());
    EXPECT_EQ(tp->NumOfPickerCandidates, test.numEndpointsToScore) << test.name;
    EXPECT_EQ(tp->PickCallCount, 1) << test.name;
    EXPECT_EQ(tp->WinnerEndpointScore, test.targetEndpointScore) << test.name;
  }
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestSchedulerProfileScoredCandidates
TEST(SchedulerProfile, TestSchedulerProfileScoredCandidates) {
  constexpr double scorerWeight = 1;
  // The picker selects pod2 alone; pod1 and pod3 are scored but not selected.
  auto plugin = makeTestPlugin("test");
  plugin->ScoreRes = 0.5;
  plugin->FilterRes = {{"", "pod1"}, {"", "pod2"}, {"", "pod3"}};
  plugin->PickRes = {"", "pod2"};
  auto profile = NewSchedulerProfile()
                     ->WithFilters({plugin})
                     ->WithScorers({NewWeightedScorer(plugin, scorerWeight)})
                     ->WithPicker(plugin);
  const std::vector<fwksched::EndpointPtr> input = {pod("pod1"), pod("pod2"), pod("pod3")};
  auto request = newRequest();

  auto got = profile->Run(&request, input);
  ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
  ASSERT_EQ(got.Value->TargetEndpoints.size(), 1u);

  const std::map<std::string, double> wantScores = {{"/pod1", plugin->ScoreRes * scorerWeight},
                                                    {"/pod2", plugin->ScoreRes * scorerWeight},
                                                    {"/pod3", plugin->ScoreRes * scorerWeight}};
  std::map<std::string, double> gotScores;
  for (const auto& candidate : got.Value->ScoredCandidates) gotScores[candidate.GetMetadata()->ID.String()] = candidate.Score;
  EXPECT_EQ(wantScores, gotScores);
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestAddPlugins
TEST(SchedulerProfile, TestAddPlugins) {
  struct Case {
    std::string name;
    std::vector<std::shared_ptr<fwkplugin::Plugin>> plugins;
    std::size_t wantFilters;
    std::size_t wantScorers;
    bool wantPicker;
    bool wantErr;
    std::string errContains;
  };
  const std::vector<Case> tests = {
      {"add WeightedScorer that also implements Filter and Picker",
       {NewWeightedScorer(makeTestPlugin("multi"), 1.0)}, 1, 1, true, false, ""},
      {"add plugin that only implements Filter",
       {std::make_shared<filterOnlyPlugin>(fwkplugin::TypedName{"", "filter-only"})}, 1, 0, false, false, ""},
      {"error when adding Scorer without weight", {makeTestPlugin("bare-scorer")}, 0, 0, false, true,
       "without a weight"},
      {"error when adding duplicate picker",
       {NewWeightedScorer(makeTestPlugin("picker1"), 1.0), NewWeightedScorer(makeTestPlugin("picker2"), 1.0)}, 0, 0,
       false, true, "already have a registered picker"},
  };
  for (const auto& test : tests) {
    auto profile = NewSchedulerProfile();
    auto err = profile->AddPlugins(test.plugins);
    if (test.wantErr) {
      ASSERT_TRUE(err.has_value()) << test.name << ": expected error but got nil";
      if (!test.errContains.empty()) {
        EXPECT_NE(err->Text.find(test.errContains), std::string::npos)
            << test.name << ": error \"" << err->Text << "\" does not contain \"" << test.errContains << "\"";
      }
      continue;
    }
    ASSERT_FALSE(err.has_value()) << test.name << ": unexpected error: " << err->Text;
    EXPECT_EQ(profile->filters().size(), test.wantFilters) << test.name;
    EXPECT_EQ(profile->scorers().size(), test.wantScorers) << test.name;
    EXPECT_EQ(profile->picker() != nullptr, test.wantPicker) << test.name;
  }
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestSchedulerProfileString
TEST(SchedulerProfile, TestSchedulerProfileString) {
  auto tp1 = makeTestPlugin("test1");
  auto tp2 = makeTestPlugin("test2");
  auto pickerPlugin = makeTestPlugin("picker");
  auto profile = NewSchedulerProfile()
                     ->WithFilters({tp1, tp2})
                     ->WithScorers({NewWeightedScorer(tp1, 1.5), NewWeightedScorer(tp2, 2.0)})
                     ->WithPicker(pickerPlugin);
  const std::string result = profile->String();
  EXPECT_NE(result.find("Filters:"), std::string::npos) << "String() missing Filters section: " << result;
  EXPECT_NE(result.find("Scorers:"), std::string::npos) << "String() missing Scorers section: " << result;
  EXPECT_NE(result.find("Picker:"), std::string::npos) << "String() missing Picker section: " << result;
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestEnforceScoreRange
TEST(SchedulerProfile, TestEnforceScoreRange) {
  struct Case {
    std::string name;
    double score;
    double want;
  };
  const std::vector<Case> tests = {
      {"negative score clamped to 0", -0.5, 0},      {"score above 1 clamped to 1", 1.5, 1},
      {"score at 0 stays 0", 0, 0},                  {"score at 1 stays 1", 1, 1},
      {"score in range stays unchanged", 0.5, 0.5},
  };
  for (const auto& test : tests) EXPECT_EQ(enforceScoreRange(test.score), test.want) << test.name;
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestRunWithOutOfRangeScores
TEST(SchedulerProfile, TestRunWithOutOfRangeScores) {
  auto negativeScorer = makeTestPlugin("negative");  // returns a negative score
  negativeScorer->ScoreRes = -0.5;
  negativeScorer->FilterRes = {{"", "pod1"}};
  auto overScorer = makeTestPlugin("over");  // returns a score > 1
  overScorer->ScoreRes = 1.5;
  overScorer->FilterRes = {{"", "pod1"}};
  auto pickerPlugin = makeTestPlugin("picker");
  pickerPlugin->PickRes = {"", "pod1"};

  auto profile = NewSchedulerProfile()
                     ->WithFilters({})
                     ->WithScorers({NewWeightedScorer(negativeScorer, 1), NewWeightedScorer(overScorer, 1)})
                     ->WithPicker(pickerPlugin);
  auto request = newRequest();
  auto got = profile->Run(&request, {pod("pod1")});
  ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
  // negative clamped to 0, over clamped to 1: 0*1 + 1*1 = 1.0
  EXPECT_EQ(pickerPlugin->WinnerEndpointScore, 1.0);
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestFilterExecutionOrder
TEST(SchedulerProfile, TestFilterExecutionOrder) {
  std::vector<std::string> executionOrder;
  auto filterA = std::make_shared<orderTrackingFilter>("filter-A", &executionOrder);
  auto filterB = std::make_shared<orderTrackingFilter>("filter-B", &executionOrder);
  auto filterC = std::make_shared<orderTrackingFilter>("filter-C", &executionOrder);
  auto pickerPlugin = makeTestPlugin("picker");
  pickerPlugin->PickRes = {"", "pod1"};

  // Filters declared in order A, B, C.
  auto profile = NewSchedulerProfile()->WithFilters({filterA, filterB, filterC})->WithPicker(pickerPlugin);
  auto request = newRequest();
  auto got = profile->Run(&request, {pod("pod1"), pod("pod2")});
  ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
  EXPECT_EQ(executionOrder, (std::vector<std::string>{"filter-A", "filter-B", "filter-C"}));
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestFilterExecutionOrderViaAddPlugins
TEST(SchedulerProfile, TestFilterExecutionOrderViaAddPlugins) {
  std::vector<std::string> executionOrder;
  auto filterA = std::make_shared<orderTrackingFilter>("filter-A", &executionOrder);
  auto filterB = std::make_shared<orderTrackingFilter>("filter-B", &executionOrder);
  auto filterC = std::make_shared<orderTrackingFilter>("filter-C", &executionOrder);
  auto pickerPlugin = makeTestPlugin("picker");
  pickerPlugin->PickRes = {"", "pod1"};

  // AddPlugins one at a time, as the config loader does.
  auto profile = NewSchedulerProfile();
  for (const std::shared_ptr<fwkplugin::Plugin>& p :
       std::vector<std::shared_ptr<fwkplugin::Plugin>>{filterA, filterB, filterC}) {
    auto err = profile->AddPlugins({p});
    ASSERT_FALSE(err.has_value()) << err->Text;
  }
  profile->WithPicker(pickerPlugin);
  auto request = newRequest();
  auto got = profile->Run(&request, {pod("pod1")});
  ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
  EXPECT_EQ(executionOrder, (std::vector<std::string>{"filter-A", "filter-B", "filter-C"}));
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestFilterChainReceivesPreviousOutput
TEST(SchedulerProfile, TestFilterChainReceivesPreviousOutput) {
  auto filter1 = makeTestPlugin("filter1");  // keeps pod1 and pod2
  filter1->FilterRes = {{"", "pod1"}, {"", "pod2"}};
  auto filter2 = makeTestPlugin("filter2");  // keeps only pod1
  filter2->FilterRes = {{"", "pod1"}};
  int receivedCount = 0;
  auto filter3 = std::make_shared<countingFilter>("filter3", &receivedCount);  // records what it received
  auto pickerPlugin = makeTestPlugin("picker");
  pickerPlugin->PickRes = {"", "pod1"};

  auto profile = NewSchedulerProfile()->WithFilters({filter1, filter2, filter3})->WithPicker(pickerPlugin);
  auto request = newRequest();
  auto got = profile->Run(&request, {pod("pod1"), pod("pod2"), pod("pod3")});
  ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
  // filter3 receives only pod1: the output of filter2.
  EXPECT_EQ(receivedCount, 1);
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 TestRunScorerPluginsTracingDisabled (its scoring
// assertions; the no-op tracer provider it installs has no counterpart here).
TEST(SchedulerProfile, TestRunScorerPluginsTracingDisabled) {
  auto scorer = makeTestPlugin("noop");
  scorer->ScoreRes = 0.5;
  auto picker = makeTestPlugin("picker");
  picker->PickRes = {"", "pod1"};
  auto profile = NewSchedulerProfile()->WithScorers({NewWeightedScorer(scorer, 1)})->WithPicker(picker);
  auto request = newRequest();
  auto got = profile->Run(&request, {pod("pod1")});
  ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
  EXPECT_EQ(scorer->ScoreCallCount, 1);
}

}  // namespace
}  // namespace blis::router::scheduling
