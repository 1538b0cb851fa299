// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: NOT UPSTREAM. Tests of PromptTextForTokenIDs, the BLIS inverse of packBytes of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 (INTERFACES.md "What
// a request carries"); upstream has no such function or test.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/prompt_image.h"

namespace blis::router::tokenizer {
namespace {

using Tokens = std::vector<std::uint32_t>;

// The token IDs upstream's estimate backend produces for a completions request whose prompt is text.
Tokens estimateCompletions(const std::string& text) {
  InferenceRequestBody body;
  body.Completions = CompletionsRequest{Prompt{text, {}, {}}, ""};
  const ProduceResult r = estimateBackend{}.produce(body);
  EXPECT_FALSE(r.Err.has_value());
  if (!r.Value || r.Value->PerPromptTokens.size() != 1) {
    ADD_FAILURE() << "want exactly one prompt";
    return {};
  }
  return r.Value->PerPromptTokens[0];
}

void expectRoundTrip(const Tokens& ids) {
  const std::string text = PromptTextForTokenIDs(ids);
  EXPECT_EQ(text.size(), ids.size() * bytesPerToken);
  EXPECT_EQ(packBytes(text), ids);
  EXPECT_EQ(estimateCompletions(text), ids);
}

// BLIS: exact byte images (little-endian) on edge values, including NUL bytes and invalid UTF-8.
TEST(PromptImageTest, ByteImagesOfEdgeIDs) {
  EXPECT_EQ(PromptTextForTokenIDs({}), "");
  EXPECT_EQ(PromptTextForTokenIDs(Tokens{0}), std::string("\0\0\0\0", 4));
  EXPECT_EQ(PromptTextForTokenIDs(Tokens{0xFFFFFFFFu}), "\xff\xff\xff\xff");
  EXPECT_EQ(PromptTextForTokenIDs(Tokens{0x41u}), std::string("A\0\0\0", 4));
  EXPECT_EQ(PromptTextForTokenIDs(Tokens{0x41000000u}), std::string("\0\0\0A", 4));
  EXPECT_EQ(PromptTextForTokenIDs(Tokens{0x64636261u, 0x00000065u}), std::string("abcde\0\0\0", 8));
}

// BLIS: IDs -> text -> IDs is the identity through packBytes and through the estimate backend.
TEST(PromptImageTest, TokenIDsRoundTrip) {
  expectRoundTrip({});
  expectRoundTrip({0});
  expectRoundTrip({0xFFFFFFFFu});
  expectRoundTrip({0, 0, 0});
  expectRoundTrip({0xFFFFFFFFu, 0, 0xFFFFFFFFu});
  expectRoundTrip({0x80C0FE00u, 0x00616263u, 1, 0xDEADBEEFu, 0x000000C3u, 0xBFEFBBEFu});
  // Every ID built from the byte values {0x00, 0x01, 0x7F, 0x80, 0xC0, 0xFF} in each of the four positions.
  const std::uint32_t bytes[] = {0x00, 0x01, 0x7F, 0x80, 0xC0, 0xFF};
  Tokens all;
  for (const std::uint32_t b0 : bytes) {
    for (const std::uint32_t b1 : bytes) {
      for (const std::uint32_t b2 : bytes) {
        for (const std::uint32_t b3 : bytes) {
          const std::uint32_t id = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
          expectRoundTrip({id});
          all.push_back(id);
        }
      }
    }
  }
  ASSERT_EQ(all.size(), 1296u);
  expectRoundTrip(all);
}

// BLIS: the empty prompt maps to one prompt with no tokens, the image of no IDs.
TEST(PromptImageTest, EmptyPrompt) {
  EXPECT_EQ(PromptTextForTokenIDs({}), "");
  EXPECT_TRUE(packBytes("").empty());
  EXPECT_TRUE(estimateCompletions("").empty());
}

// BLIS: text -> IDs -> text gives the text back when its length is a multiple of 4 bytes, and the text
// zero-padded to a multiple of 4 otherwise (upstream's align pads a trailing partial group with zeros).
TEST(PromptImageTest, TextRoundTrip) {
  const std::string aligned[] = {"", "abcd", std::string("\0\0\0\0", 4), std::string("\xff\x00\xfe\x80", 4),
                                 "the quick brown fox jumps over!!", std::string("\xc3\x28\xa0\xa1" "\xe2\x82\x28\x00", 8)};
  for (const std::string& text : aligned) {
    EXPECT_EQ(PromptTextForTokenIDs(packBytes(text)), text);
  }
  EXPECT_EQ(PromptTextForTokenIDs(packBytes("abcde")), std::string("abcde\0\0\0", 8));
  EXPECT_EQ(PromptTextForTokenIDs(packBytes("a")), std::string("a\0\0\0", 4));
  EXPECT_EQ(PromptTextForTokenIDs(packBytes(std::string("\xff\0", 2))), std::string("\xff\0\0\0", 4));
}

}  // namespace
}  // namespace blis::router::tokenizer
