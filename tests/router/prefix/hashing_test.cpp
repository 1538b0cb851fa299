// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: tests transcribed from pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing_test.go@71f4f099
// (TestGetBlockHashes through the request-taking overload, the others on the plain values), plus BLIS
// checks of the hash chaining.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/xxhash64.h"

namespace {

using namespace blis::router::prefixhash;
using Tokens = std::vector<std::uint32_t>;

// hashing_test.go testMaxPrefixBlocks: a cap large enough not to truncate any prompt in these tests.
constexpr int testMaxPrefixBlocks = 2048;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing_test.go@71f4f099 TestGetKVCacheBlocksFromTokens
TEST(PrefixHash, GetKVCacheBlocksFromTokens) {
  struct Case {
    std::string name;
    Tokens ids;
    int blockSizeTokens;
    std::vector<Tokens> expected;
  };
  const std::vector<Case> tests = {
      {"EvenSplit", {1, 2, 3, 4, 5, 6, 7, 8}, 4, {{1, 2, 3, 4}, {5, 6, 7, 8}}},
      {"TrailingPartialBlock", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 4, {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10}}},
      {"EmptyTokens", {}, 4, {}},
      {"NonPositiveBlockSize", {1, 2, 3}, 0, {}},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    const std::vector<HashBlock> blocks = getKVCacheBlocksFromTokens(tt.ids, tt.blockSizeTokens);
    std::vector<HashBlock> expected;
    for (const auto& e : tt.expected) expected.push_back(HashBlock{e});
    EXPECT_EQ(blocks, expected);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing_test.go@71f4f099 TestGetBlockHashes
// Every case through the request-taking overload (upstream's signature), including its nil checks.
TEST(PrefixHash, GetBlockHashes) {
  namespace fwksched = blis::router::fwksched;
  namespace fwkrh = blis::router::fwkrh;
  auto withBody = [](std::optional<fwkrh::TokenizedPrompt> tp) {
    auto req = std::make_shared<fwksched::InferenceRequest>();
    req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
    req->Body->TokenizedPrompt = std::move(tp);
    return req;
  };
  struct Case {
    std::string name;
    std::shared_ptr<fwksched::InferenceRequest> request;  // nullptr: Go's nil request
    int blockSizeTokens;
    int expectedBlocks;
  };
  const std::vector<Case> tests = {
      {"TokenizedPrompt", withBody(fwkrh::TokenizedPrompt{{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}, ""}), 4, 3},
      {"MissingTokenizedPrompt", withBody(std::nullopt), 4, 0},
      {"EmptyTokenIDs", withBody(fwkrh::TokenizedPrompt{}), 4, 0},
      {"NilRequest", nullptr, 4, 0},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    const auto perPromptHashes = GetBlockHashes(tt.request.get(), tt.blockSizeTokens, testMaxPrefixBlocks);
    int totalBlocks = 0;
    for (const auto& ph : perPromptHashes) totalBlocks += static_cast<int>(ph.size());
    EXPECT_EQ(totalBlocks, tt.expectedBlocks);
  }
}

// The request-taking overload reads TargetModel and the TokenizedPrompt's CacheSalt: the same hashes as the
// plain-value overload on those values (BLIS check of the delegation).
TEST(PrefixHash, GetBlockHashesRequestMatchesPlainValues) {
  namespace fwksched = blis::router::fwksched;
  namespace fwkrh = blis::router::fwkrh;
  fwksched::InferenceRequest req;
  req.TargetModel = "m";
  req.Body = std::make_shared<fwkrh::InferenceRequestBody>();
  req.Body->TokenizedPrompt = fwkrh::TokenizedPrompt{{{1, 2, 3, 4}, {5, 6}}, "salt"};
  const auto viaRequest = GetBlockHashes(&req, 2, testMaxPrefixBlocks);
  EXPECT_EQ(viaRequest, GetBlockHashes(std::vector<Tokens>{{1, 2, 3, 4}, {5, 6}}, "m", "salt", 2, testMaxPrefixBlocks));
  EXPECT_NE(viaRequest, GetBlockHashes(std::vector<Tokens>{{1, 2, 3, 4}, {5, 6}}, "m", "", 2, testMaxPrefixBlocks));
  EXPECT_EQ(viaRequest.size(), 2u);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing_test.go@71f4f099 TestGetBlockHashesCacheSalt
TEST(PrefixHash, GetBlockHashesCacheSalt) {
  const std::vector<Tokens> prompt = {{1, 2, 3, 4}};
  const auto noSalt = GetBlockHashes(prompt, "m", "", 2, testMaxPrefixBlocks);
  const auto salted = GetBlockHashes(prompt, "m", "salt", 2, testMaxPrefixBlocks);
  EXPECT_EQ(noSalt.size(), salted.size());
  EXPECT_NE(noSalt, salted) << "cache salt must change the block hashes";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing_test.go@71f4f099 TestGetBlockHashes_MultiPrompt
TEST(PrefixHash, GetBlockHashesMultiPrompt) {
  struct Case {
    std::string name;
    std::vector<Tokens> perPromptTokens;
    int blockSizeTokens;
    std::size_t expectedPrompts;
    std::vector<std::size_t> expectedBlocksPerPrompt;
  };
  const std::vector<Case> tests = {
      {"TwoPrompts", {{1, 2, 3, 4}, {5, 6, 7, 8}}, 2, 2, {2, 2}},
      {"ThreePromptsUnevenLengths", {{1, 2, 3}, {4, 5}, {6}}, 2, 3, {2, 1, 1}},
      {"EmptyPromptSkipped", {{1, 2}, {}, {3, 4}}, 2, 2, {1, 1}},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    const auto result = GetBlockHashes(tt.perPromptTokens, "model", "", tt.blockSizeTokens, testMaxPrefixBlocks);
    ASSERT_EQ(result.size(), tt.expectedPrompts);
    for (std::size_t i = 0; i < tt.expectedBlocksPerPrompt.size(); ++i) {
      EXPECT_EQ(result[i].size(), tt.expectedBlocksPerPrompt[i]) << "prompt " << i << " block count";
    }
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing_test.go@71f4f099 TestGetBlockHashes_MultiPromptHashIndependence
TEST(PrefixHash, GetBlockHashesMultiPromptHashIndependence) {
  const auto multi = GetBlockHashes({{1, 2}, {3, 4}}, "model", "", 2, testMaxPrefixBlocks);
  const auto single = GetBlockHashes({{1, 2, 3, 4}}, "model", "", 2, testMaxPrefixBlocks);
  ASSERT_EQ(multi.size(), 2u) << "multi-prompt should produce 2 inner slices";
  ASSERT_EQ(single.size(), 1u) << "single-prompt should produce 1 inner slice";
  // First block of each starts from the same model seed, so [1,2] hashes match.
  EXPECT_EQ(multi[0][0], single[0][0]) << "first block of first prompt should match single prompt's first block";
  // The second prompt starts a fresh chain from the model seed; the single prompt's second block chains.
  EXPECT_NE(multi[1][0], single[0][1]) << "second prompt must start its own hash chain, not chain from the first prompt";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing_test.go@71f4f099 TestKVCacheBlock_Hash
TEST(PrefixHash, KVCacheBlockHash) {
  const Tokens t12 = {1, 2}, t13 = {1, 3};
  struct Case {
    std::string name;
    HashBlock blockA, blockB;
    bool shouldEq;
  };
  const std::vector<Case> tests = {
      {"Identical token IDs", HashBlock{t12}, HashBlock{t12}, true},
      {"Different token IDs", HashBlock{t12}, HashBlock{t13}, false},
      {"Empty fields match", HashBlock{}, HashBlock{}, true},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    if (tt.shouldEq) {
      EXPECT_EQ(tt.blockA.Hash(), tt.blockB.Hash());
    } else {
      EXPECT_NE(tt.blockA.Hash(), tt.blockB.Hash());
    }
  }
}

// BLIS: the byte layouts. HashBlock.Hash is XXH64 of each token's 4 little-endian bytes (upstream's
// in-memory []uint32 on little-endian hosts) and 0 for an empty block; PutBlockHash is little-endian.
TEST(PrefixHash, ByteLayouts) {
  const Tokens t = {0x04030201u, 0x08070605u};
  const std::array<std::uint8_t, 8> le = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(HashBlock{t}.Hash(), XXH64(std::span<const std::uint8_t>(le)));
  EXPECT_EQ(HashBlock{}.Hash(), 0u);

  EXPECT_EQ(toBytes(0x0807060504030201ULL), le);
  std::array<std::uint8_t, 10> buf{};
  buf.fill(0xff);
  PutBlockHash(buf, 0x0807060504030201ULL);
  EXPECT_EQ(buf[0], 1);
  EXPECT_EQ(buf[7], 8);
  EXPECT_EQ(buf[8], 0xff);  // only the first 8 bytes are written
  std::array<std::uint8_t, 7> shortBuf{};
  EXPECT_THROW(PutBlockHash(shortBuf, 1), std::invalid_argument);
}

// BLIS: the chain. The seed is XXH64(model ++ salt); block i hashes LE(Hash(block i)) ++ LE(hash(i-1)).
// Assembled here with the one-shot XXH64, independent of the streaming digest the port chains with.
TEST(PrefixHash, ChainComposition) {
  const std::string model = "model-x", salt = "s1";
  const Tokens p = {10, 11, 12, 13, 14};
  const auto got = GetBlockHashes({p}, model, salt, 2, testMaxPrefixBlocks);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].size(), 3u);

  std::uint64_t prev = XXH64(model + salt);
  std::vector<std::uint64_t> want;
  for (std::size_t i = 0; i < p.size(); i += 2) {
    const std::span<const std::uint32_t> blk = std::span<const std::uint32_t>(p).subspan(i, std::min<std::size_t>(2, p.size() - i));
    std::vector<std::uint8_t> tok;
    for (std::uint32_t v : blk) {
      for (int b = 0; b < 4; ++b) tok.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
    }
    const std::uint64_t id = XXH64(std::span<const std::uint8_t>(tok));
    std::vector<std::uint8_t> buf;
    for (std::uint64_t w : {id, prev}) {
      for (int b = 0; b < 8; ++b) buf.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
    }
    prev = XXH64(std::span<const std::uint8_t>(buf));
    want.push_back(prev);
  }
  EXPECT_EQ(got[0], want);

  // An empty salt is not written: the seed is XXH64(model) alone, the same as salt "" concatenated.
  const auto unsalted = GetBlockHashes({p}, model, "", 2, testMaxPrefixBlocks);
  const auto modelOnlyAsSalt = GetBlockHashes({p}, "", model, 2, testMaxPrefixBlocks);
  EXPECT_EQ(unsalted, modelOnlyAsSalt);  // both seed with XXH64("model-x")
  EXPECT_NE(unsalted, GetBlockHashes({p}, "other", "", 2, testMaxPrefixBlocks));  // the model name matters
}

// BLIS: maxPrefixBlocks caps each prompt's chain (the prefix is unchanged); a cap of 0 yields no blocks.
TEST(PrefixHash, MaxPrefixBlocksCap) {
  const std::vector<Tokens> prompts = {{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14}};
  const auto full = GetBlockHashes(prompts, "m", "", 2, testMaxPrefixBlocks);
  const auto capped = GetBlockHashes(prompts, "m", "", 2, 2);
  ASSERT_EQ(full.size(), 2u);
  ASSERT_EQ(capped.size(), 2u);
  EXPECT_EQ(full[0].size(), 4u);
  EXPECT_EQ(full[1].size(), 3u);
  for (std::size_t p = 0; p < 2; ++p) {
    ASSERT_EQ(capped[p].size(), 2u);
    EXPECT_EQ(capped[p][0], full[p][0]);
    EXPECT_EQ(capped[p][1], full[p][1]);
  }
  EXPECT_TRUE(GetBlockHashes(prompts, "m", "", 2, 0).empty());
}

}  // namespace
