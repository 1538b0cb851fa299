// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the factories of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 and
// always_disagg_mm_decider.go@71f4f099 (the upstream files have no licence header; the year is the older
// one's first commit); the multimodal decider is refused (see always_disagg_mm_decider.h).
#include <stdexcept>

#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_mm_decider.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 AlwaysDisaggPDDeciderPluginFactory
std::shared_ptr<fwkplugin::Plugin> AlwaysDisaggPDDeciderPluginFactory(const std::string& name, fwkplugin::Parameters,
                                                                      fwkplugin::Handle&) {
  return newAlwaysDisaggPDDecider()->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_mm_decider.go@71f4f099 AlwaysDisaggMulimodalDeciderPluginFactory
std::shared_ptr<fwkplugin::Plugin> AlwaysDisaggMulimodalDeciderPluginFactory(const std::string& name,
                                                                             fwkplugin::Parameters,
                                                                             fwkplugin::Handle&) {
  throw std::invalid_argument(std::string(AlwaysDisaggMulimodalPluginType) + " '" + name +
                              "' is not modelled by this port: it decides on the multimodal features of the "
                              "tokenized prompt (TokenizedPrompt.MultiModalFeatures), which the port's "
                              "requests do not carry");
}

}  // namespace blis::router::disagg
