// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/bylabel/filter_test.go@71f4f099
// and roles_test.go@71f4f099 (the JSON parameters are parsed by nlohmann::json before the factory, as the
// config loader does; the factories' error texts are also checked).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/filter/bylabel/filter.h"
#include "tests/router/scorers/test_support.h"

namespace blis::router::bylabel {
namespace {

using scorertest::createEndpoint;
using scorertest::elementsMatch;
using scorertest::names;

std::string q(const std::string& s) { return "\"" + s + "\""; }

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter_test.go@71f4f099 TestFactory
TEST(ByLabelFilter, TestFactory) {
  struct Case {
    std::string name, pluginName, jsonParams;
    bool expectErr;
    std::string wantErr;  // BLIS: upstream's error text (upstream asserts only that there is an error)
  };
  const std::string prefix = "invalid configuration for 'by-label' filter: ";
  const std::vector<Case> tests = {
      {"valid configuration with non-empty validValues", "valid-filter",
       "{\"label\": " + q(RoleLabel) + ", \"allowsNoLabel\": false, \"validValues\": [" + q(RolePrefill) + "]}", false, ""},
      {"allowsNoLabel true with empty validValues", "allow-no-label",
       "{\"label\": " + q(RoleLabel) + ", \"allowsNoLabel\": true, \"validValues\": []}", false, ""},
      {"allowsNoLabel true with multiple valid roles", "mixed-mode",
       "{\"label\": " + q(RoleLabel) + ", \"allowsNoLabel\": true, \"validValues\": [" + q(RoleDecode) + ", " + q(RoleBoth) + "]}",
       false, ""},
      {"empty label name should error", "empty-label",
       "{\"label\": \"\", \"allowsNoLabel\": false, \"validValues\": [" + q(RolePrefill) + "]}", true,
       prefix + "'label' must be specified"},
      {"missing label field should error", "missing-label",
       "{\"allowsNoLabel\": false, \"validValues\": [" + q(RolePrefill) + "]}", true, prefix + "'label' must be specified"},
      {"contradictory config: empty validValues and allowsNoLabel=false", "invalid-contradiction",
       "{\"label\": " + q(RoleLabel) + ", \"allowsNoLabel\": false, \"validValues\": []}", true,
       prefix + "either 'validValues' must be non-empty or 'allowsNoLabel' must be true"},
      {"contradictory config: no validValues field and allowsNoLabel=false", "no-valid-values",
       "{\"label\": " + q(RoleLabel) + ", \"allowsNoLabel\": false}", true,
       prefix + "either 'validValues' must be non-empty or 'allowsNoLabel' must be true"},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    scorertest::TestHandle h;
    const nlohmann::json raw = nlohmann::json::parse(tt.jsonParams);
    if (tt.expectErr) {
      try {
        Factory(tt.pluginName, &raw, h.handle);
        ADD_FAILURE() << "expected an error";
      } catch (const fwkplugin::PluginError& e) {
        EXPECT_EQ(std::string(e.what()), tt.wantErr);
      }
    } else {
      std::shared_ptr<fwkplugin::Plugin> plugin;
      EXPECT_NO_THROW(plugin = Factory(tt.pluginName, &raw, h.handle));
      EXPECT_NE(plugin, nullptr);
    }
  }
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 Factory: the empty-name check (no
// upstream test case; BLIS checks the text).
TEST(ByLabelFilter, FactoryRefusesEmptyName) {
  scorertest::TestHandle h;
  const nlohmann::json raw = nlohmann::json::parse(R"({"label": "app", "validValues": ["a"]})");
  try {
    Factory("", &raw, h.handle);
    ADD_FAILURE() << "expected an error";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_EQ(std::string(e.what()), "invalid configuration for 'by-label' filter: name cannot be empty");
  }
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter_test.go@71f4f099 TestFactoryInvalidJSON
// The "malformed JSON" case is not applicable: the parameters reach the factory already parsed (the config
// loader refuses malformed JSON). The type mismatches keep encoding/json's texts.
TEST(ByLabelFilter, TestFactoryInvalidJSON) {
  struct Case {
    std::string name, jsonParams, wantErr;
  };
  const std::string wrap = "failed to parse the parameters of the 'by-label' filter - ";
  const std::vector<Case> invalidTests = {
      {"validValues as string instead of array", R"({"label": "app", "validValues": "true"})",
       wrap + "json: cannot unmarshal string into Go struct field byLabelParameters.validValues of type []string"},
      {"allowsNoLabel as string", R"({"label": "app", "allowsNoLabel": "yes", "validValues": ["true"]})",
       wrap + "json: cannot unmarshal string into Go struct field byLabelParameters.allowsNoLabel of type bool"},
      // BLIS: strict decoding refuses an unknown field (upstream's StrictDecoder, no upstream case).
      {"unknown field", R"({"label": "app", "validValues": ["a"], "extra": 1})", wrap + "json: unknown field \"extra\""},
  };
  for (const auto& tt : invalidTests) {
    SCOPED_TRACE(tt.name);
    scorertest::TestHandle h;
    const nlohmann::json raw = nlohmann::json::parse(tt.jsonParams);
    try {
      Factory("test", &raw, h.handle);
      ADD_FAILURE() << "expected an error";
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_EQ(std::string(e.what()), tt.wantErr);
    }
  }
}

std::vector<fwksched::EndpointPtr> labelledEndpoints() {
  return {
      createEndpoint({"default", "nginx-1"}, "10.0.0.1", {{"app", "nginx"}, {"version", "v1.0"}, {"tier", "frontend"}}),
      createEndpoint({"default", "nginx-2"}, "10.0.0.2", {{"app", "nginx"}, {"version", "v1.1"}, {"tier", "frontend"}}),
      createEndpoint({"kube-system", "coredns-1"}, "10.0.0.3", {{"app", "coredns"}, {"tier", "system"}}),
      createEndpoint({"default", "redis-1"}, "10.0.0.4", {{"app", "redis"}, {"tier", "backend"}, {"deprecated", "true"}}),
      createEndpoint({"default", "web-1"}, "10.0.0.5", {{"app", "web"}, {"tier", "frontend"}, {"environment", "production"}}),
      createEndpoint({"default", "no-tier-pod"}, "10.0.0.6", {{"app", "unknown"}}),
  };
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter_test.go@71f4f099 TestByLabelFiltering
TEST(ByLabelFilter, TestByLabelFiltering) {
  const auto endpoints = labelledEndpoints();
  struct Case {
    std::string testName, label;
    std::vector<std::string> validValues;
    bool allowsNoLabel;
    std::vector<std::string> expectedPods;
  };
  const std::vector<Case> tests = {
      {"match app nginx", "app", {"nginx"}, false, {"nginx-1", "nginx-2"}},
      {"match exact version v1.0", "version", {"v1.0"}, false, {"nginx-1"}},
      {"allow pods without 'tier' label", "tier", {}, true, {"no-tier-pod"}},
      {"allow all known tier values", "tier", {"frontend", "backend", "system"}, false,
       {"nginx-1", "nginx-2", "coredns-1", "redis-1", "web-1"}},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.testName);
    // json.Marshal(byLabelParameters{...}): a nil ValidValues marshals as null.
    nlohmann::json raw = {{"label", tt.label}, {"allowsNoLabel", tt.allowsNoLabel}};
    raw["validValues"] = tt.validValues.empty() ? nlohmann::json(nullptr) : nlohmann::json(tt.validValues);
    scorertest::TestHandle h;
    auto plugin = Factory("test-label", &raw, h.handle);
    ASSERT_NE(plugin, nullptr);
    auto blf = std::dynamic_pointer_cast<ByLabel>(plugin);
    ASSERT_NE(blf, nullptr) << "plugin should be of type *ByLabel";
    const auto filtered = blf->Filter(nullptr, endpoints);
    EXPECT_TRUE(elementsMatch(tt.expectedPods, names(filtered))) << "filtered endpoints should match expected endpoints";
    EXPECT_EQ(filtered.size(), tt.expectedPods.size());
  }
}

std::vector<fwksched::EndpointPtr> roleEndpoints(const std::vector<std::pair<std::string, std::map<std::string, std::string>>>& spec) {
  std::vector<fwksched::EndpointPtr> out;
  int i = 1;
  for (const auto& [name, labels] : spec) out.push_back(createEndpoint({"", name}, "10.0.0." + std::to_string(i++), labels));
  return out;
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles_test.go@71f4f099 TestRoleFilterDecodeRole
TEST(ByLabelRoles, TestRoleFilterDecodeRole) {
  const auto endpoints = roleEndpoints({
      {"decode-pod", {{RoleLabel, RoleDecode}}},
      {"prefill-pod", {{RoleLabel, RolePrefill}}},
      {"pd-pod", {{RoleLabel, RolePrefillDecode}}},
      {"both-pod", {{RoleLabel, RoleBoth}}},
      {"epd-pod", {{RoleLabel, RoleEncodePrefillDecode}}},
      {"encode-pod", {{RoleLabel, RoleEncode}}},
      {"ep-pod", {{RoleLabel, RoleEncodePrefill}}},
      {"no-label-pod", {{"app", "vllm"}}},
      {"empty-labels-pod", {}},
  });
  const auto filtered = NewDecodeRole()->Filter(nullptr, endpoints);
  EXPECT_TRUE(elementsMatch({"decode-pod", "pd-pod", "both-pod", "epd-pod", "no-label-pod", "empty-labels-pod"},
                            names(filtered)));
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles_test.go@71f4f099 TestRoleFilterPrefillRole
TEST(ByLabelRoles, TestRoleFilterPrefillRole) {
  const auto endpoints = roleEndpoints({
      {"decode-pod", {{RoleLabel, RoleDecode}}},
      {"prefill-pod", {{RoleLabel, RolePrefill}}},
      {"pd-pod", {{RoleLabel, RolePrefillDecode}}},
      {"both-pod", {{RoleLabel, RoleBoth}}},
      {"epd-pod", {{RoleLabel, RoleEncodePrefillDecode}}},
      {"encode-pod", {{RoleLabel, RoleEncode}}},
      {"ep-pod", {{RoleLabel, RoleEncodePrefill}}},
      {"no-label-pod", {{"app", "vllm"}}},
  });
  const auto filtered = NewPrefillRole()->Filter(nullptr, endpoints);
  EXPECT_TRUE(elementsMatch({"prefill-pod", "pd-pod", "both-pod", "epd-pod", "ep-pod"}, names(filtered)));
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles_test.go@71f4f099 TestRoleFilterEncodeRole
TEST(ByLabelRoles, TestRoleFilterEncodeRole) {
  const auto endpoints = roleEndpoints({
      {"decode-pod", {{RoleLabel, RoleDecode}}},
      {"prefill-pod", {{RoleLabel, RolePrefill}}},
      {"encode-pod", {{RoleLabel, RoleEncode}}},
      {"ep-pod", {{RoleLabel, RoleEncodePrefill}}},
      {"epd-pod", {{RoleLabel, RoleEncodePrefillDecode}}},
      {"no-label-pod", {{"app", "vllm"}}},
  });
  const auto filtered = NewEncodeRole()->Filter(nullptr, endpoints);
  EXPECT_TRUE(elementsMatch({"encode-pod", "ep-pod", "epd-pod"}, names(filtered)));
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles_test.go@71f4f099 TestRoleFilterFactory
TEST(ByLabelRoles, TestRoleFilterFactory) {
  struct Case {
    std::string name, roleName, expectedName;
  };
  const std::vector<Case> tests = {
      {"DecodeRoleFactory returns ByLabel", DecodeRoleType, "test-decode"},
      {"PrefillRoleFactory returns ByLabel", PrefillRoleType, "test-prefill"},
      {"EncodeRoleFactory returns ByLabel", EncodeRoleType, "test-encode"},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    scorertest::TestHandle h;
    std::shared_ptr<fwkplugin::Plugin> p;
    if (tt.roleName == DecodeRoleType) p = DecodeRoleFactory("test-decode", nullptr, h.handle);
    if (tt.roleName == PrefillRoleType) p = PrefillRoleFactory("test-prefill", nullptr, h.handle);
    if (tt.roleName == EncodeRoleType) p = EncodeRoleFactory("test-encode", nullptr, h.handle);
    auto rf = std::dynamic_pointer_cast<ByLabel>(p);
    ASSERT_NE(rf, nullptr) << "factory should return *ByLabel";
    EXPECT_EQ(rf->TypedName().Type, ByLabelType);
    EXPECT_EQ(rf->TypedName().Name, tt.expectedName);
  }
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles_test.go@71f4f099 TestRoleFilterWithName
TEST(ByLabelRoles, TestRoleFilterWithName) {
  auto rf = NewDecodeRole();
  EXPECT_EQ(rf->TypedName().Name, DecodeRoleType);
  EXPECT_EQ(rf->TypedName().Type, ByLabelType);
  rf->WithName("my-custom-name");
  EXPECT_EQ(rf->TypedName().Name, "my-custom-name");
  EXPECT_EQ(rf->TypedName().Type, ByLabelType);
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles_test.go@71f4f099 TestRoleFilterEmptyEndpoints
// (Go's empty and nil slices are both the empty vector.)
TEST(ByLabelRoles, TestRoleFilterEmptyEndpoints) {
  auto rf = NewDecodeRole();
  EXPECT_TRUE(rf->Filter(nullptr, {}).empty());
}

}  // namespace
}  // namespace blis::router::bylabel
