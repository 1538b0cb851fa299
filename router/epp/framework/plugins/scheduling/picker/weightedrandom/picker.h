// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099;
// the factory takes decoded PickerParameters; randomness from a RandomStream given at construction; pow
// from contracts/fmath.h; no logging.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/picker/common.h"
#include "router/epp/framework/plugins/scheduling/picker/random/picker.h"

namespace blis::router::weightedrandom {

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPickerType
inline constexpr const char* WeightedRandomPickerType = "weighted-random-picker";

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPicker
// Weighted random sampling without replacement (A-Res: key_i = U_i^(1/w_i), the k largest keys win);
// all scores <= 0 delegates to a uniform RandomPicker.
class WeightedRandomPicker final : public fwksched::Picker,
                                   public std::enable_shared_from_this<WeightedRandomPicker> {
 public:
  WeightedRandomPicker(int maxNumOfEndpoints, RandomStream& rand);

  // pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPicker.WithName
  std::shared_ptr<WeightedRandomPicker> WithName(const std::string& name);
  // pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPicker.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPicker.Pick
  std::shared_ptr<fwksched::ProfileRunResult> Pick(std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints) override;

 private:
  fwkplugin::TypedName typedName_;
  int maxNumOfEndpoints_;
  RandomStream* rand_;
  std::shared_ptr<random::RandomPicker> randomPicker_;  // fallback for zero weights
};

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 NewWeightedRandomPicker
// maxNumOfEndpoints <= 0 falls back to picker::DefaultMaxNumOfEndpoints. rand (shared with the fallback
// RandomPicker) must outlive the picker.
std::shared_ptr<WeightedRandomPicker> NewWeightedRandomPicker(int maxNumOfEndpoints, RandomStream& rand);

// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPickerFactory
std::shared_ptr<fwkplugin::Plugin> WeightedRandomPickerFactory(
    const std::string& name, const std::optional<picker::PickerParameters>& parameters, RandomStream& rand);

}  // namespace blis::router::weightedrandom
