// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/decider_plugin.go@71f4f099 (the upstream file
// has no licence header; the year is its first commit's); all of it, no Go context. multimodal_helpers.go's
// hasMultimodalContent is not ported: it reads TokenizedPrompt.MultiModalFeatures, which this port's request
// body does not carry (see always_disagg_mm_decider.h).
#pragma once

#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/decider_plugin.go@71f4f099 deciderPlugin
// Decides whether the disaggregated stage should run for the request. endpoint is the endpoint picked by an
// earlier stage (the decode pick in decode-first order), nullptr where Go passes nil.
class deciderPlugin : public virtual fwkplugin::Plugin {
 public:
  virtual bool disaggregate(fwksched::InferenceRequest* request, const fwksched::EndpointPtr& endpoint) = 0;
};

}  // namespace blis::router::disagg
