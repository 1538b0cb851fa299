// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler_profile.go@71f4f099; tracing, metrics and
// logging (runScorer's spans, requestSpanAttributes, topScoredEndpoints) are not ported; no Go context.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/scheduling/weighted_scorer.h"

namespace blis::router::scheduling {

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile
// A profile: filters, weighted scorers and one picker, run in that order.
class SchedulerProfile final : public fwksched::SchedulerProfile,
                               public std::enable_shared_from_this<SchedulerProfile> {
 public:
  // pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.WithFilters (replaces the filters)
  std::shared_ptr<SchedulerProfile> WithFilters(std::vector<std::shared_ptr<fwksched::FilterPlugin>> filters);
  // pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.WithScorers (replaces the scorers)
  std::shared_ptr<SchedulerProfile> WithScorers(std::vector<std::shared_ptr<WeightedScorer>> scorers);
  // pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.WithPicker (replaces the picker)
  std::shared_ptr<SchedulerProfile> WithPicker(std::shared_ptr<fwksched::Picker> picker);

  // pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.AddPlugins
  // Registers each plugin under every scheduler interface it implements; a Scorer must come wrapped in a
  // WeightedScorer. Returns upstream's error (std::nullopt for nil).
  std::optional<fwksched::GoError> AddPlugins(const std::vector<std::shared_ptr<fwkplugin::Plugin>>& pluginObjects);

  // pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.String
  std::string String() const;

  // pkg/epp/scheduling/scheduler_profile.go@71f4f099 SchedulerProfile.Run
  // Filters, then the weighted scorers (sum of weight * clamped score), then the picker. The picker sees the
  // scored endpoints in the order the filters returned them (Go iterates a map: random order).
  fwksched::Outcome<fwksched::ProfileRunResult> Run(
      fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& candidateEndpoints) override;

  // The registered plugins (Go's unexported fields, which upstream's tests read in-package).
  const std::vector<std::shared_ptr<fwksched::FilterPlugin>>& filters() const { return filters_; }
  const std::vector<std::shared_ptr<WeightedScorer>>& scorers() const { return scorers_; }
  const std::shared_ptr<fwksched::Picker>& picker() const { return picker_; }

 private:
  std::vector<fwksched::EndpointPtr> runFilterPlugins(fwksched::InferenceRequest* request,
                                                      const std::vector<fwksched::EndpointPtr>& endpoints);
  std::vector<fwksched::ScoredEndpoint> runScorerPlugins(fwksched::InferenceRequest* request,
                                                         const std::vector<fwksched::EndpointPtr>& endpoints);
  std::shared_ptr<fwksched::ProfileRunResult> runPickerPlugin(
      fwksched::InferenceRequest* request, const std::vector<fwksched::ScoredEndpoint>& weightedScorePerEndpoint);

  std::vector<std::shared_ptr<fwksched::FilterPlugin>> filters_;
  std::vector<std::shared_ptr<WeightedScorer>> scorers_;
  std::shared_ptr<fwksched::Picker> picker_;  // nullptr until set: a profile has one picker
};

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 NewSchedulerProfile
std::shared_ptr<SchedulerProfile> NewSchedulerProfile();

// pkg/epp/scheduling/scheduler_profile.go@71f4f099 enforceScoreRange
// Clamps a score to [0, 1].
double enforceScoreRange(double score);

}  // namespace blis::router::scheduling
