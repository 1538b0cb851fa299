// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/datalayer/metrics.go@71f4f099; the String
// rendering only.
#include "router/epp/framework/interface/datalayer/metrics.h"

namespace blis::router::fwkdl {
namespace {

// Original to BLIS: renders a map for Metrics.String.
std::string render(const std::map<std::string, int>& m) {
  std::string out;
  for (const auto& [k, v] : m) {
    if (!out.empty()) out += " ";
    out += k + ":" + std::to_string(v);
  }
  return "map[" + out + "]";
}

}  // namespace

// pkg/epp/framework/interface/datalayer/metrics.go@71f4f099 Metrics.String
std::string Metrics::String() const {
  return "{ActiveModels:" + render(ActiveModels) + " WaitingModels:" + render(WaitingModels) +
         " MaxActiveModels:" + std::to_string(MaxActiveModels) +
         " RunningRequestsSize:" + std::to_string(RunningRequestsSize) +
         " WaitingQueueSize:" + std::to_string(WaitingQueueSize) +
         " KVCacheUsagePercent:" + std::to_string(KVCacheUsagePercent) +
         " KvCacheMaxTokenCapacity:" + std::to_string(KvCacheMaxTokenCapacity) +
         " CacheBlockSize:" + std::to_string(CacheBlockSize) + " CacheNumBlocks:" + std::to_string(CacheNumBlocks) +
         "}";
}

}  // namespace blis::router::fwkdl
