// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099; all
// of it except the start-up logging ("Registered engine mapping").
#include "router/epp/framework/plugins/datalayer/extractor/metrics/factories.h"

#include <set>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/params_decode.h"

namespace blis::router::metrics {
namespace {

// Original to BLIS: a helper of the port's own.
engineConfigParams engine(std::string name, std::string queued, std::string running, std::string kvUsage,
                          std::string cacheInfo, std::string blockSizeLabel, std::string numBlocksLabel,
                          std::string blockSizeSpec, std::string numBlocksSpec) {
  engineConfigParams e;
  e.Name = std::move(name);
  e.QueuedRequestsSpec = std::move(queued);
  e.RunningRequestsSpec = std::move(running);
  e.KVUsageSpec = std::move(kvUsage);
  e.CacheInfoSpec = std::move(cacheInfo);
  e.CacheBlockSizeLabelName = std::move(blockSizeLabel);
  e.CacheNumBlocksLabelName = std::move(numBlocksLabel);
  e.CacheBlockSizeSpec = std::move(blockSizeSpec);
  e.CacheNumBlocksSpec = std::move(numBlocksSpec);
  return e;
}

}  // namespace

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 defaultEngineConfigs
const std::vector<engineConfigParams>& defaultEngineConfigs() {
  static const std::vector<engineConfigParams> configs = [] {
    std::vector<engineConfigParams> c;
    c.push_back(engine("vllm", "vllm:num_requests_waiting", "vllm:num_requests_running", "vllm:kv_cache_usage_perc",
                       "vllm:cache_config_info", "", "", "", ""));
    c.back().LoRASpec = "vllm:lora_requests_info";
    c.push_back(engine("sglang", "sglang:num_queue_reqs", "sglang:num_running_reqs", "sglang:token_usage",
                       "sglang:cache_config_info", "page_size", "num_pages", "", ""));
    c.push_back(engine("trtllm-serve", "trtllm_num_requests_waiting", "trtllm_num_requests_running",
                       "trtllm_kv_cache_utilization", "", "", "", "trtllm_kv_cache_tokens_per_block",
                       "trtllm_kv_cache_max_blocks"));
    c.push_back(engine("triton-tensorrt-llm", "nv_trt_llm_request_metrics{request_type=waiting}",
                       "nv_trt_llm_request_metrics{request_type=scheduled}",
                       "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}", "", "", "",
                       "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=tokens_per}",
                       "nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=max}"));
    // Triton Inference Server's standard metrics (non-LLM workloads).
    c.push_back(engine("triton", "nv_inference_pending_request_count", "nv_inference_exec_count", "", "", "", "", "",
                       ""));
    return c;
  }();
  return configs;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 defaultExtractorParams
modelServerExtractorParams defaultExtractorParams() {
  modelServerExtractorParams p;
  p.EngineLabelKey = DefaultEngineTypeLabelKey;
  return p;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 CoreMetricsExtractorFactory
std::shared_ptr<fwkplugin::Plugin> CoreMetricsExtractorFactory(const std::string& name,
                                                               fwkplugin::Parameters parameters,
                                                               fwkplugin::Handle& /*handle*/) {
  modelServerExtractorParams params = defaultExtractorParams();
  if (parameters != nullptr) decodeExtractorParams(*parameters, params);  // overlay the defaults
  return newCoreMetricsExtractorPlugin(name, &params);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 newCoreMetricsExtractorPlugin
std::shared_ptr<Extractor> newCoreMetricsExtractorPlugin(const std::string& name,
                                                         const modelServerExtractorParams* given) {
  modelServerExtractorParams params = given != nullptr ? *given : defaultExtractorParams();

  // Defaults for unset fields.
  if (params.DefaultEngine.empty()) params.DefaultEngine = defaultEngineName;
  if (params.EngineLabelKey.empty()) params.EngineLabelKey = DefaultEngineTypeLabelKey;

  // Append the built-in engine configs the user did not define.
  std::set<std::string> userDefinedEngines;
  for (const auto& ec : params.EngineConfigs) userDefinedEngines.insert(ec.Name);
  for (const auto& defaultCfg : defaultEngineConfigs()) {
    if (!userDefinedEngines.count(defaultCfg.Name)) params.EngineConfigs.push_back(defaultCfg);
  }

  MappingRegistryPtr registry = NewMappingRegistry();
  MappingPtr defaultMapping;
  for (const auto& engineConfig : params.EngineConfigs) {
    if (engineConfig.Name.empty()) throw fwkplugin::PluginError("engine config name cannot be empty");
    if (engineConfig.Name == DefaultEngineType) {
      throw fwkplugin::PluginError("engine config name cannot be " + goQuote(DefaultEngineType) + " (reserved)");
    }

    std::vector<std::string> customMetricErrs;
    std::vector<CustomMetric> customMetrics = customMetricConfigs(engineConfig.CustomMetrics, &customMetricErrs);
    if (!customMetricErrs.empty()) {
      throw fwkplugin::PluginError("failed to create mapping for engine " + goQuote(engineConfig.Name) + ": " +
                                   *joinErrors(customMetricErrs));
    }

    MappingConfig cfg;
    cfg.Queue = engineConfig.QueuedRequestsSpec;
    cfg.Running = engineConfig.RunningRequestsSpec;
    cfg.KVUsage = engineConfig.KVUsageSpec;
    cfg.Lora = engineConfig.LoRASpec;
    cfg.CacheInfo = engineConfig.CacheInfoSpec;
    cfg.CacheBlockSizeLabel = engineConfig.CacheBlockSizeLabelName;
    cfg.CacheNumBlocksLabel = engineConfig.CacheNumBlocksLabelName;
    cfg.CacheBlockSize = engineConfig.CacheBlockSizeSpec;
    cfg.CacheNumBlocks = engineConfig.CacheNumBlocksSpec;
    cfg.CustomMetrics = std::move(customMetrics);
    Error err;
    MappingPtr mapping = NewMappingFromConfig(cfg, &err);
    if (err) {
      throw fwkplugin::PluginError("failed to create mapping for engine " + goQuote(engineConfig.Name) + ": " + *err);
    }

    if (Error regErr = registry->Register(engineConfig.Name, mapping)) {
      throw fwkplugin::PluginError("failed to register engine mapping for " + goQuote(engineConfig.Name) + ": " +
                                   *regErr);
    }
    if (engineConfig.Name == params.DefaultEngine) defaultMapping = mapping;
  }

  if (defaultMapping == nullptr) {
    throw fwkplugin::PluginError("defaultEngine " + goQuote(params.DefaultEngine) + " not found in engineConfigs");
  }
  if (Error regErr = registry->Register(DefaultEngineType, defaultMapping)) {
    throw fwkplugin::PluginError("failed to register default mapping: " + *regErr);
  }

  Error err;
  std::shared_ptr<Extractor> extractor = NewCoreMetricsExtractor(registry, params.EngineLabelKey, &err);
  if (err) throw fwkplugin::PluginError(*err);
  extractor->SetName(name);
  return extractor;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 customMetricConfigs
std::vector<CustomMetric> customMetricConfigs(const std::vector<customMetricConfigParams>& configs,
                                              std::vector<std::string>* errs) {
  std::vector<CustomMetric> custom;
  for (const auto& cfg : configs) {
    Error err;
    SpecPtr spec = parseStringToSpec(cfg.MetricSpec, &err);
    if (err) {
      errs->push_back("custom metric " + goQuote(cfg.AttributeKey) + ": " + *err);
      continue;
    }
    custom.push_back(CustomMetric{cfg.AttributeKey, spec});
  }
  return custom;
}

}  // namespace blis::router::metrics
