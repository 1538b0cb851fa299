// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099;
// see session_affinity.h.
#include <stdexcept>

#include "router/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.h"

namespace blis::router::sessionaffinityfilter {

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 newEncodedEndpointHeaderStrategy
std::unique_ptr<strategy> newEncodedEndpointHeaderStrategy(const parameters& params) {
  return std::make_unique<encodedEndpointHeaderStrategy>(
      sessionutil::NormalizeHeader(params.EncodedEndpointHeaderConfig.Header), params.ProfileName);
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy.filter
std::vector<fwksched::EndpointPtr> encodedEndpointHeaderStrategy::filter(
    const fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& endpoints) {
  if (request == nullptr) {
    throw std::invalid_argument(std::string(SessionAffinityType) +
                                ": a nil request is not modelled by this port (upstream dereferences it)");
  }
  auto it = request->Headers.find(sessionHeader_);
  const std::string podName = sessionutil::DecodePodName(it == request->Headers.end() ? "" : it->second);
  if (podName.empty()) return endpoints;
  for (const auto& endpoint : endpoints) {
    const fwkdl::EndpointMetadata* md = endpoint == nullptr ? nullptr : endpoint->GetMetadata();
    if (md == nullptr) {
      throw std::invalid_argument(std::string(SessionAffinityType) +
                                  ": a candidate without metadata is not modelled by this port "
                                  "(upstream dereferences it)");
    }
    if (md->ID.String() == podName) return {endpoint};
  }
  return endpoints;
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy.responseHeader
void encodedEndpointHeaderStrategy::responseHeader(const fwksched::InferenceRequest* request,
                                                   requestcontrol::Response* response,
                                                   const fwkdl::EndpointMetadata* targetPod) {
  const fwkdl::EndpointMetadata* podToWrite = sessionutil::ResolvePodToWrite(request, profileName_, targetPod);
  sessionutil::WriteResponseHeader(SessionAffinityType, sessionHeader_, response, podToWrite);
}

}  // namespace blis::router::sessionaffinityfilter
