// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler_profile.go@71f4f099; tracing, metrics and
// logging are not ported; the picker's candidates keep the filtered order instead of Go's map order.
#include "router/epp/scheduling/scheduler_profile.h"

#include <cstddef>
#include <map>
#include <stdexcept>

namespace blis::router::scheduling {

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 NewSchedulerProfile
std::shared_ptr<SchedulerProfile> NewSchedulerProfile() { return std::make_shared<SchedulerProfile>(); }

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.WithFilters
std::shared_ptr<SchedulerProfile> SchedulerProfile::WithFilters(
    std::vector<std::shared_ptr<fwksched::FilterPlugin>> filters) {
  filters_ = std::move(filters);
  return shared_from_this();
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.WithScorers
std::shared_ptr<SchedulerProfile> SchedulerProfile::WithScorers(std::vector<std::shared_ptr<WeightedScorer>> scorers) {
  scorers_ = std::move(scorers);
  return shared_from_this();
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.WithPicker
std::shared_ptr<SchedulerProfile> SchedulerProfile::WithPicker(std::shared_ptr<fwksched::Picker> picker) {
  picker_ = std::move(picker);
  return shared_from_this();
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.AddPlugins
std::optional<fwksched::GoError> SchedulerProfile::AddPlugins(
    const std::vector<std::shared_ptr<fwkplugin::Plugin>>& pluginObjects) {
  for (std::shared_ptr<fwkplugin::Plugin> plugin : pluginObjects) {
    if (auto weightedScorer = std::dynamic_pointer_cast<WeightedScorer>(plugin)) {
      scorers_.push_back(weightedScorer);
      plugin = std::dynamic_pointer_cast<fwkplugin::Plugin>(weightedScorer->Scorer);  // unwrap the plugin
    } else if (auto scorer = std::dynamic_pointer_cast<fwksched::Scorer>(plugin)) {
      return fwksched::PlainError("failed to register scorer '" + scorer->TypedName().String() +
                                  "' without a weight. follow function documentation to register a scorer");
    }
    if (auto filter = std::dynamic_pointer_cast<fwksched::FilterPlugin>(plugin)) {
      filters_.push_back(filter);
    }
    if (auto picker = std::dynamic_pointer_cast<fwksched::Picker>(plugin)) {
      if (picker_ != nullptr) {
        return fwksched::PlainError("failed to set '" + picker->TypedName().String() +
                                    "' as picker, already have a registered picker plugin '" +
                                    picker_->TypedName().String() + "'");
      }
      picker_ = picker;
    }
  }
  return std::nullopt;
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.String
// Go's "%f" is six decimals, as std::to_string(double) gives. A nil picker (a panic upstream) prints <nil>.
std::string SchedulerProfile::String() const {
  std::string filterNames;
  for (std::size_t i = 0; i < filters_.size(); ++i) {
    if (i > 0) filterNames += ", ";
    filterNames += filters_[i]->TypedName().String();
  }
  std::string scorerNames;
  for (std::size_t i = 0; i < scorers_.size(); ++i) {
    if (i > 0) scorerNames += ", ";
    scorerNames += scorers_[i]->TypedName().String() + ": " + std::to_string(scorers_[i]->Weight());
  }
  return "{Filters: [" + filterNames + "], Scorers: [" + scorerNames +
         "], Picker: " + (picker_ ? picker_->TypedName().String() : std::string(fwksched::nilString)) + "}";
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.Run
fwksched::Outcome<fwksched::ProfileRunResult> SchedulerProfile::Run(
    fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& candidateEndpoints) {
  std::vector<fwksched::EndpointPtr> endpoints = runFilterPlugins(request, candidateEndpoints);
  if (endpoints.empty()) {
    return {nullptr, fwksched::InferenceError("Internal", "no endpoints available for the given request")};
  }
  // if we got here, there is at least one endpoint to score
  std::vector<fwksched::ScoredEndpoint> weightedScorePerEndpoint = runScorerPlugins(request, endpoints);
  return {runPickerPlugin(request, weightedScorePerEndpoint), std::nullopt};
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.runFilterPlugins
// Each filter gets the previous filter's output; the chain stops once no endpoint is left.
std::vector<fwksched::EndpointPtr> SchedulerProfile::runFilterPlugins(
    fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::vector<fwksched::EndpointPtr> filteredEndpoints = endpoints;
  for (const auto& filter : filters_) {
    filteredEndpoints = filter->Filter(request, filteredEndpoints);
    if (filteredEndpoints.empty()) break;
  }
  return filteredEndpoints;
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.runScorerPlugins
// One entry per distinct endpoint (first occurrence order), starting at 0; each scorer adds
// enforceScoreRange(score) * weight, scorers in their registered order.
std::vector<fwksched::ScoredEndpoint> SchedulerProfile::runScorerPlugins(
    fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::vector<fwksched::ScoredEndpoint> weighted;
  std::map<fwksched::EndpointPtr, std::size_t> index;  // lookups only
  for (const auto& endpoint : endpoints) {
    if (index.emplace(endpoint, weighted.size()).second) weighted.emplace_back(endpoint, 0.0);
  }
  for (const auto& scorer : scorers_) {
    fwksched::ScoreMap scores = scorer->Score(request, endpoints);
    // Each endpoint's sum is independent of the others, so the map's (pointer) order does not matter.
    for (const auto& [endpoint, score] : scores) {
      auto it = index.find(endpoint);
      if (it == index.end()) {
        // Upstream would add the stranger as a new picker candidate in random map order.
        throw std::invalid_argument("scorer '" + scorer->TypedName().String() +
                                    "' scored an endpoint that is not a candidate: a score for an endpoint outside "
                                    "the candidates is not modelled by this port: its order would be random");
      }
      weighted[it->second].Score += enforceScoreRange(score) * scorer->Weight();
    }
  }
  return weighted;
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.runPickerPlugin
std::shared_ptr<fwksched::ProfileRunResult> SchedulerProfile::runPickerPlugin(
    fwksched::InferenceRequest* /*request*/, const std::vector<fwksched::ScoredEndpoint>& weightedScorePerEndpoint) {
  if (picker_ == nullptr) {
    throw std::invalid_argument("scheduler profile has no picker: running a profile without a picker is not "
                                "modelled by this port (a nil-pointer panic upstream)");
  }
  std::vector<fwksched::ScoredEndpointPtr> scoredEndpoints;
  scoredEndpoints.reserve(weightedScorePerEndpoint.size());
  for (const auto& scored : weightedScorePerEndpoint) {
    scoredEndpoints.push_back(std::make_shared<fwksched::ScoredEndpoint>(scored));
  }
  std::shared_ptr<fwksched::ProfileRunResult> result = picker_->Pick(scoredEndpoints);
  if (result != nullptr) {
    // The complete candidate set, which pickers narrow to their selection.
    result->ScoredCandidates = weightedScorePerEndpoint;
  }
  return result;
}

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 enforceScoreRange
double enforceScoreRange(double score) {
  if (score < 0) return 0;
  if (score > 1) return 1;
  return score;
}

}  // namespace blis::router::scheduling
