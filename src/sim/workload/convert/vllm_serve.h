// The arrival options of `vllm bench serve` that both vLLM converters read, and the arrivals they give.
// Upstream (cited as path@commit8 of vllm-project/vllm):
//   vllm/benchmarks/serve.py@009e6d4a  get_request(): request i waits gamma(shape = burstiness,
//       scale = 1 / (request_rate * burstiness)) after request i - 1, request 0 that long after the start;
//       the cumulative delays are then scaled so the last is num_requests / request_rate (a fixed
//       duration); request-rate inf sends all at once; burstiness inf gives even gaps of 1 / request_rate.
//       benchmark(): max-concurrency is an asyncio semaphore around each request.
//   vllm/benchmarks/datasets/arg_utils.py@237145ea  the options and their defaults (num-prompts 1000,
//       seed 0, dataset-name random); serve.py's own: request-rate inf, burstiness 1, no max-concurrency.
//   vllm/utils/argparse_utils.py@00da11e3  FlexibleArgumentParser: an option may be written with
//       underscores (num_prompts is num-prompts); `--config` reads a YAML mapping of option to value.
//
// Read: num-prompts, request-rate, burstiness, max-concurrency, seed, ignore-eos, dataset-name.
// Refused: request-rate, burstiness or num-prompts not positive; max-concurrency below 1; max-concurrency
// with a finite request-rate (upstream's requests then arrive on time and wait for a free slot at the
// client, which a trace row, sent at a time or a delay after one request, cannot state); a dataset-name
// other than the converter's.
//
// Closed loop (request-rate inf with max-concurrency C): C users, user u sending requests u, u + C, ...
// each as its previous ends. Upstream hands the next request in list order to whichever slot frees
// first, so which request follows which differs; with lengths drawn independently per request (the
// random dataset) the offered workload has the same distribution, and the returned warnings say so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/rng/substreams.h"
#include "sim/workload/convert/common.h"

namespace blis::sim::convert {

struct ServeOptions {
  std::int64_t num_prompts = 1000;
  double request_rate = 0;  // +inf: all at once
  double burstiness = 1;
  std::optional<std::int64_t> max_concurrency;
  std::int64_t seed = 0;
  bool ignore_eos = false;
};

// vLLM's spelling of an option: underscores are dashes.
std::string vllm_spelling(const std::string& key);

ServeOptions read_serve_options(Options& o, const std::string& dataset_name);

// The arrivals of `n` requests (n may be below num-prompts: a dataset with too few usable entries).
// Gap i is drawn from stream (component, "arrival", i). Appends to `warnings` what differs from upstream.
Arrivals serve_arrivals(const ServeOptions& so, std::size_t n, const rng::Substreams& streams,
                        const std::string& component, std::vector<std::string>& warnings);

}  // namespace blis::sim::convert
