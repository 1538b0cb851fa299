// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099;
// the factory takes decoded PickerParameters; randomness from a RandomStream given at construction; no
// logging.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/picker/common.h"

namespace blis::router::random {

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPickerType
inline constexpr const char* RandomPickerType = "random-picker";

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPicker
// Picks endpoint(s) uniformly at random, ignoring scores.
class RandomPicker final : public fwksched::Picker, public std::enable_shared_from_this<RandomPicker> {
 public:
  RandomPicker(int maxNumOfEndpoints, RandomStream& rand);

  // pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPicker.WithName
  std::shared_ptr<RandomPicker> WithName(const std::string& name);
  // pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPicker.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPicker.Pick
  std::shared_ptr<fwksched::ProfileRunResult> Pick(std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints) override;

 private:
  fwkplugin::TypedName typedName_;
  int maxNumOfEndpoints_;
  RandomStream* rand_;
};

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 NewRandomPicker
// maxNumOfEndpoints <= 0 falls back to picker::DefaultMaxNumOfEndpoints. rand must outlive the picker.
std::shared_ptr<RandomPicker> NewRandomPicker(int maxNumOfEndpoints, RandomStream& rand);

// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPickerFactory
std::shared_ptr<fwkplugin::Plugin> RandomPickerFactory(const std::string& name,
                                                       const std::optional<picker::PickerParameters>& parameters,
                                                       RandomStream& rand);

}  // namespace blis::router::random
