// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: tests transcribed from the text and token-ID cases of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099, plus BLIS tests
// (marked) of packBytes' byte order, the chat byte layout, the error path, the refusals and CacheSaltFromBody.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/xxhash64.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.h"

namespace blis::router::tokenizer {
namespace {

using Tokens = std::vector<std::uint32_t>;

// estimate_test.go@71f4f099 hashTokens: the XXH64 of the tokens as little-endian bytes (upstream
// reinterprets the uint32 slice in memory; the bytes are written out explicitly here).
std::uint64_t hashTokens(const Tokens& t) {
  if (t.empty()) {
    return 0;
  }
  std::string bytes;
  for (const std::uint32_t v : t) {
    for (int k = 0; k < 4; ++k) {
      bytes += static_cast<char>(static_cast<unsigned char>((v >> (8 * k)) & 0xFFu));
    }
  }
  return prefixhash::XXH64(bytes);
}

InferenceRequestBody completionsBody(const std::string& s) {
  InferenceRequestBody b;
  b.Completions = CompletionsRequest{Prompt{s, {}, {}}, ""};
  return b;
}

TokenizedPrompt mustProduce(const InferenceRequestBody& body) {
  const ProduceResult r = estimateBackend{}.produce(body);
  if (r.Err) {
    ADD_FAILURE() << "produce: " << *r.Err;
  }
  if (!r.Value) {
    ADD_FAILURE() << "produce returned no TokenizedPrompt";
    return {};
  }
  return *r.Value;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestPackBytes_KeyPreserving
TEST(EstimateTest, PackBytesKeyPreserving) {
  const std::string raw = "the quick brown fox jumps over!!";  // len 32, 4-byte aligned
  ASSERT_EQ(raw.size() % bytesPerToken, 0u) << "fixture must be 4-byte aligned";
  const Tokens tokens = packBytes(raw);
  ASSERT_EQ(tokens.size(), raw.size() / bytesPerToken);
  EXPECT_EQ(prefixhash::XXH64(raw), hashTokens(tokens))
      << "packed-token hash != raw-byte hash; estimate path is not key-preserving";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_GeneratePassthrough
TEST(EstimateTest, GeneratePassthrough) {
  const Tokens in = {7, 8, 9};
  InferenceRequestBody body;
  body.Generate = GenerateRequest{in, ""};
  const TokenizedPrompt tp = mustProduce(body);
  ASSERT_EQ(tp.PerPromptTokens.size(), 1u);
  EXPECT_EQ(tp.PerPromptTokens[0], in);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_CompletionsTokenIDsPassthrough
TEST(EstimateTest, CompletionsTokenIDsPassthrough) {
  const Tokens in = {11, 22, 33};
  InferenceRequestBody body;
  body.Completions = CompletionsRequest{Prompt{"", {}, in}, ""};
  const TokenizedPrompt tp = mustProduce(body);
  ASSERT_EQ(tp.PerPromptTokens.size(), 1u);
  EXPECT_EQ(tp.PerPromptTokens[0], in) << "token IDs must pass through, not be byte-estimated";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_EmbeddingsTokenIDsPassthrough
TEST(EstimateTest, EmbeddingsTokenIDsPassthrough) {
  const Tokens in = {4, 5};
  InferenceRequestBody body;
  body.Embeddings = EmbeddingsRequest{EmbeddingsInput{"", {}, in}, ""};
  const TokenizedPrompt tp = mustProduce(body);
  ASSERT_EQ(tp.PerPromptTokens.size(), 1u);
  EXPECT_EQ(tp.PerPromptTokens[0], in);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_CompletionsDeterministic
TEST(EstimateTest, CompletionsDeterministic) {
  const TokenizedPrompt a = mustProduce(completionsBody("hello world"));
  const TokenizedPrompt b = mustProduce(completionsBody("hello world"));
  ASSERT_EQ(a.PerPromptTokens.size(), 1u);
  ASSERT_EQ(b.PerPromptTokens.size(), 1u);
  EXPECT_EQ(hashTokens(a.PerPromptTokens[0]), hashTokens(b.PerPromptTokens[0])) << "same prompt produced different tokens";
  const TokenizedPrompt c = mustProduce(completionsBody("hello there"));
  ASSERT_EQ(c.PerPromptTokens.size(), 1u);
  EXPECT_NE(hashTokens(a.PerPromptTokens[0]), hashTokens(c.PerPromptTokens[0])) << "distinct prompts produced identical tokens";
}

// The json.Marshal text of a one-element []any (Go: "[" + element + "]").
std::string marshalToolsSlice(const std::vector<std::string>& tools) {
  std::string out = "[";
  for (std::size_t i = 0; i < tools.size(); ++i) {
    out += (i > 0 ? "," : "") + tools[i];
  }
  return out + "]";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_ChatToolsBeforeSystem
// The tool is upstream's map[string]any{"name": ...}, given as its json.Marshal text.
TEST(EstimateTest, ChatToolsBeforeSystem) {
  const std::vector<std::string> tools = {R"({"name":"search_for_long_enough_byte_segment_for_this_ordering_test"})"};
  const std::string toolsJSON = marshalToolsSlice(tools);
  // -1 skips the token straddling the tools/system byte boundary.
  const std::size_t sharedTokens = toolsJSON.size() / bytesPerToken - 1;
  const auto chat = [&](const std::string& systemContent) {
    InferenceRequestBody b;
    b.ChatCompletions = ChatCompletionsRequest{
        {Message{"system", Content{systemContent, {}}}, Message{"user", Content{"hi", {}}}}, tools, ""};
    return b;
  };
  const TokenizedPrompt a = mustProduce(chat("you are a helpful assistant"));
  const TokenizedPrompt b = mustProduce(chat("you are a concise assistant"));
  ASSERT_EQ(a.PerPromptTokens.size(), 1u);
  ASSERT_EQ(b.PerPromptTokens.size(), 1u);
  ASSERT_NE(hashTokens(a.PerPromptTokens[0]), hashTokens(b.PerPromptTokens[0])) << "streams identical, system was not applied";
  ASSERT_GE(a.PerPromptTokens[0].size(), sharedTokens);
  ASSERT_GE(b.PerPromptTokens[0].size(), sharedTokens);
  for (std::size_t i = 0; i < sharedTokens; ++i) {
    EXPECT_EQ(a.PerPromptTokens[0][i], b.PerPromptTokens[0][i])
        << "token " << i << " differs: tools should seed the prefix before system";
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_ChatToolsAffectPrefix
// The tools are upstream's maps, given as their json.Marshal text (Go sorts map keys).
TEST(EstimateTest, ChatToolsAffectPrefix) {
  const auto chat = [](const std::vector<std::string>& tools) {
    InferenceRequestBody b;
    b.ChatCompletions = ChatCompletionsRequest{{Message{"user", Content{"hello world", {}}}}, tools, ""};
    return b;
  };
  const TokenizedPrompt noTools = mustProduce(chat({}));
  const TokenizedPrompt withTools = mustProduce(chat({R"({"function":{"name":"get_weather"},"type":"function"})"}));
  ASSERT_EQ(noTools.PerPromptTokens.size(), 1u);
  ASSERT_EQ(withTools.PerPromptTokens.size(), 1u);
  EXPECT_NE(hashTokens(noTools.PerPromptTokens[0]), hashTokens(withTools.PerPromptTokens[0]))
      << "tools list was ignored by the prefix estimator";
  const TokenizedPrompt otherTools =
      mustProduce(chat({R"({"function":{"name":"get_stock_price"},"type":"function"})"}));
  ASSERT_EQ(otherTools.PerPromptTokens.size(), 1u);
  EXPECT_NE(hashTokens(withTools.PerPromptTokens[0]), hashTokens(otherTools.PerPromptTokens[0]))
      << "different tools lists produced identical tokens";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_MultiStringCompletionsPopulatesPerPromptTokens
TEST(EstimateTest, MultiStringCompletionsPopulatesPerPromptTokens) {
  InferenceRequestBody body;
  body.Completions = CompletionsRequest{Prompt{"", {"hello world", "foo bar"}, {}}, ""};
  const TokenizedPrompt tp = mustProduce(body);
  ASSERT_EQ(tp.PerPromptTokens.size(), 2u) << "PerPromptTokens: want 2 prompts";
  EXPECT_EQ(tp.TokenCount(), static_cast<int>(tp.PerPromptTokens[0].size() + tp.PerPromptTokens[1].size()))
      << "flat TokenIDs length != sum of per-prompt lengths";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate_test.go@71f4f099 TestEstimateBackend_SingleStringCompletionsSetsPerPromptTokens
TEST(EstimateTest, SingleStringCompletionsSetsPerPromptTokens) {
  InferenceRequestBody body;
  body.Completions = CompletionsRequest{Prompt{"", {"hello world"}, {}}, ""};
  const TokenizedPrompt tp = mustProduce(body);
  EXPECT_EQ(tp.PerPromptTokens.size(), 1u) << "single-string prompt should set length-1 PerPromptTokens";
}

// ---- BLIS tests (not transcribed): exact values read off estimate.go@71f4f099 ----

// BLIS: packBytes is binary.LittleEndian.Uint32 per 4-byte group, a trailing partial group zero-padded
// (align), and no bytes give no tokens.
TEST(EstimateBlisTest, PackBytesByteOrderAndPartialTail) {
  EXPECT_TRUE(packBytes("").empty());
  EXPECT_EQ(packBytes("abcd"), (Tokens{0x64636261u}));
  EXPECT_EQ(packBytes("abcde"), (Tokens{0x64636261u, 0x00000065u}));
  EXPECT_EQ(packBytes("abcdefg"), (Tokens{0x64636261u, 0x00676665u}));
  EXPECT_EQ(packBytes(std::string("\xff\xfe\x00\x80", 4)), (Tokens{0x8000FEFFu}));
  EXPECT_EQ(packBytes(std::string(1, '\0')), (Tokens{0u}));
  EXPECT_EQ(align("abcde"), std::string("abcde\0\0\0", 8));
  EXPECT_EQ(align("abcd"), "abcd");
  EXPECT_EQ(align(""), "");
}

// BLIS: chat bytes are the tools JSON, then per message the role and the raw content, or the text of its
// "text" blocks; a non-text, non-multimodal block is skipped as upstream's switch skips it.
TEST(EstimateBlisTest, ChatCompletionsByteLayout) {
  ChatCompletionsRequest chat;
  chat.Messages = {Message{"system", Content{"you", {}}},
                   Message{"user", Content{"", {ContentBlock{"text", "a"}, ContentBlock{"refusal", "x"},
                                                ContentBlock{"text", "b"}}}},
                   Message{"", Content{"raw", {ContentBlock{"text", "ignored"}}}}};
  EXPECT_EQ(estimateBackend{}.chatCompletionsBytes(chat), "systemyouuserabraw");
  chat.Tools = {R"({"a":1})", R"({"b":2})"};
  EXPECT_EQ(estimateBackend{}.chatCompletionsBytes(chat), R"([{"a":1},{"b":2}])" "systemyouuserabraw");
  InferenceRequestBody body;
  body.ChatCompletions = chat;
  const TokenizedPrompt tp = mustProduce(body);
  ASSERT_EQ(tp.PerPromptTokens.size(), 1u);
  EXPECT_EQ(tp.PerPromptTokens[0], packBytes(R"([{"a":1},{"b":2}])" "systemyouuserabraw"));
}

// BLIS: a single completions prompt is packed from Prompt.PlainText (Raw, else the strings joined by " ").
TEST(EstimateBlisTest, CompletionsPackPlainText) {
  EXPECT_EQ(mustProduce(completionsBody("hello")).PerPromptTokens, (std::vector<Tokens>{packBytes("hello")}));
  InferenceRequestBody one;
  one.Completions = CompletionsRequest{Prompt{"", {"solo"}, {}}, ""};
  EXPECT_EQ(mustProduce(one).PerPromptTokens, (std::vector<Tokens>{Tokens{0x6f6c6f73u}}));
  InferenceRequestBody multi;
  multi.Completions = CompletionsRequest{Prompt{"", {"abcde", "", "xy"}, {}}, ""};
  EXPECT_EQ(mustProduce(multi).PerPromptTokens,
            (std::vector<Tokens>{Tokens{0x64636261u, 0x65u}, Tokens{}, Tokens{0x7978u}}));
  EXPECT_EQ((Prompt{"", {"a", "b", "c"}, {}}).PlainText(), "a b c");
  EXPECT_EQ((Prompt{"r", {"a", "b"}, {}}).PlainText(), "r");
}

// BLIS: the error path of estimateBytes returns upstream's error text, with no TokenizedPrompt.
TEST(EstimateBlisTest, UnsupportedBodyType) {
  for (const bool images : {false, true}) {
    InferenceRequestBody body;
    if (images) {
      body.Images = ImagesGenerationsRequest{};
    }
    const ProduceResult r = estimateBackend{}.produce(body);
    EXPECT_FALSE(r.Value.has_value());
    ASSERT_TRUE(r.Err.has_value());
    EXPECT_EQ(*r.Err, "unsupported request body type, skipping estimation");
  }
}

void expectNotModelled(const InferenceRequestBody& body, const std::string& what) {
  try {
    (void)estimateBackend{}.produce(body);
    ADD_FAILURE() << what << ": expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("is not modelled by this port: "), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

// BLIS: the protocols and blocks this port does not model are refused, never silently estimated.
TEST(EstimateBlisTest, RefusesWhatIsNotModelled) {
  InferenceRequestBody messages;
  messages.Messages = MessagesRequest{};
  expectNotModelled(messages, "/v1/messages");
  InferenceRequestBody responses;
  responses.Responses = ResponsesRequest{};
  expectNotModelled(responses, "/v1/responses");
  InferenceRequestBody conversations;
  conversations.Conversations = ConversationsRequest{};
  expectNotModelled(conversations, "/v1/conversations");
  InferenceRequestBody embeddings;
  embeddings.Embeddings = EmbeddingsRequest{EmbeddingsInput{"some text", {}, {}}, ""};
  expectNotModelled(embeddings, "/v1/embeddings");
  for (const std::string type : {"image_url", "video_url", "input_audio", "audio_url"}) {
    InferenceRequestBody chat;
    chat.ChatCompletions = ChatCompletionsRequest{
        {Message{"user", Content{"", {ContentBlock{"text", "look"}, ContentBlock{type, ""}}}}}, {}, ""};
    expectNotModelled(chat, "\"" + type + "\"");
  }
  // Token-ID embeddings pass through before the text refusal, as upstream's order has it.
  embeddings.Embeddings->Input.TokenIDs = {1, 2};
  EXPECT_EQ(mustProduce(embeddings).PerPromptTokens, (std::vector<Tokens>{Tokens{1, 2}}));
}

// BLIS: backend.go@71f4f099 CacheSaltFromBody checks conversations, responses, chat, messages,
// completions, embeddings, generate in that order.
TEST(EstimateBlisTest, CacheSaltFromBody) {
  InferenceRequestBody body;
  EXPECT_EQ(CacheSaltFromBody(body), "");
  body.Generate = GenerateRequest{{}, "g"};
  EXPECT_EQ(CacheSaltFromBody(body), "g");
  body.Embeddings = EmbeddingsRequest{{}, "e"};
  EXPECT_EQ(CacheSaltFromBody(body), "e");
  body.Completions = CompletionsRequest{{}, "c"};
  EXPECT_EQ(CacheSaltFromBody(body), "c");
  body.Messages = MessagesRequest{"m"};
  EXPECT_EQ(CacheSaltFromBody(body), "m");
  body.ChatCompletions = ChatCompletionsRequest{{}, {}, "ch"};
  EXPECT_EQ(CacheSaltFromBody(body), "ch");
  body.Responses = ResponsesRequest{"r"};
  EXPECT_EQ(CacheSaltFromBody(body), "r");
  body.Conversations = ConversationsRequest{"cv"};
  EXPECT_EQ(CacheSaltFromBody(body), "cv");
  // The estimate backend leaves CacheSalt empty (the plugin fills it from CacheSaltFromBody).
  InferenceRequestBody salted = completionsBody("x");
  salted.Completions->CacheSalt = "s";
  EXPECT_EQ(mustProduce(salted).CacheSalt, "");
}

}  // namespace
}  // namespace blis::router::tokenizer
