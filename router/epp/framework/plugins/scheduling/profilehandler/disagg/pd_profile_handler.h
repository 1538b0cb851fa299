// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 (the upstream
// file has no licence header; the year is its first commit's); the deprecated pd-profile-handler. Tracing,
// the decision metric (metrics.go RecordPDDecision, registerMetrics) and logging are not ported; no Go
// context.
#pragma once

#include <any>
#include <memory>
#include <string>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/decider_plugin.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandlerType
inline constexpr const char* PdProfileHandlerType = "pd-profile-handler";
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 defaultDeciderPluginName
inline constexpr const char* defaultDeciderPluginName = "prefix-based-pd-decider";

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandlerParameters
struct PdProfileHandlerParameters {
  std::string DecodeProfile;
  std::string PrefillProfile;
  std::string PrefixPluginType;  // deprecated upstream: never used
  std::string PrefixPluginName;  // deprecated upstream: never used
  int PrimaryPort = 0;
  std::string DeciderPluginName;
  std::string PrefixMatchInfoProducerName;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler
// Decode first, then prefill when the decider agrees (deprecated upstream in favour of Handler).
class PdProfileHandler final : public fwksched::ProfileHandler,
                               public fwkplugin::ConsumerPlugin,
                               public std::enable_shared_from_this<PdProfileHandler> {
 public:
  PdProfileHandler(const std::string& name, const PdProfileHandlerParameters& parameters,
                   std::shared_ptr<deciderPlugin> decider);

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.WithName
  std::shared_ptr<PdProfileHandler> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.Pick
  // Throws std::invalid_argument where upstream would hand the scheduler a nil profile (the profile to run
  // is not among the configured profiles: the scheduler panics upstream).
  fwksched::ProfileMap Pick(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                            const fwksched::ProfileResultMap& profileResults) override;

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.ProcessResults
  // With a primary port (data parallel), sets routing::DataParallelEndpointHeader to the decode pick's
  // <ip:port> and rewrites the decode targets' port to the primary port.
  fwksched::Outcome<fwksched::SchedulingResult> ProcessResults(
      fwksched::InferenceRequest* request, const fwksched::ProfileResultMap& profileResults) override;

  // Go's unexported fields, which upstream's tests read in-package.
  const std::string& decodeProfile() const { return decodeProfile_; }
  const std::string& prefillProfile() const { return prefillProfile_; }
  const std::string& primaryPort() const { return primaryPort_; }
  const std::shared_ptr<deciderPlugin>& decider() const { return decider_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.Consumes
  // Required: PrefixCacheMatchInfoDataKey with the configured producer name, and the token producer's
  // TokenizedPrompt.
  fwkplugin::DataDependencies Consumes() const override;

 private:
  fwkplugin::TypedName typedName_;
  std::string decodeProfile_;
  std::string prefillProfile_;
  std::string primaryPort_;
  std::shared_ptr<deciderPlugin> decider_;
  fwkplugin::DataKey dk_;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 NewPdProfileHandler
std::shared_ptr<PdProfileHandler> NewPdProfileHandler(const std::string& name,
                                                      const PdProfileHandlerParameters& parameters,
                                                      std::shared_ptr<deciderPlugin> decider);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandlerConfigParser
// A PdProfileHandlerParameters in the std::any; throws fwkplugin::PluginError with upstream's text.
std::any PdProfileHandlerConfigParser(fwkplugin::Parameters parameters, fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandlerFactory
std::shared_ptr<fwkplugin::Plugin> PdProfileHandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                           fwkplugin::Handle& handle);

}  // namespace blis::router::disagg
