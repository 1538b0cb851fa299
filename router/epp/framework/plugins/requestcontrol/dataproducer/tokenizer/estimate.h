// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the text and token-ID paths of the estimate backend of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 (packBytes, align,
// estimateBackend.produce, estimateMultiStringCompletions, estimateBytes, chatCompletionsBytes,
// appendChatMessage); multimodal blocks, Anthropic messages, responses, conversations and text embeddings
// are refused as not modelled; the multimodal estimators, header metadata and logging are not ported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/types.h"

namespace blis::router::tokenizer {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 bytesPerToken
inline constexpr std::size_t bytesPerToken = 4;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 packBytes: packs the
// bytes into little-endian uint32 pseudo-tokens (token i = raw[4i] | raw[4i+1]<<8 | raw[4i+2]<<16 |
// raw[4i+3]<<24), zero-padding a trailing partial group (align). No bytes give no tokens (Go's nil).
std::vector<std::uint32_t> packBytes(std::string_view raw);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 align: raw
// zero-padded up to a multiple of bytesPerToken.
std::string align(std::string raw);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099
// estimateMultiStringCompletions: one packBytes per prompt string, in order.
TokenizedPrompt estimateMultiStringCompletions(const CompletionsRequest& req);

// Go's ([]byte, error) result of estimateBytes (Err exactly upstream's error text).
struct EstimateBytesResult {
  std::string Bytes;
  std::optional<std::string> Err;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 estimateBytes: the
// completions prompt's PlainText, or "unsupported request body type, skipping estimation" when no
// estimable protocol is set. Throws std::invalid_argument for conversations, responses and text
// embeddings (upstream json.Marshals arbitrary Go values there; not modelled by this port).
EstimateBytesResult estimateBytes(const InferenceRequestBody& body);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 estimateBackend:
// packs request bytes into pseudo-tokens with no real tokenizer. Upstream's image and video estimators
// (img, vid) are not ported: the multimodal blocks that would use them are refused.
class estimateBackend final : public tokenInputProducer {
 public:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 estimateBackend.produce
  // Token IDs of generate, completions and embeddings pass through; chat and completions text is packed.
  // Returns Err "unsupported request body type, skipping estimation" for a body with no estimable
  // protocol. Throws std::invalid_argument ("... is not modelled by this port: ...") for Anthropic
  // messages, responses, conversations, text embeddings and multimodal chat blocks.
  ProduceResult produce(const InferenceRequestBody& body) const override;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099
  // estimateBackend.chatCompletionsBytes: the tools JSON (if any), then each message (appendChatMessage).
  std::string chatCompletionsBytes(const ChatCompletionsRequest& chat) const;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099
  // estimateBackend.appendChatMessage: appends the role, then the raw content if non-empty, else the text
  // of each "text" block (blocks of other, non-multimodal types are skipped, as upstream's switch does).
  void appendChatMessage(std::string& out, const Message& msg) const;
};

}  // namespace blis::router::tokenizer
