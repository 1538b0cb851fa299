// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 (the
// upstream file has no licence header; the year is its first commit's); logging is not ported, no Go context.
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::dataparallel {

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 DataParallelProfileHandlerType
inline constexpr const char* DataParallelProfileHandlerType = "data-parallel-profile-handler";

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandler
// Runs the single configured profile, then sends the request to the picked endpoint's primary port with
// the picked <ip:port> in routing::DataParallelEndpointHeader.
class ProfileHandler final : public fwksched::ProfileHandler, public std::enable_shared_from_this<ProfileHandler> {
 public:
  explicit ProfileHandler(int primaryPort)
      : typedName_{DataParallelProfileHandlerType, ""}, primaryPort_(std::to_string(primaryPort)) {}

  // pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandler.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandler.WithName
  std::shared_ptr<ProfileHandler> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }

  // pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandler.Pick
  // All profiles unless they all ran; none unless exactly one profile is configured.
  fwksched::ProfileMap Pick(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                            const fwksched::ProfileResultMap& profileResults) override;

  // pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandler.ProcessResults
  fwksched::Outcome<fwksched::SchedulingResult> ProcessResults(
      fwksched::InferenceRequest* request, const fwksched::ProfileResultMap& profileResults) override;

  // Go's unexported field, which upstream's tests read in-package.
  const std::string& primaryPort() const { return primaryPort_; }

 private:
  fwkplugin::TypedName typedName_;
  std::string primaryPort_;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 NewProfileHandler
inline std::shared_ptr<ProfileHandler> NewProfileHandler(int primaryPort) {
  return std::make_shared<ProfileHandler>(primaryPort);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler.go@71f4f099 ProfileHandlerFactory
std::shared_ptr<fwkplugin::Plugin> ProfileHandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                         fwkplugin::Handle& handle);

}  // namespace blis::router::dataparallel
