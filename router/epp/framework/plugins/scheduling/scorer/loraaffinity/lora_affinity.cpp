// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099;
// LoraAffinityScorer.Score only (the rest is in lora_affinity.h).
#include "router/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.h"

#include <cstddef>
#include <stdexcept>

namespace blis::router::loraaffinity {

// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorer.Score
// 1.0 where the target model is active; 0.8 where another model fits (active + waiting < MaxActiveModels);
// 0.6 where it is waiting; else 0.
fwksched::ScoreMap LoraAffinityScorer::Score(fwksched::InferenceRequest* request,
                                             const std::vector<fwksched::EndpointPtr>& endpoints) {
  if (request == nullptr) {
    throw std::invalid_argument("lora-affinity-scorer: a nil request is not modelled by this port "
                                "(upstream dereferences it)");
  }
  fwksched::ScoreMap scores;
  for (const auto& endpoint : endpoints) {
    const fwkdl::Metrics* m = endpoint->GetMetrics();
    if (m == nullptr) {
      throw std::invalid_argument("lora-affinity-scorer: an endpoint without metrics is not modelled by this "
                                  "port (upstream dereferences nil metrics)");
    }
    const bool active = m->ActiveModels.count(request->TargetModel) > 0;
    const bool waiting = m->WaitingModels.count(request->TargetModel) > 0;
    if (active) {
      scores[endpoint] = 1.0;
    } else if (static_cast<long long>(m->ActiveModels.size() + m->WaitingModels.size()) < m->MaxActiveModels) {
      scores[endpoint] = 0.8;
    } else if (waiting) {
      scores[endpoint] = 0.6;
    } else {
      scores[endpoint] = 0.0;
    }
  }
  return scores;
}

}  // namespace blis::router::loraaffinity
