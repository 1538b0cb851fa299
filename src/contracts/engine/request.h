// A request as an engine receives it (INTERFACES.md "What a request carries"): the prompt as token IDs,
// the client's max tokens and priority, when the engine took it, and the sampled output length, which only
// the engine's stop check reads, as an end-of-sequence token at that position (DEV-13; the
// blis-sampled-length lint holds every other reader out). The workload never needs a tokenizer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace blis::engine {

struct Request {
  std::string id;                          // unique within a run: "<client>/<n>"
  std::vector<std::int32_t> prompt;        // token IDs, shared prefix first
  std::optional<std::int64_t> max_tokens;  // the client's stated maximum output tokens; absent: none stated
  std::int64_t sampled_output_len = 0;     // DEV-13: output tokens until the forced end of sequence
  std::optional<std::int64_t> priority;    // the client's stated priority (the API's `priority`); absent: none
  // The simulated time, in seconds, at which the engine took the request at its input boundary: stamped by the
  // simulator (engines read no clock), it is what an upstream orders equal priorities by (vLLM's arrival_time).
  double received_at = 0;
};

}  // namespace blis::engine
