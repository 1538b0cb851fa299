// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099;
// GetBlockHashes takes the request (upstream's signature) or the plain values it reads from it; logging is
// not ported.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::prefixhash {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 BlockHash
using BlockHash = std::uint64_t;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 HashBlock
// Tokens views the caller's token IDs (Go: a sub-slice of the prompt); it must not outlive them.
struct HashBlock {
  std::span<const std::uint32_t> Tokens;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 HashBlock.Hash
  std::uint64_t Hash() const;

  // Go's assert.Equal on HashBlock compares the token contents.
  friend bool operator==(const HashBlock& a, const HashBlock& b);
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 GetBlockHashes
// The plain values come from the request as follows:
//   perPromptTokens = request.Body.TokenizedPrompt.PerPromptTokens,
//   targetModel     = request.TargetModel,
//   cacheSalt       = request.Body.TokenizedPrompt.CacheSalt.
// Returns one vector of block hashes per prompt that yields at least one block; {} when there are none.
std::vector<std::vector<BlockHash>> GetBlockHashes(const std::vector<std::vector<std::uint32_t>>& perPromptTokens,
                                                   std::string_view targetModel, std::string_view cacheSalt,
                                                   int blockSizeTokens, int maxPrefixBlocks);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 GetBlockHashes
// Upstream's signature (no context): {} (Go nil) when the request, its Body or its TokenizedPrompt is
// nil (nullptr / std::nullopt) or the prompt holds no token; otherwise the plain-value overload above.
std::vector<std::vector<BlockHash>> GetBlockHashes(const fwksched::InferenceRequest* request, int blockSizeTokens,
                                                   int maxPrefixBlocks);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 computeBlockHashes
// targetModel = request.TargetModel, cacheSalt = request.Body.TokenizedPrompt.CacheSalt.
std::vector<BlockHash> computeBlockHashes(const std::vector<HashBlock>& seq, std::string_view targetModel,
                                          std::string_view cacheSalt, int maxPrefixBlocks);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 toBytes
std::array<std::uint8_t, 8> toBytes(BlockHash i);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 PutBlockHash
// Writes h into the first 8 bytes of buf, little-endian. Go panics when buf is shorter than 8; this
// port throws std::invalid_argument.
void PutBlockHash(std::span<std::uint8_t> buf, BlockHash h);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 getKVCacheBlocksFromTokens
// Go returns a lazy iter.Seq; this returns the blocks eagerly, each viewing ids (which must outlive them).
std::vector<HashBlock> getKVCacheBlocksFromTokens(std::span<const std::uint32_t> ids, int blockSizeTokens);

}  // namespace blis::router::prefixhash
