// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler.go@71f4f099 and the String of
// scheduler_config.go@71f4f099; metrics, tracing and logging are not ported.
#include "router/epp/scheduling/scheduler.h"

#include <stdexcept>

#include "router/epp/scheduling/scheduler_profile.h"

namespace blis::router::scheduling {

// pkg/epp/scheduling/scheduler.go@71f4f099 Scheduler.Schedule (with runSchedulerProfile inlined: it only
// adds a tracing span).
fwksched::Outcome<fwksched::SchedulingResult> Scheduler::Schedule(
    fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& candidateEndpoints) {
  if (request == nullptr) {
    throw std::invalid_argument("Scheduler.Schedule: a nil request is not modelled by this port (upstream panics)");
  }
  fwksched::ProfileResultMap profileRunResults;
  for (;;) {  // the next set of profiles to run, based on the request and the previous results
    fwksched::ProfileMap profiles = profileHandler_->Pick(request, profiles_, profileRunResults);
    if (profiles.empty()) break;  // the profile handler picked no profile to run
    for (const auto& [name, profile] : profiles) {
      // A failed profile's result is nil (Run returns nil with its error).
      profileRunResults[name] = profile->Run(request, candidateEndpoints).Value;
    }
  }
  if (profileRunResults.empty()) {
    return {nullptr, fwksched::PlainError("failed to run any scheduler profile for request " + request->RequestID)};
  }
  return profileHandler_->ProcessResults(request, profileRunResults);
}

// pkg/epp/scheduling/scheduler_config.go@71f4f099 SchedulerConfig.String
// Profiles render as Go's "%v" of the map: map[<name>:<profile String> ...] in name order.
std::string SchedulerConfig::String() const {
  std::string profiles;
  for (const auto& [name, profile] : profiles_) {
    if (!profiles.empty()) profiles += " ";
    const auto* sp = dynamic_cast<const SchedulerProfile*>(profile.get());
    profiles += name + ":" + (sp ? sp->String() : std::string(profile ? "?" : fwksched::nilString));
  }
  return "{ProfileHandler: " + profileHandler_->TypedName().String() + ", Profiles: map[" + profiles + "]}";
}

}  // namespace blis::router::scheduling
