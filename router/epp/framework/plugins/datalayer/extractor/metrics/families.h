// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/source/metrics/types.go@71f4f099
// (PrometheusMetricMap) and of the subset of github.com/prometheus/client_model's dto.MetricFamily the core
// metrics extractor reads; Prometheus text parsing and the HTTP scrape are not ported: the simulator hands an
// engine's published samples over in this shape.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blis::router::metrics {

// github.com/prometheus/client_model/go dto.MetricType (the subset the simulator publishes). The extractor
// does not read a family's type: extractValue reads a sample's gauge value, else its counter value.
enum class MetricType { COUNTER = 0, GAUGE = 1 };

// github.com/prometheus/client_model/go dto.LabelPair
struct LabelPair {
  std::string Name;
  std::string Value;

  bool operator==(const LabelPair&) const = default;
};

// github.com/prometheus/client_model/go dto.Metric (labels, a gauge or counter value, the optional sample
// timestamp). A sample with neither Gauge nor Counter stands for the types not modelled (summary,
// histogram, untyped), whose value extractValue reads as 0 as upstream does.
struct Metric {
  std::vector<LabelPair> Label;
  // dto.Gauge.Value; std::nullopt where the Gauge is nil.
  std::optional<double> Gauge;
  // dto.Counter.Value; std::nullopt where the Counter is nil.
  std::optional<double> Counter;
  // dto.Metric.TimestampMs; std::nullopt where absent (GetTimestampMs then reads 0, as Go's getter).
  std::optional<std::int64_t> TimestampMs;

  // dto.Metric.GetTimestampMs
  std::int64_t GetTimestampMs() const { return TimestampMs.value_or(0); }
};

// github.com/prometheus/client_model/go dto.MetricFamily (name, type and samples; help text not modelled).
struct MetricFamily {
  std::string Name;
  std::optional<MetricType> Type;
  std::vector<metrics::Metric> Metric;
};

// pkg/epp/framework/plugins/datalayer/source/metrics/types.go@71f4f099 PrometheusMetricMap
// The metric families of one scrape, by family name. Go's map of *dto.MetricFamily may hold a nil family or
// be nil itself; here a missing map is the empty map and families are held by value.
using PrometheusMetricMap = std::map<std::string, MetricFamily>;

}  // namespace blis::router::metrics
