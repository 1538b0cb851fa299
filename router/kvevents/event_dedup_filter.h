// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/event_dedup_filter.go@71f4f099 (the reference-counting
// filter of duplicate BlockStored/BlockRemoved announcements); no mutex (single-threaded).
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blis::router::kvevents {

// pkg/kvevents/event_dedup_filter.go@71f4f099 noGroupIdx, noDataParallelRank
inline constexpr int noGroupIdx = -1;
inline constexpr int noDataParallelRank = -1;

// pkg/kvevents/event_dedup_filter.go@71f4f099 groupIdxOrNoGroup
inline int groupIdxOrNoGroup(const std::optional<int>& groupIdx) { return groupIdx ? *groupIdx : noGroupIdx; }

// pkg/kvevents/event_dedup_filter.go@71f4f099 dedupKey
struct dedupKey {
  std::string deviceTier;
  int groupIdx = 0;
  int dataParallelRank = 0;
  std::uint64_t blockHash = 0;
  friend auto operator<=>(const dedupKey&, const dedupKey&) = default;
  friend bool operator==(const dedupKey&, const dedupKey&) = default;
};

// pkg/kvevents/event_dedup_filter.go@71f4f099 blockScope
struct blockScope {
  std::string podIdentifier;
  std::string deviceTier;
  int groupIdx = 0;
  int dataParallelRank = 0;
  // pkg/kvevents/event_dedup_filter.go@71f4f099 blockScope.key
  dedupKey key(std::uint64_t blockHash) const { return dedupKey{deviceTier, groupIdx, dataParallelRank, blockHash}; }
};

// pkg/kvevents/event_dedup_filter.go@71f4f099 eventDedupFilter
class eventDedupFilter {
 public:
  // pkg/kvevents/event_dedup_filter.go@71f4f099 eventDedupFilter.trackStore
  void trackStore(const blockScope& scope, const std::vector<std::uint64_t>& blockHashes);
  // pkg/kvevents/event_dedup_filter.go@71f4f099 eventDedupFilter.filterRemove: the hashes to evict, in input
  // order and multiplicity.
  std::vector<std::uint64_t> filterRemove(const blockScope& scope, const std::vector<std::uint64_t>& blockHashes);
  // pkg/kvevents/event_dedup_filter.go@71f4f099 eventDedupFilter.clear
  void clear(const std::string& podIdentifier) { refs_.erase(podIdentifier); }

  // For tests (upstream's tests read f.refs from inside the package).
  const std::map<std::string, std::map<dedupKey, int>>& refs() const { return refs_; }

 private:
  std::map<std::string, std::map<dedupKey, int>> refs_;  // podIdentifier -> per-block reference count
};

}  // namespace blis::router::kvevents
