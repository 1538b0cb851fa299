// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/weighted_scorer.go@71f4f099; all of it (Go's embedded
// Scorer becomes delegation).
#pragma once

#include <memory>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::scheduling {

// pkg/epp/scheduling/weighted_scorer.go@71f4f099 WeightedScorer
// A scorer with its weight; itself a Scorer delegating to the wrapped one.
class WeightedScorer final : public fwksched::Scorer {
 public:
  WeightedScorer(std::shared_ptr<fwksched::Scorer> scorer, double weight)
      : Scorer(std::move(scorer)), weight_(weight) {}

  // The methods Go's WeightedScorer promotes from its embedded fwksched.Scorer.
  fwkplugin::TypedName TypedName() const override { return Scorer->TypedName(); }
  fwksched::ScorerCategory Category() const override { return Scorer->Category(); }
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& pods) override {
    return Scorer->Score(request, pods);
  }

  // pkg/epp/scheduling/weighted_scorer.go@71f4f099 WeightedScorer.Weight
  double Weight() const { return weight_; }

  std::shared_ptr<fwksched::Scorer> Scorer;

 private:
  double weight_;
};

// pkg/epp/scheduling/weighted_scorer.go@71f4f099 NewWeightedScorer
inline std::shared_ptr<WeightedScorer> NewWeightedScorer(std::shared_ptr<fwksched::Scorer> scorer, double weight) {
  return std::make_shared<WeightedScorer>(std::move(scorer), weight);
}

}  // namespace blis::router::scheduling
