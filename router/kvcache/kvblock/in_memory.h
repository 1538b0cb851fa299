// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/in_memory.go@71f4f099 (InMemoryIndexConfig,
// InMemoryIndex, PodCache) over the golang-lru/v2 semantics of lru.h; single-threaded (no mutexes; the
// double-checked insertion collapses to one path), no logging.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/index.h"
#include "router/kvcache/kvblock/lru.h"

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/in_memory.go@71f4f099 defaultInMemoryIndexSize, defaultPodsPerKey
inline constexpr int defaultInMemoryIndexSize = 100000000;  // 1e8
inline constexpr int defaultPodsPerKey = 10;

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndexConfig
struct InMemoryIndexConfig {
  int Size = 0;          // maximum number of keys (json "size")
  int PodCacheSize = 0;  // maximum number of pod entries per key (json "podCacheSize")
};

// pkg/kvcache/kvblock/in_memory.go@71f4f099 DefaultInMemoryIndexConfig
InMemoryIndexConfig DefaultInMemoryIndexConfig();

// pkg/kvcache/kvblock/in_memory.go@71f4f099 PodCache: an LRU of pod entries (oldest first in Keys).
struct PodCache {
  explicit PodCache(int size) : cache(size) {}
  LRUCache<PodEntry, bool> cache;
};

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndex
class InMemoryIndex final : public Index {
 public:
  explicit InMemoryIndex(const InMemoryIndexConfig& cfg);

  std::map<BlockHash, std::vector<PodEntry>> Lookup(const std::vector<BlockHash>& requestKeys,
                                                    const std::set<std::string>& podIdentifierSet) override;
  void Add(const std::vector<BlockHash>* engineKeys, const std::vector<BlockHash>& requestKeys,
           const std::vector<PodEntry>& entries) override;
  void Evict(BlockHash key, KeyType keyType, const std::vector<PodEntry>& entries) override;
  BlockHash GetRequestKey(BlockHash engineKey) override;
  void Clear(const std::string& podIdentifier) override;

  // For tests (upstream's tests reach the unexported fields from package kvblock): the number of request
  // keys and engine keys held.
  int DataLen() const { return data_.Len(); }
  int EngineKeysLen() const { return engineToRequestKeys_.Len(); }

 private:
  void evictPodsFromRequestKey(BlockHash requestKey, const std::vector<PodEntry>& entries);

  LRUCache<BlockHash, std::shared_ptr<PodCache>> data_;
  LRUCache<BlockHash, std::vector<BlockHash>> engineToRequestKeys_;
  int podCacheSize_;
};

// pkg/kvcache/kvblock/in_memory.go@71f4f099 NewInMemoryIndex (nullptr = defaults). Throws
// std::runtime_error("failed to initialize in-memory index: must provide a positive size").
std::shared_ptr<InMemoryIndex> NewInMemoryIndex(const InMemoryIndexConfig* cfg);

}  // namespace blis::router::kvblock
