// The replication runner (INTERFACES.md "Threads"): the one place in src/sim that starts threads. Each
// replication runs single-threaded on its own; the runner only decides which thread runs which index, and
// hands back outputs in index order, so the result is the same bytes at every thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/run/replication.h"

namespace blis::sim {

// Runs replications first..first+count-1 of `one`, on up to `threads` threads (>= 1), and returns the outputs
// in index order. The first exception any replication throws (by index) is rethrown after all have stopped.
// `finished`, when given, is called once after each replication ends, one call at a time (for a progress
// display; it must change nothing the run computes).
std::vector<ReplicationOutput> run_replications(const std::function<ReplicationOutput(std::int64_t index)>& one,
                                                std::int64_t first, std::int64_t count, int threads,
                                                const std::function<void()>& finished = {});

}  // namespace blis::sim
