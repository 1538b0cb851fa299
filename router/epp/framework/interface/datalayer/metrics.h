// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/datalayer/metrics.go@71f4f099; UpdateTime (a
// wall-clock scrape time) is not ported: the simulator hands in a metrics snapshot per decision.
#pragma once

#include <map>
#include <string>

namespace blis::router::fwkdl {

// pkg/epp/framework/interface/datalayer/metrics.go@71f4f099 Metrics
// The latest metrics snapshot of an endpoint. A value copy is Go's Clone; a default-constructed Metrics is
// NewMetrics (empty model maps).
struct Metrics {
  // ActiveModels is the set of models (including LoRA adapters) currently cached on the GPU.
  std::map<std::string, int> ActiveModels;
  std::map<std::string, int> WaitingModels;
  // MaxActiveModels is the maximum number of models that can be loaded to the GPU.
  int MaxActiveModels = 0;
  int RunningRequestsSize = 0;
  int WaitingQueueSize = 0;
  double KVCacheUsagePercent = 0;
  int KvCacheMaxTokenCapacity = 0;
  int CacheBlockSize = 0;
  // Number of GPU blocks in the model server for KV cache.
  int CacheNumBlocks = 0;

  // pkg/epp/framework/interface/datalayer/metrics.go@71f4f099 Metrics.String
  // A readable rendering of every field (not byte-identical to Go's "%+v").
  std::string String() const;

  bool operator==(const Metrics&) const = default;
};

// pkg/epp/framework/interface/datalayer/metrics.go@71f4f099 NewMetrics
inline Metrics NewMetrics() { return Metrics{}; }

}  // namespace blis::router::fwkdl
