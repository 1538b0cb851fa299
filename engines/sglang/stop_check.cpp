// Original to BLIS: see stop_check.h. This file is the SGLang port's one reader of the sampled output length
// (DEV-13's declared site engines/*/stop_check.cpp).
#include "stop_check.h"

namespace blis::sglang {

std::int64_t sample_token(const engine::Request& request, std::int64_t position) {
  return position == request.sampled_output_len ? kSimulatedEosTokenId : kSimulatedTokenId;
}

}  // namespace blis::sglang
