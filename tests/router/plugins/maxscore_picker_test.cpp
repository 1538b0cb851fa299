// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/maxscore/picker_test.go@71f4f099;
// each case is also repeated over several draws of a seeded stream (the tie order is random).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router::maxscore {
namespace {

using fwksched::ScoredEndpoint;
using fwksched::ScoredEndpointPtr;

fwksched::EndpointPtr pod(const std::string& name) {
  fwkdl::EndpointMetadata meta;
  meta.ID.Name = name;
  return fwksched::NewEndpoint(meta, std::nullopt);
}

ScoredEndpointPtr scored(const fwksched::EndpointPtr& e, double score) {
  return std::make_shared<ScoredEndpoint>(e, score);
}

// cmp.Diff with cmp.Comparer(fwksched.ScoredEndpointComparer): same length, pairwise equal.
void expectSame(const std::vector<ScoredEndpointPtr>& want, const std::vector<ScoredEndpointPtr>& got,
                const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_NE(got[i], nullptr) << what;
    EXPECT_TRUE(fwksched::ScoredEndpointComparer(*want[i], *got[i]))
        << what << " at " << i << ": want " << want[i]->String() << ", got " << got[i]->String();
  }
}

std::vector<ScoredEndpointPtr> sortedByString(std::vector<ScoredEndpointPtr> v) {
  std::sort(v.begin(), v.end(), [](const ScoredEndpointPtr& a, const ScoredEndpointPtr& b) {
    return a->String() < b->String();  // a predictable order within the endpoints with equal scores
  });
  return v;
}

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker_test.go@71f4f099 TestPickMaxScorePicker
TEST(MaxScorePicker, TestPickMaxScorePicker) {
  auto endpoint1 = pod("pod1");
  auto endpoint2 = pod("pod2");
  auto endpoint3 = pod("pod3");

  struct Case {
    std::string name;
    int maxNumOfEndpoints;
    std::vector<std::pair<fwksched::EndpointPtr, double>> input;
    std::vector<std::pair<fwksched::EndpointPtr, double>> output;
    std::size_t tieBreakCandidates;  // the tie break is random: how many candidates share the max score
  };
  const std::vector<Case> tests = {
      {"Single max score", 1, {{endpoint1, 10}, {endpoint2, 25}, {endpoint3, 15}}, {{endpoint2, 25}}, 0},
      {"Multiple max scores, all are equally scored", 2, {{endpoint1, 50}, {endpoint2, 50}, {endpoint3, 30}},
       {{endpoint1, 50}, {endpoint2, 50}}, 2},
      {"Multiple results sorted by highest score, more pods than needed", 2,
       {{endpoint1, 20}, {endpoint2, 25}, {endpoint3, 30}}, {{endpoint3, 30}, {endpoint2, 25}}, 0},
      {"Multiple results sorted by highest score, less pods than needed", 4,
       {{endpoint1, 20}, {endpoint2, 25}, {endpoint3, 30}}, {{endpoint3, 30}, {endpoint2, 25}, {endpoint1, 20}}, 0},
      {"Multiple results sorted by highest score, num of pods exactly needed", 3,
       {{endpoint1, 30}, {endpoint2, 25}, {endpoint3, 30}}, {{endpoint1, 30}, {endpoint3, 30}, {endpoint2, 25}}, 2},
  };

  testing::SplitMixStream rand(20250601);
  for (const auto& test : tests) {
    auto picker = NewMaxScorePicker(test.maxNumOfEndpoints, rand);
    for (int draw = 0; draw < 32; ++draw) {
      const std::string what = test.name + " (draw " + std::to_string(draw) + ")";
      std::vector<ScoredEndpointPtr> input;
      for (const auto& [e, s] : test.input) input.push_back(scored(e, s));
      std::vector<ScoredEndpointPtr> output;
      for (const auto& [e, s] : test.output) output.push_back(scored(e, s));

      auto result = picker->Pick(input);
      ASSERT_NE(result, nullptr) << what;
      std::vector<ScoredEndpointPtr> got;
      for (const auto& e : result->TargetEndpoints) got.push_back(std::dynamic_pointer_cast<ScoredEndpoint>(e));
      ASSERT_EQ(got.size(), output.size()) << what;

      if (test.tieBreakCandidates > 0) {
        const auto n = static_cast<std::ptrdiff_t>(test.tieBreakCandidates);
        expectSame(sortedByString({output.begin(), output.begin() + n}), sortedByString({got.begin(), got.begin() + n}),
                   what);
        output.erase(output.begin(), output.begin() + n);
        got.erase(got.begin(), got.begin() + n);
      }
      expectSame(output, got, what);
    }
  }
}

}  // namespace
}  // namespace blis::router::maxscore
