// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler_test.go@71f4f099; the
// "malformed JSON" case is not applicable (a JSON syntax error is raised by the config loader, before any
// factory sees parameters).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "router/common/routing/common.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.h"
#include "tests/router/profilehandler/test_support.h"

namespace blis::router::dataparallel {
namespace {

using profiletest::newMockProfileRunResult;
using profiletest::TestHandle;

const std::string DefaultTestPodPort = "8000";

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler_test.go@71f4f099 TestProfileHandlerFactory
TEST(DataParallelProfileHandler, TestProfileHandlerFactory) {
  struct Case {
    std::string name, pluginName, jsonParams;
    bool expectErr;
    std::string expectedPort;
  };
  const std::vector<Case> tests = {
      {"use default primaryPort (8000)", "default-handler", "{}", false, "8000"},
      {"explicit primaryPort = 9000", "custom-port", R"({"primaryPort": 9000})", false, "9000"},
      {"primaryPort = 1 (minimum valid)", "min-port", R"({"primaryPort": 1})", false, "1"},
      {"primaryPort = 65535 (maximum valid)", "max-port", R"({"primaryPort": 65535})", false, "65535"},
      {"primaryPort = 0 is allowed (but results in '0' string)", "zero-port", R"({"primaryPort": 0})", false, "0"},
      {"primaryPort = -1 should error", "negative-port", R"({"primaryPort": -1})", true, ""},
      {"primaryPort = 65536 should error", "port-too-high", R"({"primaryPort": 65536})", true, ""},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    TestHandle h;
    const nlohmann::json params = nlohmann::json::parse(tt.jsonParams);
    if (tt.expectErr) {
      EXPECT_THROW(ProfileHandlerFactory(tt.pluginName, &params, h.handle), fwkplugin::PluginError);
      continue;
    }
    auto plugin = ProfileHandlerFactory(tt.pluginName, &params, h.handle);
    ASSERT_NE(plugin, nullptr);
    auto handler = std::dynamic_pointer_cast<ProfileHandler>(plugin);
    ASSERT_NE(handler, nullptr);
    EXPECT_EQ(handler->primaryPort(), tt.expectedPort);
    EXPECT_EQ(handler->TypedName().Name, tt.pluginName);
  }
}

// Upstream's error texts (the messages Go's factory returns for the range checks above).
TEST(DataParallelProfileHandler, FactoryErrorTexts) {
  TestHandle h;
  const nlohmann::json params = nlohmann::json::parse(R"({"primaryPort": 65536})");
  try {
    ProfileHandlerFactory("p", &params, h.handle);
    FAIL() << "expected an error";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_STREQ(e.what(), "invalid primaryPort: must be between 1 and 65535, got 65536");
  }
  const nlohmann::json unknown = nlohmann::json::parse(R"({"port": 1})");
  try {
    ProfileHandlerFactory("p", &unknown, h.handle);
    FAIL() << "expected an error";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_STREQ(e.what(),
                 "failed to parse the parameters of the 'data-parallel-profile-handler' profile handler - json: "
                 "unknown field \"port\"");
  }
  // No parameters at all: the default port.
  auto handler = std::dynamic_pointer_cast<ProfileHandler>(ProfileHandlerFactory("p", nullptr, h.handle));
  ASSERT_NE(handler, nullptr);
  EXPECT_EQ(handler->primaryPort(), "8000");
}

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler_test.go@71f4f099 TestProfileHandlerFactoryInvalidJSON
// (the "malformed JSON" case is not applicable: see the file header)
TEST(DataParallelProfileHandler, TestProfileHandlerFactoryInvalidJSON) {
  struct Case {
    std::string name, jsonParams, wantErr;
  };
  const std::vector<Case> tests = {
      {"primaryPort as string", R"({"primaryPort": "8000"})",
       "failed to parse the parameters of the 'data-parallel-profile-handler' profile handler - json: cannot "
       "unmarshal string into Go struct field dataParallelProfileHandlerParameters.primaryPort of type int"},
      {"primaryPort as boolean", R"({"primaryPort": true})",
       "failed to parse the parameters of the 'data-parallel-profile-handler' profile handler - json: cannot "
       "unmarshal bool into Go struct field dataParallelProfileHandlerParameters.primaryPort of type int"},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    TestHandle h;
    const nlohmann::json params = nlohmann::json::parse(tt.jsonParams);
    try {
      ProfileHandlerFactory("test", &params, h.handle);
      FAIL() << "expected an error";
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_EQ(std::string(e.what()), tt.wantErr);
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler_test.go@71f4f099 Test_ProfileHandler_Pick
TEST(DataParallelProfileHandler, Test_ProfileHandler_Pick) {
  auto profile = [] { return std::make_shared<profiletest::mockSchedulerProfile>(); };
  struct Case {
    std::string name;
    fwksched::ProfileMap profiles;
    fwksched::ProfileResultMap profileResults;
    bool expectEmptyResult;
  };
  const std::vector<Case> tests = {
      {"success: single profile, first call", {{"default", profile()}}, {}, false},
      {"success: single profile, second call (all already executed)",
       {{"default", profile()}},
       {{"default", newMockProfileRunResult(DefaultTestPodPort, {"pod1"})}},
       true},
      {"error: multiple profiles configured in EPP", {{"profile1", profile()}, {"profile2", profile()}}, {}, true},
      {"error: zero profiles configured in EPP", {}, {}, true},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto handler = NewProfileHandler(8000)->WithName("test-handler");
    fwksched::InferenceRequest req;
    const fwksched::ProfileMap result = handler->Pick(&req, tt.profiles, tt.profileResults);
    if (tt.expectEmptyResult) {
      EXPECT_TRUE(result.empty());
    } else {
      EXPECT_FALSE(result.empty());
      EXPECT_EQ(result.size(), tt.profiles.size()) << "Should return all profiles when valid";
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler_test.go@71f4f099 Test_ProfileHandler_ProcessResults
TEST(DataParallelProfileHandler, Test_ProfileHandler_ProcessResults) {
  using Check = std::function<void(const fwksched::SchedulingResult&, const std::map<std::string, std::string>&)>;
  struct Case {
    std::string name;
    int primaryPort;
    fwksched::ProfileResultMap profileResults;
    bool expectError;
    Check checkResult;
  };
  const std::vector<Case> tests = {
      {"error: multiple profiles not supported",
       0,
       {{"profile1", newMockProfileRunResult(DefaultTestPodPort, {"pod1"})},
        {"profile2", newMockProfileRunResult(DefaultTestPodPort, {"pod2"})}},
       true,
       nullptr},
      {"error: single profile but result is nil", 0, {{"nil-profile", nullptr}}, true, nullptr},
      {"success: single profile with primaryPort → port overridden, header set",
       9000,
       {{"dp-profile", newMockProfileRunResult(DefaultTestPodPort, {"pod1"})}},
       false,
       [](const fwksched::SchedulingResult& res, const std::map<std::string, std::string>& headers) {
         EXPECT_EQ(res.PrimaryProfileName, "dp-profile");
         const auto& pods = res.ProfileResults.at("dp-profile")->TargetEndpoints;
         ASSERT_EQ(pods.size(), 1u);
         EXPECT_EQ(pods[0]->GetMetadata()->Port, "9000");  // overridden
         EXPECT_EQ(headers.at(routing::DataParallelEndpointHeader),
                   routing::JoinHostPort("10.0.0.1", DefaultTestPodPort));  // original
       }},
      {"success: primaryPort=0 → port becomes '0'",
       0,
       {{"dp", newMockProfileRunResult("8080", {"pod1"})}},
       false,
       [](const fwksched::SchedulingResult& res, const std::map<std::string, std::string>& headers) {
         EXPECT_EQ(res.ProfileResults.at("dp")->TargetEndpoints[0]->GetMetadata()->Port, "0");
         EXPECT_EQ(headers.at(routing::DataParallelEndpointHeader), "10.0.0.1:8080");
       }},
      {"success: multiple target pods → all ports overridden",
       8080,
       {{"dp-profile", newMockProfileRunResult(DefaultTestPodPort, {"pod1", "pod2"})}},
       false,
       [](const fwksched::SchedulingResult& res, const std::map<std::string, std::string>& headers) {
         const auto& pods = res.ProfileResults.at("dp-profile")->TargetEndpoints;
         EXPECT_EQ(pods.size(), 2u);
         for (const auto& p : pods) EXPECT_EQ(p->GetMetadata()->Port, "8080");
         EXPECT_EQ(headers.at(routing::DataParallelEndpointHeader),
                   routing::JoinHostPort("10.0.0.1", DefaultTestPodPort));
       }},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    auto handler = NewProfileHandler(tt.primaryPort)->WithName("test-handler");
    fwksched::InferenceRequest req;
    auto out = handler->ProcessResults(&req, tt.profileResults);
    if (tt.expectError) {
      EXPECT_TRUE(out.Err.has_value());
      EXPECT_EQ(out.Value, nullptr);
      continue;
    }
    ASSERT_FALSE(out.Err.has_value()) << out.Err->Text;
    ASSERT_NE(out.Value, nullptr);
    tt.checkResult(*out.Value, req.Headers);
  }
}

}  // namespace
}  // namespace blis::router::dataparallel
