// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization_test.go@71f4f099.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.h"

namespace blis::router::kvcacheutilization {
namespace {

fwksched::EndpointPtr withKV(double kvCacheUsagePercent) {
  fwkdl::Metrics m;
  m.KVCacheUsagePercent = kvCacheUsagePercent;
  return fwksched::NewEndpoint(fwkdl::EndpointMetadata{}, m);
}

// Go's scores[endpoint]: 0 for an endpoint the scorer left out.
double lookup(const fwksched::ScoreMap& scores, const fwksched::EndpointPtr& e) {
  auto it = scores.find(e);
  return it == scores.end() ? 0.0 : it->second;
}

// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization_test.go@71f4f099 TestKvCacheUtilizationScorer
TEST(KVCacheUtilizationScorer, TestKvCacheUtilizationScorer) {
  struct Case {
    std::string name;
    std::vector<fwksched::EndpointPtr> endpoints;
    std::map<int, double> expectedScoresEndpoint;  // endpoint index -> expected score
  };
  const std::vector<Case> tests = {
      {"Different KV cache utilization", {withKV(0.8), withKV(0.5), withKV(0.0)}, {{0, 0.2}, {1, 0.5}, {2, 1.0}}},
      {"Same KV cache utilization", {withKV(0.6), withKV(0.6)}, {{0, 0.4}, {1, 0.4}}},
      {"Zero KV cache utilization", {withKV(0.0), withKV(0.0)}, {{0, 1.0}, {1, 1.0}}},
      {"Full KV cache utilization", {withKV(1.0), withKV(0.5)}, {{0, 0.0}, {1, 0.5}}},
  };
  for (const auto& test : tests) {
    fwksched::InferenceRequest request;
    auto scores = NewKVCacheUtilizationScorer()->Score(&request, test.endpoints);
    for (std::size_t i = 0; i < test.endpoints.size(); ++i) {
      const double expectedScore = test.expectedScoresEndpoint.at(static_cast<int>(i));
      EXPECT_NEAR(expectedScore, lookup(scores, test.endpoints[i]), 0.0001)
          << test.name << ": endpoint " << i << " should have score " << expectedScore;
    }
  }
}

}  // namespace
}  // namespace blis::router::kvcacheutilization
