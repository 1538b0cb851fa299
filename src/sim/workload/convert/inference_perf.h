// Format `inference-perf`: the Kubernetes inference-perf benchmark's config YAML (docs/config.md), data
// types random and synthetic under a constant or poisson load of one stage. The scenario's Convert.options
// must be absent: inference-perf reads everything from its config file.
//
// Upstream (kubernetes-sigs/inference-perf, path@commit8):
//   docs/config.md@7de5ef2e, inference_perf/config/common.py@7de5ef2e Distribution: min 10, max 1024,
//     mean 512, std_dev 200, total_count (required by these data types), type normal (or lognormal,
//     uniform, fixed).
//   inference_perf/utils/numeric/distribution/utils.py@7de5ef2e generate_distribution(), which both data
//     types use: fixed gives int(mean); uniform draws uniform(min, max); lognormal draws a lognormal whose
//     mean is mean - min (1 when that is not positive) and standard deviation std_dev, plus min; normal
//     draws normal(mean, std_dev) and refuses a mean outside [min, max]; every draw but fixed is clipped
//     to [min, max] and rounded half to even. Request i of a stage takes length i of each list
//     (datagen/synthetic/{random,synthetic}_datagen.py@7de5ef2e); the output length is sent as max_tokens.
//   inference_perf/loadgen/load_generator.py@7de5ef2e run_stage(): a stage sends int(rate * duration)
//     requests, at the times of its timer (measured here from the timer's start: upstream's one second of
//     queue filling before it is not a gap between arrivals).
//   inference_perf/loadgen/load_timer.py@7de5ef2e: constant draws that many exponential gaps and scales
//     them to sum to duration (the last request at exactly duration); poisson, second by second, draws a
//     Poisson(rate) count and, when positive, places that many requests in the second the same way (the
//     last at the second's end), an empty second passing idle.
//   inference_perf/config/client/modelserver/config.py@7de5ef2e ignore_eos defaults to true.
//
// Read: data.type, data.input_distribution, data.output_distribution (min, max, mean, std_dev,
// total_count, type), data.use_chat_template when false; load.type, load.stages (one stage: rate,
// duration), load.request_timeout (each request's timeout); server.ignore_eos; api.type when completion.
// Accepted without effect and named in a warning (they do not shape the workload): the metrics, report,
// storage and tokenizer sections; api.streaming, api.headers, api.slo_*; server.type, model_name,
// base_url, api_key, cert_path, key_path; data.corpus_file_path (the prompt text's source); load.interval
// (between stages), num_workers, worker_max_concurrency (see below), worker_max_tcp_connections,
// base_seed (recorded, not reproduced). Refused by name: every other field; more than one stage (a stage
// starts when every request of the one before it has ended, which a trace row, sent at a time or a delay
// after one request, cannot state); load types concurrent, trace_replay and trace_session_replay; sweep;
// distribution types skew_normal and poisson (generate_distribution refuses them), variance and skew; a
// stage needing more requests than total_count (upstream fails indexing past the lists); an input or
// output length that can be below 1.
//
// Draws (component "convert:inference-perf"): prompt_tokens i, output_tokens i, prompt_ids i; constant:
// arrival i; poisson: arrival_count s (the second's count, by exponential gaps within it) and arrival s
// (the placement within second s).
//
// Approximations, also returned as warnings: upstream's timers draw from an unseeded generator and its
// lengths from base_seed, neither reproduced; upstream holds at most num_workers x worker_max_concurrency
// requests in flight and a request due past that cap waits at the client, while the trace sends each at
// its time; prompt IDs are drawn uniformly where upstream samples vocabulary (random) or a corpus
// (synthetic).
#pragma once

#include <cstdint>

#include "sim/workload/convert/common.h"

namespace blis::sim::convert {

ConvertedWorkload convert_inference_perf(const Source& source, std::uint64_t seed);

}  // namespace blis::sim::convert
