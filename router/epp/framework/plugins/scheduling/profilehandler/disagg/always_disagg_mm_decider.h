// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_mm_decider.go@71f4f099 (the
// upstream file has no licence header; the year is its first commit's): only the type name and a factory
// that refuses the plugin. The decider encodes when the tokenized prompt carries multimodal features
// (multimodal_helpers.go hasMultimodalContent); this port's request body carries no multimodal data, so the
// decider is not modelled.
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/interface/plugin/registry.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_mm_decider.go@71f4f099 AlwaysDisaggMulimodalPluginType
inline constexpr const char* AlwaysDisaggMulimodalPluginType = "always-disagg-multimodal-decider";

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_mm_decider.go@71f4f099 AlwaysDisaggMulimodalDeciderPluginFactory
// Throws std::invalid_argument: the decider reads multimodal data this port does not carry.
std::shared_ptr<fwkplugin::Plugin> AlwaysDisaggMulimodalDeciderPluginFactory(const std::string& name,
                                                                             fwkplugin::Parameters parameters,
                                                                             fwkplugin::Handle& handle);

}  // namespace blis::router::disagg
