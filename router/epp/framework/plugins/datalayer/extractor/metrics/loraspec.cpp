// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/loraspec.go@71f4f099; all
// of it.
#include "router/epp/framework/plugins/datalayer/extractor/metrics/loraspec.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/loraspec.go@71f4f099 parseStringToLoRASpec
LoRASpecPtr parseStringToLoRASpec(const std::string& spec, Error* err) {
  SpecPtr baseSpec = parseStringToSpec(spec, err);
  if (*err) return nullptr;
  if (baseSpec == nullptr) return nullptr;  // empty string: disabled
  return std::make_shared<LoRASpec>(LoRASpec{baseSpec});
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/loraspec.go@71f4f099 LoRASpec.getLatestMetric
const Metric* LoRASpec::getLatestMetric(const PrometheusMetricMap& families) const {
  const auto it = families.find(Spec->Name);
  if (it == families.end() || it->second.Metric.empty()) return nullptr;

  const Metric* latest = nullptr;
  double recent = -1;
  for (const auto& metric : it->second.Metric) {
    if (Spec->labelsMatch(metric.Label)) {
      const double value = extractValue(&metric);  // a LoRA sample's value is its creation timestamp
      if (value > recent) {
        recent = value;
        latest = &metric;
      }
    }
  }
  return latest;
}

}  // namespace blis::router::metrics
