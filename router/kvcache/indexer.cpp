// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/indexer.go@71f4f099; see indexer.h.
#include "router/kvcache/indexer.h"

#include <set>
#include <stdexcept>

namespace blis::router::kvcache {

// pkg/kvcache/indexer.go@71f4f099 NewDefaultConfig
Config NewDefaultConfig() {
  Config c;
  c.KVBlockIndexConfig = kvblock::DefaultIndexConfig();
  c.KVBlockScorerConfig = DefaultKVBlockScorerConfig();
  c.BackendConfigs = DefaultKVCacheBackendConfig();
  return c;
}

// pkg/kvcache/indexer.go@71f4f099 NewKVCacheIndexer
std::shared_ptr<Indexer> NewKVCacheIndexer(Config* config, std::shared_ptr<kvblock::TokenProcessor> tokenProcessor) {
  if (config == nullptr) throw std::runtime_error("config cannot be nil");
  if (tokenProcessor == nullptr) throw std::runtime_error("tokenProcessor cannot be nil");
  if (config->TokenizersPoolConfig)
    throw std::invalid_argument(
        "kvcache tokenizersPoolConfig is not modelled by this port: the router is given token IDs");
  std::shared_ptr<kvblock::Index> kvBlockIndex;
  try {
    kvBlockIndex = kvblock::NewIndex(&config->KVBlockIndexConfig);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to create RedisKVBlockIndexer: ") + e.what());
  }
  if (!config->KVBlockScorerConfig)
    throw std::runtime_error("KVBlockScorerConfig is nil (upstream dereferences it and panics)");
  config->KVBlockScorerConfig->BackendConfigs = config->BackendConfigs;
  std::shared_ptr<KVBlockScorer> scorer;
  try {
    scorer = NewKVBlockScorer(*config->KVBlockScorerConfig);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to create KVBlockScorer: ") + e.what());
  }
  return std::make_shared<Indexer>(std::move(tokenProcessor), std::move(kvBlockIndex), std::move(scorer));
}

// pkg/kvcache/indexer.go@71f4f099 Indexer.ComputeBlockKeysFromTokens
std::vector<kvblock::BlockHash> Indexer::ComputeBlockKeysFromTokens(std::span<const std::uint32_t> tokens,
                                                                    const std::string& modelName,
                                                                    const kvblock::ExtraFeatures& extraFeatures) const {
  try {
    return tokenProcessor_->TokensToKVBlockKeys(kvblock::EmptyBlockHash, tokens, modelName, extraFeatures);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("blockKey conversion failed: ") + e.what());
  }
}

// pkg/kvcache/indexer.go@71f4f099 Indexer.ScoreTokens
std::optional<std::map<std::string, double>> Indexer::ScoreTokens(std::span<const std::uint32_t> tokens,
                                                                  const std::string& modelName,
                                                                  const std::vector<std::string>& podIdentifiers,
                                                                  const kvblock::ExtraFeatures& extraFeatures) const {
  std::vector<kvblock::BlockHash> blockKeys;
  try {
    blockKeys = tokenProcessor_->TokensToKVBlockKeys(kvblock::EmptyBlockHash, tokens, modelName, extraFeatures);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("blockKey conversion failed: ") + e.what());
  }
  if (blockKeys.empty()) return std::nullopt;

  const std::set<std::string> podSet(podIdentifiers.begin(), podIdentifiers.end());
  std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>> keyToPods;
  try {
    keyToPods = kvBlockIndex_->Lookup(blockKeys, podSet);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to query kvblock indexer: ") + e.what());
  }
  try {
    return kvBlockScorer_->Score(blockKeys, keyToPods);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to query kvblock scorer: ") + e.what());
  }
}

}  // namespace blis::router::kvcache
