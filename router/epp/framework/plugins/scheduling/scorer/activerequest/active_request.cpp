// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099;
// see active_request.h.
#include "router/epp/framework/plugins/scheduling/scorer/activerequest/active_request.h"

#include <cmath>
#include <map>
#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"

namespace blis::router::activerequest {

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& /*handle*/) {
  Parameters params;
  try {
    fwkplugin::StrictObject obj(parameters, "activerequest.Parameters");
    // MaxBusyScore is a *float64: NaN (which JSON cannot carry) marks "not given".
    double maxBusyScore = std::nan("");
    obj.Field("requestTimeout", params.RequestTimeout);
    obj.Field("idleThreshold", params.IdleThreshold);
    obj.Field("maxBusyScore", maxBusyScore);
    obj.Field("inFlightLoadProducerName", params.InFlightLoadProducerName);
    obj.Finish();
    if (!std::isnan(maxBusyScore)) params.MaxBusyScore = maxBusyScore;
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse the parameters of the '") + ActiveRequestType +
                                 "' scorer - " + e.what());
  }
  return NewActiveRequest(&params)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 NewActiveRequest
std::shared_ptr<ActiveRequest> NewActiveRequest(const Parameters* params) {
  // (A non-empty RequestTimeout is deprecated and ignored; upstream logs it.)
  int idleThreshold = 0;
  if (params != nullptr && params->IdleThreshold >= 0) idleThreshold = params->IdleThreshold;
  double maxBusyScore = 1.0;
  if (params != nullptr && params->MaxBusyScore.has_value()) {
    // An out-of-range value is ignored (upstream logs it).
    if (*params->MaxBusyScore >= 0 && *params->MaxBusyScore <= 1.0) maxBusyScore = *params->MaxBusyScore;
  }
  std::string inFlightLoadProducerName;
  if (params != nullptr) inFlightLoadProducerName = params->InFlightLoadProducerName;
  return std::make_shared<ActiveRequest>(
      idleThreshold, maxBusyScore, concurrency::InFlightLoadDataKey.WithNonEmptyProducerName(inFlightLoadProducerName));
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.Score
fwksched::ScoreMap ActiveRequest::Score(fwksched::InferenceRequest* /*request*/,
                                        const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::map<fwksched::EndpointPtr, std::int64_t> requestCounts;
  std::int64_t maxCount = 0;
  for (const auto& endpoint : endpoints) {
    if (endpoint->GetMetadata() == nullptr) {
      throw std::invalid_argument("active-request-scorer: an endpoint without metadata is not modelled by this "
                                  "port (upstream dereferences nil metadata)");
    }
    const std::int64_t count = requestCount(*endpoint);
    requestCounts[endpoint] = count;
    if (count > maxCount) maxCount = count;
  }
  fwksched::ScoreMap scoredEndpointsMap;
  for (const auto& endpoint : endpoints) {
    const std::int64_t count = requestCounts[endpoint];
    if (count <= static_cast<std::int64_t>(idleThreshold_)) {
      scoredEndpointsMap[endpoint] = 1.0;  // idle endpoints always get the max score
      continue;
    }
    // Busy endpoint: scaled from 0 to maxBusyScore.
    scoredEndpointsMap[endpoint] =
        static_cast<double>(maxCount - count) / static_cast<double>(maxCount) * maxBusyScore_;
  }
  return scoredEndpointsMap;
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.requestCount
// 0 when the attribute is absent or not an InFlightLoad (upstream logs the latter).
std::int64_t ActiveRequest::requestCount(const fwksched::Endpoint& endpoint) const {
  auto load = std::dynamic_pointer_cast<concurrency::InFlightLoad>(endpoint.Get(inFlightLoadDataKey_.String()));
  return load == nullptr ? 0 : load->Requests;
}

// pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go@71f4f099 ActiveRequest.Consumes
fwkplugin::DataDependencies ActiveRequest::Consumes() const {
  return {{{inFlightLoadDataKey_, concurrency::InFlightLoad{}}}, {}};
}

}  // namespace blis::router::activerequest
