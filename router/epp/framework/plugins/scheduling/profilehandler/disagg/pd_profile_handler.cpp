// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099; tracing, the
// decision metric, logging and Consumes are not ported (see pd_profile_handler.h).
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.h"

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

#include <stdexcept>

#include "router/common/routing/common.h"
#include "router/epp/framework/interface/plugin/decode.h"
#include "router/cmd/epp/runner/token_producer.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandlerConfigParser
std::any PdProfileHandlerConfigParser(fwkplugin::Parameters parameters, fwkplugin::Handle&) {
  PdProfileHandlerParameters p;
  p.DecodeProfile = defaultDecodeProfile;
  p.PrefillProfile = defaultPrefillProfile;
  p.PrimaryPort = 0;
  p.DeciderPluginName = defaultDeciderPluginName;
  try {
    fwkplugin::StrictObject obj(parameters, "disagg.PdProfileHandlerParameters");
    obj.Field("decodeProfile", p.DecodeProfile);
    obj.Field("prefillProfile", p.PrefillProfile);
    obj.Field("prefixPluginType", p.PrefixPluginType);
    obj.Field("prefixPluginName", p.PrefixPluginName);
    obj.Field("primaryPort", p.PrimaryPort);
    obj.Field("deciderPluginName", p.DeciderPluginName);
    obj.Field("prefixMatchInfoProducerName", p.PrefixMatchInfoProducerName);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse the parameters of the '") + PdProfileHandlerType +
                                 "' profile handler - " + e.what());
  }
  if (p.PrefixPluginName.empty()) p.PrefixPluginName = p.PrefixPluginType;
  return p;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandlerFactory
std::shared_ptr<fwkplugin::Plugin> PdProfileHandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                           fwkplugin::Handle& handle) {
  const auto p = std::any_cast<PdProfileHandlerParameters>(PdProfileHandlerConfigParser(parameters, handle));
  if (p.PrimaryPort != 0 && (p.PrimaryPort < 1 || p.PrimaryPort > 65535)) {
    throw fwkplugin::PluginError("invalid primaryPort: must be between 1 and 65535, got " +
                                 std::to_string(p.PrimaryPort));
  }
  if (p.DeciderPluginName.empty()) throw fwkplugin::PluginError("decider plugin name is not defined");
  auto plugin = handle.GetPlugin(p.DeciderPluginName);
  if (plugin == nullptr) throw fwkplugin::PluginError("invalid decider plugin type: " + p.DeciderPluginName);
  auto decider = std::dynamic_pointer_cast<deciderPlugin>(plugin);
  if (decider == nullptr) {
    throw fwkplugin::PluginError("decider plugin of type: " + p.DeciderPluginName +
                                 " does not implement pdDeciderPlugin");
  }
  return NewPdProfileHandler(name, p, decider)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 NewPdProfileHandler
std::shared_ptr<PdProfileHandler> NewPdProfileHandler(const std::string& name,
                                                      const PdProfileHandlerParameters& parameters,
                                                      std::shared_ptr<deciderPlugin> decider) {
  return std::make_shared<PdProfileHandler>(name, parameters, std::move(decider));
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 NewPdProfileHandler
// (the fields it sets)
PdProfileHandler::PdProfileHandler(const std::string& name, const PdProfileHandlerParameters& parameters,
                                   std::shared_ptr<deciderPlugin> decider)
    : typedName_{PdProfileHandlerType, name},
      decodeProfile_(parameters.DecodeProfile),
      prefillProfile_(parameters.PrefillProfile),
      primaryPort_(parameters.PrimaryPort != 0 ? std::to_string(parameters.PrimaryPort) : std::string()),
      decider_(std::move(decider)),
      dk_(attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(parameters.PrefixMatchInfoProducerName)) {}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.Pick
fwksched::ProfileMap PdProfileHandler::Pick(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                                            const fwksched::ProfileResultMap& profileResults) {
  // Go's profiles[name] is nil for a name not configured; the scheduler would call Run on it and panic.
  auto profileNamed = [&profiles](const std::string& name) {
    auto it = profiles.find(name);
    if (it == profiles.end()) {
      throw std::invalid_argument(std::string(PdProfileHandlerType) + ": running the profile '" + name +
                                  "', which is not configured, is not modelled by this port (upstream's "
                                  "scheduler panics on the nil profile)");
    }
    return it->second;
  };
  auto decode = profileResults.find(decodeProfile_);
  if (decode == profileResults.end()) {
    return {{decodeProfile_, profileNamed(decodeProfile_)}};  // decode first
  }
  // Decode ran. All configured profiles ran, or decode failed (nil result): nothing more to run.
  if (profiles.size() == profileResults.size() || decode->second == nullptr) return {};
  if (decider_ != nullptr && decode->second->TargetEndpoints.empty()) {
    throw std::invalid_argument(std::string(PdProfileHandlerType) +
                                ": a decode result without target endpoints is not modelled by this port "
                                "(upstream indexes TargetEndpoints[0] and panics)");
  }
  if (decider_ != nullptr && decider_->disaggregate(request, decode->second->TargetEndpoints[0])) {
    return {{prefillProfile_, profileNamed(prefillProfile_)}};  // prefill_decode
  }
  return {};  // decode_only
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.ProcessResults
fwksched::Outcome<fwksched::SchedulingResult> PdProfileHandler::ProcessResults(
    fwksched::InferenceRequest* request, const fwksched::ProfileResultMap& profileResults) {
  auto decode = profileResults.find(decodeProfile_);
  if (decode == profileResults.end() || decode->second == nullptr) {
    return {nullptr, fwksched::PlainError("failed to find available decode workers")};
  }
  const std::shared_ptr<fwksched::ProfileRunResult>& decodeRunResults = decode->second;
  auto result = std::make_shared<fwksched::SchedulingResult>();
  if (!primaryPort_.empty()) {  // Data Parallel is active
    if (decodeRunResults->TargetEndpoints.empty()) {
      throw std::invalid_argument(std::string(PdProfileHandlerType) +
                                  ": a decode result without target endpoints is not modelled by this port "
                                  "(upstream indexes TargetEndpoints[0] and panics)");
    }
    const fwkdl::EndpointMetadata* targetEndpoint = decodeRunResults->TargetEndpoints[0]->GetMetadata();
    request->Headers[routing::DataParallelEndpointHeader] =
        routing::JoinHostPort(targetEndpoint->Address, targetEndpoint->Port);
    auto updated = std::make_shared<fwksched::ProfileRunResult>();
    for (const fwksched::EndpointPtr& target : decodeRunResults->TargetEndpoints) {
      fwkdl::EndpointMetadata info = *target->GetMetadata();
      info.Port = primaryPort_;
      const fwkdl::Metrics* metrics = target->GetMetrics();
      updated->TargetEndpoints.push_back(fwksched::NewEndpoint(
          info, metrics ? std::optional<fwkdl::Metrics>(*metrics) : std::nullopt, nullptr));
    }
    result->ProfileResults[decodeProfile_] = updated;
  } else {
    result->ProfileResults[decodeProfile_] = decodeRunResults;
  }
  if (auto prefill = profileResults.find(prefillProfile_);
      prefill != profileResults.end() && prefill->second != nullptr) {
    result->ProfileResults[prefillProfile_] = prefill->second;
  }
  result->PrimaryProfileName = decodeProfile_;
  return {result, std::nullopt};
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.Consumes
fwkplugin::DataDependencies PdProfileHandler::Consumes() const {
  return {{{dk_, attrprefix::PrefixCacheMatchInfo(0, 0, 0)}, {tokenizer::TokenizedPromptDataKey(), fwksched::TokenizedPrompt{}}},
          {}};
}

}  // namespace blis::router::disagg
