// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/random/picker_test.go@71f4f099;
// the draws come from a seeded test stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/picker/random/picker.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router::random {
namespace {

fwksched::EndpointPtr pod(const std::string& name) {
  fwkdl::EndpointMetadata meta;
  meta.ID.Name = name;
  return fwksched::NewEndpoint(meta, std::nullopt);
}

// pkg/epp/framework/plugins/scheduling/picker/random/picker_test.go@71f4f099 TestPickRandomPicker
TEST(RandomPicker, TestPickRandomPicker) {
  constexpr int testIterations = 10000;
  constexpr double tolerance = 0.05;  // within +-5%

  auto endpoint1 = pod("pod1");
  auto endpoint2 = pod("pod2");
  auto endpoint3 = pod("pod3");

  struct Case {
    std::string name;
    int maxNumOfEndpoints;
    std::vector<std::pair<fwksched::EndpointPtr, double>> input;
    std::size_t numPods;  // expected number of returned endpoints
  };
  const std::vector<Case> tests = {
      {"Single endpoint returned from multiple candidates", 1, {{endpoint1, 10}, {endpoint2, 20}, {endpoint3, 30}}, 1},
      {"Multiple endpoints returned, more candidates than needed", 2,
       {{endpoint1, 10}, {endpoint2, 20}, {endpoint3, 30}}, 2},
      {"Fewer candidates than maxNumOfEndpoints", 5, {{endpoint1, 10}, {endpoint2, 20}}, 2},
      {"Exact number of candidates as maxNumOfEndpoints", 3, {{endpoint1, 10}, {endpoint2, 20}, {endpoint3, 30}}, 3},
  };

  testing::SplitMixStream rand(7);
  for (const auto& test : tests) {
    auto picker = NewRandomPicker(test.maxNumOfEndpoints, rand);
    std::vector<fwksched::ScoredEndpointPtr> input;
    for (const auto& [e, s] : test.input) input.push_back(std::make_shared<fwksched::ScoredEndpoint>(e, s));

    // The correct number of endpoints.
    auto result = picker->Pick(input);
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(result->TargetEndpoints.size(), test.numPods) << test.name;

    // A uniform distribution: each endpoint's selection probability is min(numPods/numCandidates, 1),
    // whatever the scores.
    std::map<std::string, int> selectionCounts;
    for (const auto& ep : input) selectionCounts[ep->GetMetadata()->ID.Name] = 0;
    for (int i = 0; i < testIterations; ++i) {
      auto res = picker->Pick(input);
      std::set<std::string> seen;
      for (const auto& ep : res->TargetEndpoints) {
        const std::string& name = ep->GetMetadata()->ID.Name;
        selectionCounts[name]++;  // a name outside the candidates gets a count and fails below
        EXPECT_TRUE(seen.insert(name).second) << test.name << ": " << name << " picked twice";
      }
    }
    EXPECT_EQ(selectionCounts.size(), input.size()) << test.name << ": picked an endpoint that is not a candidate";

    const double expectedProb =
        std::min(static_cast<double>(test.numPods) / static_cast<double>(test.input.size()), 1.0);
    for (const auto& [name, count] : selectionCounts) {
      const double actualProb = static_cast<double>(count) / testIterations;
      EXPECT_LE(std::fabs(actualProb - expectedProb), tolerance)
          << test.name << ": endpoint " << name << " expected probability " << expectedProb << ", got "
          << actualProb << " (count " << count << "/" << testIterations << ")";
    }
  }
}

}  // namespace
}  // namespace blis::router::random
