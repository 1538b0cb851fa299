// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/token_processor.go@71f4f099 (TokenProcessorConfig,
// TokenProcessor, chunkedTokenDatabase); FNV-64a and the canonical CBOR payload are written from their
// specifications (fnv.h, cbor.h); errors are thrown (std::runtime_error with upstream's text); no logging,
// no JSON tags (the config loader decodes).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/extra_keys.h"
#include "router/kvcache/kvblock/index.h"

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/token_processor.go@71f4f099 defaultBlockSize (vLLM's default).
inline constexpr int defaultBlockSize = 16;

// pkg/kvcache/kvblock/token_processor.go@71f4f099 TokenProcessorConfig
struct TokenProcessorConfig {
  int BlockSize = 0;        // deprecated: use BlockSizeTokens (json "blockSize")
  int BlockSizeTokens = 0;  // tokens per block; 0 = not set -> 16 (json "blockSizeTokens")
  std::string HashSeed;     // aligned with vLLM's PYTHONHASHSEED (json "hashSeed")
  std::uint64_t initHash = 0;  // unexported upstream: cached FNV-64a of HashSeed
};

// pkg/kvcache/kvblock/token_processor.go@71f4f099 DefaultTokenProcessorConfig
TokenProcessorConfig DefaultTokenProcessorConfig();

// pkg/kvcache/kvblock/token_processor.go@71f4f099 TokenProcessor
class TokenProcessor {
 public:
  virtual ~TokenProcessor() = default;
  // TokensToKVBlockKeys converts tokens into block keys continuing the chain from parentKey
  // (EmptyBlockHash: start from the model's init hash); extraFeatures nullopt = text only, else one entry
  // per full block. Throws std::runtime_error on a length mismatch.
  virtual std::vector<BlockHash> TokensToKVBlockKeys(BlockHash parentKey, std::span<const std::uint32_t> tokens,
                                                     const std::string& modelName,
                                                     const ExtraFeatures& extraFeatures) const = 0;
  // BlockSize returns the number of tokens per block.
  virtual int BlockSize() const = 0;
};

// pkg/kvcache/kvblock/token_processor.go@71f4f099 chunkedTokenDatabase
class chunkedTokenDatabase final : public TokenProcessor {
 public:
  explicit chunkedTokenDatabase(TokenProcessorConfig cfg) : cfg_(std::move(cfg)) {}
  std::vector<BlockHash> TokensToKVBlockKeys(BlockHash parentKey, std::span<const std::uint32_t> tokens,
                                             const std::string& modelName,
                                             const ExtraFeatures& extraFeatures) const override;
  int BlockSize() const override { return cfg_.BlockSizeTokens; }
  const TokenProcessorConfig& Config() const { return cfg_; }

  // chunkedTokenDatabase.getInitHash: hash(initHash, nil, modelName).
  std::uint64_t getInitHash(const std::string& modelName) const;
  // chunkedTokenDatabase.hash with extra = nil.
  std::uint64_t hash(std::uint64_t parent, std::span<const std::uint32_t> tokens) const;
  // chunkedTokenDatabase.hash with extra = a string (the model name).
  std::uint64_t hash(std::uint64_t parent, std::span<const std::uint32_t> tokens, const std::string& extra) const;
  // chunkedTokenDatabase.hash with extra = []MMHash.
  std::uint64_t hash(std::uint64_t parent, std::span<const std::uint32_t> tokens,
                     const std::vector<MMHash>& extra) const;

 private:
  TokenProcessorConfig cfg_;
};

// pkg/kvcache/kvblock/token_processor.go@71f4f099 NewChunkedTokenDatabase (nullptr config = defaults).
// Throws std::runtime_error("blockSizeTokens must be greater than 0, got N").
std::shared_ptr<TokenProcessor> NewChunkedTokenDatabase(const TokenProcessorConfig* config);

// The CBOR bytes chunkedTokenDatabase.hash feeds to FNV-64a: canonical CBOR of [parent, tokens, extra]
// (tokens == nullptr is Go's nil slice, encoded as null). Exposed for the known-answer tests.
std::string HashPayloadCBOR(std::uint64_t parent, const std::span<const std::uint32_t>* tokens, const std::string* extraText,
                            const std::vector<MMHash>* extraMM);

}  // namespace blis::router::kvblock
