// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099
// (the JSON parameters are parsed by nlohmann::json before the factory, as the config loader does).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.h"
#include "tests/router/scorers/test_support.h"

namespace blis::router::contextlengthaware {
namespace {

using scorertest::elementsMatch;
using scorertest::names;

// The test file's createEndpoint: nil metrics.
fwksched::EndpointPtr createEndpoint(const fwkdl::NamespacedName& nsn, const std::string& ip,
                                     const std::map<std::string, std::string>& labels) {
  return scorertest::createEndpoint(nsn, ip, labels, /*withMetrics=*/false);
}

fwksched::InferenceRequest createRequest() {
  fwksched::InferenceRequest r;
  r.RequestID = "test-request";
  return r;
}

double at(const fwksched::ScoreMap& m, const fwksched::EndpointPtr& e) {
  auto it = m.find(e);
  return it == m.end() ? 0.0 : it->second;
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099 TestFactory
// The "malformed JSON should error" case is not applicable: the parameters reach the factory already parsed
// (the config loader refuses malformed JSON). BLIS also checks the texts and the unknown-field refusal.
TEST(ContextLengthAware, TestFactory) {
  struct Case {
    std::string name, pluginName, jsonParams;
    bool expectErr;
    std::string wantErr;
  };
  const std::vector<Case> tests = {
      {"valid configuration with defaults", "ctx-aware", "{}", false, ""},
      {"empty label should error", "empty-label", R"({"label": ""})", true,
       "invalid configuration for 'context-length-aware' plugin: 'label' must be specified"},
      {"unknown field (BLIS)", "x", R"({"labels": "a"})", true,
       "failed to parse the parameters of the 'context-length-aware' plugin - json: unknown field \"labels\""},
      {"enableFiltering not a bool (BLIS)", "x", R"({"enableFiltering": 1})", true,
       "failed to parse the parameters of the 'context-length-aware' plugin - json: cannot unmarshal number into Go "
       "struct field contextLengthAwareParameters.enableFiltering of type bool"},
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
      auto p = std::dynamic_pointer_cast<ContextLengthAware>(plugin);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(p->TypedName(), (fwkplugin::TypedName{ContextLengthAwareType, tt.pluginName}));
    }
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099 TestContextLengthAwareFilter
TEST(ContextLengthAware, TestContextLengthAwareFilter) {
  const std::vector<fwksched::EndpointPtr> endpoints = {
      createEndpoint({"default", "short-range"}, "10.0.0.1", {{DefaultContextLengthLabel, "0-100"}}),
      createEndpoint({"default", "medium-range"}, "10.0.0.2", {{DefaultContextLengthLabel, "100-500"}}),
      createEndpoint({"default", "wide-range"}, "10.0.0.3", {{DefaultContextLengthLabel, "0-2000"}}),
      createEndpoint({"default", "no-label"}, "10.0.0.4", {}),
  };
  auto plugin = NewContextLengthAware("test-filter", {DefaultContextLengthLabel, true});
  auto request = createRequest();
  // With an empty request body the context length is 0: it matches 0-100 and 0-2000.
  const auto filtered = plugin->Filter(&request, endpoints);
  EXPECT_TRUE(elementsMatch({"short-range", "wide-range", "no-label"}, names(filtered)));
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099 TestContextLengthAwareScore
TEST(ContextLengthAware, TestContextLengthAwareScore) {
  const std::vector<fwksched::EndpointPtr> endpoints = {
      createEndpoint({"default", "tight-range"}, "10.0.0.1", {{DefaultContextLengthLabel, "0-20"}}),
      createEndpoint({"default", "wide-range"}, "10.0.0.2", {{DefaultContextLengthLabel, "0-10000"}}),
      createEndpoint({"default", "no-match"}, "10.0.0.3", {{DefaultContextLengthLabel, "500-1000"}}),
      createEndpoint({"default", "no-label"}, "10.0.0.4", {}),
  };
  auto plugin = NewContextLengthAware("test-scorer", {DefaultContextLengthLabel, false});
  auto request = createRequest();
  const auto scores = plugin->Score(&request, endpoints);
  EXPECT_GT(at(scores, endpoints[0]), at(scores, endpoints[1])) << "tight range should score higher than wide range";
  EXPECT_GT(at(scores, endpoints[0]), 0.3) << "in-range score must be strictly above 0.3";
  EXPECT_GT(at(scores, endpoints[1]), 0.3) << "in-range score must be strictly above 0.3";
  EXPECT_GT(at(scores, endpoints[2]), 0.0) << "out-of-range should get a fallback score > 0";
  EXPECT_LT(at(scores, endpoints[2]), 0.3) << "out-of-range fallback must be strictly below 0.3";
  EXPECT_GT(at(scores, endpoints[1]), at(scores, endpoints[2])) << "in-range match should outscore out-of-range fallback";
  EXPECT_EQ(at(scores, endpoints[3]), 0.5) << "no label should score 0.5";
  EXPECT_EQ(scores.size(), 4u);
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099 TestParseContextRange
// (BLIS also checks upstream's error texts.)
TEST(ContextLengthAware, TestParseContextRange) {
  struct Case {
    std::string name, rangeStr;
    contextRange expected;
    std::string wantErr;
  };
  const std::vector<Case> tests = {
      {"valid range", "0-100", {0, 100}, ""},
      {"empty string", "", {}, "empty range string"},
      {"invalid format with three parts", "0-100-200", {}, "invalid range format: 0-100-200 (expected 'min-max')"},
      {"min greater than max", "100-50", {}, "min (100) cannot be greater than max (50)"},
      {"non-numeric value", "abc-100", {}, "invalid min value: abc"},
      // BLIS: strconv.Atoi after strings.TrimSpace.
      {"spaces trimmed", " 5 - +10 ", {5, 10}, ""},
      {"non-numeric max", "5-1e3", {}, "invalid max value: 1e3"},
      {"int64 overflow", "0-9223372036854775808", {}, "invalid max value: 9223372036854775808"},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    const parsedRange r = parseContextRange(tt.rangeStr);
    EXPECT_EQ(r.error, tt.wantErr);
    if (tt.wantErr.empty()) {
      EXPECT_EQ(r.range, tt.expected);
    }
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099 TestCalculateRangeScoreFallback
TEST(ContextLengthAware, TestCalculateRangeScoreFallback) {
  {
    SCOPED_TRACE("exceeds range — prefer largest max");
    const double smallMax = calculateRangeScore(9000, {0, 2048});
    const double largeMax = calculateRangeScore(9000, {0, 8192});
    EXPECT_GT(smallMax, 0.0);
    EXPECT_LT(smallMax, 0.3);
    EXPECT_GT(largeMax, 0.0);
    EXPECT_LT(largeMax, 0.3);
    EXPECT_GT(largeMax, smallMax) << "pod with larger max should score higher";
  }
  {
    SCOPED_TRACE("below range — prefer smallest min");
    const double farMin = calculateRangeScore(50, {500, 2048});
    const double closeMin = calculateRangeScore(50, {100, 1024});
    EXPECT_GT(farMin, 0.0);
    EXPECT_LT(farMin, 0.3);
    EXPECT_GT(closeMin, 0.0);
    EXPECT_LT(closeMin, 0.3);
    EXPECT_GT(closeMin, farMin) << "pod with smaller min should score higher";
  }
  {
    SCOPED_TRACE("in-range always beats out-of-range for wide ranges");
    const double wideInRange = calculateRangeScore(14999, {0, 15000});
    const double outOfRange = calculateRangeScore(14999, {15001, 20000});
    EXPECT_GT(wideInRange, 0.3) << "in-range score must be strictly above 0.3";
    EXPECT_LT(outOfRange, 0.3) << "out-of-range score must be strictly below 0.3";
    EXPECT_GT(wideInRange, outOfRange) << "in-range must beat out-of-range";
  }
  // BLIS: the formula's values (0.3 + (0.7/(1+w/1e4) + 0.3*headroom/w)*0.7; 0.3/(1+d/1000); 1 for a point range).
  EXPECT_EQ(calculateRangeScore(7, {7, 7}), 1.0);
  EXPECT_DOUBLE_EQ(calculateRangeScore(0, {0, 10000}), 0.3 + (0.7 * 0.5 + 0.3 * 1.0) * 0.7);
  EXPECT_DOUBLE_EQ(calculateRangeScore(3000, {0, 2000}), 0.3 / 2.0);
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099 TestContextLengthAwareWithTokenizedPromptOnRequest
TEST(ContextLengthAware, TestContextLengthAwareWithTokenizedPromptOnRequest) {
  const int tokenCount = 42;
  const std::vector<fwksched::EndpointPtr> endpoints = {
      createEndpoint({"default", "tight-match"}, "10.0.0.1",
                     {{DefaultContextLengthLabel, "0-" + std::to_string(tokenCount + 10)}}),
      createEndpoint({"default", "no-match"}, "10.0.0.2",
                     {{DefaultContextLengthLabel, std::to_string(tokenCount + 100) + "-" + std::to_string(tokenCount + 200)}}),
  };
  auto plugin = NewContextLengthAware("test-tokenized", {DefaultContextLengthLabel, true});
  std::vector<std::uint32_t> tokenIDs(tokenCount);
  for (int i = 0; i < tokenCount; ++i) tokenIDs[i] = static_cast<std::uint32_t>(i + 1);
  fwksched::InferenceRequest request;
  request.RequestID = "test-request";
  request.TargetModel = "test-model";
  request.Body = std::make_shared<fwkrh::InferenceRequestBody>();
  request.Body->TokenizedPrompt = fwkrh::TokenizedPrompt{{tokenIDs}, ""};
  const auto filtered = plugin->Filter(&request, endpoints);
  ASSERT_EQ(filtered.size(), 1u);
  EXPECT_EQ(filtered[0]->GetMetadata()->ID.Name, "tight-match");
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware_test.go@71f4f099 TestContextLengthAwareNilTokenizedPromptIsZero
TEST(ContextLengthAware, TestContextLengthAwareNilTokenizedPromptIsZero) {
  const std::vector<fwksched::EndpointPtr> endpoints = {
      createEndpoint({"default", "matching-range"}, "10.0.0.1", {{DefaultContextLengthLabel, "0-50"}}),
      createEndpoint({"default", "non-matching-range"}, "10.0.0.2", {{DefaultContextLengthLabel, "100-200"}}),
  };
  auto plugin = NewContextLengthAware("test-no-tokens", {DefaultContextLengthLabel, true});
  fwksched::InferenceRequest request;
  request.RequestID = "test-request";
  request.TargetModel = "test-model";
  request.Body = std::make_shared<fwkrh::InferenceRequestBody>();
  const auto filtered = plugin->Filter(&request, endpoints);
  ASSERT_EQ(filtered.size(), 1u);
  EXPECT_EQ(filtered[0]->GetMetadata()->ID.Name, "matching-range");
}

// BLIS (context_length_aware.go Filter/Score branches no upstream test reaches): filtering off passes every
// endpoint through; an unparsable label drops the endpoint from the filter and scores 0; an endpoint without
// metadata passes the filter and scores 0.5.
TEST(ContextLengthAware, UncoveredBranches) {
  const auto bad = createEndpoint({"", "bad"}, "10.0.0.1", {{DefaultContextLengthLabel, "x"}});
  const auto noMeta = fwksched::NewEndpoint(std::nullopt, std::nullopt);
  auto request = createRequest();
  EXPECT_EQ(NewContextLengthAware("off", {DefaultContextLengthLabel, false})->Filter(&request, {bad, noMeta}).size(), 2u);
  auto on = NewContextLengthAware("on", {DefaultContextLengthLabel, true});
  EXPECT_EQ(on->Filter(&request, {bad, noMeta}), std::vector<fwksched::EndpointPtr>{noMeta});
  const auto scores = on->Score(&request, {bad, noMeta});
  EXPECT_EQ(at(scores, bad), 0.0);
  EXPECT_EQ(scores.count(bad), 1u);
  EXPECT_EQ(at(scores, noMeta), 0.5);
  EXPECT_EQ(on->Category(), fwksched::Affinity);
}

}  // namespace
}  // namespace blis::router::contextlengthaware
