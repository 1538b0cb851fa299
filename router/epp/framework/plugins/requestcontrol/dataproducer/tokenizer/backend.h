// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the tokenInputProducer interface and CacheSaltFromBody of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.go@71f4f099; the render backend
// (a real tokenizer behind vLLM /render), its warmup and timeouts, and logging are not ported.
#pragma once

#include <optional>
#include <string>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/types.h"

namespace blis::router::tokenizer {

// Go's (*fwkrh.TokenizedPrompt, error) result of produce: Value is std::nullopt where Go returns nil; Err
// is std::nullopt where Go's error is nil, else exactly upstream's err.Error() text.
struct ProduceResult {
  std::optional<TokenizedPrompt> Value;
  std::optional<std::string> Err;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.go@71f4f099 tokenInputProducer:
// turns a request body into a TokenizedPrompt. Upstream's context argument (which carries only the
// multimodal header metadata) is dropped: nothing this port models reads it.
class tokenInputProducer {
 public:
  virtual ~tokenInputProducer() = default;
  virtual ProduceResult produce(const InferenceRequestBody& body) const = 0;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.go@71f4f099 CacheSaltFromBody:
// the cache salt of whichever protocol is populated, checked in upstream's order; "" if none is.
std::string CacheSaltFromBody(const InferenceRequestBody& body);

}  // namespace blis::router::tokenizer
