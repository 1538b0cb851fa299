// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the text and token-ID paths of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099; multimodal blocks,
// Anthropic messages, responses, conversations and text embeddings are refused; logging is not ported.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.h"

#include <stdexcept>

namespace blis::router::tokenizer {

namespace {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 blockTypeText
constexpr std::string_view blockTypeText = "text";

// The chat block types upstream's appendChatMessage folds in as multimodal placeholders (estimate.go@71f4f099).
bool isMultimodalBlockType(const std::string& type) {
  return type == "image_url" || type == "video_url" || type == "input_audio" || type == "audio_url";
}

}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 align
std::string align(std::string raw) {
  if (const std::size_t r = raw.size() % bytesPerToken; r != 0) {
    raw.append(bytesPerToken - r, '\0');
  }
  return raw;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 packBytes
// (binary.LittleEndian.Uint32 over each aligned 4-byte group).
std::vector<std::uint32_t> packBytes(std::string_view raw) {
  if (raw.empty()) {
    return {};
  }
  const std::string aligned = align(std::string(raw));
  std::vector<std::uint32_t> out(aligned.size() / bytesPerToken);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto byte = [&](std::size_t k) {
      return static_cast<std::uint32_t>(static_cast<unsigned char>(aligned[i * bytesPerToken + k]));
    };
    out[i] = byte(0) | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24);
  }
  return out;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099
// estimateMultiStringCompletions
TokenizedPrompt estimateMultiStringCompletions(const CompletionsRequest& req) {
  TokenizedPrompt tp;
  tp.PerPromptTokens.reserve(req.Prompt.Strings.size());
  for (const auto& s : req.Prompt.Strings) {
    tp.PerPromptTokens.push_back(packBytes(s));
  }
  return tp;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 estimateBytes
EstimateBytesResult estimateBytes(const InferenceRequestBody& body) {
  if (body.Conversations) {
    throw std::invalid_argument(
        "the /v1/conversations request body is not modelled by this port: upstream estimates the json.Marshal "
        "encoding of the conversation items (arbitrary Go values)");
  }
  if (body.Responses) {
    throw std::invalid_argument(
        "the /v1/responses request body is not modelled by this port: upstream estimates the json.Marshal "
        "encoding of the instructions, tools and input (arbitrary Go values)");
  }
  if (body.Completions) {
    return {body.Completions->Prompt.PlainText(), std::nullopt};
  }
  if (body.Embeddings) {
    throw std::invalid_argument(
        "text /v1/embeddings input is not modelled by this port: upstream estimates the json.Marshal encoding "
        "of the EmbeddingsInput struct; only token-ID embeddings input (passed through) is ported");
  }
  return {std::string(), std::string("unsupported request body type, skipping estimation")};
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099
// estimateBackend.chatCompletionsBytes. The tools are emitted as json.Marshal(chat.Tools) would emit the
// slice: "[" + the elements' (caller-supplied) JSON joined by "," + "]".
std::string estimateBackend::chatCompletionsBytes(const ChatCompletionsRequest& chat) const {
  std::string out;
  if (!chat.Tools.empty()) {
    out += '[';
    for (std::size_t i = 0; i < chat.Tools.size(); ++i) {
      if (i > 0) {
        out += ',';
      }
      out += chat.Tools[i];
    }
    out += ']';
  }
  for (const auto& msg : chat.Messages) {
    appendChatMessage(out, msg);
  }
  return out;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099
// estimateBackend.appendChatMessage
void estimateBackend::appendChatMessage(std::string& out, const Message& msg) const {
  if (!msg.Role.empty()) {
    out += msg.Role;
  }
  if (!msg.Content.Raw.empty()) {
    out += msg.Content.Raw;
    return;
  }
  for (const auto& block : msg.Content.Structured) {
    if (block.Type == blockTypeText) {
      out += block.Text;
    } else if (isMultimodalBlockType(block.Type)) {
      throw std::invalid_argument("multimodal chat content block \"" + block.Type +
                                  "\" is not modelled by this port: upstream folds hashed placeholder "
                                  "pseudo-tokens sized by its image/video/audio estimators into the stream");
    }
    // Any other block type is skipped: upstream's switch has no default case.
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 estimateBackend.produce
ProduceResult estimateBackend::produce(const InferenceRequestBody& body) const {
  // Pre-tokenized inputs are real tokens: passed through unchanged.
  if (body.Generate) {
    return {TokenizedPrompt{{body.Generate->TokenIDs}, ""}, std::nullopt};
  }
  if (body.Completions && !body.Completions->Prompt.TokenIDs.empty()) {
    return {TokenizedPrompt{{body.Completions->Prompt.TokenIDs}, ""}, std::nullopt};
  }
  if (body.Embeddings && !body.Embeddings->Input.TokenIDs.empty()) {
    return {TokenizedPrompt{{body.Embeddings->Input.TokenIDs}, ""}, std::nullopt};
  }

  if (body.ChatCompletions) {
    return {TokenizedPrompt{{packBytes(chatCompletionsBytes(*body.ChatCompletions))}, ""}, std::nullopt};
  }
  if (body.Messages) {
    throw std::invalid_argument(
        "the Anthropic /v1/messages request body is not modelled by this port: the estimate backend's "
        "messagesBytes (tools, system, thinking, tool_use, tool_result and image blocks) is not ported");
  }

  if (body.Completions && body.Completions->Prompt.Strings.size() > 1) {
    return {estimateMultiStringCompletions(*body.Completions), std::nullopt};
  }

  EstimateBytesResult raw = estimateBytes(body);
  if (raw.Err) {
    return {std::nullopt, raw.Err};
  }
  return {TokenizedPrompt{{packBytes(raw.Bytes)}, ""}, std::nullopt};
}

}  // namespace blis::router::tokenizer
