// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue_test.go@71f4f099.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/scorer/queuedepth/queue.h"

namespace blis::router::queuedepth {
namespace {

fwksched::EndpointPtr withQueue(int waitingQueueSize) {
  fwkdl::Metrics m;
  m.WaitingQueueSize = waitingQueueSize;
  return fwksched::NewEndpoint(fwkdl::EndpointMetadata{}, m);
}

// Go's scores[endpoint]: 0 for an endpoint the scorer left out.
double lookup(const fwksched::ScoreMap& scores, const fwksched::EndpointPtr& e) {
  auto it = scores.find(e);
  return it == scores.end() ? 0.0 : it->second;
}

// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue_test.go@71f4f099 TestQueueScorer
TEST(QueueScorer, TestQueueScorer) {
  struct Case {
    std::string name;
    std::vector<fwksched::EndpointPtr> endpoints;
    std::map<int, double> expectedScoresEndpoint;  // endpoint index -> expected score
  };
  const std::vector<Case> tests = {
      {"Different queue sizes", {withQueue(10), withQueue(5), withQueue(0)}, {{0, 0.0}, {1, 0.5}, {2, 1.0}}},
      {"Same queue sizes", {withQueue(5), withQueue(5)}, {{0, 1.0}, {1, 1.0}}},
      {"Zero queue sizes", {withQueue(0), withQueue(0)}, {{0, 1.0}, {1, 1.0}}},
  };
  QueueScorer scorer;
  for (const auto& test : tests) {
    fwksched::InferenceRequest request;
    auto scores = scorer.Score(&request, test.endpoints);
    for (std::size_t i = 0; i < test.endpoints.size(); ++i) {
      const double expectedScore = test.expectedScoresEndpoint.at(static_cast<int>(i));
      EXPECT_NEAR(expectedScore, lookup(scores, test.endpoints[i]), 0.0001)
          << test.name << ": pod " << i << " should have score " << expectedScore;
    }
  }
}

}  // namespace
}  // namespace blis::router::queuedepth
