// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/loraspec.go@71f4f099; all
// of it (a nil *LoRASpec, the disabled LoRA metric, is a nullptr LoRASpecPtr).
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/spec.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/loraspec.go@71f4f099 LoRASpec
// A Spec whose latest sample is chosen by its value (the series' creation timestamp), not its timestamp.
struct LoRASpec {
  SpecPtr Spec;

  // pkg/epp/framework/plugins/datalayer/extractor/metrics/loraspec.go@71f4f099 LoRASpec.getLatestMetric
  // The matching sample with the greatest value (the first of equal ones); nullptr when the family is
  // missing or empty or no sample matches (no adapters loaded, not an error).
  const Metric* getLatestMetric(const PrometheusMetricMap& families) const;
};

using LoRASpecPtr = std::shared_ptr<LoRASpec>;

// pkg/epp/framework/plugins/datalayer/extractor/metrics/loraspec.go@71f4f099 parseStringToLoRASpec
// nullptr (disabled) for the empty string; nullptr and *err set for an invalid specification.
LoRASpecPtr parseStringToLoRASpec(const std::string& spec, Error* err);

}  // namespace blis::router::metrics
