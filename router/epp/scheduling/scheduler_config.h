// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler_config.go@71f4f099; all of it.
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::scheduling {

// pkg/epp/scheduling/scheduler_config.go@71f4f099 SchedulerConfig
class SchedulerConfig {
 public:
  SchedulerConfig(std::shared_ptr<fwksched::ProfileHandler> profileHandler, fwksched::ProfileMap profiles)
      : profileHandler_(std::move(profileHandler)), profiles_(std::move(profiles)) {}

  // pkg/epp/scheduling/scheduler_config.go@71f4f099 SchedulerConfig.String
  std::string String() const;

  const std::shared_ptr<fwksched::ProfileHandler>& profileHandler() const { return profileHandler_; }
  const fwksched::ProfileMap& profiles() const { return profiles_; }

 private:
  std::shared_ptr<fwksched::ProfileHandler> profileHandler_;
  fwksched::ProfileMap profiles_;
};

// pkg/epp/scheduling/scheduler_config.go@71f4f099 NewSchedulerConfig
inline std::shared_ptr<SchedulerConfig> NewSchedulerConfig(std::shared_ptr<fwksched::ProfileHandler> profileHandler,
                                                           fwksched::ProfileMap profiles) {
  return std::make_shared<SchedulerConfig>(std::move(profileHandler), std::move(profiles));
}

}  // namespace blis::router::scheduling
