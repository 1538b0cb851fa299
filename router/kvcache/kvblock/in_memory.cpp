// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/in_memory.go@71f4f099; see in_memory.h.
#include "router/kvcache/kvblock/in_memory.h"

#include <stdexcept>

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/in_memory.go@71f4f099 DefaultInMemoryIndexConfig
InMemoryIndexConfig DefaultInMemoryIndexConfig() { return InMemoryIndexConfig{defaultInMemoryIndexSize, defaultPodsPerKey}; }

namespace {
// Original to BLIS: a helper of the port's own.
int checkedSize(int size, const char* what) {
  if (size <= 0) throw std::runtime_error(std::string(what) + ": must provide a positive size");
  return size;
}
}  // namespace

// Original to BLIS: a helper of the port's own.
InMemoryIndex::InMemoryIndex(const InMemoryIndexConfig& cfg)
    : data_(checkedSize(cfg.Size, "failed to initialize in-memory index")),
      engineToRequestKeys_(checkedSize(cfg.Size, "failed to initialize in-memory engine key map")),
      podCacheSize_(cfg.PodCacheSize) {}

// pkg/kvcache/kvblock/in_memory.go@71f4f099 NewInMemoryIndex
std::shared_ptr<InMemoryIndex> NewInMemoryIndex(const InMemoryIndexConfig* cfg) {
  const InMemoryIndexConfig c = cfg == nullptr ? DefaultInMemoryIndexConfig() : *cfg;
  return std::make_shared<InMemoryIndex>(c);
}

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndex.Lookup
std::map<BlockHash, std::vector<PodEntry>> InMemoryIndex::Lookup(const std::vector<BlockHash>& requestKeys,
                                                                 const std::set<std::string>& podIdentifierSet) {
  if (requestKeys.empty()) throw std::runtime_error("no requestKeys provided for lookup");
  std::map<BlockHash, std::vector<PodEntry>> podsPerKey;
  for (BlockHash requestKey : requestKeys) {
    auto* pods = data_.Get(requestKey);
    if (pods == nullptr) continue;  // key not found in index
    if (*pods == nullptr || (*pods)->cache.Len() == 0) return podsPerKey;  // prefix chain breaks here
    if (podIdentifierSet.empty()) {
      podsPerKey[requestKey] = (*pods)->cache.Keys();
    } else {
      for (const PodEntry& pod : (*pods)->cache.Keys())
        if (podIdentifierSet.count(pod.PodIdentifier) != 0) podsPerKey[requestKey].push_back(pod);
    }
  }
  return podsPerKey;
}

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndex.Add. The engine->request mappings are added in
// order of each engine key's first appearance (Go ranges over a map: any order).
void InMemoryIndex::Add(const std::vector<BlockHash>* engineKeys, const std::vector<BlockHash>& requestKeys,
                        const std::vector<PodEntry>& entries) {
  if (requestKeys.empty() || entries.empty())
    throw std::runtime_error("no keys or entries provided for adding to index");
  if (engineKeys != nullptr) {
    for (auto& [ek, rks] : engineToRequestMapping(*engineKeys, requestKeys)) engineToRequestKeys_.Add(ek, rks);
  }
  for (BlockHash requestKey : requestKeys) {
    std::shared_ptr<PodCache> podCache;
    if (auto* found = data_.Get(requestKey); found != nullptr) {
      podCache = *found;
    } else {
      if (podCacheSize_ <= 0)
        throw std::runtime_error("failed to create pod cache for key " + std::to_string(requestKey) +
                                 ": must provide a positive size");
      podCache = std::make_shared<PodCache>(podCacheSize_);
      data_.ContainsOrAdd(requestKey, podCache);
    }
    for (const PodEntry& entry : entries) podCache->cache.Add(entry, true);
  }
}

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndex.Evict
void InMemoryIndex::Evict(BlockHash key, KeyType keyType, const std::vector<PodEntry>& entries) {
  if (entries.empty()) throw std::runtime_error("no entries provided for eviction from index");
  switch (keyType) {
    case KeyType::EngineKey: {
      auto* found = engineToRequestKeys_.Get(key);
      if (found == nullptr) return;  // engineKey not found in mapping, nothing to evict
      const std::vector<BlockHash> rks = *found;
      for (BlockHash rk : rks) evictPodsFromRequestKey(rk, entries);
      bool allEmpty = true;
      for (BlockHash rk : rks) {
        auto* pc = data_.Get(rk);
        if (pc != nullptr && *pc != nullptr && (*pc)->cache.Len() > 0) {
          allEmpty = false;
          break;
        }
      }
      if (allEmpty) engineToRequestKeys_.Remove(key);
      return;
    }
    case KeyType::RequestKey:
      evictPodsFromRequestKey(key, entries);
      return;
  }
  throw std::runtime_error("unknown key type: " + std::to_string(static_cast<int>(keyType)));
}

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndex.evictPodsFromRequestKey
void InMemoryIndex::evictPodsFromRequestKey(BlockHash requestKey, const std::vector<PodEntry>& entries) {
  auto* found = data_.Get(requestKey);
  if (found == nullptr || *found == nullptr) return;
  std::shared_ptr<PodCache> podCache = *found;
  for (const PodEntry& entry : entries) podCache->cache.Remove(entry);
  if (podCache->cache.Len() != 0) return;
  // Remove key from main cache if empty (upstream re-fetches under a lock; Get also refreshes recency).
  auto* current = data_.Get(requestKey);
  if (current == nullptr || *current == nullptr) return;
  if ((*current)->cache.Len() == 0) data_.Remove(requestKey);
}

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndex.Clear
void InMemoryIndex::Clear(const std::string& podIdentifier) {
  for (BlockHash requestKey : data_.Keys()) {
    auto* found = data_.Peek(requestKey);  // Peek: a clear does not promote recency
    if (found == nullptr || *found == nullptr) continue;
    std::vector<PodEntry> matched;
    for (const PodEntry& entry : (*found)->cache.Keys())
      if (entry.PodIdentifier == podIdentifier) matched.push_back(entry);
    if (!matched.empty()) evictPodsFromRequestKey(requestKey, matched);
  }
}

// pkg/kvcache/kvblock/in_memory.go@71f4f099 InMemoryIndex.GetRequestKey: the last request key of the chain.
BlockHash InMemoryIndex::GetRequestKey(BlockHash engineKey) {
  auto* rks = engineToRequestKeys_.Get(engineKey);
  if (rks == nullptr || rks->empty()) throw std::runtime_error("engine key not found: " + std::to_string(engineKey));
  return rks->back();
}

}  // namespace blis::router::kvblock
