// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099
// (kvCacheIndexer, computeBlockKeys, computeBlockKeysForTokens, foldCacheSalt). Multimodal features
// (multimodalBlockIndices, countMMMatchedBlocks, the MM extra features) are not ported: the port's
// TokenizedPrompt carries no MultiModalFeatures (the simulator's requests are text token IDs), so the MM
// block indices are always empty, as upstream's for a text-only prompt. Errors are thrown (std::runtime_error).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "router/epp/framework/interface/scheduling/types.h"
#include "router/kvcache/indexer.h"
#include "router/kvcache/kvblock/extra_keys.h"
#include "router/kvcache/kvblock/index.h"

namespace blis::router::preciseprefixcache {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099 kvCacheIndexer
// The subset of kvcache::Indexer the producer relies on (narrowed so tests can substitute a fake).
class kvCacheIndexer {
 public:
  virtual ~kvCacheIndexer() = default;
  virtual std::vector<kvblock::BlockHash> ComputeBlockKeysFromTokens(std::span<const std::uint32_t> tokens,
                                                                     const std::string& modelName,
                                                                     const kvblock::ExtraFeatures& extraFeatures) = 0;
  virtual std::shared_ptr<kvblock::Index> KVBlockIndex() = 0;
};

// Original to BLIS: kvcache::Indexer (a concrete class here) seen through kvCacheIndexer (Go's implicit
// interface satisfaction).
class indexerAdapter final : public kvCacheIndexer {
 public:
  explicit indexerAdapter(std::shared_ptr<kvcache::Indexer> indexer) : indexer_(std::move(indexer)) {}
  std::vector<kvblock::BlockHash> ComputeBlockKeysFromTokens(std::span<const std::uint32_t> tokens,
                                                             const std::string& modelName,
                                                             const kvblock::ExtraFeatures& extraFeatures) override {
    return indexer_->ComputeBlockKeysFromTokens(tokens, modelName, extraFeatures);
  }
  std::shared_ptr<kvblock::Index> KVBlockIndex() override { return indexer_->KVBlockIndex(); }

 private:
  std::shared_ptr<kvcache::Indexer> indexer_;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099 computeBlockKeys
// One vector of block keys per prompt of the request's TokenizedPrompt (prompts without tokens or without a
// full block are skipped), with CacheSalt folded into each prompt's first block. Empty when the request, its
// body or its TokenizedPrompt is absent. (Go's mmBlockIndices result is always empty here; see above.)
std::vector<std::vector<kvblock::BlockHash>> computeBlockKeys(kvCacheIndexer& idx, const fwksched::InferenceRequest* request,
                                                              int blockSizeTokens);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099 computeBlockKeysForTokens
std::vector<kvblock::BlockHash> computeBlockKeysForTokens(kvCacheIndexer& idx, std::span<const std::uint32_t> tokens,
                                                          const std::string& cacheSalt, const std::string& model,
                                                          int blockSizeTokens);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099 foldCacheSalt
// Appends the salt to the first block's extra keys (after any multimodal hashes); unchanged without a salt or
// a full first block.
kvblock::ExtraFeatures foldCacheSalt(kvblock::ExtraFeatures extraFeatures, const std::string& salt, int numBlocks);

}  // namespace blis::router::preciseprefixcache
