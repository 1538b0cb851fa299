// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of pkg/kvcache/kvblock/extra_keys_test.go@71f4f099.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/extra_keys.h"
#include "router/kvcache/kvblock/token_processor.h"

namespace kb = blis::router::kvblock;
using kb::Any;

namespace {
std::optional<std::vector<Any>> strs(std::initializer_list<const char*> l) {
  std::vector<Any> v;
  for (auto s : l) v.push_back(Any::Str(s));
  return v;
}
Any tuple(const char* h, std::int64_t off) { return Any::Arr({Any::Str(h), Any::I64(off)}); }
std::shared_ptr<kb::TokenProcessor> proc() {
  kb::TokenProcessorConfig c;
  c.BlockSizeTokens = 16;
  c.HashSeed = "test";
  return kb::NewChunkedTokenDatabase(&c);
}
std::vector<std::uint32_t> seq(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i + 1);
  return v;
}
kb::BlockExtraFeatures feat(const char* h) { return kb::BlockExtraFeatures{{kb::MMHash{h}}}; }
}  // namespace

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestParseRawExtraKeys_Nil
TEST(KVBlockExtraKeys, ParseRawExtraKeysNil) { EXPECT_FALSE(kb::ParseRawExtraKeys(std::nullopt).has_value()); }

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestParseRawExtraKeys_NilInnerEntries
TEST(KVBlockExtraKeys, ParseRawExtraKeysNilInnerEntries) {
  kb::RawExtraKeys raw = std::vector<std::optional<std::vector<Any>>>{std::nullopt, std::nullopt, std::nullopt};
  auto r = kb::ParseRawExtraKeys(raw);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->size(), 3U);
  for (const auto& e : *r) EXPECT_FALSE(e.has_value());
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestParseRawExtraKeys_BareStringIdentifiers
TEST(KVBlockExtraKeys, ParseRawExtraKeysBareStringIdentifiers) {
  kb::RawExtraKeys raw = std::vector<std::optional<std::vector<Any>>>{
      strs({"hash_A"}), strs({"hash_A"}), std::nullopt, strs({"hash_B"}), strs({"hash_B", "hash_C"})};
  auto r = kb::ParseRawExtraKeys(raw);
  ASSERT_EQ(r->size(), 5U);
  ASSERT_TRUE((*r)[0]);
  EXPECT_EQ((*r)[0]->MMHashes[0].Hash, "hash_A");
  ASSERT_TRUE((*r)[1]);
  EXPECT_EQ((*r)[1]->MMHashes[0].Hash, "hash_A");
  EXPECT_FALSE((*r)[2]);
  ASSERT_TRUE((*r)[3]);
  EXPECT_EQ((*r)[3]->MMHashes[0].Hash, "hash_B");
  ASSERT_TRUE((*r)[4]);
  ASSERT_EQ((*r)[4]->MMHashes.size(), 2U);
  EXPECT_EQ((*r)[4]->MMHashes[0].Hash, "hash_B");
  EXPECT_EQ((*r)[4]->MMHashes[1].Hash, "hash_C");
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestParseRawExtraKeys_LegacyTuples
TEST(KVBlockExtraKeys, ParseRawExtraKeysLegacyTuples) {
  kb::RawExtraKeys raw = std::vector<std::optional<std::vector<Any>>>{
      std::vector<Any>{tuple("hash_A", 15)}, std::vector<Any>{tuple("hash_A", -1)}, std::nullopt,
      std::vector<Any>{tuple("hash_B", 2)}, std::vector<Any>{tuple("hash_B", -14), tuple("hash_C", 5)}};
  auto r = kb::ParseRawExtraKeys(raw);
  ASSERT_EQ(r->size(), 5U);
  EXPECT_EQ((*r)[0]->MMHashes[0].Hash, "hash_A");
  EXPECT_EQ((*r)[1]->MMHashes[0].Hash, "hash_A");
  EXPECT_FALSE((*r)[2]);
  EXPECT_EQ((*r)[3]->MMHashes[0].Hash, "hash_B");
  ASSERT_EQ((*r)[4]->MMHashes.size(), 2U);
  EXPECT_EQ((*r)[4]->MMHashes[0].Hash, "hash_B");
  EXPECT_EQ((*r)[4]->MMHashes[1].Hash, "hash_C");
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestParseRawExtraKeys_SkipsUnknownEntryTypes
TEST(KVBlockExtraKeys, ParseRawExtraKeysSkipsUnknownEntryTypes) {
  kb::RawExtraKeys raw = std::vector<std::optional<std::vector<Any>>>{std::vector<Any>{Any::I64(42), Any::Str("valid_hash")}};
  auto r = kb::ParseRawExtraKeys(raw);
  ASSERT_TRUE((*r)[0]);
  ASSERT_EQ((*r)[0]->MMHashes.size(), 1U);
  EXPECT_EQ((*r)[0]->MMHashes[0].Hash, "valid_hash");
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestComputeBlockExtraFeatures_NoOverlap
TEST(KVBlockExtraKeys, ComputeBlockExtraFeaturesNoOverlap) {
  EXPECT_FALSE(kb::ComputeBlockExtraFeatures({}, {}, 16, 64).has_value());
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestComputeBlockExtraFeatures_SingleImage
TEST(KVBlockExtraKeys, ComputeBlockExtraFeaturesSingleImage) {
  auto r = kb::ComputeBlockExtraFeatures({{"image", {"hash_A"}}}, {{"image", {{0, 48}}}}, 16, 64);
  ASSERT_EQ(r->size(), 4U);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE((*r)[i]);
    EXPECT_EQ((*r)[i]->MMHashes[0].Hash, "hash_A");
  }
  EXPECT_FALSE((*r)[3]);
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestComputeBlockExtraFeatures_TextOnlyBlocksBetweenImages
TEST(KVBlockExtraKeys, ComputeBlockExtraFeaturesTextOnlyBlocksBetweenImages) {
  auto r = kb::ComputeBlockExtraFeatures({{"image", {"hashA", "hashB"}}}, {{"image", {{0, 32}, {48, 32}}}}, 16, 80);
  ASSERT_EQ(r->size(), 5U);
  EXPECT_EQ((*r)[0]->MMHashes[0].Hash, "hashA");
  EXPECT_EQ((*r)[1]->MMHashes[0].Hash, "hashA");
  EXPECT_FALSE((*r)[2]);
  EXPECT_EQ((*r)[3]->MMHashes[0].Hash, "hashB");
  EXPECT_EQ((*r)[4]->MMHashes[0].Hash, "hashB");
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestMMFeatures_DifferentImagesProduceDifferentHashes
TEST(KVBlockExtraKeys, MMFeaturesDifferentImagesProduceDifferentHashes) {
  auto p = proc();
  const auto tokens = seq(16);
  kb::ExtraFeatures a = std::vector<std::optional<kb::BlockExtraFeatures>>{feat("image_hash_A")};
  kb::ExtraFeatures b = std::vector<std::optional<kb::BlockExtraFeatures>>{feat("image_hash_B")};
  EXPECT_NE(p->TokensToKVBlockKeys(0, tokens, "model", a)[0], p->TokensToKVBlockKeys(0, tokens, "model", b)[0]);
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestMMFeatures_NilFeaturesSameAsTextOnly
TEST(KVBlockExtraKeys, MMFeaturesNilFeaturesSameAsTextOnly) {
  auto p = proc();
  const auto tokens = seq(16);
  kb::ExtraFeatures explicitNil = std::vector<std::optional<kb::BlockExtraFeatures>>{std::nullopt};
  EXPECT_EQ(p->TokensToKVBlockKeys(0, tokens, "model", std::nullopt)[0], p->TokensToKVBlockKeys(0, tokens, "model", explicitNil)[0]);
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestMMFeatures_OnlyAffectOverlappingBlocks
TEST(KVBlockExtraKeys, MMFeaturesOnlyAffectOverlappingBlocks) {
  auto p = proc();
  const auto tokens = seq(64);
  auto text = p->TokensToKVBlockKeys(0, tokens, "model", std::nullopt);
  ASSERT_EQ(text.size(), 4U);
  kb::ExtraFeatures f = std::vector<std::optional<kb::BlockExtraFeatures>>{std::nullopt, std::nullopt, feat("image_X"), std::nullopt};
  auto img = p->TokensToKVBlockKeys(0, tokens, "model", f);
  ASSERT_EQ(img.size(), 4U);
  EXPECT_EQ(text[0], img[0]);
  EXPECT_EQ(text[1], img[1]);
  EXPECT_NE(text[2], img[2]);
  EXPECT_NE(text[3], img[3]);
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestMMFeatures_MismatchedLengthReturnsError
TEST(KVBlockExtraKeys, MMFeaturesMismatchedLengthReturnsError) {
  auto p = proc();
  const std::vector<std::uint32_t> tokens(32, 0);
  kb::ExtraFeatures f = std::vector<std::optional<kb::BlockExtraFeatures>>{std::nullopt};
  try {
    p->TokensToKVBlockKeys(0, tokens, "model", f);
    ADD_FAILURE() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("does not match token chunk count"), std::string::npos);
  }
}

// pkg/kvcache/kvblock/extra_keys_test.go@71f4f099 TestParseAndComputeProduceSameFeatures
TEST(KVBlockExtraKeys, ParseAndComputeProduceSameFeatures) {
  kb::RawExtraKeys raw = std::vector<std::optional<std::vector<Any>>>{strs({"img_hash"}), strs({"img_hash"}),
                                                                     strs({"img_hash"}), std::nullopt};
  auto parsed = kb::ParseRawExtraKeys(raw);
  auto computed = kb::ComputeBlockExtraFeatures({{"image", {"img_hash"}}}, {{"image", {{0, 48}}}}, 16, 64);
  ASSERT_EQ(parsed->size(), 4U);
  ASSERT_EQ(computed->size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    if (!(*parsed)[i]) {
      EXPECT_FALSE((*computed)[i]) << i;
    } else {
      ASSERT_TRUE((*computed)[i]) << i;
      EXPECT_EQ((*parsed)[i]->MMHashes, (*computed)[i]->MMHashes) << i;
    }
  }
}
