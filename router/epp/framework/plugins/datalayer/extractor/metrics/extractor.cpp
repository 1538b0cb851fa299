// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099; the
// logging is not ported; the update time is the simulated time the caller passes.
#include "router/epp/framework/plugins/datalayer/extractor/metrics/extractor.h"

#include "router/epp/framework/plugins/datalayer/extractor/metrics/scalar_metric_value.h"

namespace blis::router::metrics {
namespace {

// Original to BLIS: a helper of the port's own.
// Go's strings.TrimSpace on ASCII input.
std::string trimSpace(const std::string& s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
  size_t b = 0, e = s.size();
  while (b < e && space(s[b])) ++b;
  while (e > b && space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

}  // namespace

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 NewCoreMetricsExtractor
std::shared_ptr<Extractor> NewCoreMetricsExtractor(MappingRegistryPtr registry, std::string engineLabelKey, Error* err) {
  *err = std::nullopt;
  if (registry == nullptr) {
    *err = "mapping registry cannot be nil";
    return nullptr;
  }
  if (engineLabelKey.empty()) engineLabelKey = DefaultEngineTypeLabelKey;
  return std::make_shared<Extractor>(std::move(registry), std::move(engineLabelKey));
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 Extractor.Extract
Error Extractor::Extract(const PollInput& in) const {
  const PrometheusMetricMap& families = in.Payload;
  Endpoint& ep = in.Endpoint;

  const std::string engineType = getEngineTypeFromEndpoint(ep, engineLabelKey_);
  const MappingPtr mapping = registry_->Get(engineType);
  if (mapping == nullptr) {
    return "no mapping found for engine type " + goQuote(engineType) + " and no default mapping registered";
  }

  std::vector<std::string> errs;
  fwkdl::Metrics clone = ep.GetMetrics();  // Go's Clone
  bool updated = false;

  // A direct gauge (or counter) value: the queued and running requests, KV usage, cache block size and count.
  auto readValue = [&](const SpecPtr& spec, auto&& store) {
    if (spec == nullptr) return;
    Error err;
    const Metric* metric = spec->getLatestMetric(families, &err);
    if (err) {
      errs.push_back(*err);
      return;
    }
    store(extractValue(metric));
    updated = true;
  };

  readValue(mapping->TotalQueuedRequests, [&](double v) { clone.WaitingQueueSize = goIntFromFloat(v); });
  readValue(mapping->TotalRunningRequests, [&](double v) { clone.RunningRequestsSize = goIntFromFloat(v); });
  readValue(mapping->KVCacheUtilization, [&](double v) { clone.KVCacheUsagePercent = v; });

  if (const auto& spec = mapping->LoraRequestInfo; spec != nullptr) {  // LoRA-specific metrics
    if (const Metric* metric = spec->getLatestMetric(families); metric != nullptr) {
      populateLoRAMetrics(clone, *metric, &errs);
      updated = true;
    }
  }

  if (const auto& spec = mapping->CacheInfo; spec != nullptr) {  // cache info from the labels
    Error err;
    const Metric* metric = spec->getLatestMetric(families, &err);
    if (err) {
      errs.push_back(*err);
    } else if (metric != nullptr) {
      const std::string blockSizeLabel =
          mapping->CacheBlockSizeLabel.empty() ? CacheConfigBlockSizeInfoMetricName : mapping->CacheBlockSizeLabel;
      const std::string numBlocksLabel =
          mapping->CacheNumBlocksLabel.empty() ? CacheConfigNumGPUBlocksMetricName : mapping->CacheNumBlocksLabel;
      populateCacheInfoMetrics(clone, *metric, blockSizeLabel, numBlocksLabel, &errs);
      updated = true;
    }
  }

  readValue(mapping->CacheBlockSize, [&](double v) { clone.CacheBlockSize = goIntFromFloat(v); });
  readValue(mapping->CacheNumBlocks, [&](double v) { clone.CacheNumBlocks = goIntFromFloat(v); });

  for (const auto& custom : mapping->CustomMetrics) {
    Error err;
    const Metric* metric = custom.Spec->getLatestMetric(families, &err);
    if (err) {
      errs.push_back("custom metric " + goQuote(custom.AttributeKey) + ": " + *err);
      continue;
    }
    ep.GetAttributes().Put(custom.AttributeKey, std::make_shared<ScalarMetricValue>(extractValue(metric)));
    updated = true;
  }

  if (updated) ep.UpdateMetrics(clone, in.NowUs);  // clone.UpdateTime = time.Now() upstream
  return joinErrors(errs);
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 getEngineTypeFromEndpoint
std::string getEngineTypeFromEndpoint(const Endpoint& ep, const std::string& labelKey) {
  const fwkdl::EndpointMetadata* meta = ep.GetMetadata();
  if (meta == nullptr || meta->Labels.empty()) return DefaultEngineType;
  auto it = meta->Labels.find(labelKey);
  if (it == meta->Labels.end() || it->second.empty()) {
    it = meta->Labels.find(legacyGAIEEngineTypeLabelKey);
    if (it == meta->Labels.end() || it->second.empty()) return DefaultEngineType;
  }
  return it->second;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 populateLoRAMetrics
void populateLoRAMetrics(fwkdl::Metrics& clone, const Metric& metric, std::vector<std::string>* errs) {
  clone.ActiveModels.clear();
  clone.WaitingModels.clear();
  for (const auto& label : metric.Label) {
    if (label.Name == LoraInfoRunningAdaptersMetricName) {
      addAdapters(clone.ActiveModels, label.Value);
    } else if (label.Name == LoraInfoWaitingAdaptersMetricName) {
      addAdapters(clone.WaitingModels, label.Value);
    } else if (label.Name == LoraInfoMaxAdaptersMetricName) {
      if (!label.Value.empty()) {
        const AtoiResult r = goAtoi(label.Value);
        if (r.Err) {
          errs->push_back(*r.Err);
        } else {
          clone.MaxActiveModels = goIntFromInt64(r.Value);
        }
      }
    }
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 populateCacheInfoMetrics
// (Go's switch: a label named like both takes the block-size case)
void populateCacheInfoMetrics(fwkdl::Metrics& clone, const Metric& metric, const std::string& blockSizeLabelName,
                              const std::string& numBlocksLabelName, std::vector<std::string>* errs) {
  clone.CacheBlockSize = 0;
  for (const auto& label : metric.Label) {
    int* field = label.Name == blockSizeLabelName   ? &clone.CacheBlockSize
                 : label.Name == numBlocksLabelName ? &clone.CacheNumBlocks
                                                    : nullptr;
    if (field == nullptr || label.Value.empty()) continue;
    const AtoiResult r = goAtoi(label.Value);
    if (r.Err) {
      errs->push_back(*r.Err);
    } else {
      *field = goIntFromInt64(r.Value);
    }
  }
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@71f4f099 addAdapters
void addAdapters(std::map<std::string, int>& m, const std::string& csv) {
  size_t start = 0;
  for (;;) {
    const size_t c = csv.find(',', start);
    const std::string trimmed = trimSpace(csv.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (!trimmed.empty()) m[trimmed] = 0;
    if (c == std::string::npos) return;
    start = c + 1;
  }
}

}  // namespace blis::router::metrics
