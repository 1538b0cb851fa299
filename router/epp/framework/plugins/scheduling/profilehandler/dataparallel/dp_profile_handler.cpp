// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099; logging
// is not ported.
#include "router/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.h"

#include <stdexcept>

#include "router/common/routing/common.h"
#include "router/epp/framework/interface/plugin/decode.h"

namespace blis::router::dataparallel {

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandlerFactory
std::shared_ptr<fwkplugin::Plugin> ProfileHandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                         fwkplugin::Handle&) {
  int primaryPort = 8000;
  try {
    fwkplugin::StrictObject obj(parameters, "dataparallel.dataParallelProfileHandlerParameters");
    obj.Field("primaryPort", primaryPort);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse the parameters of the '") +
                                 DataParallelProfileHandlerType + "' profile handler - " + e.what());
  }
  if (primaryPort != 0 && (primaryPort < 1 || primaryPort > 65535)) {
    throw fwkplugin::PluginError("invalid primaryPort: must be between 1 and 65535, got " +
                                 std::to_string(primaryPort));
  }
  return NewProfileHandler(primaryPort)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandler.Pick
fwksched::ProfileMap ProfileHandler::Pick(fwksched::InferenceRequest*, const fwksched::ProfileMap& profiles,
                                          const fwksched::ProfileResultMap& profileResults) {
  if (profiles.size() == profileResults.size()) return {};  // all profiles already ran
  // Data Parallel mode requires exactly one profile (upstream logs an error otherwise).
  if (profiles.size() != 1) return {};
  return profiles;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandler.ProcessResults
fwksched::Outcome<fwksched::SchedulingResult> ProfileHandler::ProcessResults(
    fwksched::InferenceRequest* request, const fwksched::ProfileResultMap& profileResults) {
  if (profileResults.size() != 1) {
    return {nullptr, fwksched::PlainError("data parallel profile handler is intended to be used with a single "
                                          "profile, failed to process multiple profiles")};
  }
  const std::string& singleProfileName = profileResults.begin()->first;
  const std::shared_ptr<fwksched::ProfileRunResult>& profileResult = profileResults.begin()->second;
  if (profileResult == nullptr) {  // the profile failed to run
    return {nullptr, fwksched::PlainError("failed to run scheduler profile '" + singleProfileName + "'")};
  }
  if (profileResult->TargetEndpoints.empty()) {
    throw std::invalid_argument(std::string(DataParallelProfileHandlerType) +
                                ": a result without target endpoints is not modelled by this port (upstream "
                                "indexes TargetEndpoints[0] and panics)");
  }
  const fwkdl::EndpointMetadata* targetPod = profileResult->TargetEndpoints[0]->GetMetadata();
  request->Headers[routing::DataParallelEndpointHeader] = routing::JoinHostPort(targetPod->Address, targetPod->Port);
  auto newResult = std::make_shared<fwksched::ProfileRunResult>();
  for (const fwksched::EndpointPtr& target : profileResult->TargetEndpoints) {
    fwkdl::EndpointMetadata newMetadata = *target->GetMetadata();
    newMetadata.Port = primaryPort_;
    const fwkdl::Metrics* metrics = target->GetMetrics();
    newResult->TargetEndpoints.push_back(
        fwksched::NewEndpoint(newMetadata, metrics ? std::optional<fwkdl::Metrics>(*metrics) : std::nullopt, nullptr));
  }
  auto result = std::make_shared<fwksched::SchedulingResult>();
  result->ProfileResults[singleProfileName] = newResult;
  result->PrimaryProfileName = singleProfileName;
  return {result, std::nullopt};
}

}  // namespace blis::router::dataparallel
