// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of the JSON tests of
// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 (TokenProcessorConfig's encoding/json form).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/token_processor_json.h"

namespace kb = blis::router::kvblock;

namespace {
kb::TokenProcessorConfig unmarshal(const std::string& s) {
  kb::TokenProcessorConfig c;
  kb::UnmarshalTokenProcessorConfig(nlohmann::json::parse(s), c);
  return c;
}
}  // namespace

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestTokenProcessorConfig_JSONUnmarshal
TEST(KVBlockTokenProcessorJSON, Unmarshal) {
  struct Case { std::string name, json; int wantBlockSize, wantBlockTokens; };
  for (const auto& tc : {Case{"blockSizeTokens field is decoded", R"({"blockSizeTokens": 32})", 0, 32},
                         Case{"legacy blockSize field is decoded", R"({"blockSize": 8})", 8, 0},
                         Case{"both fields present", R"({"blockSize": 8, "blockSizeTokens": 32})", 8, 32},
                         Case{"hashSeed decoded alongside blockSizeTokens", R"({"blockSizeTokens": 16, "hashSeed": "abc"})", 0, 16}}) {
    SCOPED_TRACE(tc.name);
    auto c = unmarshal(tc.json);
    EXPECT_EQ(c.BlockSize, tc.wantBlockSize);
    EXPECT_EQ(c.BlockSizeTokens, tc.wantBlockTokens);
  }
  EXPECT_EQ(unmarshal(R"({"blockSizeTokens": 16, "hashSeed": "abc"})").HashSeed, "abc");
  // Not in the Go test: encoding/json's case-insensitive key match, ignored unknown keys, type errors.
  EXPECT_EQ(unmarshal(R"({"BlockSizeTokens": 4, "other": true})").BlockSizeTokens, 4);
  try {
    unmarshal(R"({"blockSizeTokens": "16"})");
    ADD_FAILURE() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "json: cannot unmarshal string into Go struct field TokenProcessorConfig.blockSizeTokens of type int");
  }
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestTokenProcessorConfig_JSONUnmarshal_EndToEnd
TEST(KVBlockTokenProcessorJSON, UnmarshalEndToEnd) {
  struct Case { std::string name, json; int tokens, want; };
  for (const auto& tc : {Case{"blockSizeTokens drives chunking", R"({"blockSizeTokens": 8})", 32, 4},
                         Case{"legacy blockSize drives chunking via compat path", R"({"blockSize": 16})", 32, 2},
                         Case{"partial config with only hashSeed uses default block size of 16", R"({"hashSeed": "test"})", 32, 2}}) {
    SCOPED_TRACE(tc.name);
    auto c = unmarshal(tc.json);
    auto p = kb::NewChunkedTokenDatabase(&c);
    std::vector<std::uint32_t> tokens(static_cast<std::size_t>(tc.tokens));
    for (std::size_t i = 0; i < tokens.size(); ++i) tokens[i] = static_cast<std::uint32_t>(i + 1);
    EXPECT_EQ(p->TokensToKVBlockKeys(kb::EmptyBlockHash, tokens, "test-model", std::nullopt).size(),
              static_cast<std::size_t>(tc.want));
  }
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestTokenProcessorConfig_JSONMarshal
TEST(KVBlockTokenProcessorJSON, Marshal) {
  kb::TokenProcessorConfig a;
  a.BlockSizeTokens = 32;
  const auto ja = kb::MarshalTokenProcessorConfig(a);
  EXPECT_NE(ja.find(R"("blockSizeTokens":32)"), std::string::npos) << ja;
  EXPECT_EQ(ja.find(R"("blockSize")"), std::string::npos) << ja;
  kb::TokenProcessorConfig b;
  b.BlockSize = 8;
  b.BlockSizeTokens = 16;
  const auto jb = kb::MarshalTokenProcessorConfig(b);
  EXPECT_NE(jb.find(R"("blockSize":8)"), std::string::npos) << jb;
  EXPECT_NE(jb.find(R"("blockSizeTokens":16)"), std::string::npos) << jb;
  kb::TokenProcessorConfig c;
  c.BlockSizeTokens = 16;
  const auto jc = kb::MarshalTokenProcessorConfig(c);
  EXPECT_NE(jc.find(R"("blockSizeTokens":16)"), std::string::npos) << jc;
  EXPECT_EQ(jc.find(R"("blockSize")"), std::string::npos) << jc;
  // Not in the Go test: the whole document as encoding/json writes it, HTML escaping included.
  c.HashSeed = "a<b>&\"";
  EXPECT_EQ(kb::MarshalTokenProcessorConfig(c), R"({"blockSizeTokens":16,"hashSeed":"a\u003cb\u003e\u0026\""})");
}

// pkg/kvcache/kvblock/token_processor_test.go@71f4f099 TestTokenProcessorConfig_JSONRoundTrip
TEST(KVBlockTokenProcessorJSON, RoundTrip) {
  kb::TokenProcessorConfig original;
  original.BlockSize = 8;
  original.BlockSizeTokens = 32;
  original.HashSeed = "round-trip-seed";
  auto recovered = unmarshal(kb::MarshalTokenProcessorConfig(original));
  EXPECT_EQ(recovered.BlockSize, original.BlockSize);
  EXPECT_EQ(recovered.BlockSizeTokens, original.BlockSizeTokens);
  EXPECT_EQ(recovered.HashSeed, original.HashSeed);
}
