// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of pkg/kvcache/kvblock/token_processor_test.go@71f4f099 (the
// tests of the port's token processor), plus known-answer tests of FNV-1a and of the CBOR payload, whose
// expected values were computed by an independent implementation of the two specifications.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/cbor.h"
#include "router/kvcache/kvblock/fnv.h"
#include "router/kvcache/kvblock/token_processor.h"

namespace kb = blis::router::kvblock;

namespace {
std::vector<std::uint32_t> seq(std::uint32_t from, std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = from + static_cast<std::uint32_t>(i);
  return v;
}
std::shared_ptr<kb::TokenProcessor> make(int blockSizeTokens, const std::string& seed, int blockSize = 0) {
  kb::TokenProcessorConfig c;
  c.BlockSizeTokens = blockSizeTokens;
  c.BlockSize = blockSize;
  c.HashSeed = seed;
  return kb::NewChunkedTokenDatabase(&c);
}
}  // namespace

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestNewChunkedTokenDatabase_Validation
TEST(KVBlockTokenProcessor, NewChunkedTokenDatabaseValidation) {
  struct Case {
    std::string name;
    bool nilConfig;
    kb::TokenProcessorConfig config;
    bool wantErr;
    std::string errSubstr;
  };
  auto cfg = [](int bst, int bs) { kb::TokenProcessorConfig c; c.BlockSizeTokens = bst; c.BlockSize = bs; return c; };
  const std::vector<Case> cases = {
      {"BlockSizeTokens zero uses default", false, cfg(0, 0), false, ""},
      {"BlockSizeTokens negative returns error", false, cfg(-1, 0), true, "blockSizeTokens must be greater than 0, got -1"},
      {"BlockSizeTokens positive succeeds", false, cfg(16, 0), false, ""},
      {"Backward compatibility: BlockSize still works", false, cfg(0, 16), false, ""},
      {"BlockSizeTokens takes precedence when both are set", false, cfg(16, 8), false, ""},
      {"nil config uses defaults and succeeds", true, {}, false, ""},
      {"deprecated BlockSize negative reports actual value in error", false, cfg(0, -5), true,
       "blockSizeTokens must be greater than 0, got -5"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    if (tc.wantErr) {
      try {
        kb::NewChunkedTokenDatabase(&tc.config);
        ADD_FAILURE() << "expected an error";
      } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(tc.errSubstr), std::string::npos) << e.what();
      }
    } else {
      auto p = kb::NewChunkedTokenDatabase(tc.nilConfig ? nullptr : &tc.config);
      ASSERT_NE(p, nullptr);
      EXPECT_GT(p->BlockSize(), 0);
    }
  }
  EXPECT_EQ(kb::NewChunkedTokenDatabase(nullptr)->BlockSize(), 16);
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestBlockSizeTokensPrecedence
TEST(KVBlockTokenProcessor, BlockSizeTokensPrecedence) {
  auto p = make(16, "test", 8);
  const auto tokens = seq(1, 32);
  EXPECT_EQ(p->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "test-model", std::nullopt).size(), 2U);
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestNewChunkedTokenDatabase_DoesNotMutateCallerConfig
TEST(KVBlockTokenProcessor, DoesNotMutateCallerConfig) {
  kb::TokenProcessorConfig c;
  c.BlockSize = 16;
  c.HashSeed = "test";
  kb::NewChunkedTokenDatabase(&c);
  EXPECT_EQ(c.BlockSizeTokens, 0);
  EXPECT_EQ(c.initHash, 0U);
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestBackwardCompatibility_BlockSize
TEST(KVBlockTokenProcessor, BackwardCompatibilityBlockSize) {
  auto p = make(0, "test", 8);
  const auto tokens = seq(1, 32);
  EXPECT_EQ(p->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "test-model", std::nullopt).size(), 4U);
  EXPECT_EQ(p->BlockSize(), 8);
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestGetInitHash_ConsistentHashesForSameModel
TEST(KVBlockTokenProcessor, GetInitHashConsistentHashesForSameModel) {
  auto p = make(16, "test-seed");
  const auto tokens = seq(1, 16);
  auto k1 = p->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "test-model", std::nullopt);
  auto k2 = p->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "test-model", std::nullopt);
  auto k3 = p->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "test-model", std::nullopt);
  ASSERT_FALSE(k1.empty());
  ASSERT_FALSE(k2.empty());
  ASSERT_FALSE(k3.empty());
  EXPECT_EQ(k1[0], k2[0]);
  EXPECT_EQ(k1[0], k3[0]);
  EXPECT_NE(k1[0], kb::EmptyBlockHash);
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestGetInitHash_DifferentHashesForDifferentModels
TEST(KVBlockTokenProcessor, GetInitHashDifferentHashesForDifferentModels) {
  auto p = make(16, "test-seed");
  const auto tokens = seq(1, 16);
  std::set<std::uint64_t> seen;
  for (const std::string m : {"gpt-4", "llama-2-7b", "claude-3", "gemini-pro", "", "a",
                              "very-long-model-name-with-special-characters-123!@#"}) {
    auto k = p->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, m, std::nullopt);
    ASSERT_FALSE(k.empty()) << m;
    EXPECT_NE(k[0], 0U) << m;
    EXPECT_TRUE(seen.insert(k[0]).second) << "collision for model " << m;
  }
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestGetInitHash_DifferentSeedsProduceDifferentHashes
TEST(KVBlockTokenProcessor, GetInitHashDifferentSeedsProduceDifferentHashes) {
  const auto tokens = seq(1, 16);
  std::set<std::uint64_t> seen;
  for (const std::string seed : {"", "seed1", "seed2", "different-seed", "123456"}) {
    auto k = make(16, seed)->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "test-model", std::nullopt);
    ASSERT_FALSE(k.empty());
    EXPECT_NE(k[0], 0U);
    EXPECT_TRUE(seen.insert(k[0]).second) << "collision for seed " << seed;
  }
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestGetInitHash_Deterministic
TEST(KVBlockTokenProcessor, GetInitHashDeterministic) {
  const auto tokens = seq(1, 16);
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < 5; ++i) {
    auto k = make(16, "deterministic-seed")->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "deterministic-test", std::nullopt);
    ASSERT_FALSE(k.empty());
    hashes.push_back(k[0]);
  }
  for (auto h : hashes) EXPECT_EQ(h, hashes[0]);
  EXPECT_NE(hashes[0], 0U);
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestHeterogeneousBlockSizeSupport
TEST(KVBlockTokenProcessor, HeterogeneousBlockSizeSupport) {
  const auto tokens = seq(1, 512);
  auto proc = [](int bs) { return make(0, "test-seed", bs); };
  // different block sizes produce different hashes
  EXPECT_NE(proc(32)->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt)[0],
            proc(16)->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt)[0]);
  // correct key count per resolution
  EXPECT_EQ(proc(256)->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt).size(), 2U);
  EXPECT_EQ(proc(16)->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt).size(), 32U);
  // partial block produces no key
  const auto partial = seq(1, 300);
  EXPECT_EQ(proc(256)->TokensToKVBlockKeys(0, partial, "test-model", std::nullopt).size(), 1U);
  // hash chains are independent
  auto storage = proc(256)->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt);
  auto gpu = proc(16)->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt);
  std::set<kb::BlockHash> gpuSet(gpu.begin(), gpu.end());
  for (auto sk : storage) EXPECT_EQ(gpuSet.count(sk), 0U);
  // parentKey propagates correctly
  auto withParent = proc(256)->TokensToKVBlockKeys(999999, tokens, "test-model", std::nullopt);
  auto withoutParent = proc(256)->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt);
  ASSERT_EQ(withParent.size(), 2U);
  ASSERT_EQ(withoutParent.size(), 2U);
  EXPECT_NE(withParent[0], withoutParent[0]);
}

// Known answers (not an upstream test): FNV-1a 64 test vectors of the FNV specification.
TEST(KVBlockTokenProcessor, FNV64aKnownAnswers) {
  EXPECT_EQ(kb::FNV64a(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(kb::FNV64a("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(kb::FNV64a("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(kb::FNV32a(""), 0x811c9dc5U);
  EXPECT_EQ(kb::FNV32a("a"), 0xe40c292cU);
}

// Known answers (not an upstream test): RFC 8949 Appendix A encodings of the items the payload uses.
TEST(KVBlockTokenProcessor, CBORKnownAnswers) {
  auto enc = [](auto f) { kb::CborWriter w; f(w); return w.Bytes(); };
  EXPECT_EQ(enc([](auto& w) { w.Uint(0); }), std::string("\x00", 1));
  EXPECT_EQ(enc([](auto& w) { w.Uint(23); }), "\x17");
  EXPECT_EQ(enc([](auto& w) { w.Uint(24); }), "\x18\x18");
  EXPECT_EQ(enc([](auto& w) { w.Uint(1000); }), "\x19\x03\xe8");
  EXPECT_EQ(enc([](auto& w) { w.Uint(1000000); }), std::string("\x1a\x00\x0f\x42\x40", 5));
  EXPECT_EQ(enc([](auto& w) { w.Uint(1000000000000ULL); }), std::string("\x1b\x00\x00\x00\xe8\xd4\xa5\x10\x00", 9));
  EXPECT_EQ(enc([](auto& w) { w.Uint(18446744073709551615ULL); }), "\x1b\xff\xff\xff\xff\xff\xff\xff\xff");
  EXPECT_EQ(enc([](auto& w) { w.NegInt(-10); }), "\x29");
  EXPECT_EQ(enc([](auto& w) { w.Null(); }), "\xf6");
  EXPECT_EQ(enc([](auto& w) { w.Text("IETF"); }), "\x64IETF");
  EXPECT_EQ(enc([](auto& w) { w.Text(""); }), "\x60");
  EXPECT_EQ(enc([](auto& w) { w.ArrayHeader(3); w.Uint(1); w.Uint(2); w.Uint(3); }), "\x83\x01\x02\x03");
  EXPECT_EQ(enc([](auto& w) { w.ArrayHeader(25); }), "\x98\x19");
  EXPECT_EQ(enc([](auto& w) { w.MapHeader(1); w.Text("a"); w.Uint(1); }), "\xa1\x61\x61\x01");
}

// Known answers (not an upstream test): the keys for seeds "" and "test-seed", model "test-model", tokens
// 1..32 in blocks of 16: FNV-64a over canonical CBOR [parent, tokens, extra] as computed independently from
// the two specifications; and a multimodal block ([]MMHash extra) with multi-byte token encodings.
TEST(KVBlockTokenProcessor, HashChainKnownAnswers) {
  const auto tokens = seq(1, 32);
  auto k0 = make(16, "")->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt);
  ASSERT_EQ(k0.size(), 2U);
  EXPECT_EQ(k0[0], 9540012594951042066ULL);
  EXPECT_EQ(k0[1], 16921089685996993662ULL);
  auto k1 = make(16, "test-seed")->TokensToKVBlockKeys(0, tokens, "test-model", std::nullopt);
  EXPECT_EQ(k1[0], 9813823192409008620ULL);
  EXPECT_EQ(k1[1], 682745025325898328ULL);
  // a parent key continues the chain: block 2 from block 1's key
  auto cont = make(16, "test-seed")->TokensToKVBlockKeys(k1[0], seq(17, 16), "ignored", std::nullopt);
  ASSERT_EQ(cont.size(), 1U);
  EXPECT_EQ(cont[0], k1[1]);

  kb::TokenProcessorConfig c;
  c.BlockSizeTokens = 4;
  auto db = kb::chunkedTokenDatabase([&] { auto cc = c; cc.initHash = kb::FNV64a(""); return cc; }());
  EXPECT_EQ(db.getInitHash("m"), 11374735546233341228ULL);
  std::vector<std::uint32_t> mmTokens = {100, 1000, 70000, 4000000000U};
  std::span<const std::uint32_t> sp(mmTokens);
  const std::vector<kb::MMHash> mm = {{"img-1"}};
  EXPECT_EQ(kb::HashPayloadCBOR(db.getInitHash("m"), &sp, nullptr, &mm),
            std::string("\x83\x1b\x9d\xdb\x2d\xb6\x9f\x3f\x45\x2c\x84\x18\x64\x19\x03\xe8\x1a\x00\x01\x11\x70\x1a\xee\x6b"
                        "\x28\x00\x81\xa1\x64Hash\x65img-1", 39));
  kb::ExtraFeatures ef = std::vector<std::optional<kb::BlockExtraFeatures>>{kb::BlockExtraFeatures{mm}};
  auto p = make(4, "");
  auto keys = p->TokensToKVBlockKeys(0, mmTokens, "m", ef);
  ASSERT_EQ(keys.size(), 1U);
  EXPECT_EQ(keys[0], 10080641559284283220ULL);
  // the payload of the init hash: [initHash, null, "m"]
  const std::string model = "m";
  EXPECT_EQ(kb::HashPayloadCBOR(kb::FNV64a(""), nullptr, &model, nullptr),
            std::string("\x83\x1b\xcb\xf2\x9c\xe4\x84\x22\x23\x25\xf6\x61m", 13));
}
