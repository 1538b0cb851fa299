// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/index.go@71f4f099 (IndexConfig, NewIndex, Index,
// KeyType, BlockHash, PodEntry, engineToRequestMapping). The Redis/Valkey and cost-aware backends and the
// metrics wrapper (EnableMetrics) are refused by name; no context arguments, no logging; errors are thrown
// (std::runtime_error with upstream's text).
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/hma.h"

namespace blis::router::kvblock {

struct InMemoryIndexConfig;  // in_memory.h

// pkg/kvcache/kvblock/index.go@71f4f099 BlockHash
using BlockHash = std::uint64_t;
// pkg/kvcache/kvblock/index.go@71f4f099 EmptyBlockHash
inline constexpr BlockHash EmptyBlockHash = 0;

// pkg/kvcache/kvblock/index.go@71f4f099 KeyType
enum class KeyType : int {
  EngineKey = 0,   // resolved to request keys via the engine->request mapping
  RequestKey = 1,  // used directly (speculative entries)
};

// pkg/kvcache/kvblock/index.go@71f4f099 PodEntry (comparable: all fields take part in equality, as Go's
// struct equality; the order is only for use as a std::map key).
struct PodEntry {
  std::string PodIdentifier;
  std::string DeviceTier;
  bool Speculative = false;
  bool HasGroup = false;
  GroupID GroupIdx = 0;
  friend bool operator==(const PodEntry&, const PodEntry&) = default;
  friend auto operator<=>(const PodEntry&, const PodEntry&) = default;
  // pkg/kvcache/kvblock/index.go@71f4f099 PodEntry.String
  std::string String() const;
};

// pkg/kvcache/kvblock/index.go@71f4f099 Index. Lookup returns a std::map (ordered by key) where Go returns a
// map; the pods of one key are in the backend's order.
class Index {
 public:
  virtual ~Index() = default;
  // Lookup: the pods (filtered by podIdentifierSet unless empty) holding each of requestKeys.
  virtual std::map<BlockHash, std::vector<PodEntry>> Lookup(const std::vector<BlockHash>& requestKeys,
                                                            const std::set<std::string>& podIdentifierSet) = 0;
  // Add: requestKey -> entries, and engineKey -> requestKeys when engineKeys is not null (Go nil).
  virtual void Add(const std::vector<BlockHash>* engineKeys, const std::vector<BlockHash>& requestKeys,
                   const std::vector<PodEntry>& entries) = 0;
  // Evict removes entries from key (an engine key resolved through the mapping, or a request key).
  virtual void Evict(BlockHash key, KeyType keyType, const std::vector<PodEntry>& entries) = 0;
  // GetRequestKey: the request key associated with engineKey (throws when unknown).
  virtual BlockHash GetRequestKey(BlockHash engineKey) = 0;
  // Clear removes every entry of the pod across device tiers.
  virtual void Clear(const std::string& podIdentifier) = 0;
};

// pkg/kvcache/kvblock/index.go@71f4f099 IndexConfig. RedisConfig and CostAwareMemoryConfig stand for
// upstream's non-nil pointers to those configs: only their presence matters here (they are refused).
struct IndexConfig {
  std::shared_ptr<InMemoryIndexConfig> InMemoryConfig;
  bool RedisConfig = false;
  bool CostAwareMemoryConfig = false;
  bool EnableMetrics = false;
  std::int64_t MetricsLoggingInterval = 0;  // time.Duration nanoseconds
};

// pkg/kvcache/kvblock/index.go@71f4f099 DefaultIndexConfig
IndexConfig DefaultIndexConfig();

// pkg/kvcache/kvblock/index.go@71f4f099 NewIndex (nullptr config = defaults). Throws
// std::invalid_argument for the backends this port does not model, std::runtime_error for upstream's errors.
std::shared_ptr<Index> NewIndex(const IndexConfig* cfg);

// pkg/kvcache/kvblock/index.go@71f4f099 engineToRequestMapping. Returned as (engine key, request keys)
// pairs in order of each engine key's first appearance; Go returns a map (no order).
std::vector<std::pair<BlockHash, std::vector<BlockHash>>> engineToRequestMapping(
    const std::vector<BlockHash>& engineKeys, const std::vector<BlockHash>& requestKeys);

}  // namespace blis::router::kvblock
