// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/requestcontrol/types.go@71f4f099; Response
// without ReqMetadata, Usage and DynamicMetadata (Envoy metadata and parsed token usage are not modelled).
#pragma once

#include <map>
#include <string>

namespace blis::router::requestcontrol {

// pkg/epp/framework/interface/requestcontrol/types.go@71f4f099 Response
// What the response request-control plugins are told about a response.
struct Response {
  // The request's ID.
  std::string RequestID;
  // The response headers (empty during body processing).
  std::map<std::string, std::string> Headers;
  // True when this invocation carries the first chunk of the response.
  bool StartOfStream = false;
  // True when this invocation carries the last chunk of the response.
  bool EndOfStream = false;
};

}  // namespace blis::router::requestcontrol
