// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099
// (the JSON parameters are parsed by nlohmann::json before the factory, as the config loader does; the
// example ExamplePrefillDecodeRolesInLWS becomes a test of its printed output), plus checks of the error texts
// of the ported apimachinery label-selector subset.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/filter/bylabel/selector.h"
#include "tests/router/scorers/test_support.h"

namespace blis::router::bylabel {
namespace {

using scorertest::createEndpoint;
using scorertest::elementsMatch;
using scorertest::names;

std::shared_ptr<Selector> makeSelector(const std::string& name, const std::string& json) {
  scorertest::TestHandle h;
  const nlohmann::json raw = nlohmann::json::parse(json);
  auto plugin = SelectorFactory(name, &raw, h.handle);
  auto s = std::dynamic_pointer_cast<Selector>(plugin);
  if (!s) throw std::logic_error("plugin should be of type *Selector");
  return s;
}

// The factory's error text, or "" when it succeeds.
std::string factoryError(const std::string& name, const std::string& json) {
  scorertest::TestHandle h;
  const nlohmann::json raw = nlohmann::json::parse(json);
  try {
    auto plugin = SelectorFactory(name, &raw, h.handle);
    return plugin ? "" : "<nil plugin>";
  } catch (const fwkplugin::PluginError& e) {
    return e.what();
  }
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099 TestLabelSelectorFilterFactoryWithJSON
TEST(LabelSelectorFilter, TestLabelSelectorFilterFactoryWithJSON) {
  struct Case {
    std::string testName, pluginName, jsonParams;
  };
  const std::vector<Case> tests = {
      {"simple matchLabels selector", "nginx-selector", R"({"matchLabels": {"app": "nginx", "version": "v1.0"}})"},
      {"complex selector with matchExpressions", "complex-selector",
       R"({"matchLabels": {"tier": "frontend"}, "matchExpressions": [
            {"key": "environment", "operator": "In", "values": ["production", "staging"]},
            {"key": "deprecated", "operator": "DoesNotExist"}]})"},
      {"empty selector", "empty-selector", "{}"},
      {"matchExpressions only", "expressions-only",
       R"({"matchExpressions": [{"key": "component", "operator": "NotIn", "values": ["test", "debug"]}]})"},
      {"exists operator", "exists-selector", R"({"matchExpressions": [{"key": "release", "operator": "Exists"}]})"},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.testName);
    EXPECT_EQ(factoryError(tt.pluginName, tt.jsonParams), "");
  }
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099 TestLabelSelectorFilterFactoryWithInvalidJSON
// The "invalid json syntax" case is not applicable: the parameters reach the factory already parsed (the
// config loader refuses malformed JSON). BLIS checks the texts (upstream asserts only an error).
TEST(LabelSelectorFilter, TestLabelSelectorFilterFactoryWithInvalidJSON) {
  EXPECT_EQ(factoryError("invalid-operator",
                         R"({"matchExpressions": [{"key": "app", "operator": "InvalidOperator", "values": ["nginx"]}]})"),
            "\"InvalidOperator\" is not a valid label selector operator");
}

// BLIS: the decoding and validation errors of metav1.LabelSelector / labels.NewRequirement
// (k8s.io/apimachinery@v0.35.7 pkg/labels/selector.go NewRequirement, pkg/api/validate/content/kube.go;
// no upstream llm-d test), with the texts those functions build.
TEST(LabelSelectorFilter, SelectorErrorTexts) {
  const std::string wrap = "failed to parse the parameters of the 'label-selector-filter' filter - ";
  const std::string keyRegex =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
      "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  struct Case {
    std::string name, json, want;
  };
  const std::vector<Case> cases = {
      {"In without values", R"({"matchExpressions": [{"key": "app", "operator": "In"}]})",
       "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
      {"Exists with values", R"({"matchExpressions": [{"key": "app", "operator": "Exists", "values": ["a"]}]})",
       "values: Invalid value: [\"a\"]: values set must be empty for exists and does not exist"},
      {"bad key", R"({"matchLabels": {"-app": "x"}})", "key: Invalid value: \"-app\": name part " + keyRegex},
      {"empty prefix", R"({"matchLabels": {"/app": "x"}})", "key: Invalid value: \"/app\": prefix part must be non-empty"},
      {"bad value", R"({"matchLabels": {"app": "x y"}})",
       "values[0][app]: Invalid value: \"x y\": a valid label must be an empty string or consist of alphanumeric "
       "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
       "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"empty key and no values", R"({"matchExpressions": [{"key": "", "operator": "NotIn"}]})",
       "[key: Invalid value: \"\": name part must be non-empty; name part " + keyRegex +
           ", values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty]"},
      {"missing operator", R"({"matchExpressions": [{"key": "app"}]})", "\"\" is not a valid label selector operator"},
      {"unknown field", R"({"matchLabels": {"a": "b"}, "selector": "x"})", wrap + "json: unknown field \"selector\""},
      {"unknown requirement field", R"({"matchExpressions": [{"key": "a", "operator": "Exists", "op": 1}]})",
       wrap + "json: unknown field \"op\""},
      {"matchLabels not an object", R"({"matchLabels": ["a"]})",
       wrap + "json: cannot unmarshal array into Go struct field LabelSelector.matchLabels of type map[string]string"},
      {"matchExpressions not an array", R"({"matchExpressions": {"key": "a"}})",
       wrap + "json: cannot unmarshal object into Go struct field LabelSelector.matchExpressions of type "
              "[]v1.LabelSelectorRequirement"},
      {"key a number", R"({"matchExpressions": [{"key": 1, "operator": "Exists"}]})",
       wrap + "json: cannot unmarshal number into Go struct field LabelSelectorRequirement.matchExpressions.key of "
              "type string"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(factoryError("sel", c.json), c.want);
  }
  EXPECT_EQ(factoryError("", "{}"), "Selector: missing filter name");
}

std::vector<fwksched::EndpointPtr> labelledEndpoints() {
  return {
      createEndpoint({"default", "nginx-1"}, "10.0.0.1", {{"app", "nginx"}, {"version", "v1.0"}, {"tier", "frontend"}}),
      createEndpoint({"default", "nginx-2"}, "10.0.0.2", {{"app", "nginx"}, {"version", "v1.1"}, {"tier", "frontend"}}),
      createEndpoint({"kube-system", "coredns-1"}, "10.0.0.3", {{"app", "coredns"}, {"tier", "system"}}),
      createEndpoint({"default", "redis-1"}, "10.0.0.4", {{"app", "redis"}, {"tier", "backend"}, {"deprecated", "true"}}),
      createEndpoint({"default", "web-1"}, "10.0.0.5", {{"app", "web"}, {"tier", "frontend"}, {"environment", "production"}}),
  };
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099 TestLabelSelectorFilterFiltering
TEST(LabelSelectorFilter, TestLabelSelectorFilterFiltering) {
  const auto endpoints = labelledEndpoints();
  struct Case {
    std::string testName, selectorJSON;
    std::vector<std::string> expectedPods;
  };
  const std::vector<Case> tests = {
      {"matchLabels - app nginx", R"({"matchLabels": {"app": "nginx"}})", {"nginx-1", "nginx-2"}},
      {"matchLabels - exact match", R"({"matchLabels": {"app": "nginx", "version": "v1.0"}})", {"nginx-1"}},
      {"matchExpressions - In operator",
       R"({"matchExpressions": [{"key": "tier", "operator": "In", "values": ["frontend", "backend"]}]})",
       {"nginx-1", "nginx-2", "redis-1", "web-1"}},
      {"matchExpressions - NotIn operator",
       R"({"matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["system"]}]})",
       {"nginx-1", "nginx-2", "redis-1", "web-1"}},
      {"matchExpressions - Exists operator", R"({"matchExpressions": [{"key": "deprecated", "operator": "Exists"}]})",
       {"redis-1"}},
      {"matchExpressions - DoesNotExist operator",
       R"({"matchExpressions": [{"key": "deprecated", "operator": "DoesNotExist"}]})",
       {"nginx-1", "nginx-2", "coredns-1", "web-1"}},
      {"combined matchLabels and matchExpressions",
       R"({"matchLabels": {"tier": "frontend"}, "matchExpressions": [{"key": "environment", "operator": "Exists"}]})",
       {"web-1"}},
      {"empty selector - matches all", "{}", {"nginx-1", "nginx-2", "coredns-1", "redis-1", "web-1"}},
      {"no matches", R"({"matchLabels": {"app": "nonexistent"}})", {}},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.testName);
    auto blf = makeSelector("test-selector", tt.selectorJSON);
    const auto filtered = blf->Filter(nullptr, endpoints);
    EXPECT_TRUE(elementsMatch(tt.expectedPods, names(filtered))) << "filtered endpoints should match expected endpoints";
    EXPECT_EQ(filtered.size(), tt.expectedPods.size());
  }
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099 TestLabelSelectorFilterEdgeCases
// (Go's empty and nil slices, and nil and empty label maps, are the same here.)
TEST(LabelSelectorFilter, TestLabelSelectorFilterEdgeCases) {
  auto blf = makeSelector("test-selector", R"({"matchLabels": {"app": "test"}})");
  EXPECT_TRUE(blf->Filter(nullptr, {}).empty()) << "empty endpoints slice";
  EXPECT_TRUE(blf->Filter(nullptr, {createEndpoint({"", "pod-1"}, "10.0.0.1", {})}).empty())
      << "endpoint with nil/empty labels should not match";
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099 TestLabelSelectorFilterHasNoAllowsNoLabelEscapeHatch
TEST(LabelSelectorFilter, TestLabelSelectorFilterHasNoAllowsNoLabelEscapeHatch) {
  auto blf = makeSelector(
      "decode-filter",
      R"({"matchExpressions": [{"key": "llm-d.ai/role", "operator": "In", "values": ["decode", "prefill-decode"]}]})");
  const auto decodeEndpoint = createEndpoint({"", "decode-0"}, "10.0.0.1", {{"llm-d.ai/role", "decode"}});
  const auto encodeEndpoint = createEndpoint({"", "encode-0"}, "10.0.0.2", {{"llm-d.ai/role", "encode"}});
  const auto unlabeledEndpoint = createEndpoint({"", "mystery-0"}, "10.0.0.3", {});
  const auto result = blf->Filter(nullptr, {decodeEndpoint, encodeEndpoint, unlabeledEndpoint});
  EXPECT_EQ(result, std::vector<fwksched::EndpointPtr>{decodeEndpoint})
      << "only the decode-labeled endpoint should pass; the mislabeled and unlabeled endpoints must not";
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099 ExamplePrefillDecodeRolesInLWS
// (the example's "// Output: pod accepted by decode-role" as an assertion)
TEST(LabelSelectorFilter, ExamplePrefillDecodeRolesInLWS) {
  auto decodeLeader =
      makeSelector("decode-role", R"({ "matchLabels": { "leaderworkerset.sigs.k8s.io/worker-index": "0" } })");
  auto decodeFollower = makeSelector(
      "ignore-decode-workers",
      R"({"matchExpressions": [{"key": "leaderworkerset.sigs.k8s.io/worker-index", "operator": "NotIn", "values": ["0"]}]})");
  auto prefillworker = makeSelector(
      "prefill-role",
      R"({"matchExpressions": [{"key": "leaderworkerset.sigs.k8s.io/worker-index", "operator": "DoesNotExist"}]})");
  const std::vector<fwksched::EndpointPtr> endpoints = {createEndpoint(
      {"default", "vllm"}, "10.0.0.1",
      {{"app.kubernetes.io/component", "vllm-worker"},
       {"app.kubernetes.io/name", "some-model"},
       {"leaderworkerset.sigs.k8s.io/worker-index", "0"}})};
  std::string name;
  for (const auto& blf : {decodeLeader, decodeFollower, prefillworker}) {
    if (!blf->Filter(nullptr, endpoints).empty()) name = blf->TypedName().Name;
  }
  EXPECT_EQ("pod accepted by " + name, "pod accepted by decode-role");
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector_test.go@71f4f099 TestDeprecatedSelectorFactoryBackwardCompat
TEST(LabelSelectorFilter, TestDeprecatedSelectorFactoryBackwardCompat) {
  scorertest::TestHandle h;
  const nlohmann::json raw = nlohmann::json::parse(R"({"matchLabels": {"app": "nginx"}})");
  auto plugin = DeprecatedSelectorFactory("compat-test", &raw, h.handle);
  ASSERT_NE(plugin, nullptr);
  auto blf = std::dynamic_pointer_cast<Selector>(plugin);
  ASSERT_NE(blf, nullptr) << "deprecated factory should still produce *Selector";
  EXPECT_EQ(blf->TypedName().Type, ByLabelSelectorType);
  const std::vector<fwksched::EndpointPtr> endpoints = {
      createEndpoint({"", "nginx-1"}, "10.0.0.1", {{"app", "nginx"}}),
      createEndpoint({"", "redis-1"}, "10.0.0.2", {{"app", "redis"}}),
  };
  const auto filtered = blf->Filter(nullptr, endpoints);
  ASSERT_EQ(filtered.size(), 1u);
  EXPECT_EQ(filtered[0]->GetMetadata()->ID.Name, "nginx-1");
}

// BLIS: the canonical factory reports the canonical type (selector.go NewSelector; the contrast to the test above).
TEST(LabelSelectorFilter, CanonicalFactoryType) {
  EXPECT_EQ(makeSelector("s", "{}")->TypedName(), (fwkplugin::TypedName{LabelSelectorFilterType, "s"}));
}

// BLIS: apimachinery's Requirement.Matches cases no llm-d test reaches (k8s.io/apimachinery@v0.35.7
// pkg/labels/selector.go Requirement.Matches): NotIn admits an endpoint without the key, In does not, and
// all requirements must hold.
TEST(LabelSelectorFilter, RequirementSemantics) {
  const auto withTier = createEndpoint({"", "with-tier"}, "10.0.0.1", {{"tier", "gpu"}, {"zone", "a"}});
  const auto withoutTier = createEndpoint({"", "without-tier"}, "10.0.0.2", {{"zone", "a"}});
  const std::vector<fwksched::EndpointPtr> endpoints = {withTier, withoutTier};
  EXPECT_EQ(names(makeSelector("s", R"({"matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["cpu"]}]})")
                      ->Filter(nullptr, endpoints)),
            (std::vector<std::string>{"with-tier", "without-tier"}));
  EXPECT_EQ(names(makeSelector("s", R"({"matchExpressions": [{"key": "tier", "operator": "In", "values": ["gpu", ""]}]})")
                      ->Filter(nullptr, endpoints)),
            (std::vector<std::string>{"with-tier"}));
  EXPECT_EQ(names(makeSelector("s", R"({"matchLabels": {"zone": "a"}, "matchExpressions": [
                                        {"key": "tier", "operator": "DoesNotExist"}]})")
                      ->Filter(nullptr, endpoints)),
            (std::vector<std::string>{"without-tier"}));
}

// BLIS: LabelSelectorAsSelector(nil) is Nothing (k8s.io/apimachinery@v0.35.7 pkg/apis/meta/v1/helpers.go).
TEST(LabelSelectorFilter, NilSelectorMatchesNothing) {
  EXPECT_FALSE(k8s::LabelSelectorAsSelector(nullptr).Matches({}));
  const k8s::LabelSelector empty;
  EXPECT_TRUE(k8s::LabelSelectorAsSelector(&empty).Matches({{"a", "b"}}));
}

}  // namespace
}  // namespace blis::router::bylabel
