// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099;
// all of it but logging; no Go context. (The upstream file has no licence header: the copyright line names
// the llm-d Authors and the year the file was added, 2025.)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::loadaware {

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 LoadAwareType
inline constexpr const char* LoadAwareType = "load-aware-scorer";
// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 QueueThresholdDefault
inline constexpr int QueueThresholdDefault = 128;

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 loadAwareParameters
struct loadAwareParameters {
  int Threshold = QueueThresholdDefault;
};

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 LoadAware
// Scores by waiting-queue size: 0.5 for an empty queue, falling linearly to 0 at the queue threshold.
// An endpoint without metrics (a nil dereference upstream) is refused with std::invalid_argument.
class LoadAware final : public fwksched::Scorer, public std::enable_shared_from_this<LoadAware> {
 public:
  explicit LoadAware(double queueThreshold) : typedName_{LoadAwareType, ""}, queueThreshold_(queueThreshold) {}

  // pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 LoadAware.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 LoadAware.WithName
  std::shared_ptr<LoadAware> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 LoadAware.Category
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  // pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 LoadAware.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

  double queueThreshold() const { return queueThreshold_; }

 private:
  fwkplugin::TypedName typedName_;
  double queueThreshold_;
};

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 NewLoadAware
// A non-positive threshold falls back to QueueThresholdDefault.
std::shared_ptr<LoadAware> NewLoadAware(int queueThreshold);

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle);

}  // namespace blis::router::loadaware
