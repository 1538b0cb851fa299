// Format `vllm-bench-random`: `vllm bench serve` with its random dataset. The file is a `vllm bench serve
// --config` YAML (or JSON) mapping of option to value; the scenario's Convert.options may state more options
// in the same form. An option stated in both is refused (upstream lets the command line win over --config;
// a scenario states each value once). Options are spelled as upstream reads them, underscores or dashes.
//
// Upstream (vllm-project/vllm): vllm/benchmarks/datasets/random.py@237145ea RandomDataset.sample():
//   input_low = floor(L (1 - r)), input_high = ceil(L (1 + r)) with L = random-input-len minus the
//   tokenizer's special tokens and r = random-range-ratio in [0, 1); output_low = max(floor(O (1 - r)), 1),
//   output_high = max(ceil(O (1 + r)), 1) with O = random-output-len; each request draws its input and
//   output lengths uniformly from those integer ranges; every prompt starts with the same random-prefix-len
//   random tokens; refused when random-prefix-len + input_low < 1. The output length is sent as max_tokens.
//   Arrivals: vllm_serve.h.
//
// Read: random-input-len (1024), random-output-len (128), random-range-ratio (0), random-prefix-len (0),
// and vllm_serve.h's options. Any other option is refused by name (random-batch-size, input-len, ...).
//
// Draws (component "convert:vllm-bench-random"): prompt_tokens i and output_tokens i (uniform_int),
// prompt_ids i (the IDs after the prefix), prefix_ids 0 (the shared prefix), arrival i.
//
// Approximations, also returned as warnings: the tokenizer is unknown, so L is random-input-len itself
// (upstream subtracts the special tokens its tokenizer adds, and the server adds them back); upstream
// decodes and re-encodes each prompt, which can move its length by a few tokens (it logs the total
// mismatch); upstream's prompt IDs are consecutive vocabulary entries from a random offset, BLIS's are
// drawn uniformly, and in both no two prompts share IDs beyond the prefix, except by chance.
#pragma once

#include <cstdint>

#include "sim/workload/convert/common.h"

namespace blis::sim::convert {

ConvertedWorkload convert_vllm_bench_random(const Source& source, std::uint64_t seed);

}  // namespace blis::sim::convert
