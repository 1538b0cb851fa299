// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of the test plugins of pkg/epp/scheduling/scheduler_profile_test.go@71f4f099
// (testPlugin, orderTrackingFilter, countingFilter, filterOnlyPlugin, findEndpoints).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::scheduling::testplugins {

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 findEndpoints
inline std::vector<fwksched::EndpointPtr> findEndpoints(const std::vector<fwksched::EndpointPtr>& endpoints,
                                                        const std::vector<fwkdl::NamespacedName>& names) {
  std::vector<fwksched::EndpointPtr> res;
  for (const auto& endpoint : endpoints) {
    for (const auto& name : names) {
      if (endpoint->GetMetadata()->ID.String() == name.String()) res.push_back(endpoint);
    }
  }
  return res;
}

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 testPlugin
// A Filter, Scorer and Picker at once, counting its calls. Its TypedName is left empty, as upstream's is.
class testPlugin final : public fwksched::FilterPlugin, public fwksched::Scorer, public fwksched::Picker {
 public:
  fwkplugin::TypedName typedName;
  std::string TypeRes;
  int ScoreCallCount = 0;
  int NumOfScoredEndpoints = 0;
  double ScoreRes = 0;
  int FilterCallCount = 0;
  std::vector<fwkdl::NamespacedName> FilterRes;
  int PickCallCount = 0;
  int NumOfPickerCandidates = 0;
  fwkdl::NamespacedName PickRes;
  double WinnerEndpointScore = 0;

  fwkplugin::TypedName TypedName() const override { return typedName; }
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }

  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest*,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override {
    FilterCallCount++;
    return findEndpoints(endpoints, FilterRes);
  }

  fwksched::ScoreMap Score(fwksched::InferenceRequest*, const std::vector<fwksched::EndpointPtr>& endpoints) override {
    ScoreCallCount++;
    fwksched::ScoreMap scoredEndpoints;
    for (const auto& endpoint : endpoints) scoredEndpoints[endpoint] += ScoreRes;
    NumOfScoredEndpoints = static_cast<int>(scoredEndpoints.size());
    return scoredEndpoints;
  }

  std::shared_ptr<fwksched::ProfileRunResult> Pick(std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints) override {
    PickCallCount++;
    NumOfPickerCandidates = static_cast<int>(scoredEndpoints.size());
    auto result = std::make_shared<fwksched::ProfileRunResult>();
    for (const auto& scoredEndpoint : scoredEndpoints) {
      if (scoredEndpoint->GetMetadata()->ID.String() == PickRes.String()) {
        result->TargetEndpoints.push_back(scoredEndpoint->Endpoint);
        WinnerEndpointScore = scoredEndpoint->Score;
      }
    }
    return result;
  }

  void reset() {
    FilterCallCount = 0;
    ScoreCallCount = 0;
    NumOfScoredEndpoints = 0;
    PickCallCount = 0;
    NumOfPickerCandidates = 0;
  }
};

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 orderTrackingFilter
class orderTrackingFilter final : public fwksched::FilterPlugin {
 public:
  orderTrackingFilter(std::string name, std::vector<std::string>* executionOrder)
      : name_(std::move(name)), executionOrder_(executionOrder) {}
  fwkplugin::TypedName TypedName() const override { return {name_, name_}; }
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest*,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override {
    executionOrder_->push_back(name_);
    return endpoints;  // pass-through
  }

 private:
  std::string name_;
  std::vector<std::string>* executionOrder_;
};

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 countingFilter
class countingFilter final : public fwksched::FilterPlugin {
 public:
  countingFilter(std::string name, int* receivedCount) : name_(std::move(name)), receivedCount_(receivedCount) {}
  fwkplugin::TypedName TypedName() const override { return {name_, name_}; }
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest*,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override {
    *receivedCount_ = static_cast<int>(endpoints.size());
    return endpoints;  // pass-through
  }

 private:
  std::string name_;
  int* receivedCount_;
};

// pkg/epp/scheduling/scheduler_profile_test.go@71f4f099 filterOnlyPlugin
class filterOnlyPlugin final : public fwksched::FilterPlugin {
 public:
  explicit filterOnlyPlugin(fwkplugin::TypedName typedName) : typedName_(std::move(typedName)) {}
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest*,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override {
    return endpoints;
  }

 private:
  fwkplugin::TypedName typedName_;
};

inline fwksched::EndpointPtr pod(const std::string& name) {
  fwkdl::EndpointMetadata meta;
  meta.ID.Name = name;
  return fwksched::NewEndpoint(meta, std::nullopt);
}

inline std::shared_ptr<testPlugin> makeTestPlugin(const std::string& typeRes) {
  auto tp = std::make_shared<testPlugin>();
  tp->TypeRes = typeRes;
  return tp;
}

}  // namespace blis::router::scheduling::testplugins
