// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099; all
// of it except the start-up logging; the parameters are decoded by params_decode.h with encoding/json's error
// texts; a factory error is thrown as fwkplugin::PluginError. multicluster.go (multicluster-metrics-extractor,
// a peer cluster's pool aggregates) is not ported: multi-cluster routing is not modelled.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/extractor.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 customMetricConfigParams
struct customMetricConfigParams {
  std::string AttributeKey;  // json:"attributeKey"
  std::string MetricSpec;    // json:"metricSpec"
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 engineConfigParams
// The metric specifications of one engine kind.
struct engineConfigParams {
  std::string Name;                     // json:"name"
  std::string QueuedRequestsSpec;       // json:"queuedRequestsSpec"
  std::string RunningRequestsSpec;      // json:"runningRequestsSpec"
  std::string KVUsageSpec;              // json:"kvUsageSpec"
  std::string LoRASpec;                 // json:"loraSpec"
  std::string CacheInfoSpec;            // json:"cacheInfoSpec"
  std::string CacheBlockSizeLabelName;  // json:"cacheBlockSizeLabelName,omitempty"
  std::string CacheNumBlocksLabelName;  // json:"cacheNumBlocksLabelName,omitempty"
  std::string CacheBlockSizeSpec;       // json:"cacheBlockSizeSpec,omitempty"
  std::string CacheNumBlocksSpec;       // json:"cacheNumBlocksSpec,omitempty"
  std::vector<customMetricConfigParams> CustomMetrics;  // json:"customMetrics,omitempty"
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 modelServerExtractorParams
struct modelServerExtractorParams {
  std::string EngineLabelKey;                     // json:"engineLabelKey"
  std::string DefaultEngine;                      // json:"defaultEngine"
  std::vector<engineConfigParams> EngineConfigs;  // json:"engineConfigs"
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 defaultEngineConfigs
// vLLM, SGLang, trtllm-serve, triton-tensorrt-llm and triton, in that order.
const std::vector<engineConfigParams>& defaultEngineConfigs();

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 defaultEngineName
inline constexpr const char* defaultEngineName = "vllm";

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 defaultExtractorParams
modelServerExtractorParams defaultExtractorParams();

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 CoreMetricsExtractorFactory
// Throws fwkplugin::PluginError with Go's error text.
std::shared_ptr<fwkplugin::Plugin> CoreMetricsExtractorFactory(const std::string& name,
                                                               fwkplugin::Parameters parameters,
                                                               fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 newCoreMetricsExtractorPlugin
// params nullptr means defaultExtractorParams(); throws fwkplugin::PluginError with Go's error text.
std::shared_ptr<Extractor> newCoreMetricsExtractorPlugin(const std::string& name,
                                                         const modelServerExtractorParams* params);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 customMetricConfigs
std::vector<CustomMetric> customMetricConfigs(const std::vector<customMetricConfigParams>& configs,
                                              std::vector<std::string>* errs);

}  // namespace blis::router::metrics
