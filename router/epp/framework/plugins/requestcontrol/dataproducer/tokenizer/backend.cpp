// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of CacheSaltFromBody of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.go@71f4f099; the render backend is
// not ported.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.h"

namespace blis::router::tokenizer {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.go@71f4f099 CacheSaltFromBody
std::string CacheSaltFromBody(const InferenceRequestBody& body) {
  if (body.Conversations) {
    return body.Conversations->CacheSalt;
  }
  if (body.Responses) {
    return body.Responses->CacheSalt;
  }
  if (body.ChatCompletions) {
    return body.ChatCompletions->CacheSalt;
  }
  if (body.Messages) {
    return body.Messages->CacheSalt;
  }
  if (body.Completions) {
    return body.Completions->CacheSalt;
  }
  if (body.Embeddings) {
    return body.Embeddings->CacheSalt;
  }
  if (body.Generate) {
    return body.Generate->CacheSalt;
  }
  return "";
}

}  // namespace blis::router::tokenizer
