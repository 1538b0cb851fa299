// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099;
// see picker.h.
#include "router/epp/framework/plugins/scheduling/picker/random/picker.h"

#include <algorithm>
#include <cstddef>

namespace blis::router::random {

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 NewRandomPicker (the struct literal)
RandomPicker::RandomPicker(int maxNumOfEndpoints, RandomStream& rand)
    : typedName_{RandomPickerType, RandomPickerType}, maxNumOfEndpoints_(maxNumOfEndpoints), rand_(&rand) {}

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 NewRandomPicker
std::shared_ptr<RandomPicker> NewRandomPicker(int maxNumOfEndpoints, RandomStream& rand) {
  if (maxNumOfEndpoints <= 0) {
    maxNumOfEndpoints = picker::DefaultMaxNumOfEndpoints;  // on an invalid value, fall back to the default
  }
  return std::make_shared<RandomPicker>(maxNumOfEndpoints, rand);
}

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPickerFactory
std::shared_ptr<fwkplugin::Plugin> RandomPickerFactory(const std::string& name,
                                                       const std::optional<picker::PickerParameters>& parameters,
                                                       RandomStream& rand) {
  const picker::PickerParameters p = parameters.value_or(picker::PickerParameters{});
  return NewRandomPicker(p.MaxNumOfEndpoints, rand)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPicker.WithName
std::shared_ptr<RandomPicker> RandomPicker::WithName(const std::string& name) {
  typedName_.Name = name;
  return shared_from_this();
}

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPicker.Pick
std::shared_ptr<fwksched::ProfileRunResult> RandomPicker::Pick(std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints) {
  // Shuffle for a uniform random selection.
  picker::ShuffleScoredEndpoints(scoredEndpoints, *rand_);
  const std::size_t n = std::min(static_cast<std::size_t>(maxNumOfEndpoints_), scoredEndpoints.size());
  auto result = std::make_shared<fwksched::ProfileRunResult>();
  result->TargetEndpoints.assign(scoredEndpoints.begin(), scoredEndpoints.begin() + static_cast<std::ptrdiff_t>(n));
  return result;
}

}  // namespace blis::router::random
