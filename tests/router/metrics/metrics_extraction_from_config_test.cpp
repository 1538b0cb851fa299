// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ transcription of
// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099. The HTTP
// data source, the Prometheus text parser and the mock server (mock_server_test.go) are not ported: each test
// hands the extractor the metric families the mock server's registry would have been parsed into (one gauge
// family per name, one sample per instance, no timestamps), which is the shape the simulator hands over.
// Where Go polls through the dispatcher (which records extractor errors instead of returning them), the
// transcription calls Extract and asserts it returns no error (what Go's NoError on Poll also implies for
// these cases: the fetch succeeds and every configured family is served). TestMetricsExtractionServerError
// (an unreachable HTTP server) is not applicable: there is no HTTP fetch in the port.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/factories.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/scalar_metric_value.h"

namespace blis::router::metrics {
namespace {

// mock_server_test.go@71f4f099 the vLLM metric names
const std::string WaitingMetric = "vllm:num_requests_waiting";
const std::string RunningMetric = "vllm:num_requests_running";
const std::string KVCacheMetric = "vllm:kv_cache_usage_perc";
const std::string LoRAMetric = "vllm:lora_requests_info";
const std::string CacheConfigMetric = "vllm:cache_config_info";

// mock_server_test.go@71f4f099 MetricMock
struct MetricMock {
  std::string Name;
  double Value = 0;
  std::map<std::string, std::string> Labels;
};

// What mock_server_test.go@71f4f099 createMockServer serves once scraped and parsed: a gauge family per
// name, a sample per instance with its labels in name order, no timestamp.
PrometheusMetricMap served(const std::vector<MetricMock>& mocks) {
  PrometheusMetricMap families;
  for (const auto& m : mocks) {
    MetricFamily& f = families[m.Name];
    f.Name = m.Name;
    f.Type = MetricType::GAUGE;
    Metric s;
    for (const auto& [k, v] : m.Labels) s.Label.push_back(LabelPair{k, v});
    s.Gauge = m.Value;
    f.Metric.push_back(s);
  }
  return families;
}

// metrics_extraction_from_config_test.go@71f4f099 buildExtractor (nullptr params: the defaults)
std::shared_ptr<Extractor> buildExtractor(const modelServerExtractorParams* params) {
  return newCoreMetricsExtractorPlugin("core-metrics-extractor", params);
}

// metrics_extraction_from_config_test.go@71f4f099 newEndpointAt (the metrics host is not modelled)
Endpoint newEndpointAt(std::map<std::string, std::string> labels) {
  fwkdl::EndpointMetadata meta;
  meta.Labels = std::move(labels);
  return Endpoint(meta, fwkdl::NewMetrics());
}

const std::map<std::string, std::string> vllmLabels = {{DefaultEngineTypeLabelKey, "vllm"}};

// A simulated time standing for the time.Now() of each Go poll.
constexpr std::int64_t kNowUs = 5'000'000;

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionDefaultConfig
TEST(MetricsExtractionFromConfig, TestMetricsExtractionDefaultConfig) {
  const auto data = served({
      {WaitingMetric, 7, {}},
      {RunningMetric, 3, {}},
      {KVCacheMetric, 0.55, {}},
      {LoRAMetric, 1.7e9,  // time.Now().Unix() upstream: the series' creation time
       {{LoraInfoRunningAdaptersMetricName, "adapter-a,adapter-b"},
        {LoraInfoWaitingAdaptersMetricName, "adapter-c"},
        {LoraInfoMaxAdaptersMetricName, "4"}}},
      {CacheConfigMetric, 1, {{CacheConfigBlockSizeInfoMetricName, "16"}, {CacheConfigNumGPUBlocksMetricName, "512"}}},
  });
  auto p = buildExtractor(nullptr);
  Endpoint ep = newEndpointAt(vllmLabels);
  Error err = p->Extract(PollInput{data, ep, kNowUs});
  ASSERT_FALSE(err.has_value()) << *err;

  const fwkdl::Metrics& m = ep.GetMetrics();
  EXPECT_EQ(m.WaitingQueueSize, 7) << "WaitingQueueSize";
  EXPECT_EQ(m.RunningRequestsSize, 3) << "RunningRequestsSize";
  EXPECT_NEAR(m.KVCacheUsagePercent, 0.55, 0.001) << "KVCacheUsagePercent";
  EXPECT_EQ(m.MaxActiveModels, 4) << "MaxActiveModels";
  EXPECT_TRUE(m.ActiveModels.count("adapter-a"));
  EXPECT_TRUE(m.ActiveModels.count("adapter-b"));
  EXPECT_TRUE(m.WaitingModels.count("adapter-c"));
  EXPECT_EQ(m.CacheBlockSize, 16) << "CacheBlockSize";
  EXPECT_EQ(m.CacheNumBlocks, 512) << "CacheNumBlocks";
  EXPECT_EQ(ep.GetMetricsUpdateTimeUs(), kNowUs);  // BLIS: the simulated update time
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionLoRADisabledViaConfig
TEST(MetricsExtractionFromConfig, TestMetricsExtractionLoRADisabledViaConfig) {
  // LoRA metrics are served but must be ignored.
  const auto data = served({
      {WaitingMetric, 5, {}},
      {RunningMetric, 2, {}},
      {KVCacheMetric, 0.3, {}},
      {LoRAMetric, 1.7e9, {{LoraInfoRunningAdaptersMetricName, "some-adapter"}, {LoraInfoMaxAdaptersMetricName, "2"}}},
  });
  // Only the vllm engine config is overridden; loraSpec is explicitly empty (engineConfigs replace whole
  // engine entries, not fields).
  modelServerExtractorParams params;
  engineConfigParams vllm;
  vllm.Name = "vllm";
  vllm.QueuedRequestsSpec = "vllm:num_requests_waiting";
  vllm.RunningRequestsSpec = "vllm:num_requests_running";
  vllm.KVUsageSpec = "vllm:kv_cache_usage_perc";
  params.EngineConfigs = {vllm};
  auto p = buildExtractor(&params);
  Endpoint ep = newEndpointAt(vllmLabels);
  Error err = p->Extract(PollInput{data, ep, kNowUs});
  ASSERT_FALSE(err.has_value()) << *err;

  const fwkdl::Metrics& m = ep.GetMetrics();
  EXPECT_EQ(m.WaitingQueueSize, 5);
  EXPECT_EQ(m.RunningRequestsSize, 2);
  EXPECT_NEAR(m.KVCacheUsagePercent, 0.3, 0.001);
  EXPECT_TRUE(m.ActiveModels.empty()) << "ActiveModels should be empty when loraSpec is disabled";
  EXPECT_TRUE(m.WaitingModels.empty());
  EXPECT_EQ(m.MaxActiveModels, 0);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionMissingMetricFamilyReturnsError
TEST(MetricsExtractionFromConfig, TestMetricsExtractionMissingMetricFamilyReturnsError) {
  struct Case {
    std::string name;
    std::vector<MetricMock> served;
    std::string wantErrContain;
  };
  const std::vector<Case> tests = {{"all metric families absent", {}, "not found"}};
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    auto p = buildExtractor(nullptr);
    Endpoint ep = newEndpointAt(vllmLabels);
    const auto data = served(tc.served);
    Error err = p->Extract(PollInput{data, ep, kNowUs});
    ASSERT_TRUE(err.has_value()) << "expected error for missing metric family";
    EXPECT_NE(err->find(tc.wantErrContain), std::string::npos) << "error " << *err << " should contain "
                                                               << tc.wantErrContain;
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionLoRAFamilyAbsentNoError
TEST(MetricsExtractionFromConfig, TestMetricsExtractionLoRAFamilyAbsentNoError) {
  const auto data = served({
      {WaitingMetric, 4, {}},
      {RunningMetric, 1, {}},
      {KVCacheMetric, 0.2, {}},
      {CacheConfigMetric, 1, {{CacheConfigBlockSizeInfoMetricName, "16"}, {CacheConfigNumGPUBlocksMetricName, "512"}}},
  });
  auto p = buildExtractor(nullptr);
  Endpoint ep = newEndpointAt(vllmLabels);
  Error err = p->Extract(PollInput{data, ep, kNowUs});
  ASSERT_FALSE(err.has_value()) << "missing optional LoRA family must not be an extraction error: " << *err;
  const fwkdl::Metrics& m = ep.GetMetrics();
  EXPECT_EQ(m.WaitingQueueSize, 4) << "WaitingQueueSize";
  EXPECT_EQ(m.RunningRequestsSize, 1) << "RunningRequestsSize";
  EXPECT_NEAR(m.KVCacheUsagePercent, 0.2, 0.001) << "KVCacheUsagePercent";
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionDisabledSpecNoError
TEST(MetricsExtractionFromConfig, TestMetricsExtractionDisabledSpecNoError) {
  modelServerExtractorParams params;
  engineConfigParams vllm;
  vllm.Name = "vllm";  // every spec empty: disabled
  params.EngineConfigs = {vllm};
  auto p = buildExtractor(&params);
  Endpoint ep = newEndpointAt(vllmLabels);
  const auto data = served({});
  EXPECT_FALSE(p->Extract(PollInput{data, ep, kNowUs}).has_value());
  EXPECT_EQ(ep.GetMetricsUpdateTimeUs(), std::nullopt);  // BLIS: nothing read, nothing updated
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionCustomScalarFromConfig
TEST(MetricsExtractionFromConfig, TestMetricsExtractionCustomScalarFromConfig) {
  const std::string attributeKey = "custom.queue_depth";
  const auto data = served({{"custom_queue_depth", 42.5, {{"tier", "gold"}}}});
  modelServerExtractorParams params;
  engineConfigParams vllm;
  vllm.Name = "vllm";
  vllm.CustomMetrics = {customMetricConfigParams{attributeKey, "custom_queue_depth{tier=gold}"}};
  params.EngineConfigs = {vllm};
  auto p = buildExtractor(&params);
  Endpoint ep = newEndpointAt(vllmLabels);
  Error err = p->Extract(PollInput{data, ep, kNowUs});
  ASSERT_FALSE(err.has_value()) << *err;

  auto got = ReadScalarMetricValue(ep.GetAttributes(), attributeKey);
  ASSERT_TRUE(got.has_value()) << "custom scalar metric should be stored as an endpoint attribute";
  EXPECT_NEAR(*got, 42.5, 0.001);
  EXPECT_EQ(ep.GetMetrics().WaitingQueueSize, 0);
  EXPECT_EQ(ep.GetMetrics().RunningRequestsSize, 0);
  EXPECT_EQ(ep.GetMetrics().KVCacheUsagePercent, 0);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionCustomCounterFromConfig
TEST(MetricsExtractionFromConfig, TestMetricsExtractionCustomCounterFromConfig) {
  const std::string attributeKey = "custom.total_requests";
  modelServerExtractorParams params;
  engineConfigParams vllm;
  vllm.Name = "vllm";
  vllm.CustomMetrics = {customMetricConfigParams{attributeKey, "custom_total_requests"}};
  params.EngineConfigs = {vllm};
  auto ext = buildExtractor(&params);

  fwkdl::EndpointMetadata meta;
  meta.Labels = vllmLabels;
  Endpoint ep(meta);
  Metric counter;
  counter.Counter = 12.0;
  const PrometheusMetricMap data = {{"custom_total_requests", MetricFamily{"", MetricType::COUNTER, {counter}}}};
  Error err = ext->Extract(PollInput{data, ep, kNowUs});
  ASSERT_FALSE(err.has_value()) << *err;
  auto got = ReadScalarMetricValue(ep.GetAttributes(), attributeKey);
  ASSERT_TRUE(got.has_value()) << "custom counter should be stored as an endpoint attribute";
  EXPECT_NEAR(*got, 12.0, 0.001);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionJoinedErrors
TEST(MetricsExtractionFromConfig, TestMetricsExtractionJoinedErrors) {
  const auto data = served({{WaitingMetric, 9, {}}});
  auto p = buildExtractor(nullptr);
  Endpoint ep = newEndpointAt(vllmLabels);
  Error err = p->Extract(PollInput{data, ep, kNowUs});
  ASSERT_TRUE(err.has_value());
  EXPECT_TRUE(err->find("num_requests_running") != std::string::npos ||
              err->find("kv_cache_usage_perc") != std::string::npos)
      << "error message should name at least one missing family: " << *err;
  EXPECT_EQ(ep.GetMetrics().WaitingQueueSize, 9);
  // BLIS: the joined text is errors.Join's, in the extractor's order (running, kv, cache info; LoRA absent
  // is not an error).
  EXPECT_EQ(*err,
            "metric family \"vllm:num_requests_running\" not found\n"
            "metric family \"vllm:kv_cache_usage_perc\" not found\n"
            "metric family \"vllm:cache_config_info\" not found");
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/metrics_extraction_from_config_test.go@71f4f099 TestMetricsExtractionMultipleExtractors
TEST(MetricsExtractionFromConfig, TestMetricsExtractionMultipleExtractors) {
  const auto data = served({
      {WaitingMetric, 11, {}},
      {RunningMetric, 5, {}},
      {KVCacheMetric, 0.75, {}},
      {LoRAMetric, 1.7e9, {{LoraInfoRunningAdaptersMetricName, "adapter-x"}, {LoraInfoMaxAdaptersMetricName, "8"}}},
  });
  // Extractor A: queue + running only.
  modelServerExtractorParams paramsA;
  engineConfigParams a;
  a.Name = "vllm";
  a.QueuedRequestsSpec = "vllm:num_requests_waiting";
  a.RunningRequestsSpec = "vllm:num_requests_running";
  paramsA.EngineConfigs = {a};
  auto extA = buildExtractor(&paramsA);
  // Extractor B: LoRA only.
  modelServerExtractorParams paramsB;
  engineConfigParams b;
  b.Name = "vllm";
  b.LoRASpec = "vllm:lora_requests_info";
  paramsB.EngineConfigs = {b};
  auto extB = buildExtractor(&paramsB);

  Endpoint epA = newEndpointAt(vllmLabels);
  Endpoint epB = newEndpointAt(vllmLabels);
  Error errA = extA->Extract(PollInput{data, epA, kNowUs});
  Error errB = extB->Extract(PollInput{data, epB, kNowUs});
  ASSERT_FALSE(errA.has_value()) << *errA;
  ASSERT_FALSE(errB.has_value()) << *errB;

  const fwkdl::Metrics& mA = epA.GetMetrics();
  EXPECT_EQ(mA.WaitingQueueSize, 11) << "extractor A: WaitingQueueSize";
  EXPECT_EQ(mA.RunningRequestsSize, 5) << "extractor A: RunningRequestsSize";
  EXPECT_EQ(mA.MaxActiveModels, 0) << "extractor A: LoRA should not be extracted";
  EXPECT_TRUE(mA.ActiveModels.empty()) << "extractor A: ActiveModels should be empty";

  const fwkdl::Metrics& mB = epB.GetMetrics();
  EXPECT_EQ(mB.WaitingQueueSize, 0) << "extractor B: queue should not be extracted";
  EXPECT_EQ(mB.MaxActiveModels, 8) << "extractor B: MaxActiveModels";
  EXPECT_TRUE(mB.ActiveModels.count("adapter-x")) << "extractor B: ActiveModels";
}

}  // namespace
}  // namespace blis::router::metrics
