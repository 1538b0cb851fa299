// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099; Consumes (the data-layer DAG) is not ported; the factory takes only the name (upstream ignores its parameters and handle); no Go context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::runningrequests {

// pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorerType
inline constexpr const char* RunningRequestsSizeScorerType = "running-requests-size-scorer";

// pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorer
// Scores endpoints by running request count: the fewer running requests, the higher the score.
// An endpoint without metrics (a nil dereference upstream) is refused with std::invalid_argument.
class RunningRequestsSizeScorer final : public fwksched::Scorer, public std::enable_shared_from_this<RunningRequestsSizeScorer> {
 public:
  RunningRequestsSizeScorer() : typedName_{RunningRequestsSizeScorerType, RunningRequestsSizeScorerType} {}

  // pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorer.Category
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  // pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorer.WithName
  std::shared_ptr<RunningRequestsSizeScorer> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorer.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

 private:
  fwkplugin::TypedName typedName_;
};

// pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 NewRunningRequestsSizeScorer
inline std::shared_ptr<RunningRequestsSizeScorer> NewRunningRequestsSizeScorer() { return std::make_shared<RunningRequestsSizeScorer>(); }

// pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorerFactory
inline std::shared_ptr<fwkplugin::Plugin> RunningRequestsSizeScorerFactory(const std::string& name) {
  return NewRunningRequestsSizeScorer()->WithName(name);
}

}  // namespace blis::router::runningrequests
