// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler.go@71f4f099 (and the String of
// scheduler_config.go); metrics, tracing and logging are not ported; no Go context.
#pragma once

#include <memory>
#include <vector>

#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/scheduling/scheduler_config.h"

namespace blis::router::scheduling {

// pkg/epp/scheduling/scheduler.go@71f4f099 Scheduler
class Scheduler {
 public:
  Scheduler(std::shared_ptr<fwksched::ProfileHandler> profileHandler, fwksched::ProfileMap profiles)
      : profileHandler_(std::move(profileHandler)), profiles_(std::move(profiles)) {}

  // pkg/epp/scheduling/scheduler.go@71f4f099 Scheduler.Schedule
  // Asks the profile handler for profiles to run until it picks none, runs each picked profile (in profile
  // name order; Go iterates a map) on candidateEndpoints, then lets the handler process the results.
  // request must not be null (upstream dereferences it).
  fwksched::Outcome<fwksched::SchedulingResult> Schedule(fwksched::InferenceRequest* request,
                                                         const std::vector<fwksched::EndpointPtr>& candidateEndpoints);

 private:
  std::shared_ptr<fwksched::ProfileHandler> profileHandler_;
  fwksched::ProfileMap profiles_;
};

// pkg/epp/scheduling/scheduler.go@71f4f099 NewSchedulerWithConfig
inline std::shared_ptr<Scheduler> NewSchedulerWithConfig(const SchedulerConfig& config) {
  return std::make_shared<Scheduler>(config.profileHandler(), config.profiles());
}

}  // namespace blis::router::scheduling
