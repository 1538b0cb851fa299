// Original to BLIS: the sampler stand-in of the SGLang port's model runner (DEV-13). A simulated model has no
// logits: the token it samples at each output position is a fixed token, except at the request's sampled output
// length, where it samples the end-of-sequence token. SGLang's own Req.update_finish_state
// (srt/managers/schedule_batch.cpp) then ends the request exactly as upstream ends one that sampled its EOS.
#pragma once

#include <cstdint>

#include "contracts/engine/request.h"

namespace blis::sglang {

// The simulated vocabulary's end-of-sequence token and the token sampled everywhere else. SGLang hashes the
// tokens of every cached page as uint32 (mem_cache/cpp_utils/hash_binding.cpp@71de97b2 checked_u32 refuses a
// negative id), and output tokens are cached, so unlike the vLLM port's these are non-negative: the largest
// int32 values, above any workload vocabulary (the generator draws prompt IDs below 32000), and within both
// uint32 and the engine contract's int32 token IDs.
inline constexpr std::int64_t kSimulatedEosTokenId = 2147483647;
inline constexpr std::int64_t kSimulatedTokenId = 2147483646;

// The token sampled at 1-based output position `position` of `request`.
std::int64_t sample_token(const engine::Request& request, std::int64_t position);

}  // namespace blis::sglang
