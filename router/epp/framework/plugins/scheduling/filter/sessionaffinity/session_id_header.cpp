// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099;
// see session_affinity.h.
#include "router/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.h"

namespace blis::router::sessionaffinityfilter {

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099 newSessionIDHeaderStrategy
std::unique_ptr<strategy> newSessionIDHeaderStrategy(const parameters& params, fwkplugin::Handle& handle) {
  return std::make_unique<sessionIDHeaderStrategy>(std::make_unique<sessionutil::SessionIDHeader>(
      params.SessionIDConfig, params.ProfileName, fwkplugin::StateKey(SessionAffinityType), handle));
}

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099 sessionIDHeaderStrategy.filter
std::vector<fwksched::EndpointPtr> sessionIDHeaderStrategy::filter(
    const fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& endpoints) {
  fwksched::EndpointPtr target = header_->Choose(request, endpoints);
  if (target == nullptr) return endpoints;
  return {target};
}

}  // namespace blis::router::sessionaffinityfilter
