// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099; all
// of it.
#include "router/epp/framework/plugins/datalayer/extractor/metrics/mapping.h"

#include <set>

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 Mapping.specs
std::vector<namedSpec> Mapping::specs() const {
  SpecPtr loraSpec = LoraRequestInfo ? LoraRequestInfo->Spec : nullptr;
  std::vector<namedSpec> out{
      {"queue", TotalQueuedRequests, TotalQueuedRequests != nullptr},
      {"running", TotalRunningRequests, TotalRunningRequests != nullptr},
      {"kv", KVCacheUtilization, KVCacheUtilization != nullptr},
      {"lora", loraSpec, LoraRequestInfo != nullptr},
      {"cacheInfo", CacheInfo, CacheInfo != nullptr},
  };
  for (const auto& custom : CustomMetrics) out.push_back({custom.AttributeKey, custom.Spec, custom.Spec != nullptr});
  return out;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 Mapping.String
std::string Mapping::String() const {
  std::string disabled;
  for (const auto& s : specs()) {
    if (!s.enabled) disabled += (disabled.empty() ? "" : ", ") + s.name;
  }
  if (disabled.empty()) return "Mapping{all specs enabled}";
  return "Mapping{disabled: [" + disabled + "]}";
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 Mapping.MetricNames
std::vector<std::string> Mapping::MetricNames() const {
  std::vector<std::string> names;
  for (const auto& s : specs()) {
    if (s.enabled) names.push_back(s.spec->Name);
  }
  return names;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 NewMapping
MappingPtr NewMapping(const std::string& queue, const std::string& running, const std::string& kvusage,
                      const std::string& lora, const std::string& cacheInfo, Error* err) {
  MappingConfig cfg;
  cfg.Queue = queue;
  cfg.Running = running;
  cfg.KVUsage = kvusage;
  cfg.Lora = lora;
  cfg.CacheInfo = cacheInfo;
  return NewMappingFromConfig(cfg, err);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 NewMappingFromConfig
MappingPtr NewMappingFromConfig(const MappingConfig& cfg, Error* err) {
  std::vector<std::string> errs;
  auto parse = [&](const std::string& s) {
    Error e;
    SpecPtr spec = parseStringToSpec(s, &e);
    if (e) errs.push_back(*e);
    return spec;
  };
  SpecPtr queueSpec = parse(cfg.Queue);
  SpecPtr runningSpec = parse(cfg.Running);
  SpecPtr kvusageSpec = parse(cfg.KVUsage);
  Error loraErr;
  LoRASpecPtr loraSpec = parseStringToLoRASpec(cfg.Lora, &loraErr);
  if (loraErr) errs.push_back(*loraErr);
  SpecPtr cacheInfoSpec = parse(cfg.CacheInfo);
  SpecPtr cacheBlockSizeSpec = parse(cfg.CacheBlockSize);
  SpecPtr cacheNumBlocksSpec = parse(cfg.CacheNumBlocks);
  std::vector<CustomMetric> customMetrics = parseCustomMetrics(cfg.CustomMetrics, &errs);

  *err = joinErrors(errs);
  if (*err) return nullptr;
  auto m = std::make_shared<Mapping>();
  m->TotalQueuedRequests = queueSpec;
  m->TotalRunningRequests = runningSpec;
  m->KVCacheUtilization = kvusageSpec;
  m->LoraRequestInfo = loraSpec;
  m->CacheInfo = cacheInfoSpec;
  m->CacheBlockSizeLabel = cfg.CacheBlockSizeLabel;
  m->CacheNumBlocksLabel = cfg.CacheNumBlocksLabel;
  m->CacheBlockSize = cacheBlockSizeSpec;
  m->CacheNumBlocks = cacheNumBlocksSpec;
  m->CustomMetrics = std::move(customMetrics);
  return m;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 parseCustomMetrics
std::vector<CustomMetric> parseCustomMetrics(const std::vector<CustomMetric>& configs, std::vector<std::string>* errs) {
  std::vector<CustomMetric> out;
  std::set<std::string> seenKeys;
  for (const auto& cfg : configs) {
    if (cfg.AttributeKey.empty()) {
      errs->push_back("custom metric attributeKey cannot be empty");
      continue;
    }
    if (seenKeys.count(cfg.AttributeKey)) {
      errs->push_back("custom metric attributeKey " + goQuote(cfg.AttributeKey) + " is duplicated");
      continue;
    }
    seenKeys.insert(cfg.AttributeKey);
    if (cfg.Spec == nullptr) {
      errs->push_back("custom metric " + goQuote(cfg.AttributeKey) + " spec cannot be empty");
      continue;
    }
    out.push_back(CustomMetric{cfg.AttributeKey, cfg.Spec});
  }
  return out;
}

}  // namespace blis::router::metrics
