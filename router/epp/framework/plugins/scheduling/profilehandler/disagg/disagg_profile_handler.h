// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 (the
// upstream file has no licence header; the year is its first commit's); tracing, metrics (metrics.go:
// RecordDisaggDecision, registerMetrics) and logging are not ported; no Go context.
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/decider_plugin.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 DisaggProfileHandlerType
inline constexpr const char* DisaggProfileHandlerType = "disagg-profile-handler";
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 defaultDecodeProfile
inline constexpr const char* defaultDecodeProfile = "decode";
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 defaultPrefillProfile
inline constexpr const char* defaultPrefillProfile = "prefill";
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 defaultEncodeProfile
inline constexpr const char* defaultEncodeProfile = "encode";

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 StageOrder
using StageOrder = std::string;
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 StageOrderDecodeFirst
// Decode -> Encode -> Prefill (default): the PD decider inspects the picked decode endpoint.
inline const StageOrder StageOrderDecodeFirst = "decode-first";
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 StageOrderPrefillFirst
// Prefill -> Encode -> Decode: the decode profile may use affinity to the picked prefill endpoint.
inline const StageOrder StageOrderPrefillFirst = "prefill-first";

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 ParseStageOrder
// Throws fwkplugin::PluginError with upstream's text for an invalid order.
StageOrder ParseStageOrder(const std::string& s);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 PeerEndpointAttributeKey
// The request attribute (a fwksched::EndpointPtr) holding the endpoint picked in the earlier phase (the
// decode pick in decode-first order, the prefill pick in prefill-first order).
inline constexpr const char* PeerEndpointAttributeKey = "peer-endpoint";

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 disaggProfilesParameters
struct disaggProfilesParameters {
  std::string Decode;
  std::string Prefill;
  std::string Encode;
};
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 disaggDecidersParameters
struct disaggDecidersParameters {
  std::string Prefill;
  std::string Encode;
};
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 DisaggProfileHandlerParameters
struct DisaggProfileHandlerParameters {
  disagg::StageOrder StageOrder;  // qualified: the member shares the type's name, as upstream
  disaggProfilesParameters Profiles;
  disaggDecidersParameters Deciders;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler
// The unified disaggregation profile handler: Decode (mandatory), Encode and Prefill (each optional,
// active when its profile is configured and, for decode-first order, its decider agrees).
// Also a PreRequest plugin (it writes the prefill/encode routing headers).
class Handler final : public fwksched::ProfileHandler,
                      public requestcontrol::PreRequestPlugin,
                      public fwkplugin::ConsumerPlugin,
                      public std::enable_shared_from_this<Handler> {
 public:
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 newDisaggProfileHandler
  Handler(std::string handlerType, std::string decodeProfile, std::string prefillProfile, std::string encodeProfile,
          std::shared_ptr<deciderPlugin> pdDecider, std::shared_ptr<deciderPlugin> encodeDecider)
      : typedName_{std::move(handlerType), ""},
        stageOrder_(StageOrderDecodeFirst),
        decodeProfile_(std::move(decodeProfile)),
        prefillProfile_(std::move(prefillProfile)),
        encodeProfile_(std::move(encodeProfile)),
        pdDecider_(std::move(pdDecider)),
        encodeDecider_(std::move(encodeDecider)) {}

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.WithName
  std::shared_ptr<Handler> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.WithStageOrder
  std::shared_ptr<Handler> WithStageOrder(const StageOrder& stageOrder) {
    stageOrder_ = stageOrder;
    return shared_from_this();
  }

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.Pick
  // The next profile to run (one at a time), or none when all stages are done. Like upstream, a stage whose
  // decider declines is marked evaluated by a nil entry written into profileResults (the scheduler's map:
  // the const is cast away, see the .cpp).
  fwksched::ProfileMap Pick(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                            const fwksched::ProfileResultMap& profileResults) override;

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.ProcessResults
  // The decode result as primary, with the prefill and encode results that ran successfully.
  fwksched::Outcome<fwksched::SchedulingResult> ProcessResults(
      fwksched::InferenceRequest* request, const fwksched::ProfileResultMap& profileResults) override;

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.PreRequest
  // Writes the prefill endpoint (routing::PrefillEndpointHeader) and encode endpoints
  // (routing::EncoderEndpointsHeader) into request->Headers. Upstream's error is always nil.
  std::optional<fwksched::GoError> PreRequest(fwksched::InferenceRequest* request,
                                              fwksched::SchedulingResult* schedulingResult) override;

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.Consumes
  // Required: the default PrefixCacheMatchInfo key and the token producer's TokenizedPrompt.
  fwkplugin::DataDependencies Consumes() const override;

  // Go's unexported fields, which upstream's tests read in-package.
  const StageOrder& stageOrder() const { return stageOrder_; }
  const std::string& decodeProfile() const { return decodeProfile_; }
  const std::string& prefillProfile() const { return prefillProfile_; }
  const std::string& encodeProfile() const { return encodeProfile_; }
  const std::shared_ptr<deciderPlugin>& pdDecider() const { return pdDecider_; }
  const std::shared_ptr<deciderPlugin>& encodeDecider() const { return encodeDecider_; }

 private:
  fwksched::ProfileMap pickDecodeFirst(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                                       fwksched::ProfileResultMap& profileResults);
  fwksched::ProfileMap pickPrefillFirst(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                                        fwksched::ProfileResultMap& profileResults);

  fwkplugin::TypedName typedName_;
  StageOrder stageOrder_;
  std::string decodeProfile_;
  std::string prefillProfile_;
  std::string encodeProfile_;
  std::shared_ptr<deciderPlugin> pdDecider_;
  std::shared_ptr<deciderPlugin> encodeDecider_;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 NewDisaggProfileHandler
// Active stages are determined by the configured profiles and non-null deciders.
std::shared_ptr<Handler> NewDisaggProfileHandler(const std::string& decodeProfile, const std::string& prefillProfile,
                                                 const std::string& encodeProfile,
                                                 std::shared_ptr<deciderPlugin> pdDecider,
                                                 std::shared_ptr<deciderPlugin> encodeDecider);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 DisaggProfileHandlerConfigParser
// The parameters (nested schema, else the deprecated flat schema) with defaults applied, as a
// DisaggProfileHandlerParameters in the std::any; throws fwkplugin::PluginError with upstream's text.
std::any DisaggProfileHandlerConfigParser(fwkplugin::Parameters parameters, fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 HandlerFactory
// Resolves deciders.prefill / deciders.encode by plugin name through the handle.
std::shared_ptr<fwkplugin::Plugin> HandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                  fwkplugin::Handle& handle);

}  // namespace blis::router::disagg
