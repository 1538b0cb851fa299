// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099;
// single-threaded; reporting goroutine, metrics and logging not ported.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.h"

#include <utility>

namespace blis::router::approximateprefix {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 newIndexer (the struct literal)
indexer::indexer(int defaultLRUSize_, std::string pluginName_, std::string pluginType_)
    : defaultLRUSize(defaultLRUSize_), pluginName(std::move(pluginName_)), pluginType(std::move(pluginType_)) {}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 newIndexer
std::unique_ptr<indexer> newIndexer(int defaultLRUSize, std::string pluginName, std::string pluginType) {
  return std::make_unique<indexer>(defaultLRUSize, std::move(pluginName), std::move(pluginType));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.Add
void indexer::Add(const std::vector<blockHash>& hashes, const server& pod) {
  auto it = podToLRU.find(pod.ServerID);
  if (it == podToLRU.end()) {
    int lruSize = pod.NumOfGPUBlocks;
    if (lruSize <= 0) lruSize = defaultLRUSize;
    // Upstream ignores NewWithEvict's error (size <= 0) and would then dereference a nil cache; the LRU
    // here throws "must provide a positive size" instead.
    it = podToLRU.emplace(pod.ServerID, std::make_unique<podLRU>(lruSize, makeEvictionFn(pod.ServerID))).first;
  }
  podLRU& lruForPod = *it->second;

  // Add to LRU (may evict). As upstream, all hashes enter the LRU before hashToPods is updated.
  for (blockHash hash : hashes) lruForPod.Add(hash, empty{});

  // Update hashToPods.
  for (blockHash hash : hashes) hashToPods[hash].insert(pod.ServerID);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.Get
podSet indexer::Get(blockHash hash) const {
  auto it = hashToPods.find(hash);
  if (it == hashToPods.end()) return {};
  return it->second;  // a copy, as upstream's deep copy
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.makeEvictionFn
indexer::podLRU::EvictCallback indexer::makeEvictionFn(const ServerID& pod) {
  return [this, pod](const blockHash& hash, const empty&) {
    // Remove the pod from the hash->pods map.
    auto it = hashToPods.find(hash);
    if (it != hashToPods.end()) {
      it->second.erase(pod);
      if (it->second.empty()) hashToPods.erase(it);
    }
  };
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.RemovePod
void indexer::RemovePod(const ServerID& pod) {
  auto it = podToLRU.find(pod);
  if (it == podToLRU.end()) return;
  // Remove all hashes associated with the pod from hashToPods (triggers eviction callbacks).
  for (blockHash hash : it->second->Keys()) it->second->Remove(hash);
  podToLRU.erase(it);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.Pods
std::vector<ServerID> indexer::Pods() const {
  std::vector<ServerID> pods;
  pods.reserve(podToLRU.size());
  for (const auto& [pod, lru] : podToLRU) pods.push_back(pod);
  return pods;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099 indexer.PodBlockCounts
std::map<ServerID, int> indexer::PodBlockCounts() const {
  std::map<ServerID, int> counts;
  for (const auto& [pod, lru] : podToLRU) counts[pod] = lru->Len();
  return counts;
}

}  // namespace blis::router::approximateprefix
