// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcriptions of the Produce tests of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer_test.go@71f4f099 that do not need
// the render backend, run against the port's token producer (router/cmd/epp/runner/token_producer.h) on the
// estimate backend, the only backend the port has. Where upstream's mock tokenizer stands in for the render
// backend, the estimate backend is given the input that reaches the same branch of Plugin.Produce; each case
// says which. Plus BLIS tests (marked) of the cache salt on the estimate path.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/cmd/epp/runner/token_producer.h"

namespace blis::router::tokenizer {
namespace {

using Tokens = std::vector<std::uint32_t>;

// tokenizer_test.go@71f4f099 newTestPlugin, on the estimate backend.
Plugin newTestPlugin() { return Plugin("test-tokenizer"); }

fwksched::InferenceRequest requestWith(fwkrh::InferenceRequestBody body) {
  fwksched::InferenceRequest req;
  req.Body = std::make_shared<fwkrh::InferenceRequestBody>(std::move(body));
  return req;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer_test.go@71f4f099 TestProduce_SkipsWhenAlreadyPopulated
TEST(TokenProducerProduce, SkipsWhenAlreadyPopulated) {
  fwkrh::InferenceRequestBody body;
  body.TokenizedPrompt = fwkrh::TokenizedPrompt{{Tokens{42}}, ""};
  auto req = requestWith(std::move(body));
  const fwkrh::TokenizedPrompt* existing = &*req.Body->TokenizedPrompt;
  const Plugin p = newTestPlugin();
  ASSERT_EQ(p.Produce(&req), std::nullopt);
  ASSERT_TRUE(req.Body->TokenizedPrompt.has_value());
  // assert.Same: the prompt the body held is the one it holds, unchanged.
  EXPECT_EQ(&*req.Body->TokenizedPrompt, existing);
  EXPECT_EQ(req.Body->TokenizedPrompt->PerPromptTokens, (std::vector<Tokens>{Tokens{42}}));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer_test.go@71f4f099 TestProduce_SetsCacheSaltOnSkipPath
// Upstream's mock fails the test if the backend runs; here the body also holds a chat request whose estimate
// would differ from the pre-populated tokens, so a backend run would show in PerPromptTokens.
TEST(TokenProducerProduce, SetsCacheSaltOnSkipPath) {
  fwkrh::InferenceRequestBody body;
  fwkrh::ChatCompletionsRequest chat;
  chat.CacheSalt = "tenant-x";
  body.ChatCompletions = chat;
  body.TokenizedPrompt = fwkrh::TokenizedPrompt{{Tokens{1, 2, 3}}, ""};
  auto req = requestWith(std::move(body));
  const fwkrh::TokenizedPrompt* existing = &*req.Body->TokenizedPrompt;
  const Plugin p = newTestPlugin();
  ASSERT_EQ(p.Produce(&req), std::nullopt);
  ASSERT_TRUE(req.Body->TokenizedPrompt.has_value());
  EXPECT_EQ(&*req.Body->TokenizedPrompt, existing);
  EXPECT_EQ(req.Body->TokenizedPrompt->CacheSalt, "tenant-x");
  EXPECT_EQ(req.Body->TokenizedPrompt->PerPromptTokens.at(0), (Tokens{1, 2, 3}));
}

// BLIS: a salt the pre-populated prompt already carries is kept on the skip path (upstream fills only an
// empty one).
TEST(TokenProducerProduce, SkipPathKeepsAnExistingSalt) {
  fwkrh::InferenceRequestBody body;
  fwkrh::ChatCompletionsRequest chat;
  chat.CacheSalt = "tenant-x";
  body.ChatCompletions = chat;
  body.TokenizedPrompt = fwkrh::TokenizedPrompt{{Tokens{7}}, "parser-salt"};
  auto req = requestWith(std::move(body));
  ASSERT_EQ(newTestPlugin().Produce(&req), std::nullopt);
  EXPECT_EQ(req.Body->TokenizedPrompt->CacheSalt, "parser-salt");
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer_test.go@71f4f099 TestProduce_NilBody
TEST(TokenProducerProduce, NilBody) {
  fwksched::InferenceRequest req;
  const Plugin p = newTestPlugin();
  const std::optional<std::string> err = p.Produce(&req);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("request body is nil"), std::string::npos) << *err;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer_test.go@71f4f099 TestProduce_StringArrayPromptDoesNotPublishEmptyTokenResult
// Upstream's mock render returns no tokens; the estimate backend gives each empty string no tokens, so the
// result's TokenCount() is 0 in both and Plugin.Produce stores nothing.
TEST(TokenProducerProduce, StringArrayPromptDoesNotPublishEmptyTokenResult) {
  fwkrh::InferenceRequestBody body;
  fwkrh::CompletionsRequest c;
  c.Prompt.Strings = {"", ""};
  body.Completions = c;
  auto req = requestWith(std::move(body));
  const Plugin p = newTestPlugin();
  ASSERT_EQ(p.Produce(&req), std::nullopt);
  EXPECT_FALSE(req.Body->TokenizedPrompt.has_value());
}

// BLIS: on the estimate path the stored prompt carries the body's cache salt (tokenizer.go@71f4f099
// Plugin.Produce: tp.CacheSalt = CacheSaltFromBody(request.Body)), and the tokens are the backend's.
TEST(TokenProducerProduce, EstimatePathSetsCacheSalt) {
  fwkrh::InferenceRequestBody body;
  fwkrh::CompletionsRequest c;
  c.Prompt.Raw = "abcdefgh";
  c.CacheSalt = "tenant-y";
  body.Completions = c;
  auto req = requestWith(std::move(body));
  ASSERT_EQ(newTestPlugin().Produce(&req), std::nullopt);
  ASSERT_TRUE(req.Body->TokenizedPrompt.has_value());
  EXPECT_EQ(req.Body->TokenizedPrompt->CacheSalt, "tenant-y");
  EXPECT_EQ(req.Body->TokenizedPrompt->TokenCount(), 2);
}

// BLIS: the backend's error is returned as Go's error text and nothing is stored (a body naming no protocol).
TEST(TokenProducerProduce, BackendErrorIsReturned) {
  auto req = requestWith(fwkrh::InferenceRequestBody{});
  const std::optional<std::string> err = newTestPlugin().Produce(&req);
  ASSERT_TRUE(err.has_value());
  EXPECT_FALSE(req.Body->TokenizedPrompt.has_value());
}

}  // namespace
}  // namespace blis::router::tokenizer
