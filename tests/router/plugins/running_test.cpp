// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/runningrequests/running_test.go@71f4f099.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.h"

namespace blis::router::runningrequests {
namespace {

fwksched::EndpointPtr withRunning(int runningRequestsSize) {
  fwkdl::Metrics m;
  m.RunningRequestsSize = runningRequestsSize;
  return fwksched::NewEndpoint(fwkdl::EndpointMetadata{}, m);
}

// Go's scores[endpoint]: 0 for an endpoint the scorer left out.
double lookup(const fwksched::ScoreMap& scores, const fwksched::EndpointPtr& e) {
  auto it = scores.find(e);
  return it == scores.end() ? 0.0 : it->second;
}

// pkg/epp/framework/plugins/scheduling/scorer/runningrequests/running_test.go@71f4f099 TestRunningRequestsSizeScorer
TEST(RunningRequestsSizeScorer, TestRunningRequestsSizeScorer) {
  struct Case {
    std::string name;
    std::vector<fwksched::EndpointPtr> endpoints;
    std::map<int, double> expectedScoresPod;  // pod index -> expected score
  };
  const std::vector<Case> tests = {
      {"Different running queue sizes", {withRunning(10), withRunning(5), withRunning(0)}, {{0, 0.0}, {1, 0.5}, {2, 1.0}}},
      {"Same running queue sizes", {withRunning(5), withRunning(5)}, {{0, 1.0}, {1, 1.0}}},
      {"Zero running queue sizes", {withRunning(0), withRunning(0)}, {{0, 1.0}, {1, 1.0}}},
  };
  RunningRequestsSizeScorer scorer;
  for (const auto& test : tests) {
    fwksched::InferenceRequest request;
    auto scores = scorer.Score(&request, test.endpoints);
    for (std::size_t i = 0; i < test.endpoints.size(); ++i) {
      const double expectedScore = test.expectedScoresPod.at(static_cast<int>(i));
      EXPECT_NEAR(expectedScore, lookup(scores, test.endpoints[i]), 0.0001)
          << test.name << ": pod " << i << " should have score " << expectedScore;
    }
  }
}

}  // namespace
}  // namespace blis::router::runningrequests
