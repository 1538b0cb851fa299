// Original to BLIS: see stop_check.h. This file is the vLLM port's one reader of the sampled output length
// (DEV-13's declared site engines/*/stop_check.cpp).
#include "stop_check.h"

namespace blis::vllm {

std::int32_t sample_token(const engine::Request& request, std::int64_t position) {
  return position == request.sampled_output_len ? kSimulatedEosTokenId : kSimulatedTokenId;
}

}  // namespace blis::vllm
