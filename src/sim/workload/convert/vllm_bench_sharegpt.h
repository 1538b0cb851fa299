// Format `vllm-bench-sharegpt`: `vllm bench serve --dataset-name sharegpt`. The file is the ShareGPT JSON
// dataset (a list of {"id", "conversations": [{"from", "value"}, ...]}); the scenario's Convert.options hold
// the `vllm bench serve` options, spelled as upstream reads them.
//
// Upstream (vllm-project/vllm):
//   vllm/benchmarks/datasets/sharegpt.py@237145ea ShareGPTDataset: keeps the entries with a
//     "conversations" list of at least two turns; shuffles them (Python's random seeded by --seed) unless
//     --disable-shuffle; takes entries in that order until num-prompts: the prompt is conversations[0]'s
//     value and the output length is conversations[1]'s token count, or --sharegpt-output-len; an entry
//     with an "image" or "video" is multimodal. Only the first turn is sent: no sessions.
//   vllm/benchmarks/datasets/utils.py@237145ea is_valid_sequence(): an entry is skipped when its prompt
//     has fewer than 4 tokens, its output fewer than 4 (not checked with --sharegpt-output-len), its prompt
//     more than 1024, or prompt and output together more than 2048.
//   vllm/benchmarks/datasets/abstractions.py@237145ea maybe_oversample_requests(): with fewer entries than
//     num-prompts, adds entries chosen uniformly with replacement, unless --no-oversample.
//   Arrivals: vllm_serve.h.
//
// Read: sharegpt-output-len, disable-shuffle, no-oversample, and vllm_serve.h's options. Refused: any other
// option; dataset-path (the dataset is the file); an entry with an image or video; a kept entry whose first
// two turns lack a string "value"; a file that leaves no usable entry.
//
// Token counts: BLIS has no tokenizer (INTERFACES.md "What a request carries"), so a text's token count is
// llm-d's default estimate, max(1, round(bytes / 4)), rounding halves up:
// llm-d/llm-d-inference-scheduler pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/
// token_estimator.go@520af478 (SimpleTokenEstimator, 4 characters per token; Go's len counts bytes). This
// is an approximation of the model's tokenizer, which upstream uses, so the too-short and too-long filters
// and every length differ from upstream's by the estimator's error; the returned warnings say so.
//
// Draws (component "convert:vllm-bench-sharegpt"): shuffle 0 (a Fisher-Yates permutation of the kept
// entries, BLIS's own: Python's permutation for --seed is not recomputed, so the order and, with fewer
// num-prompts than entries, the subset differ from upstream's and vary by replication), oversample k, and
// prompt_ids e, where e is the file index of the first entry whose prompt has the same text, so identical
// prompts get identical IDs as they would from a tokenizer (shared prefixes of different texts are not
// kept), and arrival i. With --disable-shuffle the lengths are those of the file's entries, in order,
// whatever the seed.
#pragma once

#include <cstdint>

#include "sim/workload/convert/common.h"

namespace blis::sim::convert {

// llm-d's default estimate of a text's tokens: max(1, round(bytes / 4)).
std::int64_t estimated_tokens(std::uint64_t bytes);

ConvertedWorkload convert_vllm_bench_sharegpt(const Source& source, std::uint64_t seed);

}  // namespace blis::sim::convert
