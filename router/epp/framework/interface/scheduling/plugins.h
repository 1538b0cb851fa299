// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/scheduling/plugins.go@71f4f099; Go interfaces
// become abstract classes deriving virtually from fwkplugin::Plugin (Filter is FilterPlugin); no Go context.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::fwksched {

// pkg/epp/framework/interface/scheduling/plugins.go@71f4f099 ScorerCategory
using ScorerCategory = std::string;
// pkg/epp/framework/interface/scheduling/plugins.go@71f4f099 Affinity, Distribution, Balance
inline const ScorerCategory Affinity = "Affinity";
inline const ScorerCategory Distribution = "Distribution";
inline const ScorerCategory Balance = "Balance";

// Profiles by name (a Go map; ordered by name here, which fixes the order the scheduler runs them in).
using ProfileMap = std::map<std::string, std::shared_ptr<SchedulerProfile>>;
// Profile results by name; a failed profile's result is nullptr.
using ProfileResultMap = std::map<std::string, std::shared_ptr<ProfileRunResult>>;
// A scorer's scores by endpoint identity (a Go map keyed by the Endpoint interface value). Ordered by
// pointer value, so callers only look endpoints up or do order-independent work over it.
using ScoreMap = std::map<EndpointPtr, double>;

// pkg/epp/framework/interface/scheduling/plugins.go@71f4f099 ProfileHandler
class ProfileHandler : public virtual fwkplugin::Plugin {
 public:
  // Selects the profiles to run, given the request and the previous runs' results.
  virtual ProfileMap Pick(InferenceRequest* request, const ProfileMap& profiles,
                          const ProfileResultMap& profileResults) = 0;
  // Handles the outcome of the profile runs after all profiles ran, naming the primary profile.
  virtual Outcome<SchedulingResult> ProcessResults(InferenceRequest* request,
                                                   const ProfileResultMap& profileResults) = 0;
};

// pkg/epp/framework/interface/scheduling/plugins.go@71f4f099 Filter
// Named FilterPlugin: C++ cannot give a class a member function of its own name (Filter.Filter).
class FilterPlugin : public virtual fwkplugin::Plugin {
 public:
  virtual std::vector<EndpointPtr> Filter(InferenceRequest* request, const std::vector<EndpointPtr>& pods) = 0;
};

// pkg/epp/framework/interface/scheduling/plugins.go@71f4f099 Scorer
// Scores in [0,1]; the profile clamps values outside it.
class Scorer : public virtual fwkplugin::Plugin {
 public:
  virtual ScorerCategory Category() const = 0;
  virtual ScoreMap Score(InferenceRequest* request, const std::vector<EndpointPtr>& pods) = 0;
};

// pkg/epp/framework/interface/scheduling/plugins.go@71f4f099 Picker
// Picks the final endpoint(s). Like Go's slice argument, scoredPods may be reordered in place.
class Picker : public virtual fwkplugin::Plugin {
 public:
  virtual std::shared_ptr<ProfileRunResult> Pick(std::vector<ScoredEndpointPtr>& scoredPods) = 0;
};

}  // namespace blis::router::fwksched
