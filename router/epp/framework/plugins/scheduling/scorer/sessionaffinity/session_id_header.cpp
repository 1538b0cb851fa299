// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_id_header.go@71f4f099;
// see session_affinity.h.
#include "router/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.h"

namespace blis::router::sessionaffinity {

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_id_header.go@71f4f099 newSessionIDHeaderStrategy
std::unique_ptr<strategy> newSessionIDHeaderStrategy(const parameters& params, fwkplugin::Handle& handle) {
  return std::make_unique<sessionIDHeaderStrategy>(std::make_unique<sessionutil::SessionIDHeader>(
      params.SessionIDConfig, params.ProfileName, fwkplugin::StateKey(SessionAffinityType), handle));
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_id_header.go@71f4f099 sessionIDHeaderStrategy.score
fwksched::ScoreMap sessionIDHeaderStrategy::score(const fwksched::InferenceRequest* request,
                                                  const std::vector<fwksched::EndpointPtr>& endpoints) {
  fwksched::ScoreMap scoredEndpoints;
  for (const auto& endpoint : endpoints) scoredEndpoints[endpoint] = 0.0;
  if (fwksched::EndpointPtr target = header_->Choose(request, endpoints)) scoredEndpoints[target] = 1.0;
  return scoredEndpoints;
}

}  // namespace blis::router::sessionaffinity
