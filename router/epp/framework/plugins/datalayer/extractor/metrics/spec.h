// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099; all of
// it. Go's regular expressions are ported as hand-written matchers with the same (leftmost-first) results;
// a nil *Spec (a disabled metric) is a nullptr SpecPtr.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/families.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/gotext.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 Spec
// A single metric's specification: the metric's name and the label values a sample must carry.
struct Spec {
  std::string Name;
  std::map<std::string, std::string> Labels;

  // pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 Spec.getLatestMetric
  // The matching sample with the greatest timestamp (the first of equal ones); *err is set (and nullptr
  // returned) where Go returns an error.
  const Metric* getLatestMetric(const PrometheusMetricMap& families, Error* err) const;
  // pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 Spec.labelsMatch
  bool labelsMatch(const std::vector<LabelPair>& metricLabels) const;

  bool operator==(const Spec&) const = default;
};

using SpecPtr = std::shared_ptr<Spec>;

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 parseStringToSpec
// Parses PromQL instant-vector-selector syntax `metric_name{label1=value1,label2="value2"}` (labels optional).
// The empty string gives nullptr (a disabled spec) and no error.
SpecPtr parseStringToSpec(const std::string& spec, Error* err);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 addQuotesToLabelValues
// Wraps unquoted label values in quotes (regexp `(\w+)\s*=\s*([^",}\s]+)` -> `$1="$2"`).
std::string addQuotesToLabelValues(const std::string& input);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 extractFamily
// nullptr and *err set where Go returns an error.
const MetricFamily* extractFamily(const Spec* spec, const PrometheusMetricMap& families, Error* err);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 extractValue
// The gauge value, else the counter value, else 0 (also 0 for nullptr).
double extractValue(const Metric* metric);

// github.com/prometheus/common/model LegacyValidation.IsValidMetricName: ^[a-zA-Z_:][a-zA-Z0-9_:]*$
bool isValidLegacyMetricName(const std::string& name);
// github.com/prometheus/common/model LegacyValidation.IsValidLabelName: ^[a-zA-Z_][a-zA-Z0-9_]*$
bool isValidLegacyLabelName(const std::string& name);

}  // namespace blis::router::metrics
