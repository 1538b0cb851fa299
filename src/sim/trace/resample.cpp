#include "sim/trace/resample.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

#include "sim/rng/substreams.h"

namespace blis::sim {

namespace {

const char* kField = "workload.replay.resample";

// For each row, the length of the longest prefix its prompt shares with a prompt of another unit: in the
// prompts' lexicographic order the longest common prefix with any other prompt is with a neighbour, so the
// nearest prompt of another unit on each side answers it.
std::vector<std::size_t> shared_with_other_units(const Trace& trace, const std::vector<std::size_t>& unit_of) {
  const std::size_t n = trace.rows.size();
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return trace.rows[a].request.prompt < trace.rows[b].request.prompt;
  });
  const auto lcp = [&](std::size_t a, std::size_t b) {
    const auto& x = trace.rows[a].request.prompt;
    const auto& y = trace.rows[b].request.prompt;
    std::size_t i = 0;
    while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
    return i;
  };
  std::vector<std::size_t> out(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t row = order[i];
    for (std::size_t j = i; j-- > 0;) {
      if (unit_of[order[j]] != unit_of[row]) {
        out[row] = std::max(out[row], lcp(row, order[j]));
        break;
      }
    }
    for (std::size_t j = i + 1; j < n; ++j) {
      if (unit_of[order[j]] != unit_of[row]) {
        out[row] = std::max(out[row], lcp(row, order[j]));
        break;
      }
    }
  }
  return out;
}

}  // namespace

TraceResampler::TraceResampler(const Trace& trace, const std::string& unit) : trace_(trace) {
  if (unit != "requests" && unit != "sessions") {
    throw std::invalid_argument(std::string(kField) + ": '" + unit + "' is not requests or sessions");
  }
  if (trace.rows.empty()) throw std::invalid_argument(std::string(kField) + ": the trace has no row to draw from");
  // Each row's unit: its own (a root), or the unit of the row it waits for (written before it, read_trace).
  std::map<std::string, std::size_t> row_of;
  std::vector<std::size_t> unit_of(trace.rows.size());
  for (std::size_t k = 0; k < trace.rows.size(); ++k) {
    const TraceRow& r = trace.rows[k];
    row_of[r.request.id] = k;
    if (r.cause == Cause::kAfter) {
      if (unit == "requests") {
        throw std::invalid_argument(std::string(kField) + ": requests: trace row " + std::to_string(k + 1) + " ('" +
                                    r.request.id + "') waits for '" + r.after +
                                    "' to end, so it belongs to a session or a closed-loop user; resample sessions");
      }
      const auto it = row_of.find(r.after);
      if (it == row_of.end()) {
        throw std::invalid_argument(std::string(kField) + ": trace row " + std::to_string(k + 1) + " waits for '" +
                                    r.after + "', which no earlier row is");
      }
      unit_of[k] = unit_of[it->second];
      units_[unit_of[k]].rows.push_back(k);
    } else {
      unit_of[k] = units_.size();
      units_.push_back(Unit{k, {k}, 0});
    }
  }
  // Per client, its units in recorded order and the gaps between its open roots.
  for (std::size_t u = 0; u < units_.size(); ++u) by_client_[trace.rows[units_[u].root].client].push_back(u);
  for (const auto& [client, list] : by_client_) {
    std::int64_t previous = 0;
    for (const std::size_t u : list) {
      const TraceRow& root = trace.rows[units_[u].root];
      if (root.cause != Cause::kOpen) continue;
      units_[u].gap_us = root.time_us - previous;
      previous = root.time_us;
    }
  }
  // A repeated copy's own tokens (past what its prompt shares with other units) are moved within the trace's
  // token range, so copies of one unit share what the unit shares with others and not each other's own part.
  shared_ = shared_with_other_units(trace, unit_of);
  std::int64_t high = 0;
  bool any = false;
  for (const TraceRow& r : trace.rows) {
    for (const std::int32_t t : r.request.prompt) {
      low_ = any ? std::min<std::int64_t>(low_, t) : t;
      high = any ? std::max<std::int64_t>(high, t) : t;
      any = true;
    }
  }
  range_ = high - low_ + 1;
}

Trace TraceResampler::draw(std::uint64_t seed) const {
  Trace out;
  out.header = trace_.header;
  out.sha256 = trace_.sha256;
  const rng::Substreams streams(seed);
  for (const auto& [client, list] : by_client_) {
    rng::Stream s = streams.stream("replay:" + client, "resample", 0);
    std::int64_t clock = 0;
    std::map<std::size_t, std::int64_t> drawn_before;  // unit -> copies drawn so far
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::size_t u = list[s.below(list.size())];
      const Unit& drawn = units_[u];
      const std::int64_t repeat = drawn_before[u]++;
      const std::string suffix = "~" + std::to_string(k);
      for (const std::size_t row : drawn.rows) {
        TraceRow r = trace_.rows[row];
        r.request.id += suffix;
        if (repeat > 0) {
          for (std::size_t i = shared_[row]; i < r.request.prompt.size(); ++i) {
            const std::int64_t t = r.request.prompt[i];
            r.request.prompt[i] = static_cast<std::int32_t>(low_ + (t - low_ + repeat) % range_);
          }
        }
        if (r.cause == Cause::kAfter) r.after += suffix;
        if (r.user >= 0) r.user = static_cast<std::int64_t>(k);
        if (row == drawn.root && r.cause == Cause::kOpen) {
          clock += drawn.gap_us;
          r.time_us = clock;
        }
        out.rows.push_back(std::move(r));
      }
    }
  }
  out.header.requests = units::Count{static_cast<std::int64_t>(out.rows.size())};
  return out;
}

Trace resample_trace(const Trace& trace, const std::string& unit, std::uint64_t seed) {
  return TraceResampler(trace, unit).draw(seed);
}

}  // namespace blis::sim
