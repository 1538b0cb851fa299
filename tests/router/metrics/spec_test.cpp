// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ transcription of pkg/epp/framework/plugins/datalayer/extractor/metrics/spec_test.go@71f4f099.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/loraspec.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/spec.h"

namespace blis::router::metrics {
namespace {

// spec_test.go@71f4f099 makeMetric
Metric makeMetric(const std::map<std::string, std::string>& labels, double value, std::int64_t timestampMs) {
  Metric m;
  for (const auto& [k, v] : labels) m.Label.push_back(LabelPair{k, v});
  m.Gauge = value;
  m.TimestampMs = timestampMs;
  return m;
}

// spec_test.go@71f4f099 makeMetricFamily
MetricFamily makeMetricFamily(const std::string& name, std::vector<Metric> metrics) {
  return MetricFamily{name, MetricType::GAUGE, std::move(metrics)};
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec_test.go@71f4f099 TestStringToMetricSpec
TEST(MetricsSpec, TestStringToMetricSpec) {
  struct Case {
    std::string name;
    std::string input;
    std::optional<Spec> want;
    bool wantErr;
  };
  const std::vector<Case> tests = {
      {"empty string", "", std::nullopt, false},
      {"no labels", "my_metric", Spec{"my_metric", {}}, false},
      {"one label", "my_metric{label1=value1}", Spec{"my_metric", {{"label1", "value1"}}}, false},
      {"label with quoted value", "my_metric{label1=\"value1\"}", Spec{"my_metric", {{"label1", "value1"}}}, false},
      {"multiple labels", "my_metric{label1=value1,label2=value2}",
       Spec{"my_metric", {{"label1", "value1"}, {"label2", "value2"}}}, false},
      {"extra whitespace", "  my_metric  {  label1  =  value1  ,  label2  =  value2  }  ",
       Spec{"my_metric", {{"label1", "value1"}, {"label2", "value2"}}}, false},
      {"missing closing brace", "my_metric{label1=value1", std::nullopt, true},
      {"missing opening brace", "my_metriclabel1=value1}", std::nullopt, true},
      {"invalid label pair", "my_metric{label1}", std::nullopt, true},
      {"empty label name", "my_metric{=value1}", std::nullopt, true},
      {"empty label value", "my_metric{label1=}", std::nullopt, true},
      {"empty label name and value with spaces", "my_metric{  =  }", std::nullopt, true},
      {"characters after closing brace", "my_metric{label=val}extra", std::nullopt, true},
      {"empty metric name", "{label=val}", std::nullopt, true},
      {"no labels and just metric name with space", "my_metric ", Spec{"my_metric", {}}, false},
      {"no labels and just metric name with space before and after", "  my_metric  ", Spec{"my_metric", {}}, false},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    Error err;
    SpecPtr got = parseStringToSpec(tt.input, &err);
    if (tt.wantErr) {
      EXPECT_TRUE(err.has_value()) << "expected error but got none";
      continue;
    }
    EXPECT_FALSE(err.has_value()) << "unexpected error from parseStringToSpec: " << err.value_or("");
    if (!tt.want) {
      EXPECT_EQ(got, nullptr);
    } else {
      ASSERT_NE(got, nullptr);
      EXPECT_EQ(*got, *tt.want);
    }
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec_test.go@71f4f099 TestGetMetric
TEST(MetricsSpec, TestGetMetric) {
  PrometheusMetricMap metricFamilies = {
      {"metric1", makeMetricFamily("metric1", {makeMetric({{"label1", "value1"}}, 1.0, 1000),
                                               makeMetric({{"label1", "value2"}}, 2.0, 2000)})},
      {"metric2", makeMetricFamily("metric2", {makeMetric({{"labelA", "A1"}, {"labelB", "B1"}}, 3.0, 1500),
                                               makeMetric({{"labelA", "A2"}, {"labelB", "B2"}}, 4.0, 2500)})},
      {"metric3", makeMetricFamily("metric3", {makeMetric({}, 5.0, 3000), makeMetric({}, 6.0, 1000)})},
  };
  struct Case {
    std::string name;
    Spec spec;
    double expected;
    bool wantError;
  };
  const std::vector<Case> tests = {
      {"get labeled metric, exists", Spec{"metric1", {{"label1", "value1"}}}, 1.0, false},
      {"get labeled metric, wrong value", Spec{"metric1", {{"label1", "value3"}}}, -1, true},
      {"get labeled metric, missing label", Spec{"metric1", {{"label2", "value2"}}}, -1, true},
      {"get labeled metric, extra label present", Spec{"metric2", {{"labelA", "A1"}}}, 3.0, false},
      {"get unlabeled metric, exists", Spec{"metric3", {}}, 5.0, false},  // latest, first in the data
      {"get unlabeled metric, metric family not found", Spec{"metric4", {}}, -1, true},
      {"get labeled metric, metric family not found", Spec{"metric4", {{"label1", "value1"}}}, -1, true},
      {"get metric, no metrics available", Spec{"empty_metric", {}}, -1, true},
      {"get latest metric", Spec{"metric3", {}}, 5.0, false},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    Error err;
    const Metric* metric = tt.spec.getLatestMetric(metricFamilies, &err);
    if (tt.wantError) {
      EXPECT_TRUE(err.has_value()) << "expected error but got nil";
      continue;
    }
    ASSERT_FALSE(err.has_value()) << "unexpected error from getLatestMetric: " << *err;
    EXPECT_EQ(extractValue(metric), tt.expected) << "metric value mismatch";
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec_test.go@71f4f099 TestGetLoRAMetric
TEST(MetricsSpec, TestGetLoRAMetric) {
  const LoRASpec loraSpec{std::make_shared<Spec>(Spec{"vllm:lora_requests_info", {}})};
  struct Case {
    std::string name;
    PrometheusMetricMap metricFamilies;
    std::optional<std::map<std::string, int>> expectedAdapters;  // std::nullopt is Go's nil map
    int expectedMax;
  };
  const std::vector<Case> testCases = {
      // vLLM emits vllm:lora_requests_info only once an adapter is loaded: a missing family is "no adapters".
      {"missing family treated as no adapters",
       {{"some_other_metric", makeMetricFamily("some_other_metric", {makeMetric({}, 1.0, 1000)})}}, std::nullopt, 0},
      {"basic lora metrics",
       {{"vllm:lora_requests_info",
         makeMetricFamily("vllm:lora_requests_info",
                          {makeMetric({{"running_lora_adapters", "lora1"}, {"max_lora", "2"}}, 3000.0, 1000),  // newer
                           makeMetric({{"running_lora_adapters", "lora2,lora3"}, {"max_lora", "4"}}, 1000.0,
                                      1000)})}},  // older
       std::map<std::string, int>{{"lora1", 0}}, 2},
      {"no matching lora metrics",
       {{"vllm:lora_requests_info",
         makeMetricFamily("vllm:lora_requests_info", {makeMetric({{"other_label", "value"}}, 5.0, 3000)})}},
       std::map<std::string, int>{}, 0},
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    const Metric* metric = loraSpec.getLatestMetric(tc.metricFamilies);
    if (!tc.expectedAdapters && metric == nullptr) continue;
    ASSERT_NE(metric, nullptr) << "expected non-nil metric";
    std::map<std::string, int> adaptersFound;
    int maxLora = 0;
    for (const auto& label : metric->Label) {
      if (label.Name == "running_lora_adapters" || label.Name == "waiting_lora_adapters") {
        if (!label.Value.empty()) {
          size_t start = 0;
          for (;;) {
            const size_t c = label.Value.find(',', start);
            adaptersFound[label.Value.substr(start, c == std::string::npos ? std::string::npos : c - start)] = 0;
            if (c == std::string::npos) break;
            start = c + 1;
          }
        }
      } else if (label.Name == "max_lora") {
        maxLora = std::stoi(label.Value);
      }
    }
    ASSERT_TRUE(tc.expectedAdapters.has_value()) << "expected a nil metric";
    EXPECT_EQ(adaptersFound, *tc.expectedAdapters) << "adapters mismatch";
    EXPECT_EQ(maxLora, tc.expectedMax) << "maxLora mismatch";
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec_test.go@71f4f099 TestLabelsMatch
TEST(MetricsSpec, TestLabelsMatch) {
  struct Case {
    std::string name;
    std::vector<LabelPair> metricLabels;
    Spec spec;
    bool want;
  };
  const std::vector<Case> tests = {
      {"empty spec labels, should match", {{"a", "b"}}, Spec{"", {}}, true},
      {"nil spec labels, should match", {{"a", "b"}}, Spec{}, true},
      {"exact match", {{"a", "b"}}, Spec{"", {{"a", "b"}}}, true},
      {"extra labels in metric", {{"a", "b"}, {"c", "d"}}, Spec{"", {{"a", "b"}}}, true},
      {"missing label in metric", {{"a", "b"}}, Spec{"", {{"a", "b"}, {"c", "d"}}}, false},
      {"value mismatch", {{"a", "b"}}, Spec{"", {{"a", "c"}}}, false},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    EXPECT_EQ(tt.spec.labelsMatch(tt.metricLabels), tt.want) << "labelsMatch() mismatch";
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec_test.go@71f4f099 TestExtractValue
TEST(MetricsSpec, TestExtractValue) {
  Metric unsupported;  // a summary: neither gauge nor counter
  Metric gauge;
  gauge.Gauge = 42.5;
  Metric counter;
  counter.Counter = 99.9;
  EXPECT_EQ(extractValue(nullptr), 0.0) << "nil metric";
  EXPECT_EQ(extractValue(&unsupported), 0.0) << "unsupported metric type";
  EXPECT_EQ(extractValue(&gauge), 42.5) << "gauge metric";
  EXPECT_EQ(extractValue(&counter), 99.9) << "counter metric";
}

// Original to BLIS: the error texts of parseStringToSpec and getLatestMetric are Go's (fmt %q and %v).
TEST(MetricsSpec, ErrorTextsAsGo) {
  Error err;
  EXPECT_EQ(parseStringToSpec("{label=val}", &err), nullptr);
  EXPECT_EQ(err.value_or(""), "not a valid metric specification: \"{label=val}\"");
  EXPECT_EQ(parseStringToSpec("my_metric{label1}", &err), nullptr);
  EXPECT_EQ(err.value_or(""), "invalid label pair \"label1\" in specification: \"my_metric{label1}\"");
  EXPECT_EQ(parseStringToSpec("m{1a=b}", &err), nullptr);
  EXPECT_EQ(err.value_or(""), "invalid label pair \"1a=\\\"b\\\"\" in specification: \"m{1a=b}\"");
  PrometheusMetricMap families = {{"m", makeMetricFamily("m", {makeMetric({{"a", "x"}}, 1, 0)})},
                                  {"e", makeMetricFamily("e", {})}};
  EXPECT_EQ(Spec({"m", {{"b", "2"}, {"a", "1"}}}).getLatestMetric(families, &err), nullptr);
  EXPECT_EQ(err.value_or(""), "no matching metric found for \"m\" with labels map[a:1 b:2]");
  EXPECT_EQ(Spec({"q", {}}).getLatestMetric(families, &err), nullptr);
  EXPECT_EQ(err.value_or(""), "metric family \"q\" not found");
  EXPECT_EQ(Spec({"e", {}}).getLatestMetric(families, &err), nullptr);
  EXPECT_EQ(err.value_or(""), "no metrics found for \"e\"");
  // A colon-bearing name, quoted and unquoted values parse as the regular expressions do; a quoted value
  // holding '=' is re-quoted by addQuotesToLabelValues (`a="b="c""`) and refused, as upstream.
  SpecPtr s = parseStringToSpec("vllm:x{a=\"b\", d = e}", &err);
  ASSERT_FALSE(err.has_value()) << *err;
  EXPECT_EQ(*s, (Spec{"vllm:x", {{"a", "b"}, {"d", "e"}}}));
  EXPECT_EQ(parseStringToSpec("vllm:x{a=\"b=c\"}", &err), nullptr);
  EXPECT_EQ(err.value_or(""), "invalid label pair \"a=\\\"b=\\\"c\\\"\\\"\" in specification: \"vllm:x{a=\\\"b=c\\\"}\"");
}

}  // namespace
}  // namespace blis::router::metrics
