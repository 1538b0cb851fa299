// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 (the
// upstream file has no licence header; the year is its first commit's); all of it, no Go context.
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/decider_plugin.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 AlwaysDisaggPDDeciderPluginType
inline constexpr const char* AlwaysDisaggPDDeciderPluginType = "always-disagg-pd-decider";

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 AlwaysDisaggPDDecider
// A PD decider that always decides to disaggregate.
class AlwaysDisaggPDDecider final : public deciderPlugin,
                                    public std::enable_shared_from_this<AlwaysDisaggPDDecider> {
 public:
  AlwaysDisaggPDDecider() : typedName_{AlwaysDisaggPDDeciderPluginType, ""} {}

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 AlwaysDisaggPDDecider.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 AlwaysDisaggPDDecider.WithName
  std::shared_ptr<AlwaysDisaggPDDecider> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 AlwaysDisaggPDDecider.disaggregate
  bool disaggregate(fwksched::InferenceRequest*, const fwksched::EndpointPtr&) override { return true; }

 private:
  fwkplugin::TypedName typedName_;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 newAlwaysDisaggPDDecider
inline std::shared_ptr<AlwaysDisaggPDDecider> newAlwaysDisaggPDDecider() {
  return std::make_shared<AlwaysDisaggPDDecider>();
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go@71f4f099 AlwaysDisaggPDDeciderPluginFactory
// (ignores its parameters and handle, as upstream).
std::shared_ptr<fwkplugin::Plugin> AlwaysDisaggPDDeciderPluginFactory(const std::string& name,
                                                                      fwkplugin::Parameters parameters,
                                                                      fwkplugin::Handle& handle);

}  // namespace blis::router::disagg
