// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099;
// see picker.h. Equal keys keep their input order (std::stable_sort; Go's sort.Slice leaves it unspecified).
#include "router/epp/framework/plugins/scheduling/picker/weightedrandom/picker.h"

#include <algorithm>
#include <cstddef>

#include "contracts/fmath.h"

namespace blis::router::weightedrandom {
namespace {

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 weightedScoredEndpoint
struct weightedScoredEndpoint {
  fwksched::ScoredEndpointPtr ScoredEndpoint;
  double key = 0;
};

}  // namespace

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 NewWeightedRandomPicker (the struct literal)
WeightedRandomPicker::WeightedRandomPicker(int maxNumOfEndpoints, RandomStream& rand)
    : typedName_{WeightedRandomPickerType, WeightedRandomPickerType},
      maxNumOfEndpoints_(maxNumOfEndpoints),
      rand_(&rand),
      randomPicker_(random::NewRandomPicker(maxNumOfEndpoints, rand)) {}

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 NewWeightedRandomPicker
std::shared_ptr<WeightedRandomPicker> NewWeightedRandomPicker(int maxNumOfEndpoints, RandomStream& rand) {
  if (maxNumOfEndpoints <= 0) {
    maxNumOfEndpoints = picker::DefaultMaxNumOfEndpoints;  // on an invalid value, fall back to the default
  }
  return std::make_shared<WeightedRandomPicker>(maxNumOfEndpoints, rand);
}

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPickerFactory
std::shared_ptr<fwkplugin::Plugin> WeightedRandomPickerFactory(
    const std::string& name, const std::optional<picker::PickerParameters>& parameters, RandomStream& rand) {
  const picker::PickerParameters p = parameters.value_or(picker::PickerParameters{});
  return NewWeightedRandomPicker(p.MaxNumOfEndpoints, rand)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPicker.WithName
std::shared_ptr<WeightedRandomPicker> WeightedRandomPicker::WithName(const std::string& name) {
  typedName_.Name = name;
  return shared_from_this();
}

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPicker.Pick
// One uniform01 draw per endpoint with a positive score, in input order.
std::shared_ptr<fwksched::ProfileRunResult> WeightedRandomPicker::Pick(
    std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints) {
  // No endpoint with a score > 0: the random picker runs.
  if (std::none_of(scoredEndpoints.begin(), scoredEndpoints.end(),
                   [](const fwksched::ScoredEndpointPtr& s) { return s->Score > 0; })) {
    return randomPicker_->Pick(scoredEndpoints);
  }
  // A-Res: key_i = U_i^(1/w_i)
  std::vector<weightedScoredEndpoint> weightedEndpoints;
  weightedEndpoints.reserve(scoredEndpoints.size());
  for (const auto& scoredEndpoint : scoredEndpoints) {
    if (scoredEndpoint->Score <= 0) {
      // key 0 for a zero score (effectively excludes it from selection)
      weightedEndpoints.push_back({scoredEndpoint, 0});
      continue;
    }
    double u = rand_->uniform01();  // U in (0,1)
    if (u == 0) u = 1e-10;          // upstream's guard for a zero draw (uniform01 never returns 0)
    weightedEndpoints.push_back({scoredEndpoint, fmath::pow(u, 1.0 / scoredEndpoint->Score)});
  }
  // largest keys first
  std::stable_sort(weightedEndpoints.begin(), weightedEndpoints.end(),
                   [](const weightedScoredEndpoint& a, const weightedScoredEndpoint& b) { return a.key > b.key; });
  const std::size_t selectedCount = std::min(static_cast<std::size_t>(maxNumOfEndpoints_), weightedEndpoints.size());
  auto result = std::make_shared<fwksched::ProfileRunResult>();
  result->TargetEndpoints.reserve(selectedCount);
  for (std::size_t i = 0; i < selectedCount; ++i) result->TargetEndpoints.push_back(weightedEndpoints[i].ScoredEndpoint);
  return result;
}

}  // namespace blis::router::weightedrandom
