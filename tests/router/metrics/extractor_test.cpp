// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ transcription of pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099
// (Go's nil PrometheusMetricMap and the empty one are both the empty std::map here; a nil handle is a test
// Runtime's handle).
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/extractor.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/factories.h"

namespace blis::router::metrics {
namespace {

// extractor_test.go@71f4f099 the hard-coded default metric names
const std::string defaultTotalQueuedRequestsMetric = "vllm:num_requests_waiting";
const std::string defaultTotalRunningRequestsMetric = "vllm:num_requests_running";
const std::string defaultKvCacheUsagePercentageMetric = "vllm:kv_cache_usage_perc";
const std::string defaultLoraInfoMetric = "vllm:lora_requests_info";
const std::string defaultCacheInfoMetric = "vllm:cache_config_info";
const std::string customMetricsConfigKey = "customMetrics";

// A gauge family with one sample per (labels, value).
MetricFamily gaugeFamily(std::vector<std::pair<std::vector<LabelPair>, std::optional<double>>> samples) {
  MetricFamily f;
  f.Type = MetricType::GAUGE;
  for (auto& [labels, value] : samples) {
    Metric m;
    m.Label = labels;
    m.Gauge = value;
    f.Metric.push_back(m);
  }
  return f;
}

class NoRandomStream final : public RandomStream {
 public:
  std::uint64_t next_u64() override { throw std::logic_error("no draw expected"); }
  double uniform01() override { throw std::logic_error("no draw expected"); }
  std::uint64_t below(std::uint64_t) override { throw std::logic_error("no draw expected"); }
};
class TestRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view) override { return stream_; }

 private:
  NoRandomStream stream_;
};

fwkdl::EndpointMetadata withLabels(std::map<std::string, std::string> labels) {
  fwkdl::EndpointMetadata m;
  m.Labels = std::move(labels);
  return m;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099 TestExtractorExtract
TEST(MetricsExtractor, TestExtractorExtract) {
  Error err;
  EXPECT_EQ(NewCoreMetricsExtractor(nullptr, "", &err), nullptr);
  EXPECT_TRUE(err.has_value()) << "expected to fail to create extractor with nil registry";

  MappingRegistryPtr registry = NewMappingRegistry();
  MappingPtr mapping = NewMapping(defaultTotalQueuedRequestsMetric, defaultTotalRunningRequestsMetric,
                                  defaultKvCacheUsagePercentageMetric, defaultLoraInfoMetric, defaultCacheInfoMetric,
                                  &err);
  ASSERT_FALSE(err.has_value()) << "failed to create mapping: " << *err;
  ASSERT_FALSE(registry->Register(DefaultEngineType, mapping).has_value()) << "failed to register mapping";

  auto extractor = NewCoreMetricsExtractor(registry, "", &err);
  ASSERT_NE(extractor, nullptr) << "failed to create extractor";
  EXPECT_NE(extractor->TypedName().Type, "") << "empty extractor type";
  EXPECT_NE(extractor->TypedName().Name, "") << "empty extractor name";

  Endpoint ep;  // fwkdl.NewEndpoint(nil, nil)

  struct Case {
    std::string name;
    PrometheusMetricMap data;
    bool wantErr;
    bool updated;  // whether metrics are expected to change
  };
  const std::vector<Case> tests = {
      {"nil data", {}, true, false},
      {"empty PrometheusMetricMap", {}, true, false},  // errors when metrics are missing, and no update
      {"single valid metric", {{defaultTotalQueuedRequestsMetric, gaugeFamily({{{}, 5.0}})}}, true, true},
      {"multiple valid metrics",
       {
           {defaultTotalQueuedRequestsMetric, gaugeFamily({{{}, 5.0}})},
           {defaultTotalRunningRequestsMetric, gaugeFamily({{{}, 1.0}})},
           {defaultKvCacheUsagePercentageMetric, gaugeFamily({{{}, 0.5}})},
           {defaultLoraInfoMetric, gaugeFamily({{{{LoraInfoRunningAdaptersMetricName, "lora1"},
                                                   {LoraInfoWaitingAdaptersMetricName, "lora2"},
                                                   {LoraInfoMaxAdaptersMetricName, "1"}},
                                                  std::nullopt}})},
           {defaultCacheInfoMetric, gaugeFamily({{{{CacheConfigBlockSizeInfoMetricName, "16"},
                                                    {CacheConfigNumGPUBlocksMetricName, "1024"}},
                                                   1.0}})},
       },
       false, true},
  };
  std::int64_t now = 1000;
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    const fwkdl::Metrics before = ep.GetMetrics();
    const auto beforeTime = ep.GetMetricsUpdateTimeUs();
    now += 1000;
    Error e = extractor->Extract(PollInput{tt.data, ep, now});
    const fwkdl::Metrics& after = ep.GetMetrics();
    if (tt.wantErr) {
      EXPECT_TRUE(e.has_value()) << "expected error but got nil";
    } else {
      EXPECT_FALSE(e.has_value()) << "unexpected error: " << e.value_or("");
    }
    if (tt.updated) {
      // Go compares the whole Metrics, UpdateTime included.
      EXPECT_TRUE(!(before == after) || beforeTime != ep.GetMetricsUpdateTimeUs())
          << "expected metrics to be updated, but no change detected";
      EXPECT_EQ(ep.GetMetricsUpdateTimeUs(), now);
    } else {
      EXPECT_EQ(before, after) << "expected no metrics update";
      EXPECT_EQ(beforeTime, ep.GetMetricsUpdateTimeUs());
    }
  }
  // BLIS: the last case's values, which upstream checks only as "changed".
  const fwkdl::Metrics& m = ep.GetMetrics();
  EXPECT_EQ(m.WaitingQueueSize, 5);
  EXPECT_EQ(m.RunningRequestsSize, 1);
  EXPECT_EQ(m.KVCacheUsagePercent, 0.5);
  EXPECT_EQ(m.ActiveModels, (std::map<std::string, int>{{"lora1", 0}}));
  EXPECT_EQ(m.WaitingModels, (std::map<std::string, int>{{"lora2", 0}}));
  EXPECT_EQ(m.MaxActiveModels, 1);
  EXPECT_EQ(m.CacheBlockSize, 16);
  EXPECT_EQ(m.CacheNumBlocks, 1024);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099 TestExtractorMultiEngine
TEST(MetricsExtractor, TestExtractorMultiEngine) {
  Error err;
  MappingRegistryPtr registry = NewMappingRegistry();
  (void)registry->Register(DefaultEngineType,
                           NewMapping("vllm:num_requests_waiting", "vllm:num_requests_running", "", "", "", &err));
  (void)registry->Register("sglang", NewMapping("sglang:num_queue_reqs", "sglang:num_running_reqs", "", "", "", &err));
  auto extractor = NewCoreMetricsExtractor(registry, "", &err);

  const PrometheusMetricMap data = {
      {"vllm:num_requests_waiting", gaugeFamily({{{}, 10.0}})},
      {"sglang:num_queue_reqs", gaugeFamily({{{}, 20.0}})},
  };

  // Case 1: engine vllm (uses default)
  Endpoint epVllm(withLabels({{DefaultEngineTypeLabelKey, "vllm"}}));
  (void)extractor->Extract(PollInput{data, epVllm, 0});
  EXPECT_EQ(epVllm.GetMetrics().WaitingQueueSize, 10) << "vllm: expected queue size 10";

  // Case 2: engine sglang (uses specific)
  Endpoint epSgl(withLabels({{DefaultEngineTypeLabelKey, "sglang"}}));
  (void)extractor->Extract(PollInput{data, epSgl, 0});
  EXPECT_EQ(epSgl.GetMetrics().WaitingQueueSize, 20) << "sglang: expected queue size 20";
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099 TestBackwardCompatibility
TEST(MetricsExtractor, TestBackwardCompatibility) {
  Error err;
  MappingRegistryPtr registry = NewMappingRegistry();
  (void)registry->Register(DefaultEngineType, NewMapping("vllm:num_requests_waiting", "", "", "", "", &err));
  auto extractor = NewCoreMetricsExtractor(registry, "", &err);
  const PrometheusMetricMap data = {{"vllm:num_requests_waiting", gaugeFamily({{{}, 100.0}})}};

  // Case 1: no labels at all
  Endpoint epNone(withLabels({}));
  (void)extractor->Extract(PollInput{data, epNone, 0});
  EXPECT_EQ(epNone.GetMetrics().WaitingQueueSize, 100) << "no labels";

  // Case 2: unknown label value
  Endpoint epUnknown(withLabels({{DefaultEngineTypeLabelKey, "unknown-engine"}}));
  (void)extractor->Extract(PollInput{data, epUnknown, 0});
  EXPECT_EQ(epUnknown.GetMetrics().WaitingQueueSize, 100) << "unknown label";
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099 TestCacheInfoLabelAliasing
TEST(MetricsExtractor, TestCacheInfoLabelAliasing) {
  // SGLang uses "page_size" and "num_pages" instead of "block_size" and "num_gpu_blocks".
  MappingConfig cfg;
  cfg.Queue = "sglang:num_queue_reqs";
  cfg.Running = "sglang:num_running_reqs";
  cfg.KVUsage = "sglang:token_usage";
  cfg.CacheInfo = "sglang:cache_config_info";
  cfg.CacheBlockSizeLabel = "page_size";
  cfg.CacheNumBlocksLabel = "num_pages";
  Error err;
  MappingPtr mapping = NewMappingFromConfig(cfg, &err);
  ASSERT_FALSE(err.has_value()) << "failed to create mapping: " << *err;
  MappingRegistryPtr registry = NewMappingRegistry();
  ASSERT_FALSE(registry->Register(DefaultEngineType, mapping).has_value());
  auto extractor = NewCoreMetricsExtractor(registry, "", &err);

  const PrometheusMetricMap data = {
      {"sglang:cache_config_info", gaugeFamily({{{{"page_size", "64"}, {"num_pages", "11147"}}, 1.0}})}};
  Endpoint ep;
  (void)extractor->Extract(PollInput{data, ep, 0});
  EXPECT_EQ(ep.GetMetrics().CacheBlockSize, 64);
  EXPECT_EQ(ep.GetMetrics().CacheNumBlocks, 11147);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099 TestDirectGaugeSpecExtraction
TEST(MetricsExtractor, TestDirectGaugeSpecExtraction) {
  // Triton exposes block size and num blocks as separate gauge values.
  MappingConfig cfg;
  cfg.Queue = "nv_trt_llm_request_metrics{request_type=waiting}";
  cfg.Running = "nv_trt_llm_request_metrics{request_type=scheduled}";
  cfg.KVUsage = "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}";
  cfg.CacheBlockSize = "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=tokens_per}";
  cfg.CacheNumBlocks = "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=max}";
  Error err;
  MappingPtr mapping = NewMappingFromConfig(cfg, &err);
  ASSERT_FALSE(err.has_value()) << "failed to create mapping: " << *err;
  MappingRegistryPtr registry = NewMappingRegistry();
  ASSERT_FALSE(registry->Register(DefaultEngineType, mapping).has_value());
  auto extractor = NewCoreMetricsExtractor(registry, "", &err);

  const PrometheusMetricMap data = {
      {"nv_trt_llm_kv_cache_block_metrics", gaugeFamily({
                                                {{{"kv_cache_block_type", "tokens_per"}}, 64.0},
                                                {{{"kv_cache_block_type", "max"}}, 6239.0},
                                                {{{"kv_cache_block_type", "fraction"}}, 0.42},
                                            })}};
  Endpoint ep;
  (void)extractor->Extract(PollInput{data, ep, 0});
  EXPECT_EQ(ep.GetMetrics().CacheBlockSize, 64);
  EXPECT_EQ(ep.GetMetrics().CacheNumBlocks, 6239);
  EXPECT_EQ(ep.GetMetrics().KVCacheUsagePercent, 0.42);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099 TestCoreMetricsExtractorFactoryDefaultEngine
TEST(MetricsExtractor, TestCoreMetricsExtractorFactoryDefaultEngine) {
  using json = nlohmann::json;
  struct Case {
    std::string name;
    std::optional<json> params;
    bool wantErr;
    std::string errContains;
    std::string checkDefault;  // engine name that should be default
  };
  const std::vector<Case> tests = {
      {"no params uses vllm as default", std::nullopt, false, "", "vllm"},
      {"defaultEngine sglang", json{{"defaultEngine", "sglang"}}, false, "", "sglang"},
      {"defaultEngine vllm explicit", json{{"defaultEngine", "vllm"}}, false, "", "vllm"},
      {"defaultEngine trtllm-serve", json{{"defaultEngine", "trtllm-serve"}}, false, "", "trtllm-serve"},
      {"defaultEngine not found", json{{"defaultEngine", "unknown-engine"}}, true, "not found in engineConfigs", ""},
      {"engine config name is reserved default",
       json{{"defaultEngine", "default"},
            {"engineConfigs", json::array({json{{"name", "default"}, {"queuedRequestsSpec", "test:metric"}}})}},
       true, "reserved", ""},
      {"custom engineConfigs with defaultEngine",
       json{{"defaultEngine", "custom"},
            {"engineConfigs", json::array({json{{"name", "custom"}, {"queuedRequestsSpec", "test:metric"}}})}},
       false, "", "custom"},
      {"custom engineConfigs with custom metrics",
       json{{"defaultEngine", "custom"},
            {"engineConfigs",
             json::array({json{{"name", "custom"},
                               {customMetricsConfigKey,
                                json::array({json{{"attributeKey", "custom.queue_depth"},
                                                  {"metricSpec", "custom_queue_depth{tier=gold}"}}})}}})}},
       false, "", "custom"},
      {"custom metric attributeKey is required",
       json{{"engineConfigs",
             json::array({json{{"name", "custom"},
                               {customMetricsConfigKey, json::array({json{{"metricSpec", "custom_queue_depth"}}})}}})}},
       true, "attributeKey cannot be empty", ""},
      {"custom metric spec is required",
       json{{"engineConfigs",
             json::array({json{{"name", "custom"},
                               {customMetricsConfigKey, json::array({json{{"attributeKey", "custom.queue_depth"}}})}}})}},
       true, "spec cannot be empty", ""},
      {"custom engineConfigs auto-appends vllm sglang trtllm-serve and triton-tensorrt-llm",
       json{{"engineConfigs", json::array({json{{"name", "custom-engine"}, {"queuedRequestsSpec", "custom:waiting"}}})}},
       false, "", "vllm"},  // vllm is auto-appended and becomes default
      {"defaultEngine triton-tensorrt-llm", json{{"defaultEngine", "triton-tensorrt-llm"}}, false, "",
       "triton-tensorrt-llm"},
      {"custom engineConfigs with custom vllm preserves user config",
       json{{"engineConfigs", json::array({json{{"name", "vllm"}, {"queuedRequestsSpec", "custom:vllm_waiting"}}})}},
       false, "", "vllm"},
      {"empty engineConfigs uses defaults", json{{"engineConfigs", json::array()}}, false, "", "vllm"},
      {"defaultEngine triton with triton defined",
       json{{"defaultEngine", "triton"},
            {"engineConfigs", json::array({json{{"name", "triton"}, {"queuedRequestsSpec", "nv_trt_llm:waiting"}}})}},
       false, "", "triton"},
      {"both vllm and sglang custom defined",
       json{{"engineConfigs", json::array({json{{"name", "vllm"}, {"queuedRequestsSpec", "custom:vllm_metric"}},
                                           json{{"name", "sglang"}, {"queuedRequestsSpec", "custom:sglang_metric"}}})}},
       false, "", "vllm"},
      {"duplicate engine names",
       json{{"engineConfigs", json::array({json{{"name", "vllm"}, {"queuedRequestsSpec", "custom:metric1"}},
                                           json{{"name", "vllm"}, {"queuedRequestsSpec", "custom:metric2"}}})}},
       true, "already exists", ""},
      {"empty engineLabelKey uses default", json{{"engineLabelKey", ""}}, false, "", "vllm"},
  };

  TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    std::shared_ptr<fwkplugin::Plugin> plugin;
    std::optional<std::string> err;
    try {
      plugin = CoreMetricsExtractorFactory("test", tt.params ? &*tt.params : nullptr, handle);
    } catch (const fwkplugin::PluginError& e) {
      err = e.what();
    }
    if (tt.wantErr) {
      ASSERT_TRUE(err.has_value()) << "expected error but got nil";
      if (!tt.errContains.empty()) {
        EXPECT_NE(err->find(tt.errContains), std::string::npos) << "error " << *err << " does not contain "
                                                                 << tt.errContains;
      }
      continue;
    }
    ASSERT_FALSE(err.has_value()) << "unexpected error: " << *err;
    ASSERT_NE(plugin, nullptr) << "expected non-nil plugin";
    if (!tt.checkDefault.empty()) {
      auto extractor = std::dynamic_pointer_cast<Extractor>(plugin);
      ASSERT_NE(extractor, nullptr) << "plugin is not an Extractor";
      EXPECT_EQ(extractor->engineLabelKey(), DefaultEngineTypeLabelKey);
      MappingPtr defaultMapping = extractor->registry().Get(DefaultEngineType);
      ASSERT_NE(defaultMapping, nullptr) << "default mapping not found in registry";
      MappingPtr engineMapping = extractor->registry().Get(tt.checkDefault);
      ASSERT_NE(engineMapping, nullptr) << "mapping for " << tt.checkDefault << " not found in registry";
      EXPECT_EQ(defaultMapping, engineMapping) << "default mapping does not match " << tt.checkDefault;
    }
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor_test.go@71f4f099 TestGetEngineTypeFromEndpoint
TEST(MetricsExtractor, TestGetEngineTypeFromEndpoint) {
  struct Case {
    std::string name;
    std::map<std::string, std::string> labels;
    std::string labelKey;
    std::string want;
  };
  const std::vector<Case> tests = {
      {"new label key", {{DefaultEngineTypeLabelKey, "vllm"}}, DefaultEngineTypeLabelKey, "vllm"},
      {"legacy GAIE label key fallback", {{legacyGAIEEngineTypeLabelKey, "sglang"}}, DefaultEngineTypeLabelKey,
       "sglang"},
      {"new label key takes precedence over legacy GAIE key",
       {{DefaultEngineTypeLabelKey, "vllm"}, {legacyGAIEEngineTypeLabelKey, "sglang"}}, DefaultEngineTypeLabelKey,
       "vllm"},
      {"no labels returns default", {}, DefaultEngineTypeLabelKey, DefaultEngineType},
      {"nil labels returns default", {}, DefaultEngineTypeLabelKey, DefaultEngineType},
  };
  for (const auto& tt : tests) {
    Endpoint ep(withLabels(tt.labels));
    EXPECT_EQ(getEngineTypeFromEndpoint(ep, tt.labelKey), tt.want) << tt.name;
  }
}

}  // namespace
}  // namespace blis::router::metrics
