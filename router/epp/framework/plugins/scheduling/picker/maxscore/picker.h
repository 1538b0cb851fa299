// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099;
// the factory takes decoded PickerParameters (JSON decoding is the config loader's); randomness from a
// RandomStream given at construction; no logging.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/picker/common.h"

namespace blis::router::maxscore {

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePickerType
inline constexpr const char* MaxScorePickerType = "max-score-picker";

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePicker
// Picks the endpoint(s) with the highest score; ties are broken at random (shuffle, then stable sort).
class MaxScorePicker final : public fwksched::Picker, public std::enable_shared_from_this<MaxScorePicker> {
 public:
  MaxScorePicker(int maxNumOfEndpoints, RandomStream& rand);

  // pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePicker.WithName
  std::shared_ptr<MaxScorePicker> WithName(const std::string& name);
  // pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePicker.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePicker.Pick
  std::shared_ptr<fwksched::ProfileRunResult> Pick(std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints) override;

 private:
  fwkplugin::TypedName typedName_;
  int maxNumOfEndpoints_;  // maximum number of endpoints to pick
  RandomStream* rand_;
};

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 NewMaxScorePicker
// maxNumOfEndpoints <= 0 falls back to picker::DefaultMaxNumOfEndpoints. rand must outlive the picker.
std::shared_ptr<MaxScorePicker> NewMaxScorePicker(int maxNumOfEndpoints, RandomStream& rand);

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePickerFactory
// parameters: the decoded parameters, std::nullopt where upstream's raw parameters are nil.
std::shared_ptr<fwkplugin::Plugin> MaxScorePickerFactory(const std::string& name,
                                                         const std::optional<picker::PickerParameters>& parameters,
                                                         RandomStream& rand);

}  // namespace blis::router::maxscore
