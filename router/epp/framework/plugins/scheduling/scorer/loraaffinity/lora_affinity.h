// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099; Consumes (the data-layer DAG) is not ported; the factory takes only the name (upstream ignores its parameters and handle); no Go context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::loraaffinity {

// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorerType
inline constexpr const char* LoraAffinityScorerType = "lora-affinity-scorer";

// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorer
// Scores endpoints by whether the target model (LoRA adapter) is active, loadable or waiting on them.
// An endpoint without metrics (a nil dereference upstream) is refused with std::invalid_argument.
class LoraAffinityScorer final : public fwksched::Scorer, public std::enable_shared_from_this<LoraAffinityScorer> {
 public:
  LoraAffinityScorer() : typedName_{LoraAffinityScorerType, LoraAffinityScorerType} {}

  // pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorer.Category
  fwksched::ScorerCategory Category() const override { return fwksched::Affinity; }
  // pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorer.WithName
  std::shared_ptr<LoraAffinityScorer> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorer.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

 private:
  fwkplugin::TypedName typedName_;
};

// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 NewLoraAffinityScorer
inline std::shared_ptr<LoraAffinityScorer> NewLoraAffinityScorer() { return std::make_shared<LoraAffinityScorer>(); }

// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorerFactory
inline std::shared_ptr<fwkplugin::Plugin> LoraAffinityScorerFactory(const std::string& name) {
  return NewLoraAffinityScorer()->WithName(name);
}

}  // namespace blis::router::loraaffinity
