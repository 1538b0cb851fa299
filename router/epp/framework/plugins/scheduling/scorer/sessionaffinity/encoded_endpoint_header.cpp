// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/encoded_endpoint_header.go@71f4f099;
// see session_affinity.h.
#include <stdexcept>

#include "router/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.h"

namespace blis::router::sessionaffinity {

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/encoded_endpoint_header.go@71f4f099 newEncodedEndpointHeaderStrategy
std::unique_ptr<strategy> newEncodedEndpointHeaderStrategy(const parameters& params) {
  return std::make_unique<encodedEndpointHeaderStrategy>(
      sessionutil::NormalizeHeader(params.EncodedEndpointHeaderConfig.Header), params.ProfileName);
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy.score
// (an undecodable token names no pod: "" matches no ID, which always holds a '/').
fwksched::ScoreMap encodedEndpointHeaderStrategy::score(const fwksched::InferenceRequest* request,
                                                        const std::vector<fwksched::EndpointPtr>& endpoints) {
  if (request == nullptr) {
    throw std::invalid_argument(std::string(SessionAffinityType) +
                                ": a nil request is not modelled by this port (upstream dereferences it)");
  }
  fwksched::ScoreMap scoredEndpoints;
  auto it = request->Headers.find(sessionHeader_);
  const std::string podName = sessionutil::DecodePodName(it == request->Headers.end() ? "" : it->second);
  for (const auto& endpoint : endpoints) {
    const fwkdl::EndpointMetadata* md = endpoint == nullptr ? nullptr : endpoint->GetMetadata();
    if (md == nullptr) {
      throw std::invalid_argument(std::string(SessionAffinityType) +
                                  ": a candidate without metadata is not modelled by this port "
                                  "(upstream dereferences it)");
    }
    scoredEndpoints[endpoint] = 0.0;
    if (md->ID.String() == podName) scoredEndpoints[endpoint] = 1.0;
  }
  return scoredEndpoints;
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy.responseHeader
void encodedEndpointHeaderStrategy::responseHeader(const fwksched::InferenceRequest* request,
                                                   requestcontrol::Response* response,
                                                   const fwkdl::EndpointMetadata* targetPod) {
  const fwkdl::EndpointMetadata* podToWrite = sessionutil::ResolvePodToWrite(request, profileName_, targetPod);
  sessionutil::WriteResponseHeader(SessionAffinityType, sessionHeader_, response, podToWrite);
}

}  // namespace blis::router::sessionaffinity
