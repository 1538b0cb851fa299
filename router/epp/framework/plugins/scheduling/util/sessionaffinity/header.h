// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099;
// all of it but logging; no Go context. Go's encoding/base64 StdEncoding (which header.go calls) is ported here
// as EncodeStdBase64/DecodeStdBase64.
#pragma once

#include <optional>
#include <string>

#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/requestcontrol/types.h"
#include "router/epp/framework/interface/scheduling/types.h"

// Namespace sessionutil: the import name the filter and scorer give this package (package sessionaffinity,
// which is also the filter's and the scorer's package name).
namespace blis::router::sessionutil {

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 DefaultHeader
// The default request/response header carrying the session token.
inline constexpr const char* DefaultHeader = "x-session-token";

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 EncodedEndpointHeaderConfig
struct EncodedEndpointHeaderConfig {
  // Carries the base64-encoded pod token. Defaults to DefaultHeader.
  std::string Header;

  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 EncodedEndpointHeaderConfig.ApplyDefaults
  void ApplyDefaults() {
    if (Header.empty()) Header = DefaultHeader;
  }
};

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 NormalizeHeader
// The name trimmed and lower-cased, DefaultHeader when that is empty (request headers are lower-case).
std::string NormalizeHeader(const std::string& name);

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 DecodePodName
// The pod NamespacedName string a base64 session token encodes; "" when the token is empty or does not decode.
std::string DecodePodName(const std::string& token);

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 WriteResponseHeader
// Sets response->Headers[sessionHeader] to the base64 of targetPod's ID; nothing when either is nullptr.
// pluginType only labelled a log line upstream.
void WriteResponseHeader(const std::string& pluginType, const std::string& sessionHeader,
                         requestcontrol::Response* response, const fwkdl::EndpointMetadata* targetPod);

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 ResolvePodToWrite
// targetPod when profileName is empty; otherwise the metadata of the first target endpoint of that profile in
// request->SchedulingResult, or nullptr when the profile was not scheduled (or request/result is nullptr).
const fwkdl::EndpointMetadata* ResolvePodToWrite(const fwksched::InferenceRequest* request,
                                                 const std::string& profileName,
                                                 const fwkdl::EndpointMetadata* targetPod);

// Go's base64.StdEncoding.EncodeToString: the standard alphabet, '=' padded.
std::string EncodeStdBase64(const std::string& data);
// Go's base64.StdEncoding.DecodeString: '\r' and '\n' are skipped anywhere; otherwise the input must be whole
// padded quanta of the standard alphabet, with padding only at the end ("xx==" or "xxx="); non-zero trailing
// bits are accepted (StdEncoding is not Strict). std::nullopt where Go returns an error.
std::optional<std::string> DecodeStdBase64(const std::string& text);

}  // namespace blis::router::sessionutil
