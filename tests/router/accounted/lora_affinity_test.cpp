// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a GoogleTest transcription of
// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity_test.go@71f4f099.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.h"

namespace blis::router::loraaffinity {
namespace {

fwksched::EndpointPtr endpoint(const std::string& name, std::map<std::string, int> active,
                               std::map<std::string, int> waiting, int maxActive) {
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{"", name};
  fwkdl::Metrics m;
  m.ActiveModels = std::move(active);
  m.WaitingModels = std::move(waiting);
  m.MaxActiveModels = maxActive;
  return fwksched::NewEndpoint(meta, m, nullptr);
}

// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity_test.go@71f4f099 TestLoraAffinityScorer
TEST(LoraAffinityScorerTest, Score) {
  struct Case {
    std::string name;
    std::string targetModel;
    std::vector<fwksched::EndpointPtr> endpoints;
    std::map<std::string, double> expectedScoresEndpoint;
  };
  const std::vector<Case> tests = {
      {"Target model is active",
       "active-model-1",
       {endpoint("pod1", {{"active-model-1", 1}}, {}, 5)},
       {{"pod1", 1.0}}},
      {"Target model is waiting",
       "active-model-1",
       {endpoint("pod1", {{"active-model-2", 2}}, {{"active-model-1", 1}}, 2)},
       {{"pod1", 0.6}}},
      {"Endpoints have no space for new model",
       "active-model-1",
       {endpoint("pod1", {{"active-model-2", 2}}, {{"active-model-3", 1}}, 2), endpoint("pod2", {}, {}, 0)},
       {{"pod1", 0.0}, {"pod2", 0.0}}},
      {"Multipleendpoints with mixed active and waiting models",
       "active-model-1",
       {endpoint("pod1", {{"active-model-1", 1}}, {}, 5),
        endpoint("pod2", {{"active-model-2", 4}}, {{"active-model-1", 1}}, 5),
        endpoint("pod3", {{"active-model-2", 1}}, {}, 2),
        endpoint("pod4", {{"active-model-3", 1}}, {{"active-model-1", 1}}, 2),
        endpoint("pod5", {{"active-model-4", 1}, {"active-model-5", 1}}, {}, 2)},
       {{"pod1", 1.0}, {"pod2", 0.8}, {"pod3", 0.8}, {"pod4", 0.6}, {"pod5", 0.0}}},
      {"Empty pods slice", "modelA", {}, {}},
  };
  for (const auto& test : tests) {
    SCOPED_TRACE(test.name);
    LoraAffinityScorer scorer;
    fwksched::InferenceRequest request;
    request.TargetModel = test.targetModel;
    const fwksched::ScoreMap scores = scorer.Score(&request, test.endpoints);
    for (const auto& ep : test.endpoints) {
      const std::string& name = ep->GetMetadata()->ID.Name;
      auto want = test.expectedScoresEndpoint.find(name);
      ASSERT_NE(want, test.expectedScoresEndpoint.end()) << "Expected score not found for endpoint " << name;
      auto got = scores.find(ep);
      const double score = got == scores.end() ? 0.0 : got->second;  // Go's map read gives 0 when absent
      EXPECT_NEAR(want->second, score, 0.0001) << "Endpoint " << name << " should have score " << want->second;
    }
    EXPECT_EQ(scores.size(), test.expectedScoresEndpoint.size())
        << "Number of scored endpoints should match expected";
  }
}

}  // namespace
}  // namespace blis::router::loraaffinity
