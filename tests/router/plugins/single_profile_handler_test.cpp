// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler_test.go@71f4f099.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"

namespace blis::router::single {
namespace {

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler_test.go@71f4f099 fakeSchedulerProfile
class fakeSchedulerProfile final : public fwksched::SchedulerProfile {
 public:
  fwksched::Outcome<fwksched::ProfileRunResult> Run(fwksched::InferenceRequest*,
                                                    const std::vector<fwksched::EndpointPtr>&) override {
    return {std::make_shared<fwksched::ProfileRunResult>(), std::nullopt};
  }
};

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler_test.go@71f4f099 TestNewSingleProfileHandler
TEST(SingleProfileHandler, TestNewSingleProfileHandler) {
  auto handler = NewSingleProfileHandler();
  const fwkplugin::TypedName wantTypedName{SingleProfileHandlerType, SingleProfileHandlerType};
  EXPECT_EQ(handler->TypedName(), wantTypedName);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler_test.go@71f4f099 TestSingleProfileHandlerFactory
TEST(SingleProfileHandler, TestSingleProfileHandlerFactory) {
  std::shared_ptr<fwkplugin::Plugin> plugin = SingleProfileHandlerFactory("custom-name");
  auto handler = std::dynamic_pointer_cast<SingleProfileHandler>(plugin);
  ASSERT_NE(handler, nullptr) << "Expected *SingleProfileHandler";
  const fwkplugin::TypedName wantTypedName{SingleProfileHandlerType, "custom-name"};
  EXPECT_EQ(handler->TypedName(), wantTypedName);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler_test.go@71f4f099 TestWithName
TEST(SingleProfileHandler, TestWithName) {
  auto handler = NewSingleProfileHandler()->WithName("renamed");
  EXPECT_EQ(handler->TypedName().Name, "renamed");
  EXPECT_EQ(handler->TypedName().Type, SingleProfileHandlerType);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler_test.go@71f4f099 TestPick
TEST(SingleProfileHandler, TestPick) {
  auto fakeProfile = std::make_shared<fakeSchedulerProfile>();
  struct Case {
    std::string name;
    fwksched::ProfileMap profiles;
    fwksched::ProfileResultMap profileResults;
    std::size_t wantCount;
  };
  const std::vector<Case> tests = {
      {"no profiles executed yet, returns all", {{"default", fakeProfile}}, {}, 1},
      {"all profiles already executed, returns empty",
       {{"default", fakeProfile}},
       {{"default", std::make_shared<fwksched::ProfileRunResult>()}},
       0},
      {"no profiles configured, returns empty", {}, {}, 0},
  };
  auto handler = NewSingleProfileHandler();
  for (const auto& tt : tests) {
    auto got = handler->Pick(nullptr, tt.profiles, tt.profileResults);
    EXPECT_EQ(got.size(), tt.wantCount) << tt.name;
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler_test.go@71f4f099 TestProcessResults
TEST(SingleProfileHandler, TestProcessResults) {
  auto successResult = std::make_shared<fwksched::ProfileRunResult>();
  struct Case {
    std::string name;
    fwksched::ProfileResultMap profileResults;
    bool wantErr;
  };
  const std::vector<Case> tests = {
      {"single successful profile", {{"default", successResult}}, false},
      {"no profiles returns error", {}, true},
      {"multiple profiles returns error", {{"profile-a", successResult}, {"profile-b", successResult}}, true},
      {"nil result (profile execution failure) returns error", {{"default", nullptr}}, true},
  };
  auto handler = NewSingleProfileHandler();
  for (const auto& tt : tests) {
    auto got = handler->ProcessResults(nullptr, tt.profileResults);
    if (tt.wantErr) {
      EXPECT_TRUE(got.Err.has_value()) << tt.name << ": ProcessResults() expected error, got nil";
      EXPECT_EQ(got.Value, nullptr) << tt.name;
      continue;
    }
    ASSERT_FALSE(got.Err.has_value()) << tt.name << ": unexpected error: " << got.Err->Text;
    ASSERT_NE(got.Value, nullptr) << tt.name;
    // wantResult: {ProfileResults: {"default": successResult}, PrimaryProfileName: "default"}
    const fwksched::ProfileResultMap wantProfileResults{{"default", successResult}};
    EXPECT_EQ(got.Value->ProfileResults, wantProfileResults) << tt.name;
    EXPECT_EQ(got.Value->PrimaryProfileName, "default") << tt.name;
  }
}

}  // namespace
}  // namespace blis::router::single
