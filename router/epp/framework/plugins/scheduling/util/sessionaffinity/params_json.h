// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: Go's encoding/json strict decoding (StrictDecoder,
// pkg/epp/framework/interface/plugin/registry.go@71f4f099) of the session-affinity filter's and scorer's
// `parameters` struct (pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099,
// .../scorer/sessionaffinity/session_affinity.go@71f4f099), whose nested structs and slice
// (EncodedEndpointHeaderConfig, SessionIDConfig, []SessionIDSource) fwkplugin::StrictObject does not decode.
// Same conventions as decode.h: fields matched exactly then case-insensitively, null leaves a field unchanged
// (a null slice becomes empty, a null slice element the zero SessionIDSource), unknown fields and type
// mismatches refused with encoding/json's texts (for a nested field: "Go struct field <innermost struct>.<path
// from the root>"). Where several fields are wrong, the first reported is the first in declaration order,
// depth first, where encoding/json reports the first in document order.
#pragma once

#include <string>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/header.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.h"

namespace blis::router::sessionutil {

// The fields of a filter's/scorer's parameters struct, decoded in place (absent fields keep their values).
struct StrategyParameterFields {
  std::string* Strategy;
  sessionutil::EncodedEndpointHeaderConfig* EncodedEndpointHeaderConfig;
  sessionutil::SessionIDConfig* SessionIDConfig;
  std::string* ProfileName;
};

// Decodes parameters (nullptr or JSON null: nothing) into the fields; goType is the parameters struct's
// package-qualified Go name ("sessionaffinity.parameters"). Throws fwkplugin::PluginError with the json text.
void DecodeStrategyParameters(fwkplugin::Parameters parameters, const std::string& goType,
                              const StrategyParameterFields& out);

}  // namespace blis::router::sessionutil
