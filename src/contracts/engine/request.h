// A request as an engine receives it (INTERFACES.md "What a request carries"): the prompt as token IDs,
// the client's max tokens, and the sampled output length, which only the engine's stop check reads, as an
// end-of-sequence token at that position (DEV-13; the blis-sampled-length lint holds every other reader
// out). The workload never needs a tokenizer.
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
};

}  // namespace blis::engine
