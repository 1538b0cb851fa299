// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099;
// KVCacheUtilizationScorer.Score only (the rest is in kvcache_utilization.h).
#include "router/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.h"

#include <stdexcept>

namespace blis::router::kvcacheutilization {

// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KVCacheUtilizationScorer.Score
fwksched::ScoreMap KVCacheUtilizationScorer::Score(fwksched::InferenceRequest* /*request*/,
                                                   const std::vector<fwksched::EndpointPtr>& endpoints) {
  fwksched::ScoreMap scores;
  for (const auto& endpoint : endpoints) {
    const fwkdl::Metrics* m = endpoint->GetMetrics();
    if (m == nullptr) {
      throw std::invalid_argument("kv-cache-utilization-scorer: an endpoint without metrics is not modelled by "
                                  "this port (upstream dereferences nil metrics)");
    }
    scores[endpoint] = 1 - m->KVCacheUsagePercent;
  }
  return scores;
}

}  // namespace blis::router::kvcacheutilization
