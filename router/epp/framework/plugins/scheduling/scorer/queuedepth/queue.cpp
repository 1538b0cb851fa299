// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099;
// QueueScorer.Score only (the rest is in queue.h).
#include "router/epp/framework/plugins/scheduling/scorer/queuedepth/queue.h"

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace blis::router::queuedepth {
namespace {

// Original to BLIS: the endpoint's metrics, refusing an endpoint without them (Go would dereference nil).
const fwkdl::Metrics& metricsOf(const fwksched::EndpointPtr& endpoint) {
  const fwkdl::Metrics* m = endpoint->GetMetrics();
  if (m == nullptr) {
    throw std::invalid_argument("queue-scorer: an endpoint without metrics is not modelled by this port "
                                "(upstream dereferences nil metrics)");
  }
  return *m;
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorer.Score
// (max - size) / (max - min) over the endpoints' WaitingQueueSize; 1.0 for all when max == min.
fwksched::ScoreMap QueueScorer::Score(fwksched::InferenceRequest* /*request*/,
                                      const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::int64_t minQueueSize = std::numeric_limits<std::int64_t>::max();
  std::int64_t maxQueueSize = std::numeric_limits<std::int64_t>::min();
  for (const auto& endpoint : endpoints) {
    const std::int64_t queueSize = metricsOf(endpoint).WaitingQueueSize;
    if (queueSize < minQueueSize) minQueueSize = queueSize;
    if (queueSize > maxQueueSize) maxQueueSize = queueSize;
  }
  // Longer queue gets a lower score.
  auto endpointScoreFunc = [&](const fwksched::EndpointPtr& endpoint) {
    if (maxQueueSize == minQueueSize) return 1.0;  // all the same queue size: a neutral score
    return static_cast<double>(maxQueueSize - metricsOf(endpoint).WaitingQueueSize) /
           static_cast<double>(maxQueueSize - minQueueSize);
  };
  fwksched::ScoreMap scores;
  for (const auto& endpoint : endpoints) scores[endpoint] = endpointScoreFunc(endpoint);
  return scores;
}

}  // namespace blis::router::queuedepth
