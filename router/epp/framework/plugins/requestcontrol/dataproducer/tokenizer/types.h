// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: the token producer's names for the request structs of
// pkg/epp/framework/interface/requesthandling/types.go@71f4f099, ported once in
// router/epp/framework/interface/requesthandling/types.h (namespace fwkrh) and re-exported here.
#pragma once

#include "router/epp/framework/interface/requesthandling/types.h"

namespace blis::router::tokenizer {

// The token producer reads the framework's request structs (upstream imports them as fwkrh).
using fwkrh::ChatCompletionsRequest;
using fwkrh::CompletionsRequest;
using fwkrh::Content;
using fwkrh::ContentBlock;
using fwkrh::ConversationsRequest;
using fwkrh::EmbeddingsInput;
using fwkrh::EmbeddingsRequest;
using fwkrh::GenerateRequest;
using fwkrh::ImagesGenerationsRequest;
using fwkrh::InferenceRequestBody;
using fwkrh::Message;
using fwkrh::MessagesRequest;
using fwkrh::Prompt;
using fwkrh::ResponsesRequest;
using fwkrh::TokenizedPrompt;

}  // namespace blis::router::tokenizer
