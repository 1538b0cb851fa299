// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099;
// all but logging (endpointScores' log marshaler, the deprecation and out-of-range notices); no Go context. (The upstream file
// has no licence header: the copyright line names the llm-d Authors and the year the file was added, 2025.)
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

namespace blis::router::activerequest {

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequestType
inline constexpr const char* ActiveRequestType = "active-request-scorer";

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 Parameters
// (std::nullopt where Go's *float64 is nil).
struct Parameters {
  // Deprecated and ignored upstream (in-flight tracking is the inflight-load-producer's).
  std::string RequestTimeout;
  // Endpoints with at most this many in-flight requests score 1.0.
  int IdleThreshold = 0;
  // The highest score a busy endpoint can get, in [0, 1]; unset means 1.0.
  std::optional<double> MaxBusyScore;
  std::string InFlightLoadProducerName;
};

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest
// Scores endpoints by the in-flight request count the in-flight load producer publishes (InFlightLoad.
// Requests): idle endpoints (count <= idleThreshold) score 1.0, busy ones (max - count) / max * maxBusyScore.
class ActiveRequest final : public fwksched::Scorer,
                            public fwkplugin::ConsumerPlugin,
                            public std::enable_shared_from_this<ActiveRequest> {
 public:
  ActiveRequest(int idleThreshold, double maxBusyScore, fwkplugin::DataKey inFlightLoadDataKey)
      : typedName_{ActiveRequestType, ""},
        inFlightLoadDataKey_(std::move(inFlightLoadDataKey)),
        idleThreshold_(idleThreshold),
        maxBusyScore_(maxBusyScore) {}

  // pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.WithName
  std::shared_ptr<ActiveRequest> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.Category
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  // pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

  // pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.Consumes
  // Required only (no Optional keys).
  fwkplugin::DataDependencies Consumes() const override;
  int idleThreshold() const { return idleThreshold_; }
  double maxBusyScore() const { return maxBusyScore_; }

 private:
  // pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.requestCount
  std::int64_t requestCount(const fwksched::Endpoint& endpoint) const;

  fwkplugin::TypedName typedName_;
  fwkplugin::DataKey inFlightLoadDataKey_;
  int idleThreshold_;
  double maxBusyScore_;
};

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 NewActiveRequest
// params may be nullptr (Go's nil).
std::shared_ptr<ActiveRequest> NewActiveRequest(const Parameters* params);

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle);

}  // namespace blis::router::activerequest
