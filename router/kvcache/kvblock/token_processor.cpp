// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/token_processor.go@71f4f099; see token_processor.h.
#include "router/kvcache/kvblock/token_processor.h"

#include <stdexcept>

#include "router/kvcache/kvblock/cbor.h"
#include "router/kvcache/kvblock/fnv.h"

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/token_processor.go@71f4f099 DefaultTokenProcessorConfig
TokenProcessorConfig DefaultTokenProcessorConfig() {
  TokenProcessorConfig c;
  c.BlockSizeTokens = defaultBlockSize;
  c.HashSeed = "";
  return c;
}

// pkg/kvcache/kvblock/token_processor.go@71f4f099 NewChunkedTokenDatabase
std::shared_ptr<TokenProcessor> NewChunkedTokenDatabase(const TokenProcessorConfig* config) {
  TokenProcessorConfig cfg = config == nullptr ? DefaultTokenProcessorConfig() : *config;  // local copy

  if (cfg.BlockSizeTokens == 0 && cfg.BlockSize == 0) cfg.BlockSizeTokens = defaultBlockSize;
  if (cfg.BlockSizeTokens == 0 && cfg.BlockSize > 0) cfg.BlockSizeTokens = cfg.BlockSize;
  if (cfg.BlockSizeTokens <= 0) {
    int invalidBlockSize = cfg.BlockSizeTokens;
    if (cfg.BlockSizeTokens == 0 && cfg.BlockSize != 0) invalidBlockSize = cfg.BlockSize;
    throw std::runtime_error("blockSizeTokens must be greater than 0, got " + std::to_string(invalidBlockSize));
  }
  if (cfg.initHash == 0) cfg.initHash = FNV64a(cfg.HashSeed);
  return std::make_shared<chunkedTokenDatabase>(std::move(cfg));
}

// Original to BLIS: a helper of the port's own.
// The payload []interface{}{parent, tokens, extra} under cbor.CanonicalEncOptions: a 3-item array of the
// uint64 parent, the []uint32 tokens (a nil slice is null: NilContainerAsNull, the library default) and
// extra (nil -> null, string -> text, []MMHash -> array of 1-pair maps {"Hash": text}).
std::string HashPayloadCBOR(std::uint64_t parent, const std::span<const std::uint32_t>* tokens,
                            const std::string* extraText, const std::vector<MMHash>* extraMM) {
  CborWriter w;
  w.ArrayHeader(3);
  w.Uint(parent);
  if (tokens == nullptr) {
    w.Null();
  } else {
    w.ArrayHeader(tokens->size());
    for (std::uint32_t t : *tokens) w.Uint(t);
  }
  if (extraText != nullptr) {
    w.Text(*extraText);
  } else if (extraMM != nullptr) {
    w.ArrayHeader(extraMM->size());
    for (const auto& m : *extraMM) {
      w.MapHeader(1);
      w.Text("Hash");
      w.Text(m.Hash);
    }
  } else {
    w.Null();
  }
  return w.Bytes();
}

// pkg/kvcache/kvblock/token_processor.go@71f4f099 chunkedTokenDatabase.hash (FNV-64a of the CBOR payload)
std::uint64_t chunkedTokenDatabase::hash(std::uint64_t parent, std::span<const std::uint32_t> tokens) const {
  return FNV64a(HashPayloadCBOR(parent, &tokens, nullptr, nullptr));
}
// Original to BLIS: a helper of the port's own.
std::uint64_t chunkedTokenDatabase::hash(std::uint64_t parent, std::span<const std::uint32_t> tokens,
                                         const std::string& extra) const {
  return FNV64a(HashPayloadCBOR(parent, &tokens, &extra, nullptr));
}
// Original to BLIS: a helper of the port's own.
std::uint64_t chunkedTokenDatabase::hash(std::uint64_t parent, std::span<const std::uint32_t> tokens,
                                         const std::vector<MMHash>& extra) const {
  return FNV64a(HashPayloadCBOR(parent, &tokens, nullptr, &extra));
}

// pkg/kvcache/kvblock/token_processor.go@71f4f099 chunkedTokenDatabase.getInitHash: hash(initHash, nil, modelName)
std::uint64_t chunkedTokenDatabase::getInitHash(const std::string& modelName) const {
  return FNV64a(HashPayloadCBOR(cfg_.initHash, nullptr, &modelName, nullptr));
}

// pkg/kvcache/kvblock/token_processor.go@71f4f099 chunkedTokenDatabase.TokensToKVBlockKeys, with chunkTokens
// (full blocks only: a trailing partial block is dropped) and prefixHashes (each chunk hashed with its
// predecessor's hash as parent) inlined.
std::vector<BlockHash> chunkedTokenDatabase::TokensToKVBlockKeys(BlockHash parentKey,
                                                                 std::span<const std::uint32_t> tokens,
                                                                 const std::string& modelName,
                                                                 const ExtraFeatures& extraFeatures) const {
  std::uint64_t prefix = parentKey != EmptyBlockHash ? static_cast<std::uint64_t>(parentKey) : getInitHash(modelName);

  const std::size_t bs = static_cast<std::size_t>(cfg_.BlockSizeTokens);
  const std::size_t numChunks = tokens.size() / bs;  // chunkTokens: no partial blocks
  if (numChunks == 0) return {};

  if (extraFeatures && extraFeatures->size() != numChunks) {
    throw std::runtime_error("extraFeatures length " + std::to_string(extraFeatures->size()) +
                             " does not match token chunk count " + std::to_string(numChunks) +
                             " (blockSizeTokens=" + std::to_string(cfg_.BlockSizeTokens) +
                             ", tokens=" + std::to_string(tokens.size()) + ")");
  }

  std::vector<BlockHash> hashes(numChunks);
  for (std::size_t i = 0; i < numChunks; ++i) {
    auto chunk = tokens.subspan(i * bs, bs);
    if (extraFeatures && (*extraFeatures)[i]) {
      prefix = hash(prefix, chunk, (*extraFeatures)[i]->MMHashes);
    } else {
      prefix = hash(prefix, chunk);
    }
    hashes[i] = static_cast<BlockHash>(prefix);
  }
  return hashes;
}

}  // namespace blis::router::kvblock
