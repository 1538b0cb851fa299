// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099;
// see picker.h.
#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"

#include <algorithm>
#include <cstddef>

namespace blis::router::maxscore {

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 NewMaxScorePicker (the struct literal)
MaxScorePicker::MaxScorePicker(int maxNumOfEndpoints, RandomStream& rand)
    : typedName_{MaxScorePickerType, MaxScorePickerType}, maxNumOfEndpoints_(maxNumOfEndpoints), rand_(&rand) {}

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 NewMaxScorePicker
std::shared_ptr<MaxScorePicker> NewMaxScorePicker(int maxNumOfEndpoints, RandomStream& rand) {
  if (maxNumOfEndpoints <= 0) {
    maxNumOfEndpoints = picker::DefaultMaxNumOfEndpoints;  // on an invalid value, fall back to the default
  }
  return std::make_shared<MaxScorePicker>(maxNumOfEndpoints, rand);
}

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePickerFactory
std::shared_ptr<fwkplugin::Plugin> MaxScorePickerFactory(const std::string& name,
                                                         const std::optional<picker::PickerParameters>& parameters,
                                                         RandomStream& rand) {
  const picker::PickerParameters p = parameters.value_or(picker::PickerParameters{});
  return NewMaxScorePicker(p.MaxNumOfEndpoints, rand)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePicker.WithName
std::shared_ptr<MaxScorePicker> MaxScorePicker::WithName(const std::string& name) {
  typedName_.Name = name;
  return shared_from_this();
}

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePicker.Pick
std::shared_ptr<fwksched::ProfileRunResult> MaxScorePicker::Pick(
    std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints) {
  // Shuffle in place: a random tie break when scores are equal.
  picker::ShuffleScoredEndpoints(scoredEndpoints, *rand_);
  std::stable_sort(scoredEndpoints.begin(), scoredEndpoints.end(),
                   [](const fwksched::ScoredEndpointPtr& i, const fwksched::ScoredEndpointPtr& j) {
                     return i->Score > j->Score;  // highest score first
                   });
  // keep only the maxNumOfEndpoints highest scored endpoints
  const std::size_t n = std::min(static_cast<std::size_t>(maxNumOfEndpoints_), scoredEndpoints.size());
  auto result = std::make_shared<fwksched::ProfileRunResult>();
  result->TargetEndpoints.assign(scoredEndpoints.begin(), scoredEndpoints.begin() + static_cast<std::ptrdiff_t>(n));
  return result;
}

}  // namespace blis::router::maxscore
