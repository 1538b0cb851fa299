// Format `guidellm-synthetic`: a guidellm benchmark on synthetic text. The file is the synthetic data
// config as `guidellm run --data <file>` reads it (.json, or .yaml/.yml/.config as YAML); the scenario's
// Convert.options hold guidellm's `--profile`, `--constraint` and `--seed` values, as mappings in
// guidellm's own field names, e.g. {profile: {kind: poisson, rate: 10}, constraint: [{kind: max_requests,
// count: 2000}], seed: {kind: static, value: 42}}.
//
// Upstream (vllm-project/guidellm):
//   docs/guides/datasets.md@ee7a7745 and src/guidellm/data/deserializers/synthetic.py@ee7a7745
//     SyntheticTextDataArgs: prompt_tokens (required) and output_tokens, each with _stdev, _min, _max (all
//     positive integers); the output length is sent as max_tokens with ignore_eos
//     (src/guidellm/backends/openai/request_handlers.py@ee7a7745).
//   src/guidellm/utils/random.py@ee7a7745 IntegerRangeSampler: lo = _min, else max(1, mean - 5 stdev) with a
//     stdev, else mean; hi = _max, else mean + 5 stdev with a stdev, else mean; lo = hi gives lo; no stdev
//     gives a uniform integer in [lo, hi]; else round(clamp(normal(mean, stdev), lo, hi)), Python's round
//     (halves to even). The docs say the default maximum is "5 times the standard deviation"; the code's
//     mean + 5 stdev is followed here.
//   src/guidellm/benchmark/profiles/{synchronous,concurrent,asynchronous}.py and
//     src/guidellm/scheduler/strategies.py@ee7a7745: synchronous is one stream; concurrent has `streams`
//     streams, each sending its next request when its previous completes; constant (alias async) sends
//     request k = 1, 2, ... at k / rate; poisson adds an exponential gap of mean 1 / rate per request,
//     the first one too.
//   src/guidellm/scheduler/constraints/request.py@ee7a7745: max_requests `count` stops creating requests
//     after count; max_duration `seconds` stops at that elapsed time.
//
// Read, file: kind (synthetic_text), prompt_tokens, output_tokens and their _stdev, _min, _max; turns when
// 1. Options: profile.kind (synchronous, concurrent, constant, async, poisson), profile.rate and
// profile.streams (a number, or a list of one), profile.rampup_duration, warmup and cooldown when 0;
// constraint max_requests (count) and max_duration (seconds), one value each; seed {kind: static, value}.
// Refused by name: every other field (prefix_*, first_*, delay*, tool*, branches, turns above 1, samples,
// source), output_tokens absent (the response length would be the model's), a list of several rates or
// stream counts (several benchmarks), max_concurrency on constant or poisson (arrivals then wait for a
// slot), the throughput, sweep and replay profiles, other constraints, and no stop at all (synthetic data
// never runs out). max_duration with synchronous or concurrent is refused: how many requests a duration
// holds depends on completions; state max_requests.
//
// Draws (component "convert:guidellm-synthetic"): prompt_tokens i, prompt_ids i, output_tokens i, arrival i.
// Approximations, also returned as warnings: the seed is recorded, not reproduced; with max_duration the
// requests scheduled before it are sent and run to completion, while upstream also stops processing at
// that time; prompt IDs are drawn uniformly where upstream builds text from a corpus.
#pragma once

#include <cstdint>

#include "sim/workload/convert/common.h"

namespace blis::sim::convert {

ConvertedWorkload convert_guidellm_synthetic(const Source& source, std::uint64_t seed);

}  // namespace blis::sim::convert
