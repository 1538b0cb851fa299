// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of the subset of pkg/epp/framework/interface/requesthandling/types.go@71f4f099
// that the token producer's estimate backend and the prefix path read (text and token-ID inputs, the
// TokenizedPrompt, MaxOutputTokens; field names as upstream); JSON (un)marshalling, Payload, Stream, Model,
// multimodal features and the other request fields are not ported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Namespace fwkrh: upstream's import name for this package (as fwksched, fwkdl). The token producer
// (dataproducer/tokenizer/types.h) re-exports these structs under blis::router::tokenizer.
namespace blis::router::fwkrh {

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 Prompt: the prompt of a /v1/completions
// request, a string (Raw), an array of strings (Strings) or an array of token IDs (TokenIDs).
struct Prompt {
  std::string Raw;
  std::vector<std::string> Strings;
  std::vector<std::uint32_t> TokenIDs;

  // pkg/epp/framework/interface/requesthandling/types.go@71f4f099 Prompt.PlainText
  std::string PlainText() const;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 CompletionsRequest
struct CompletionsRequest {
  fwkrh::Prompt Prompt;  // qualified: the member shares the type's name, as upstream
  std::string CacheSalt;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 ContentBlock, keeping Type and Text. The
// multimodal payloads (ImageURL, InputAudio, VideoURL) are not ported: the estimate backend refuses a
// block whose Type is "image_url", "video_url", "input_audio" or "audio_url".
struct ContentBlock {
  std::string Type;
  std::string Text;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 Content: a raw string or text blocks.
struct Content {
  std::string Raw;
  std::vector<ContentBlock> Structured;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 Message (ToolCalls, which the estimate
// backend does not read, is not ported).
struct Message {
  std::string Role;
  fwkrh::Content Content;  // qualified: the member shares the type's name, as upstream
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 ChatCompletionsRequest, keeping Messages,
// Tools and CacheSalt. Upstream's Tools is a []any that the estimator serializes with Go's json.Marshal;
// this port cannot marshal Go values, so each element here is the caller-supplied json.Marshal text of one
// tool (Go's encoding: map keys sorted, no spaces, <, > and & escaped as \u003c, \u003e, \u0026). The
// estimator joins them as json.Marshal joins a slice: "[" + elements separated by "," + "]".
struct ChatCompletionsRequest {
  std::vector<Message> Messages;
  std::vector<std::string> Tools;
  std::string CacheSalt;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 EmbeddingsInput
struct EmbeddingsInput {
  std::string Raw;
  std::vector<std::string> Strings;
  std::vector<std::uint32_t> TokenIDs;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 EmbeddingsRequest
struct EmbeddingsRequest {
  EmbeddingsInput Input;
  std::string CacheSalt;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 GenerateRequest (the multimodal Features
// are not ported).
struct GenerateRequest {
  std::vector<std::uint32_t> TokenIDs;
  std::string CacheSalt;
};

// The protocols below are carried by presence (and cache salt) only: the estimate backend refuses them as
// not modelled (Anthropic messages, responses, conversations) or, for images, returns upstream's
// "unsupported request body type" error. Their content fields are not ported.
// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 MessagesRequest
struct MessagesRequest {
  std::string CacheSalt;
};
// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 ResponsesRequest
struct ResponsesRequest {
  std::string CacheSalt;
};
// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 ConversationsRequest
struct ConversationsRequest {
  std::string CacheSalt;
};
// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 ImagesGenerationsRequest
struct ImagesGenerationsRequest {};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 TokenizedPrompt, keeping PerPromptTokens
// and CacheSalt. MultiModalFeatures is not ported: every path this port models leaves it nil upstream.
struct TokenizedPrompt {
  // One inner vector per prompt; single-prompt requests use a length-1 outer vector. Go's nil inner
  // slice (packBytes of no bytes) is an empty vector.
  std::vector<std::vector<std::uint32_t>> PerPromptTokens;
  std::string CacheSalt;

  // pkg/epp/framework/interface/requesthandling/types.go@71f4f099 TokenizedPrompt.TokenCount
  int TokenCount() const;
};

// pkg/epp/framework/interface/requesthandling/types.go@71f4f099 InferenceRequestBody: Go's nil pointers
// are std::nullopt. Upstream requires exactly one protocol to be set; the backend checks them in
// upstream's order.
struct InferenceRequestBody {
  std::optional<CompletionsRequest> Completions;
  std::optional<ChatCompletionsRequest> ChatCompletions;
  std::optional<MessagesRequest> Messages;
  std::optional<ResponsesRequest> Responses;
  std::optional<ConversationsRequest> Conversations;
  std::optional<EmbeddingsRequest> Embeddings;
  std::optional<GenerateRequest> Generate;
  std::optional<ImagesGenerationsRequest> Images;
  // Parser-derived tokenization results; std::nullopt (Go nil) when the request was not tokenized. The
  // approximate prefix producer hashes these token IDs.
  std::optional<fwkrh::TokenizedPrompt> TokenizedPrompt;
  // The client-requested cap on generated output tokens; std::nullopt (Go nil) when the client set none.
  std::optional<std::int64_t> MaxOutputTokens;
};

}  // namespace blis::router::fwkrh
