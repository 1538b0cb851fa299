// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099;
// single-threaded (no mutex); the LRU-size reporting goroutine, its metric and logging are not ported.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/lru.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.h"

namespace blis::router::approximateprefix {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer
// The per-server LRUs' eviction callbacks point back at this object, so it is neither copied nor moved.
class indexer final : public indexerInterface {
 public:
  // Unit value of the Go LRU (lru.Cache[blockHash, struct{}]).
  struct empty {};
  using podLRU = LRU<blockHash, empty>;

  indexer(int defaultLRUSize, std::string pluginName, std::string pluginType);
  indexer(const indexer&) = delete;
  indexer& operator=(const indexer&) = delete;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.Add
  void Add(const std::vector<blockHash>& hashes, const server& pod) override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.Get
  // The servers that have hash cached (a copy); empty when none (Go: nil).
  podSet Get(blockHash hash) const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.RemovePod
  void RemovePod(const ServerID& pod) override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.Pods
  // Go iterates a map (random order); this port returns the servers ordered by (Namespace, Name).
  std::vector<ServerID> Pods() const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.PodBlockCounts
  std::map<ServerID, int> PodBlockCounts() const override;

  // Go's unexported fields, read by the package's tests as upstream's do.
  std::map<blockHash, podSet> hashToPods;                   // the servers that have each hash cached
  std::map<ServerID, std::unique_ptr<podLRU>> podToLRU;     // one LRU per server
  int defaultLRUSize;
  std::string pluginName;
  std::string pluginType;

 private:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.makeEvictionFn
  podLRU::EvictCallback makeEvictionFn(const ServerID& pod);
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 newIndexer
// (without the reporting goroutine and its context).
std::unique_ptr<indexer> newIndexer(int defaultLRUSize, std::string pluginName, std::string pluginType);

}  // namespace blis::router::approximateprefix
