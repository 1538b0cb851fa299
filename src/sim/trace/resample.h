// Resampling a recorded trace (design §8.5: a replay of fixed timestamps has no random input, so its figures
// have no replication interval unless the trace is resampled; scenario workload.replay.resample).
//
//   unit       requests: every row, when every row is an open arrival (a row that waits for another's end
//              is refused: its unit is a session); sessions: a root row (an open arrival or a closed-loop
//              user's first request) with every row that waits, directly or through others, for its end.
//   draw       per client, as many units as the client recorded, each uniform over the client's units with
//              replacement (the bootstrap), from the substream ("replay:<client>", "resample", 0) of the
//              replication's seed: each replication draws its own trace, and the same seed the same one.
//   timing     an open root keeps the gap since the client's previous open root in the recorded order (the
//              first: its time), and the drawn gaps are summed again, so the offered load, the gap
//              distribution and each request's joint (gap, prompt, output) are the trace's, while the order
//              of gaps (burstiness that spans several requests) is not kept. A closed-loop user's first
//              request keeps its time; rows that wait keep their recorded delays, and the replay recomputes
//              their arrivals from the completions, as in any replay.
//   copies     the k-th unit drawn for a client is a copy: every request id in it gets "~k", its `after`
//              references follow, and a closed-loop user becomes user k. The first copy of a unit keeps its
//              prompts token for token. A repeated copy (the unit drawn again) keeps each prompt's prefix up
//              to the longest it shares with a prompt of ANOTHER unit (a system prompt, a shared-prefix
//              group), and moves every later token by the repeat count within the trace's token range
//              [lowest, highest]: the copies share what the unit shares with others, as the trace did, but
//              not each other's own tokens, which the trace never sent twice. Lengths are unchanged. Within a
//              copy one shift applies to every row, so a session's later turns still extend its earlier ones.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/trace/trace.h"

namespace blis::sim {

// What resampling needs of a trace, found once per run: its units, each client's units and open-root gaps,
// each row's prefix shared with other units and the token range. draw() is const, so replications on several
// threads draw from one TraceResampler.
class TraceResampler {
 public:
  // unit is "requests" or "sessions". Refuses (std::invalid_argument naming workload.replay.resample, the row
  // and the cause) a requests resample of a trace with waiting rows, an unknown unit, and an empty trace.
  // Keeps a reference to `trace`, which must outlive it.
  TraceResampler(const Trace& trace, const std::string& unit);

  // The resampled trace for one replication's seed.
  Trace draw(std::uint64_t seed) const;

 private:
  struct Unit {
    std::size_t root = 0;           // its first row
    std::vector<std::size_t> rows;  // in recorded order, root first
    std::int64_t gap_us = 0;        // an open root's gap since the client's previous open root
  };

  const Trace& trace_;
  std::vector<Unit> units_;
  std::map<std::string, std::vector<std::size_t>> by_client_;  // each client's units in recorded order
  std::vector<std::size_t> shared_;  // per row: the prefix its prompt shares with a prompt of another unit
  std::int64_t low_ = 0, range_ = 1;  // the trace's token range [low_, low_ + range_)
};

// One draw: TraceResampler(trace, unit).draw(seed).
Trace resample_trace(const Trace& trace, const std::string& unit, std::uint64_t seed);

}  // namespace blis::sim
