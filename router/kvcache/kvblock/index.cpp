// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/index.go@71f4f099; see index.h.
#include "router/kvcache/kvblock/index.h"

#include <algorithm>
#include <stdexcept>

#include "router/kvcache/kvblock/in_memory.h"

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/index.go@71f4f099 PodEntry.String
std::string PodEntry::String() const {
  std::string suffix;
  if (Speculative) suffix = "[speculative]";
  if (HasGroup) suffix += "[group=" + std::to_string(GroupIdx) + "]";
  return PodIdentifier + "@" + DeviceTier + suffix;
}

// pkg/kvcache/kvblock/index.go@71f4f099 DefaultIndexConfig
IndexConfig DefaultIndexConfig() {
  IndexConfig c;
  c.InMemoryConfig = std::make_shared<InMemoryIndexConfig>(DefaultInMemoryIndexConfig());
  c.EnableMetrics = false;
  return c;
}

// pkg/kvcache/kvblock/index.go@71f4f099 NewIndex
std::shared_ptr<Index> NewIndex(const IndexConfig* cfgIn) {
  IndexConfig def;
  if (cfgIn == nullptr) {
    def = DefaultIndexConfig();
    cfgIn = &def;
  }
  const IndexConfig& cfg = *cfgIn;
  std::shared_ptr<Index> idx;
  if (cfg.CostAwareMemoryConfig) {
    throw std::invalid_argument(
        "kvblock costAwareMemoryConfig is not modelled by this port: the cost-aware memory index "
        "(pkg/kvcache/kvblock/cost_aware_memory.go) is not ported");
  } else if (cfg.RedisConfig) {
    throw std::invalid_argument(
        "kvblock redisConfig is not modelled by this port: the Redis/Valkey index needs an external server");
  } else if (cfg.InMemoryConfig) {
    try {
      idx = NewInMemoryIndex(cfg.InMemoryConfig.get());
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("failed to create in-memory index: ") + e.what());
    }
  } else {
    throw std::runtime_error("no valid index configuration provided");
  }
  if (cfg.EnableMetrics) {
    throw std::invalid_argument(
        "kvblock enableMetrics is not modelled by this port: the instrumented index only records Prometheus "
        "metrics");
  }
  return idx;
}

// pkg/kvcache/kvblock/index.go@71f4f099 engineToRequestMapping
std::vector<std::pair<BlockHash, std::vector<BlockHash>>> engineToRequestMapping(
    const std::vector<BlockHash>& engineKeys, const std::vector<BlockHash>& requestKeys) {
  std::vector<std::pair<BlockHash, std::vector<BlockHash>>> mappings;
  if (engineKeys.empty() || requestKeys.empty()) return mappings;
  const std::size_t n = std::max(engineKeys.size(), requestKeys.size());
  for (std::size_t i = 0; i < n; ++i) {
    const BlockHash ek = engineKeys[i * engineKeys.size() / n];
    const BlockHash rk = requestKeys[i * requestKeys.size() / n];
    auto it = std::find_if(mappings.begin(), mappings.end(), [&](const auto& m) { return m.first == ek; });
    if (it == mappings.end()) {
      mappings.push_back({ek, {rk}});
    } else {
      it->second.push_back(rk);
    }
  }
  return mappings;
}

}  // namespace blis::router::kvblock
