// Original to BLIS: the sampler stand-in of the vLLM port's model runner (DEV-13). A simulated model has no
// logits: the token it samples at each output position is a fixed token, except at the request's sampled
// output length, where it samples the end-of-sequence token. vLLM's own check_stop
// (v1/core/sched/utils.h) then ends the request exactly as upstream ends one that sampled its EOS token.
#pragma once

#include <cstdint>

#include "contracts/engine/request.h"

namespace blis::vllm {

// The simulated vocabulary's end-of-sequence token and the token sampled everywhere else. Negative, so
// no prompt token (the workload draws non-negative IDs) is ever mistaken for either.
inline constexpr std::int32_t kSimulatedEosTokenId = -1;
inline constexpr std::int32_t kSimulatedTokenId = -2;

// The token sampled at 1-based output position `position` of `request`.
std::int32_t sample_token(const engine::Request& request, std::int64_t position);

}  // namespace blis::vllm
