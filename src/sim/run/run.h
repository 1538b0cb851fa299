// A whole run of a scenario (design §8.6, §8.8): its replications, each with its own seed derived from the
// scenario seed, until every reported interval is narrower than the frame's fraction of its estimate or
// the frame's limit is reached; then the Result, with every figure, its interval and what the interval
// covers, the fates summed over replications (DEV-9: the generator's count must equal their sum, or the
// run stops as a defect), the trust of the prices (VAL-3) and the frame as run.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "schema/result.h"
#include "sim/run/replication.h"

namespace blis::sim {

struct RunOptions {
  std::optional<std::int64_t> replications;  // --replications N: exactly N, overriding the frame's rule
  int threads = 1;                           // replications run on up to this many threads (no byte changes)
  bool trace = false;                        // export the run's trace of arrivals (one replication only)
  // Called after each replication ends with (replications ended, the most the frame may run); for a
  // progress display only.
  std::function<void(std::int64_t done, std::int64_t most)> progress;
};

// What the run records but does not compute: the build, the data and the options given (SIM-10).
struct RunContext {
  schema::ResultBuild build;
  schema::ResultData data;
  std::vector<schema::ResultInput> inputs;
};

struct RunOutput {
  schema::Result result;
  std::vector<ReplicationOutput> replications;
  std::optional<std::string> trace;  // the trace file's text, when asked (DEV-7)
  std::set<std::string> entries_used;  // every coefficient entry a price used, by identity, sorted
};

// The seed of replication `index` (from 0): the first 8 bytes, little-endian, of SHA-256 over
// "replication", a NUL, the scenario seed and the index as 8 little-endian bytes each, with the top bit
// cleared (a Result states seeds as non-negative 64-bit integers).
std::uint64_t replication_seed(std::uint64_t scenario_seed, std::int64_t index);

// Refuses (std::invalid_argument naming the field) a frame this build cannot run.
RunOutput run_scenario(const ScenarioFile& file, const Wiring& wiring, const RunOptions& options, const RunContext& context);

}  // namespace blis::sim
