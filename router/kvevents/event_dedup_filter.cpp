// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/event_dedup_filter.go@71f4f099; see event_dedup_filter.h.
#include "router/kvevents/event_dedup_filter.h"

namespace blis::router::kvevents {

// pkg/kvevents/event_dedup_filter.go@71f4f099 eventDedupFilter.trackStore
void eventDedupFilter::trackStore(const blockScope& scope, const std::vector<std::uint64_t>& blockHashes) {
  if (blockHashes.empty()) return;
  auto& bucket = refs_[scope.podIdentifier];
  for (std::uint64_t h : blockHashes) ++bucket[scope.key(h)];
}

// pkg/kvevents/event_dedup_filter.go@71f4f099 eventDedupFilter.filterRemove
std::vector<std::uint64_t> eventDedupFilter::filterRemove(const blockScope& scope,
                                                          const std::vector<std::uint64_t>& blockHashes) {
  if (blockHashes.empty()) return blockHashes;
  auto bucketIt = refs_.find(scope.podIdentifier);
  std::vector<std::uint64_t> kept;
  kept.reserve(blockHashes.size());
  for (std::uint64_t h : blockHashes) {
    if (bucketIt == refs_.end()) {
      kept.push_back(h);  // unknown pod -> defensive pass-through
      continue;
    }
    auto& bucket = bucketIt->second;
    const dedupKey k = scope.key(h);
    auto it = bucket.find(k);
    if (it == bucket.end() || it->second <= 0) {
      kept.push_back(h);  // never tracked -> defensive pass-through
      continue;
    }
    if (--it->second == 0) {
      bucket.erase(it);
      kept.push_back(h);  // last reference released -> evict for real
    }
    // else: still referenced -> suppress this remove
  }
  if (bucketIt != refs_.end() && bucketIt->second.empty()) refs_.erase(bucketIt);
  return kept;
}

}  // namespace blis::router::kvevents
