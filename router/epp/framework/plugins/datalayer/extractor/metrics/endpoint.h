// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of the part of pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099
// (ModelServer, NewEndpoint) and plugin.go@71f4f099 (PollInput) the core metrics extractor reads and writes,
// kept beside it until the data-layer endpoint is ported. Single-threaded (no atomics). Metrics.UpdateTime,
// not in the port's fwkdl::Metrics, is held by the endpoint as a simulated time (microseconds), never a clock.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "router/epp/framework/interface/datalayer/attributemap.h"
#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/datalayer/metrics.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/families.h"

namespace blis::router::metrics {

// pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099 ModelServer
// An endpoint's metadata, latest metrics snapshot (with its update time) and attribute map.
class Endpoint {
 public:
  // pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099 NewEndpoint
  // std::nullopt stands for Go's nil: empty metadata, NewMetrics() (zero update time).
  explicit Endpoint(std::optional<fwkdl::EndpointMetadata> meta = std::nullopt,
                    std::optional<fwkdl::Metrics> metrics = std::nullopt)
      : meta_(meta.value_or(fwkdl::EndpointMetadata{})),
        metrics_(metrics.value_or(fwkdl::NewMetrics())),
        attributes_(fwkdl::NewAttributes()) {}

  // pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099 ModelServer.GetMetadata (never nullptr here)
  const fwkdl::EndpointMetadata* GetMetadata() const { return &meta_; }
  // pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099 ModelServer.UpdateMetadata
  void UpdateMetadata(fwkdl::EndpointMetadata meta) { meta_ = std::move(meta); }
  // pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099 ModelServer.GetMetrics
  const fwkdl::Metrics& GetMetrics() const { return metrics_; }
  // Metrics.UpdateTime: the simulated time (microseconds) of the last update; std::nullopt is Go's zero time.
  std::optional<std::int64_t> GetMetricsUpdateTimeUs() const { return updateTimeUs_; }
  // pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099 ModelServer.UpdateMetrics (with the snapshot's
  // UpdateTime, which Go carries inside Metrics)
  void UpdateMetrics(const fwkdl::Metrics& metrics, std::optional<std::int64_t> updateTimeUs) {
    metrics_ = metrics;
    updateTimeUs_ = updateTimeUs;
  }
  // pkg/epp/framework/interface/datalayer/endpoint.go@71f4f099 ModelServer.GetAttributes
  fwkdl::AttributeMap& GetAttributes() { return *attributes_; }
  const fwkdl::AttributeMap& GetAttributes() const { return *attributes_; }

 private:
  fwkdl::EndpointMetadata meta_;
  fwkdl::Metrics metrics_;
  std::optional<std::int64_t> updateTimeUs_;
  fwkdl::AttributeMapPtr attributes_;
};

// pkg/epp/framework/interface/datalayer/plugin.go@71f4f099 PollInput[PrometheusMetricMap]
// The scraped families and the endpoint they came from; NowUs is the simulated time of this extraction
// (microseconds, Runtime::now_us), which stands where Go reads time.Now().
struct PollInput {
  const PrometheusMetricMap& Payload;
  metrics::Endpoint& Endpoint;
  std::int64_t NowUs = 0;
};

}  // namespace blis::router::metrics
