// Converting a benchmark client's own workload description into a trace BLIS replays (design §8.6, DEV-7):
// the scenario's `workload.convert` names the format, the file (relative to the scenario's directory), its
// optional SHA-256 and the client's own options, verbatim. The conversion keeps the client's offered load,
// the variability of its gaps between arrivals, its joint distribution of prompt and output lengths and
// its session structure (closed-loop users), as each format's header states with its upstream sources;
// tests/sim/convert checks each against its source with two-sample tests.
//
// Formats: vllm-bench-random (vllm_bench_random.h), vllm-bench-sharegpt (vllm_bench_sharegpt.h),
// guidellm-synthetic (guidellm_synthetic.h), inference-perf (inference_perf.h). Where the file and where
// Convert.options hold the options is each format's rule, stated in its header.
//
// Randomness: every draw comes from rng::Substreams(seed).stream("convert:<format>", purpose, entity), so a
// run converts once per replication with that replication's seed; the same seed gives the same rows. A
// client's own seed is recorded in the warnings, not reproduced (BLIS's generator is not the client's).
//
// Refused (std::invalid_argument, naming the field or file:line:col, the upstream option name, the value
// and the cause): a format this build lacks (listing the ones it has); a file
// that cannot be read; a stated sha256 the file's bytes do not have; an option the format does not read or
// a value it does not convert. Nothing is dropped or clamped silently: what the trace cannot carry is
// refused, and what it carries approximately is said in the returned warnings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schema/scenario.h"
#include "sim/workload/convert/common.h"

namespace blis::sim {

using convert::ConvertedWorkload;

// The formats this build converts, in the order refusals list them.
std::vector<std::string> converter_formats();

// `scenario_dir` is the directory `convert.path` is relative to. The trace's header holds the format
// version, producer, seed, generator, time unit, records and request count; its writer, engine and
// scenario fields are the caller's to fill. Trace::sha256 is the converted file's SHA-256.
ConvertedWorkload convert_workload(const schema::ScenarioConvert& convert, const std::string& scenario_dir,
                                   std::uint64_t seed);

}  // namespace blis::sim
