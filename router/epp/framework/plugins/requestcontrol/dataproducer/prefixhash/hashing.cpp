// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099;
// see hashing.h; logging is not ported.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/xxhash64.h"

namespace blis::router::prefixhash {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 HashBlock.Hash
// Upstream hashes the tokens' in-memory bytes (unsafe.Slice over []uint32), i.e. each token as 4 bytes in
// host order; its deployment targets (amd64, arm64) are little-endian, so this port writes each token
// little-endian explicitly, giving the same bytes on every host.
std::uint64_t HashBlock::Hash() const {
  if (!Tokens.empty()) {
    std::vector<std::uint8_t> bytes(Tokens.size() * 4);
    for (std::size_t i = 0; i < Tokens.size(); ++i) {
      const std::uint32_t t = Tokens[i];
      bytes[4 * i + 0] = static_cast<std::uint8_t>(t);
      bytes[4 * i + 1] = static_cast<std::uint8_t>(t >> 8);
      bytes[4 * i + 2] = static_cast<std::uint8_t>(t >> 16);
      bytes[4 * i + 3] = static_cast<std::uint8_t>(t >> 24);
    }
    return XXH64(std::span<const std::uint8_t>(bytes));
  }
  return 0;
}

// Original to BLIS: Go's assert.Equal on two HashBlocks compares the token contents.
bool operator==(const HashBlock& a, const HashBlock& b) {
  return std::equal(a.Tokens.begin(), a.Tokens.end(), b.Tokens.begin(), b.Tokens.end());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 GetBlockHashes
std::vector<std::vector<BlockHash>> GetBlockHashes(const std::vector<std::vector<std::uint32_t>>& perPromptTokens,
                                                   std::string_view targetModel, std::string_view cacheSalt,
                                                   int blockSizeTokens, int maxPrefixBlocks) {
  // tp.TokenCount() == 0: no prompt holds a token.
  std::size_t tokenCount = 0;
  for (const auto& pp : perPromptTokens) tokenCount += pp.size();
  if (tokenCount == 0) return {};

  std::vector<std::vector<BlockHash>> result;
  for (const auto& tokens : perPromptTokens) {
    const std::vector<HashBlock> seq = getKVCacheBlocksFromTokens(tokens, blockSizeTokens);
    std::vector<BlockHash> hashes = computeBlockHashes(seq, targetModel, cacheSalt, maxPrefixBlocks);
    if (!hashes.empty()) result.push_back(std::move(hashes));
  }
  return result;  // empty: "No kv cache block found" (upstream returns nil)
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 GetBlockHashes
std::vector<std::vector<BlockHash>> GetBlockHashes(const fwksched::InferenceRequest* request, int blockSizeTokens,
                                                   int maxPrefixBlocks) {
  if (request == nullptr || request->Body == nullptr) return {};  // request or request data is nil
  const std::optional<fwkrh::TokenizedPrompt>& tp = request->Body->TokenizedPrompt;
  if (!tp.has_value() || tp->TokenCount() == 0) return {};  // TokenizedPrompt is empty
  return GetBlockHashes(tp->PerPromptTokens, request->TargetModel, tp->CacheSalt, blockSizeTokens, maxPrefixBlocks);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 computeBlockHashes
std::vector<BlockHash> computeBlockHashes(const std::vector<HashBlock>& seq, std::string_view targetModel,
                                          std::string_view cacheSalt, int maxPrefixBlocks) {
  std::vector<BlockHash> blockHashes;

  Digest h;
  // Different models should have different hashes even with the same body.
  h.Write(targetModel);
  if (!cacheSalt.empty()) h.Write(cacheSalt);

  BlockHash prevBlockHash = h.Sum64();

  int count = 0;
  for (const HashBlock& block : seq) {
    if (count >= maxPrefixBlocks) break;
    h.Reset();
    const std::uint64_t blockID = block.Hash();
    const auto idBytes = toBytes(blockID);
    const auto prevBytes = toBytes(prevBlockHash);
    h.Write(std::span<const std::uint8_t>(idBytes));
    h.Write(std::span<const std::uint8_t>(prevBytes));
    blockHashes.push_back(h.Sum64());

    prevBlockHash = blockHashes.back();
    ++count;
  }
  return blockHashes;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 toBytes
std::array<std::uint8_t, 8> toBytes(BlockHash i) {
  std::array<std::uint8_t, 8> bytes{};
  PutBlockHash(bytes, i);
  return bytes;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 PutBlockHash
void PutBlockHash(std::span<std::uint8_t> buf, BlockHash h) {
  if (buf.size() < 8) throw std::invalid_argument("PutBlockHash: buf must have length at least 8");
  for (std::size_t b = 0; b < 8; ++b) buf[b] = static_cast<std::uint8_t>(h >> (8 * b));  // binary.LittleEndian
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 getKVCacheBlocksFromTokens
std::vector<HashBlock> getKVCacheBlocksFromTokens(std::span<const std::uint32_t> ids, int blockSizeTokens) {
  std::vector<HashBlock> blocks;
  if (ids.empty() || blockSizeTokens <= 0) return blocks;
  const std::size_t bs = static_cast<std::size_t>(blockSizeTokens);
  for (std::size_t i = 0; i < ids.size(); i += bs) {
    const std::size_t end = std::min(i + bs, ids.size());
    blocks.push_back(HashBlock{ids.subspan(i, end - i)});
  }
  return blocks;
}

}  // namespace blis::router::prefixhash
