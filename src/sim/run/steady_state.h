// A steady-state replication judged (design §8.8, DEV-10): its backlog and departures observed on a
// regular grid, classed by the one detector (sim/analysis/steady_state.h), and its warm-up cut.
//
// The grid: the run's length split into kGridPoints intervals of whole microseconds (at least one). The
// backlog at a grid time is the requests sent and not yet ended (unfinished ones count until the horizon);
// the departures of an interval are the requests whose fate was written in it (completed, dropped or timed
// out). The warm-up ends at the later of the two series' MSER-5 cuts; only requests sent at or after it are
// measured. The detector's own rule, levels and measured error rates are stated in its header.
#pragma once

#include <vector>

#include "sim/analysis/steady_state.h"
#include "sim/run/replication.h"

namespace blis::sim {

inline constexpr std::int64_t kGridPoints = 1000;

struct SteadyStateJudgement {
  analysis::Classification classification;
  SimTime grid{};        // the grid interval
  SimTime warmup_end{};  // requests sent before it are not measured
  std::vector<double> backlog, departures;
};

// Judges `run` and cuts its warm-up (marking the requests sent before it unmeasured).
SteadyStateJudgement judge_steady_state(ReplicationOutput& run);

}  // namespace blis::sim
