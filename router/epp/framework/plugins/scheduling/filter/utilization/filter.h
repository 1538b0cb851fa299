// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099;
// all but logging; no Go context.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::utilization {

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilterType
inline constexpr const char* UtilizationFilterType = "utilization-filter";
// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 MetricActiveRequests (the EPP's
// in-flight request count), MetricRunningRequests, MetricWaitingQueue, MetricKVCacheUtilization
inline constexpr const char* MetricActiveRequests = "active-requests";
inline constexpr const char* MetricRunningRequests = "running-requests";
inline constexpr const char* MetricWaitingQueue = "waiting-queue";
inline constexpr const char* MetricKVCacheUtilization = "kv-cache-utilization";

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 condition
// An endpoint passes when its Metric is at most MaxValue (std::nullopt where Go's pointer is nil).
struct condition {
  std::string Metric;
  std::optional<double> MaxValue;
};

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 parameters
struct parameters {
  std::vector<condition> Conditions;
  bool FallbackOnEmpty = false;
  std::string InFlightLoadProducerName;
};

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter
// Keeps the endpoints satisfying every condition (a missing metric counts as zero); with fallbackOnEmpty,
// the unfiltered candidates when none is kept.
class UtilizationFilter final : public fwksched::FilterPlugin, public fwkplugin::ConsumerPlugin {
 public:
  // pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName; }
  // pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.Filter
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.Consumes
  // Required: the in-flight load key when a condition uses active-requests, else nothing.
  fwkplugin::DataDependencies Consumes() const override;

  // Go's unexported fields.
  fwkplugin::TypedName typedName;
  fwkplugin::DataKey inFlightLoadDataKey;
  std::vector<condition> conditions;
  bool fallbackOnEmpty = false;

 private:
  // pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.satisfiesAll
  bool satisfiesAll(const fwksched::Endpoint& endpoint) const;
  // pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.metricValue
  double metricValue(const fwksched::Endpoint& endpoint, const std::string& metric) const;
  // pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.activeRequestCount
  std::int64_t activeRequestCount(const fwksched::Endpoint& endpoint) const;
};

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 NewUtilizationFilter
// Throws fwkplugin::PluginError with upstream's texts for invalid parameters.
std::shared_ptr<UtilizationFilter> NewUtilizationFilter(std::string name, const parameters& params);

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 Factory
// A type error inside a condition carries encoding/json's path ("condition.conditions.<field>").
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters rawParameters,
                                           fwkplugin::Handle& handle);

}  // namespace blis::router::utilization
