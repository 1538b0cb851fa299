#include "sim/run/steady_state.h"

#include <algorithm>

namespace blis::sim {

SteadyStateJudgement judge_steady_state(ReplicationOutput& run) {
  SteadyStateJudgement j;
  j.grid = SimTime{std::max<std::int64_t>(1, run.end.us / kGridPoints)};
  const auto points = static_cast<std::size_t>(run.end.us / j.grid.us);
  // +1 at each send, -1 at each end, by grid interval (time t counts in the interval (k-1)g, kg]).
  std::vector<std::int64_t> change(points + 2, 0), ended(points + 2, 0);
  auto interval = [&](SimTime t) { return static_cast<std::size_t>(std::min<std::int64_t>((t.us + j.grid.us - 1) / j.grid.us, static_cast<std::int64_t>(points) + 1)); };
  for (const auto& r : run.observations.records()) {
    if (!r.sent) continue;
    ++change[interval(*r.sent)];
    const bool left = r.fate == Fate::kCompleted || r.fate == Fate::kDropped || r.fate == Fate::kTimedOut;
    if (left && r.ended) {
      --change[interval(*r.ended)];
      ++ended[interval(*r.ended)];
    }
  }
  std::int64_t in_system = change[0];
  for (std::size_t k = 1; k <= points; ++k) {
    in_system += change[k];
    j.backlog.push_back(static_cast<double>(in_system));
    j.departures.push_back(static_cast<double>(ended[k]));
  }
  analysis::DetectorOptions options;
  options.observation_interval_s = seconds_of(j.grid);
  j.classification = analysis::classify(j.backlog, j.departures, options);
  std::size_t cut = 0;
  if (j.classification.backlog) cut = std::max(cut, j.classification.backlog->window_begin);
  if (j.classification.departures) cut = std::max(cut, j.classification.departures->window_begin);
  j.warmup_end = SimTime{static_cast<std::int64_t>(cut) * j.grid.us};
  run.observations.cut_warmup(j.warmup_end);
  return j;
}

}  // namespace blis::sim
