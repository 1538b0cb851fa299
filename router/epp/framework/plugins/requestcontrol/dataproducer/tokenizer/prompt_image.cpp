// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: NOT UPSTREAM. The inverse of packBytes of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099, a BLIS addition
// (INTERFACES.md "What a request carries"); upstream has no such function.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/prompt_image.h"

#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.h"

namespace blis::router::tokenizer {

// BLIS addition, NOT UPSTREAM: the inverse of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.go@71f4f099 packBytes
// (binary.LittleEndian.PutUint32 of each ID).
std::string PromptTextForTokenIDs(std::span<const std::uint32_t> tokenIDs) {
  std::string out;
  out.reserve(tokenIDs.size() * bytesPerToken);
  for (const std::uint32_t id : tokenIDs) {
    for (std::size_t k = 0; k < bytesPerToken; ++k) {
      out += static_cast<char>(static_cast<unsigned char>((id >> (8 * k)) & 0xFFu));
    }
  }
  return out;
}

}  // namespace blis::router::tokenizer
