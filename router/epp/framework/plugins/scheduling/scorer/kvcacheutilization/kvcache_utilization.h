// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099; Consumes (the data-layer DAG) and the multicluster variant (multicluster.go) are not ported; the factory takes only the name; no Go context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::kvcacheutilization {

// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KvCacheUtilizationScorerType
inline constexpr const char* KvCacheUtilizationScorerType = "kv-cache-utilization-scorer";

// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KVCacheUtilizationScorer
// Scores endpoints by KV-cache utilization: 1 - KVCacheUsagePercent.
// An endpoint without metrics (a nil dereference upstream) is refused with std::invalid_argument.
class KVCacheUtilizationScorer final : public fwksched::Scorer, public std::enable_shared_from_this<KVCacheUtilizationScorer> {
 public:
  KVCacheUtilizationScorer() : typedName_{KvCacheUtilizationScorerType, KvCacheUtilizationScorerType} {}

  // pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KVCacheUtilizationScorer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KVCacheUtilizationScorer.Category
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  // pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KVCacheUtilizationScorer.WithName
  std::shared_ptr<KVCacheUtilizationScorer> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KVCacheUtilizationScorer.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

 private:
  fwkplugin::TypedName typedName_;
};

// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 NewKVCacheUtilizationScorer
inline std::shared_ptr<KVCacheUtilizationScorer> NewKVCacheUtilizationScorer() { return std::make_shared<KVCacheUtilizationScorer>(); }

// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KvCacheUtilizationScorerFactory
inline std::shared_ptr<fwkplugin::Plugin> KvCacheUtilizationScorerFactory(const std::string& name) {
  return NewKVCacheUtilizationScorer()->WithName(name);
}

}  // namespace blis::router::kvcacheutilization
