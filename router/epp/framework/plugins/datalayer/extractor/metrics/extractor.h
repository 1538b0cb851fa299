// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099; the
// logging is not ported; Go's context is not needed; the metrics' update time is the simulated time the
// caller passes in PollInput.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/endpoint.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099 MetricsExtractorType
inline constexpr const char* MetricsExtractorType = "core-metrics-extractor";

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 the internal keys
inline constexpr const char* KVCacheUsagePercentKey = "KVCacheUsagePercent";
inline constexpr const char* WaitingQueueSizeKey = "WaitingQueueSize";
inline constexpr const char* RunningRequestsSizeKey = "RunningRequestsSize";
inline constexpr const char* MaxActiveModelsKey = "MaxActiveModels";
inline constexpr const char* ActiveModelsKey = "ActiveModels";
inline constexpr const char* WaitingModelsKey = "WaitingModels";
inline constexpr const char* UpdateTimeKey = "UpdateTime";
// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 the LoRA info label names (MSP)
inline constexpr const char* LoraInfoRunningAdaptersMetricName = "running_lora_adapters";
inline constexpr const char* LoraInfoWaitingAdaptersMetricName = "waiting_lora_adapters";
inline constexpr const char* LoraInfoMaxAdaptersMetricName = "max_lora";
// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 the cache-config info label names
inline constexpr const char* CacheConfigBlockSizeInfoMetricName = "block_size";
inline constexpr const char* CacheConfigNumGPUBlocksMetricName = "num_gpu_blocks";

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 Extractor
// Extracts the Model Server Protocol metrics of a scrape into the endpoint's metrics, mapped per engine kind.
class Extractor final : public fwkplugin::Plugin {
 public:
  Extractor(MappingRegistryPtr registry, std::string engineLabelKey)
      : typedName_{MetricsExtractorType, MetricsExtractorType},
        registry_(std::move(registry)),
        engineLabelKey_(std::move(engineLabelKey)) {}

  // pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 Extractor.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 Extractor.Extract
  // Updates the endpoint's metrics (when any metric was read) and its custom-metric attributes; returns the
  // joined errors of the metrics that could not be read (std::nullopt where Go returns nil).
  Error Extract(const PollInput& in) const;

  // Original to BLIS: the plugin's name (factories.go sets typedName.Name after construction).
  void SetName(const std::string& name) { typedName_.Name = name; }
  // Original to BLIS: read access to the unexported fields upstream's package tests read.
  const MappingRegistry& registry() const { return *registry_; }
  const std::string& engineLabelKey() const { return engineLabelKey_; }

 private:
  fwkplugin::TypedName typedName_;
  MappingRegistryPtr registry_;
  std::string engineLabelKey_;
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 NewCoreMetricsExtractor
// nullptr and *err set for a nullptr registry; an empty engineLabelKey means DefaultEngineTypeLabelKey.
std::shared_ptr<Extractor> NewCoreMetricsExtractor(MappingRegistryPtr registry, std::string engineLabelKey, Error* err);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 getEngineTypeFromEndpoint
std::string getEngineTypeFromEndpoint(const Endpoint& ep, const std::string& labelKey);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 populateLoRAMetrics
void populateLoRAMetrics(fwkdl::Metrics& clone, const Metric& metric, std::vector<std::string>* errs);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 populateCacheInfoMetrics
void populateCacheInfoMetrics(fwkdl::Metrics& clone, const Metric& metric, const std::string& blockSizeLabelName,
                              const std::string& numBlocksLabelName, std::vector<std::string>* errs);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 addAdapters
void addAdapters(std::map<std::string, int>& m, const std::string& csv);

}  // namespace blis::router::metrics
