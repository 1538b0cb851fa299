// SIM-13's link-capacity-property, split in two so that a recorded run can be judged on its own (the check's
// known-bad input is such a record): record_link_run puts scripted transfers on the real Link through the real
// coordinator, one round at a time, and notes at every event what the link reports; judge_link_run checks the
// record against the definitions (not against link.cpp):
//   at every event: the bytes actually moved since the last event are at most capacity x elapsed, and each
//     transfer's at most cap x elapsed (exact, in micro-bytes); the rates reported sum to at most the capacity
//     (1e-9 relative) and none exceeds the cap;
//   at the end: every transfer finished once, with its bytes; none before start + bytes / capacity (nor
//     start + bytes / cap); the last finish is at least total bytes / capacity after the first start (work
//     conservation) and, when no cap binds and the link is never idle in between, at most that plus the
//     rounding the link is allowed: one microsecond per event at which transfers finished (finishes round up)
//     and under one micro-byte per transfer in progress per event (each interval's share is floored).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "link_driver.h"
#include "sim/cluster/link.h"

namespace blis::sim::testing {

struct LinkEvent {
  std::int64_t t = 0;                                          // microseconds
  std::map<std::string, std::int64_t> moved;                   // micro-bytes moved so far by each transfer in progress
  std::map<std::string, double> rates;                         // bytes per second, as the link reports them
  std::vector<std::pair<std::string, std::int64_t>> finished;  // transfers done at t, with their bytes
};

struct LinkRun {
  std::int64_t capacity = 0;        // bytes per second
  std::optional<std::int64_t> cap;  // per transfer, bytes per second
  std::vector<ScriptedStart> starts;
  std::vector<LinkEvent> events;
};

inline LinkRun record_link_run(std::int64_t capacity, std::optional<std::int64_t> cap,
                               std::vector<ScriptedStart> starts) {
  LinkRun run{capacity, cap, starts, {}};
  LinkDriver driver(std::move(starts));
  Link link("link", static_cast<double>(capacity),
            cap ? std::optional<double>(static_cast<double>(*cap)) : std::nullopt);
  Coordinator co;
  const ComponentId d = co.add(driver), l = co.add(link);
  driver.wire(d, l);
  co.start();
  std::size_t seen = 0;
  while (co.round()) {
    LinkEvent e;
    e.t = co.now().us;
    for (; seen < driver.finished.size(); ++seen)
      e.finished.emplace_back(driver.finished[seen].transfer, driver.finished[seen].bytes);
    for (const auto& id : link.transfers()) e.moved[id] = static_cast<std::int64_t>(link.moved(id));
    e.rates = link.rates();
    run.events.push_back(std::move(e));
  }
  return run;
}

// The first way the record breaks the definitions, or nothing.
inline std::optional<std::string> judge_link_run(const LinkRun& run) {
  using I = MicroBytes;  // __int128: capacity x elapsed in micro-bytes does not fit 64 bits
  constexpr I kMicro = 1000000;
  auto s = [](I v) { return std::to_string(static_cast<long long>(v)); };
  const I capacity = run.capacity;
  std::map<std::string, ScriptedStart> by_id;
  for (const auto& st : run.starts) by_id[st.transfer] = st;
  std::map<std::string, I> moved;
  std::map<std::string, std::int64_t> finish_at;
  std::optional<std::int64_t> prev;
  I floor_slack = 0, finish_events = 0;
  bool idle_between = false;
  for (std::size_t k = 0; k < run.events.size(); ++k) {
    const LinkEvent& e = run.events[k];
    const I dt = prev ? e.t - *prev : 0;
    I total = 0;
    auto one = [&](const std::string& id, I now_moved) -> std::optional<std::string> {
      const I delta = now_moved - (moved.contains(id) ? moved[id] : 0);
      if (run.cap && delta > I{*run.cap} * dt)
        return id + " moved " + s(delta) + " micro-bytes in " + s(dt) + " us, above its cap of " +
               std::to_string(*run.cap) + " bytes/s";
      total += delta;
      moved[id] = now_moved;
      return std::nullopt;
    };
    if (!e.finished.empty()) ++finish_events;
    for (const auto& [id, bytes] : e.finished) {
      if (finish_at.contains(id)) return id + " finished twice";
      finish_at[id] = e.t;
      if (!by_id.contains(id)) return id + " finished but never started";
      if (bytes != by_id.at(id).bytes)
        return id + " finished with " + std::to_string(bytes) + " bytes of " + std::to_string(by_id.at(id).bytes);
      if (auto bad = one(id, I{bytes} * kMicro)) return bad;
    }
    for (const auto& [id, m] : e.moved) {
      if (auto bad = one(id, m)) return bad;
    }
    if (total > capacity * dt)
      return "at " + std::to_string(e.t) + " us the link moved " + s(total) + " micro-bytes in " + s(dt) +
             " us, above its capacity of " + std::to_string(run.capacity) + " bytes/s";
    double rate_sum = 0;
    for (const auto& [id, r] : e.rates) {
      rate_sum += r;
      if (run.cap && r > static_cast<double>(*run.cap))
        return id + " runs at " + std::to_string(r) + " bytes/s, above the cap";
    }
    if (rate_sum > static_cast<double>(run.capacity) * (1 + 1e-9))
      return "at " + std::to_string(e.t) + " us the rates sum to " + std::to_string(rate_sum) +
             " bytes/s, above the capacity " + std::to_string(run.capacity);
    floor_slack += static_cast<I>(e.moved.size());
    if (e.moved.empty() && k + 1 < run.events.size()) idle_between = true;
    prev = e.t;
  }
  if (finish_at.size() != run.starts.size())
    return std::to_string(finish_at.size()) + " of " + std::to_string(run.starts.size()) + " transfers finished";
  I started = 0;
  std::int64_t first = INT64_MAX, last = 0;
  for (const auto& st : run.starts) {
    started += I{st.bytes} * kMicro;
    first = std::min(first, st.at.us);
    const I took = finish_at.at(st.transfer) - st.at.us;
    last = std::max(last, finish_at.at(st.transfer));
    if (took * capacity < I{st.bytes} * kMicro)
      return st.transfer + " finished " + s(took) + " us after its start, before " + std::to_string(st.bytes) +
             " bytes could move";
    if (run.cap && took * I{*run.cap} < I{st.bytes} * kMicro)
      return st.transfer + " finished " + s(took) + " us after its start, faster than its cap allows";
  }
  const I span = last - first;
  if (span * capacity < started) return "all bytes moved in " + s(span) + " us, faster than the capacity allows";
  const bool cap_binds = run.cap && *run.cap < run.capacity;
  if (!cap_binds && !idle_between && span * capacity > started + floor_slack + finish_events * capacity)
    return "the link took " + s(span) + " us for " + s(started / kMicro) + " bytes at " + std::to_string(run.capacity) +
           " bytes/s with " + s(finish_events) + " finishing events: more than the rounding allows";
  return std::nullopt;
}

inline nlohmann::json to_json(const LinkRun& run) {
  nlohmann::json j = {{"capacity", run.capacity},
                      {"cap", run.cap ? nlohmann::json(*run.cap) : nlohmann::json(nullptr)}};
  for (const auto& st : run.starts)
    j["starts"].push_back({{"at", st.at.us}, {"transfer", st.transfer}, {"bytes", st.bytes}});
  for (const auto& e : run.events)
    j["events"].push_back({{"t", e.t}, {"moved", e.moved}, {"rates", e.rates}, {"finished", e.finished}});
  return j;
}

inline LinkRun link_run_from_json(const nlohmann::json& j) {
  LinkRun run;
  run.capacity = j.at("capacity");
  if (!j.at("cap").is_null()) run.cap = j.at("cap").get<std::int64_t>();
  for (const auto& st : j.at("starts"))
    run.starts.push_back({SimTime{st.at("at").get<std::int64_t>()}, st.at("transfer"), st.at("bytes")});
  for (const auto& e : j.at("events")) {
    run.events.push_back({e.at("t"), e.at("moved").get<std::map<std::string, std::int64_t>>(),
                          e.at("rates").get<std::map<std::string, double>>(),
                          e.at("finished").get<std::vector<std::pair<std::string, std::int64_t>>>()});
  }
  return run;
}

}  // namespace blis::sim::testing
