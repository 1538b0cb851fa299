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
#include <string>

#include "sim/trace/trace.h"

namespace blis::sim {

// The resampled trace for one replication; unit is "requests" or "sessions". Refuses (std::invalid_argument
// naming workload.replay.resample, the row and the cause) a requests resample of a trace with waiting rows,
// an unknown unit, and an empty trace.
Trace resample_trace(const Trace& trace, const std::string& unit, std::uint64_t seed);

}  // namespace blis::sim
