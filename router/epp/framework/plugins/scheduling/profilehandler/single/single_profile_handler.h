// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099; the
// factory takes only the name (upstream ignores its parameters and handle); no Go context.
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::single {

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandlerType
inline constexpr const char* SingleProfileHandlerType = "single-profile-handler";

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler
// Handles a single profile, which is always the primary profile.
class SingleProfileHandler final : public fwksched::ProfileHandler,
                                   public std::enable_shared_from_this<SingleProfileHandler> {
 public:
  SingleProfileHandler() : typedName_{SingleProfileHandlerType, SingleProfileHandlerType} {}

  // pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler.WithName
  std::shared_ptr<SingleProfileHandler> WithName(const std::string& name);

  // pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler.Pick
  // All profiles, unless every profile already has a result.
  fwksched::ProfileMap Pick(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                            const fwksched::ProfileResultMap& profileResults) override;

  // pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandler.ProcessResults
  fwksched::Outcome<fwksched::SchedulingResult> ProcessResults(
      fwksched::InferenceRequest* request, const fwksched::ProfileResultMap& profileResults) override;

 private:
  fwkplugin::TypedName typedName_;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 NewSingleProfileHandler
std::shared_ptr<SingleProfileHandler> NewSingleProfileHandler();

// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandlerFactory
std::shared_ptr<fwkplugin::Plugin> SingleProfileHandlerFactory(const std::string& name);

}  // namespace blis::router::single
