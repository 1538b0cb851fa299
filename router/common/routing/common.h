// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/common/routing/common.go@71f4f099 (the upstream file has no licence
// header; the year is its first commit's): the header-name constants and IsConditionalDecode. StripScheme
// (Go's net/url parsing of an OpenTelemetry/gRPC endpoint) is not ported: no decision reads it.
#pragma once

#include <map>
#include <string>

namespace blis::router::routing {

// pkg/common/routing/common.go@71f4f099 PrefillEndpointHeader: the Prefill worker <ip:port>.
inline constexpr const char* PrefillEndpointHeader = "x-prefiller-host-port";
// pkg/common/routing/common.go@71f4f099 EncoderEndpointsHeader: the Encoder workers' <ip:port> list.
inline constexpr const char* EncoderEndpointsHeader = "x-encoder-hosts-ports";
// pkg/common/routing/common.go@71f4f099 DataParallelEndpointHeader: the worker <ip:port> for Data Parallel.
inline constexpr const char* DataParallelEndpointHeader = "x-data-parallel-host-port";
// pkg/common/routing/common.go@71f4f099 KVCacheSourceHeader: the worker <ip:port> holding the most cached
// prefix KV blocks for the request.
inline constexpr const char* KVCacheSourceHeader = "x-kv-cache-source-host-port";
// pkg/common/routing/common.go@71f4f099 InferencePoolAPIGroup
inline constexpr const char* InferencePoolAPIGroup = "inference.networking.k8s.io";
// pkg/common/routing/common.go@71f4f099 PreferHeader (RFC 7240 "Prefer"; the EPP receives header keys
// lowercased).
inline constexpr const char* PreferHeader = "prefer";
// pkg/common/routing/common.go@71f4f099 PreferIfAvailable
inline constexpr const char* PreferIfAvailable = "if-available";

// pkg/common/routing/common.go@71f4f099 IsConditionalDecode
// Whether the headers carry the "Prefer: if-available" preference: the bare token, matched
// case-insensitively among the comma-separated preferences, ignoring whitespace and ";" parameters.
bool IsConditionalDecode(const std::map<std::string, std::string>& headers);

// Original to BLIS: Go's net.JoinHostPort, which the handlers use to render <ip:port> header values: a
// host containing a colon (an IPv6 address) is bracketed.
std::string JoinHostPort(const std::string& host, const std::string& port);

}  // namespace blis::router::routing
