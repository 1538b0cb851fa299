// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/indexer.go@71f4f099 (Config, NewDefaultConfig, Indexer,
// NewKVCacheIndexer, KVBlockIndex, ComputeBlockKeysFromTokens, ScoreTokens) and export_test.go's
// NewIndexerForTest. The router is given token IDs (no tokenizer): the deprecated TokenizersPoolConfig is
// refused; tracing spans and logging are not ported (the index and scorer are used unwrapped).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "router/kvcache/backend.h"
#include "router/kvcache/kvblock/index.h"
#include "router/kvcache/kvblock/token_processor.h"
#include "router/kvcache/kvblock_scorer.h"

namespace blis::router::kvcache {

// pkg/kvcache/indexer.go@71f4f099 Config
struct Config {
  kvblock::IndexConfig KVBlockIndexConfig;                 // json "kvBlockIndexConfig"
  std::optional<::blis::router::kvcache::KVBlockScorerConfig> KVBlockScorerConfig;  // a Go pointer (nil = nullopt)
  std::vector<KVCacheBackendConfig> BackendConfigs;        // json "kvCacheBackendConfigs"
  bool TokenizersPoolConfig = false;                       // set = upstream's non-nil pointer (refused)
};

// pkg/kvcache/indexer.go@71f4f099 NewDefaultConfig
Config NewDefaultConfig();

// pkg/kvcache/indexer.go@71f4f099 Indexer
class Indexer {
 public:
  Indexer(std::shared_ptr<kvblock::TokenProcessor> tp, std::shared_ptr<kvblock::Index> idx,
          std::shared_ptr<KVBlockScorer> scorer)
      : tokenProcessor_(std::move(tp)), kvBlockIndex_(std::move(idx)), kvBlockScorer_(std::move(scorer)) {}

  // pkg/kvcache/indexer.go@71f4f099 Indexer.KVBlockIndex
  std::shared_ptr<kvblock::Index> KVBlockIndex() const { return kvBlockIndex_; }

  // pkg/kvcache/indexer.go@71f4f099 Indexer.ComputeBlockKeysFromTokens; throws std::runtime_error
  // ("blockKey conversion failed: ...").
  std::vector<kvblock::BlockHash> ComputeBlockKeysFromTokens(std::span<const std::uint32_t> tokens,
                                                             const std::string& modelName,
                                                             const kvblock::ExtraFeatures& extraFeatures) const;

  // pkg/kvcache/indexer.go@71f4f099 Indexer.ScoreTokens: nullopt where Go returns a nil map (no full block);
  // podIdentifiers empty = every pod. Throws std::runtime_error with upstream's wrapped texts.
  std::optional<std::map<std::string, double>> ScoreTokens(std::span<const std::uint32_t> tokens,
                                                           const std::string& modelName,
                                                           const std::vector<std::string>& podIdentifiers,
                                                           const kvblock::ExtraFeatures& extraFeatures) const;

 private:
  std::shared_ptr<kvblock::TokenProcessor> tokenProcessor_;
  std::shared_ptr<kvblock::Index> kvBlockIndex_;
  std::shared_ptr<KVBlockScorer> kvBlockScorer_;
};

// pkg/kvcache/indexer.go@71f4f099 NewKVCacheIndexer: config may be modified (its scorer config takes
// config.BackendConfigs, as upstream). Throws std::runtime_error / std::invalid_argument.
std::shared_ptr<Indexer> NewKVCacheIndexer(Config* config, std::shared_ptr<kvblock::TokenProcessor> tokenProcessor);

// pkg/kvcache/export_test.go@71f4f099 NewIndexerForTest
inline std::shared_ptr<Indexer> NewIndexerForTest(std::shared_ptr<kvblock::TokenProcessor> tp,
                                                  std::shared_ptr<kvblock::Index> idx,
                                                  std::shared_ptr<KVBlockScorer> scorer) {
  return std::make_shared<Indexer>(std::move(tp), std::move(idx), std::move(scorer));
}

}  // namespace blis::router::kvcache
