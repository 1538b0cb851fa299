// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/hma.go@71f4f099 (GroupID, GroupMetadata,
// GroupCatalog); no mutex (the port is single-threaded).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/hma.go@71f4f099 GroupID
using GroupID = int;

// pkg/kvcache/kvblock/hma.go@71f4f099 GroupMetadata
struct GroupMetadata {
  std::string Kind;
  int BlockSize = 0;
  std::optional<int> SlidingWindowSize;
  friend bool operator==(const GroupMetadata&, const GroupMetadata&) = default;
};

// pkg/kvcache/kvblock/hma.go@71f4f099 GroupCatalog
class GroupCatalog {
 public:
  // pkg/kvcache/kvblock/hma.go@71f4f099 GroupCatalog.Learn
  void Learn(const std::string& podID, GroupID g, GroupMetadata meta) { entries_[podID][g] = std::move(meta); }
  // pkg/kvcache/kvblock/hma.go@71f4f099 GroupCatalog.Get
  std::optional<GroupMetadata> Get(const std::string& podID, GroupID g) const {
    auto p = entries_.find(podID);
    if (p == entries_.end()) return std::nullopt;
    auto m = p->second.find(g);
    if (m == p->second.end()) return std::nullopt;
    return m->second;
  }

 private:
  std::map<std::string, std::map<GroupID, GroupMetadata>> entries_;
};

}  // namespace blis::router::kvblock
