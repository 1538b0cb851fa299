// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 (the
// upstream file has no licence header; the year is its first commit's); logging is not ported, no Go
// context. Go's (value, error) returns become a thrown fwkplugin::PluginError with upstream's text.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/decider_plugin.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDeciderPluginType
inline constexpr const char* PrefixBasedPDDeciderPluginType = "prefix-based-pd-decider";

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDeciderConfig
struct PrefixBasedPDDeciderConfig {
  // The minimum number of non-cached tokens that triggers disaggregated PD (0 disables it).
  int NonCachedTokens = 0;
  // The minimum prompt length in tokens before the prefix-cache logic applies (0 disables this gate).
  int PromptTokens = 0;

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDeciderConfig.validate
  // The error text, std::nullopt for nil.
  std::optional<std::string> validate() const;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDecider
// Disaggregates when the decode endpoint's non-cached suffix of the prompt is long enough.
class PrefixBasedPDDecider final : public deciderPlugin, public std::enable_shared_from_this<PrefixBasedPDDecider> {
 public:
  explicit PrefixBasedPDDecider(PrefixBasedPDDeciderConfig config)
      : typedName_{PrefixBasedPDDeciderPluginType, ""}, config_(config) {}

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDecider.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDecider.WithName
  std::shared_ptr<PrefixBasedPDDecider> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDecider.disaggregate
  bool disaggregate(fwksched::InferenceRequest* request, const fwksched::EndpointPtr& endpoint) override;

  // The configuration (Go's unexported field, which upstream's tests read in-package).
  const PrefixBasedPDDeciderConfig& config() const { return config_; }

 private:
  fwkplugin::TypedName typedName_;
  PrefixBasedPDDeciderConfig config_;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 NewPrefixBasedPDDecider
// Throws fwkplugin::PluginError with validate's text for an invalid configuration.
std::shared_ptr<PrefixBasedPDDecider> NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig config);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDeciderPluginFactory
std::shared_ptr<fwkplugin::Plugin> PrefixBasedPDDeciderPluginFactory(const std::string& name,
                                                                     fwkplugin::Parameters parameters,
                                                                     fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 getUserInputLenInTokens
// The token count of the tokenized prompt (0 when the request was not tokenized); std::nullopt where Go
// returns the "request or request body is nil" error.
std::optional<int> getUserInputLenInTokens(const fwksched::InferenceRequest* request);

}  // namespace blis::router::disagg
