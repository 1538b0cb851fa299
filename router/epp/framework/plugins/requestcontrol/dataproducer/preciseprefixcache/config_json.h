// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: the strict JSON decoding of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099
// PluginConfig (rawParameters.Decode through plugin.StrictDecoder: unknown fields refused at every depth,
// absent fields keep their defaults, null sets a pointer field to nil, type mismatches refused with
// encoding/json's texts, "Go struct field <innermost struct>.<full field path>"), and a port of Go's
// time.ParseDuration for speculativeTTL. The contents of redisConfig, costAwareMemoryConfig and
// tokenizersPoolConfig are not decoded: only their presence is kept, and each is refused downstream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"

namespace blis::router::preciseprefixcache {

// json.Decoder.Decode(&cfg) with DisallowUnknownFields into cfg (its defaults kept where absent). goType is
// the Go type's package-qualified name ("preciseprefixcache.PluginConfig"). Throws fwkplugin::PluginError
// with encoding/json's text (unwrapped).
void DecodePluginConfig(fwkplugin::Parameters parameters, PluginConfig& cfg, const std::string& goType);

// Go's time.ParseDuration (time/format.go): nanoseconds, or Go's error text in err.
std::optional<std::int64_t> ParseGoDuration(const std::string& s, std::string& err);

}  // namespace blis::router::preciseprefixcache
