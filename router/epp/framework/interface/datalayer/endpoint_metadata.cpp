// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099; the
// String rendering only.
#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"

namespace blis::router::fwkdl {

// pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099 EndpointMetadata.String
std::string EndpointMetadata::String() const {
  std::string labels;
  for (const auto& [k, v] : Labels) {
    if (!labels.empty()) labels += " ";
    labels += k + ":" + v;
  }
  return "{ID:" + ID.String() + " Name:" + Name + " Address:" + Address + " NodeAddress:" + NodeAddress +
         " Port:" + Port + " MetricsHost:" + MetricsHost + " Labels:map[" + labels +
         "] RankIndex:" + std::to_string(RankIndex) + "}";
}

}  // namespace blis::router::fwkdl
