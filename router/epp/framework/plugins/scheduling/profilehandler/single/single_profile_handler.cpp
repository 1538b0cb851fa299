// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099; see the header.
#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"

namespace blis::router::single {

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 NewSingleProfileHandler
std::shared_ptr<SingleProfileHandler> NewSingleProfileHandler() { return std::make_shared<SingleProfileHandler>(); }

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandlerFactory
std::shared_ptr<fwkplugin::Plugin> SingleProfileHandlerFactory(const std::string& name) {
  return NewSingleProfileHandler()->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler.WithName
std::shared_ptr<SingleProfileHandler> SingleProfileHandler::WithName(const std::string& name) {
  typedName_.Name = name;
  return shared_from_this();
}

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler.Pick
fwksched::ProfileMap SingleProfileHandler::Pick(fwksched::InferenceRequest* /*request*/,
                                                const fwksched::ProfileMap& profiles,
                                                const fwksched::ProfileResultMap& profileResults) {
  if (profiles.size() == profileResults.size()) {  // all profiles have been executed already in a previous call
    return {};
  }
  return profiles;  // all profiles
}

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler.ProcessResults
fwksched::Outcome<fwksched::SchedulingResult> SingleProfileHandler::ProcessResults(
    fwksched::InferenceRequest* /*request*/, const fwksched::ProfileResultMap& profileResults) {
  if (profileResults.size() != 1) {
    return {nullptr, fwksched::PlainError("single profile handler is intended to be used with a single profile, "
                                          "failed to process multiple profiles")};
  }
  const auto& [singleProfileName, singleResult] = *profileResults.begin();
  if (singleResult == nullptr) {  // there was an error while running the profile
    return {nullptr, fwksched::PlainError("failed to run scheduler profile '" + singleProfileName + "'")};
  }
  auto result = std::make_shared<fwksched::SchedulingResult>();
  result->ProfileResults = profileResults;
  result->PrimaryProfileName = singleProfileName;
  return {result, std::nullopt};
}

}  // namespace blis::router::single
