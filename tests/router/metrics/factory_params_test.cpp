// Original to BLIS: checks of the core metrics extractor's port
// (pkg/epp/framework/plugins/datalayer/extractor/metrics/*.go@71f4f099) that upstream's tests do not assert: the
// factory's and encoding/json's error texts, the built-in engine mappings end to end (the metric names a vLLM
// and an SGLang engine must publish), the strconv.Atoi errors of the info labels, and Mapping.String.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/factories.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/gotext.h"

namespace blis::router::metrics {
namespace {

using json = nlohmann::json;

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

// The factory's error text for params, or std::nullopt when it succeeds.
std::optional<std::string> factoryError(const json& params) {
  TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  try {
    (void)CoreMetricsExtractorFactory("x", &params, handle);
  } catch (const fwkplugin::PluginError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

std::shared_ptr<Extractor> factoryExtractor(const json* params) {
  TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  return std::dynamic_pointer_cast<Extractor>(CoreMetricsExtractorFactory("core-metrics-extractor", params, handle));
}

Metric sample(std::vector<LabelPair> labels, double value) {
  Metric m;
  m.Label = std::move(labels);
  m.Gauge = value;
  return m;
}

// Original to BLIS: the parameters decode with encoding/json's error texts (params_decode.h).
TEST(MetricsFactoryParams, DecodeErrorsAsEncodingJson) {
  EXPECT_EQ(factoryError(json::array()),
            "json: cannot unmarshal array into Go value of type metrics.modelServerExtractorParams");
  EXPECT_EQ(factoryError(json{{"engineLabelKey", 3}}),
            "json: cannot unmarshal number into Go struct field modelServerExtractorParams.engineLabelKey of type string");
  EXPECT_EQ(factoryError(json{{"engineConfigs", "vllm"}}),
            "json: cannot unmarshal string into Go struct field modelServerExtractorParams.engineConfigs of type "
            "[]metrics.engineConfigParams");
  EXPECT_EQ(factoryError(json{{"engineConfigs", json::array({3})}}),
            "json: cannot unmarshal number into Go struct field modelServerExtractorParams.engineConfigs of type "
            "metrics.engineConfigParams");
  EXPECT_EQ(factoryError(json{{"engineConfigs", json::array({json{{"name", 5}}})}}),
            "json: cannot unmarshal number into Go struct field engineConfigParams.engineConfigs.name of type string");
  EXPECT_EQ(factoryError(json{{"engineConfigs", json::array({json{{"name", "c"}, {"customMetrics", json::object()}}})}}),
            "json: cannot unmarshal object into Go struct field engineConfigParams.engineConfigs.customMetrics of type "
            "[]metrics.customMetricConfigParams");
  EXPECT_EQ(factoryError(json{{"engineConfigs",
                               json::array({json{{"name", "c"},
                                                 {"customMetrics", json::array({json{{"attributeKey", true}}})}}})}}),
            "json: cannot unmarshal bool into Go struct field "
            "customMetricConfigParams.engineConfigs.customMetrics.attributeKey of type string");
  EXPECT_EQ(factoryError(json{{"engineConfigs", json::array({json{{"name", "c"}, {"bogus", 1}}})}}),
            "json: unknown field \"bogus\"");
  EXPECT_EQ(factoryError(json{{"bogus", 1}}), "json: unknown field \"bogus\"");
  // A null element is a zero engineConfigParams (empty name).
  EXPECT_EQ(factoryError(json{{"engineConfigs", json::array({nullptr})}}), "engine config name cannot be empty");
  // Keys match case-insensitively; null leaves a field as it is.
  EXPECT_EQ(factoryError(json{{"DefaultEngine", "sglang"}, {"engineLabelKey", nullptr}, {"engineConfigs", nullptr}}),
            std::nullopt);
  auto ext = factoryExtractor(nullptr);
  ASSERT_NE(ext, nullptr);
  EXPECT_EQ(ext->TypedName().Name, "core-metrics-extractor");
  EXPECT_EQ(ext->TypedName().Type, MetricsExtractorType);
}

// Original to BLIS: newCoreMetricsExtractorPlugin's error texts (factories.go@71f4f099).
TEST(MetricsFactoryParams, FactoryErrorsAsUpstream) {
  EXPECT_EQ(factoryError(json{{"defaultEngine", "unknown-engine"}}),
            "defaultEngine \"unknown-engine\" not found in engineConfigs");
  EXPECT_EQ(factoryError(json{{"engineConfigs", json::array({json{{"name", "default"}}})}}),
            "engine config name cannot be \"default\" (reserved)");
  EXPECT_EQ(factoryError(json{{"engineConfigs", json::array({json{{"name", "vllm"}}, json{{"name", "vllm"}}})}}),
            "failed to register engine mapping for \"vllm\": mapping for engine type \"vllm\" already exists");
  EXPECT_EQ(factoryError(json{{"engineConfigs",
                               json::array({json{{"name", "c"}, {"queuedRequestsSpec", "{x}"}, {"kvUsageSpec", "a b"}}})}}),
            "failed to create mapping for engine \"c\": not a valid metric specification: \"{x}\"\n"
            "not a valid metric specification: \"a b\"");
  EXPECT_EQ(factoryError(json{{"engineConfigs",
                               json::array({json{{"name", "c"},
                                                 {"customMetrics", json::array({json{{"attributeKey", "k"},
                                                                                     {"metricSpec", "1bad"}}})}}})}}),
            "failed to create mapping for engine \"c\": custom metric \"k\": not a valid metric specification: \"1bad\"");
  EXPECT_EQ(factoryError(json{{"engineConfigs",
                               json::array({json{{"name", "c"},
                                                 {"customMetrics", json::array({json{{"attributeKey", "k"}, {"metricSpec", "a"}},
                                                                                json{{"attributeKey", "k"}, {"metricSpec", "b"}}})}}})}}),
            "failed to create mapping for engine \"c\": custom metric attributeKey \"k\" is duplicated");
}

// Original to BLIS: the built-in engine configurations end to end: what a vLLM and an SGLang engine publish fills the waiting
// queue, running requests, KV usage and the cache block size and count; an unlabelled endpoint reads vLLM's.
TEST(MetricsFactoryParams, BuiltInEngineMappings) {
  auto ext = factoryExtractor(nullptr);
  ASSERT_NE(ext, nullptr);
  const PrometheusMetricMap vllm = {
      {"vllm:num_requests_waiting", MetricFamily{"", MetricType::GAUGE, {sample({}, 3)}}},
      {"vllm:num_requests_running", MetricFamily{"", MetricType::GAUGE, {sample({}, 8)}}},
      {"vllm:kv_cache_usage_perc", MetricFamily{"", MetricType::GAUGE, {sample({}, 0.25)}}},
      {"vllm:cache_config_info",
       MetricFamily{"", MetricType::GAUGE, {sample({{"block_size", "16"}, {"num_gpu_blocks", "2048"}}, 1)}}},
  };
  const PrometheusMetricMap sglang = {
      {"sglang:num_queue_reqs", MetricFamily{"", MetricType::GAUGE, {sample({}, 4)}}},
      {"sglang:num_running_reqs", MetricFamily{"", MetricType::GAUGE, {sample({}, 9)}}},
      {"sglang:token_usage", MetricFamily{"", MetricType::GAUGE, {sample({}, 0.5)}}},
      {"sglang:cache_config_info",
       MetricFamily{"", MetricType::GAUGE, {sample({{"page_size", "1"}, {"num_pages", "70000"}}, 1)}}},
  };
  fwkdl::EndpointMetadata vllmMeta, sglangMeta;
  vllmMeta.Labels = {{DefaultEngineTypeLabelKey, "vllm"}};
  sglangMeta.Labels = {{legacyGAIEEngineTypeLabelKey, "sglang"}};
  Endpoint epVllm(vllmMeta), epSglang(sglangMeta), epUnlabelled;
  EXPECT_EQ(ext->Extract(PollInput{vllm, epVllm, 7}), std::nullopt);
  EXPECT_EQ(ext->Extract(PollInput{sglang, epSglang, 7}), std::nullopt);
  EXPECT_EQ(ext->Extract(PollInput{vllm, epUnlabelled, 7}), std::nullopt);

  fwkdl::Metrics wantVllm;
  wantVllm.WaitingQueueSize = 3;
  wantVllm.RunningRequestsSize = 8;
  wantVllm.KVCacheUsagePercent = 0.25;
  wantVllm.CacheBlockSize = 16;
  wantVllm.CacheNumBlocks = 2048;
  EXPECT_EQ(epVllm.GetMetrics(), wantVllm) << epVllm.GetMetrics().String();
  EXPECT_EQ(epUnlabelled.GetMetrics(), wantVllm) << epUnlabelled.GetMetrics().String();
  fwkdl::Metrics wantSglang;
  wantSglang.WaitingQueueSize = 4;
  wantSglang.RunningRequestsSize = 9;
  wantSglang.KVCacheUsagePercent = 0.5;
  wantSglang.CacheBlockSize = 1;
  wantSglang.CacheNumBlocks = 70000;
  EXPECT_EQ(epSglang.GetMetrics(), wantSglang) << epSglang.GetMetrics().String();

  // An SGLang engine's families read under the vLLM mapping: every vLLM family is missing.
  Endpoint epWrong(vllmMeta);
  EXPECT_EQ(ext->Extract(PollInput{sglang, epWrong, 7}).value_or(""),
            "metric family \"vllm:num_requests_waiting\" not found\n"
            "metric family \"vllm:num_requests_running\" not found\n"
            "metric family \"vllm:kv_cache_usage_perc\" not found\n"
            "metric family \"vllm:cache_config_info\" not found");
  EXPECT_EQ(epWrong.GetMetricsUpdateTimeUs(), std::nullopt);

  // The mappings' enabled metric names (Mapping.MetricNames) and disabled specs (Mapping.String).
  EXPECT_EQ(ext->registry().Get("vllm")->MetricNames(),
            (std::vector<std::string>{"vllm:num_requests_waiting", "vllm:num_requests_running",
                                      "vllm:kv_cache_usage_perc", "vllm:lora_requests_info", "vllm:cache_config_info"}));
  EXPECT_EQ(ext->registry().Get("vllm")->String(), "Mapping{all specs enabled}");
  EXPECT_EQ(ext->registry().Get("sglang")->String(), "Mapping{disabled: [lora]}");
  EXPECT_EQ(ext->registry().Get("triton")->String(), "Mapping{disabled: [kv, lora, cacheInfo]}");
  EXPECT_EQ(ext->registry().ListEngineTypes(),
            (std::vector<std::string>{"default", "sglang", "triton", "triton-tensorrt-llm", "trtllm-serve", "vllm"}));
}

// Original to BLIS: populateLoRAMetrics / populateCacheInfoMetrics: a label value strconv.Atoi refuses is an error and leaves the
// field; the cache block size is reset first, the block count is not.
TEST(MetricsFactoryParams, InfoLabelParseErrors) {
  std::vector<std::string> errs;
  fwkdl::Metrics m;
  m.CacheBlockSize = 32;
  m.CacheNumBlocks = 100;
  populateCacheInfoMetrics(m, sample({{"block_size", "x16"}, {"num_gpu_blocks", "99999999999999999999"}}, 1),
                           "block_size", "num_gpu_blocks", &errs);
  EXPECT_EQ(m.CacheBlockSize, 0);
  EXPECT_EQ(m.CacheNumBlocks, 100);
  EXPECT_EQ(errs, (std::vector<std::string>{"strconv.Atoi: parsing \"x16\": invalid syntax",
                                            "strconv.Atoi: parsing \"99999999999999999999\": value out of range"}));
  errs.clear();
  m.MaxActiveModels = 3;
  m.ActiveModels = {{"old", 0}};
  populateLoRAMetrics(m, sample({{"running_lora_adapters", " a, ,b "}, {"max_lora", "+"}}, 1), &errs);
  EXPECT_EQ(m.ActiveModels, (std::map<std::string, int>{{"a", 0}, {"b", 0}}));
  EXPECT_TRUE(m.WaitingModels.empty());
  EXPECT_EQ(m.MaxActiveModels, 3);
  EXPECT_EQ(errs, (std::vector<std::string>{"strconv.Atoi: parsing \"+\": invalid syntax"}));
  EXPECT_EQ(goAtoi("-9223372036854775808").Value, INT64_MIN);
  EXPECT_EQ(goAtoi("9223372036854775808").Err.value_or(""),
            "strconv.Atoi: parsing \"9223372036854775808\": value out of range");
  EXPECT_EQ(goAtoi("+12").Value, 12);
}

}  // namespace
}  // namespace blis::router::metrics
