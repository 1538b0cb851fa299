// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker_test.go@71f4f099; the draws come from a
// seeded test stream.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/picker/weightedrandom/picker.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router::weightedrandom {
namespace {

fwksched::EndpointPtr pod(const std::string& name) {
  fwkdl::EndpointMetadata meta;
  meta.ID.Name = name;
  return fwksched::NewEndpoint(meta, std::nullopt);
}

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker_test.go@71f4f099 TestPickWeightedRandomPicker
TEST(WeightedRandomPicker, TestPickWeightedRandomPicker) {
  constexpr int testIterations = 10000;
  constexpr double tolerance = 0.05;  // within +-5%

  auto endpoint1 = pod("pod1");
  auto endpoint2 = pod("pod2");
  auto endpoint3 = pod("pod3");
  auto endpoint4 = pod("pod4");
  auto endpoint5 = pod("pod5");

  struct Case {
    std::string name;
    std::vector<std::pair<fwksched::EndpointPtr, double>> input;
    int maxPods;  // maxNumOfEndpoints for this case
  };
  const std::vector<Case> tests = {
      {"High weight dominance test", {{endpoint1, 10}, {endpoint2, 90}}, 1},
      {"Equal weights test - A-Res uniform distribution", {{endpoint1, 100}, {endpoint2, 100}, {endpoint3, 100}}, 1},
      {"Zero weight exclusion test - A-Res edge case", {{endpoint1, 30}, {endpoint2, 0}}, 1},
      {"Multi-tier weighted test - A-Res complex distribution",
       {{endpoint1, 100}, {endpoint2, 90}, {endpoint3, 50}, {endpoint4, 30}, {endpoint5, 20}},
       1},
  };

  testing::SplitMixStream rand(11);
  for (const auto& test : tests) {
    auto picker = NewWeightedRandomPicker(test.maxPods, rand);
    std::vector<fwksched::ScoredEndpointPtr> input;
    for (const auto& [e, s] : test.input) input.push_back(std::make_shared<fwksched::ScoredEndpoint>(e, s));

    // The expected probabilities: score / total score.
    double totalScore = 0.0;
    for (const auto& p : input) totalScore += p->Score;
    std::map<std::string, double> expectedProbabilities;
    for (const auto& endpoint : input) {
      expectedProbabilities[endpoint->GetMetadata()->ID.Name] = totalScore > 0 ? endpoint->Score / totalScore : 0.0;
    }

    std::map<std::string, int> selectionCounts;
    for (const auto& endpoint : input) selectionCounts[endpoint->GetMetadata()->ID.Name] = 0;
    for (int i = 0; i < testIterations; ++i) {
      auto result = picker->Pick(input);
      ASSERT_NE(result, nullptr);
      ASSERT_FALSE(result->TargetEndpoints.empty()) << test.name;
      selectionCounts[result->TargetEndpoints[0]->GetMetadata()->ID.Name]++;
    }

    for (const auto& [endpointName, expectedProb] : expectedProbabilities) {
      const int actualCount = selectionCounts[endpointName];
      const double actualProb = static_cast<double>(actualCount) / testIterations;
      EXPECT_LE(std::fabs(actualProb - expectedProb), tolerance)
          << test.name << ": endpoint " << endpointName << " expected probability " << expectedProb << ", got "
          << actualProb << " (count " << actualCount << "/" << testIterations << ")";
    }
  }
}

}  // namespace
}  // namespace blis::router::weightedrandom
