// SIM-13's property check (check link-capacity-property): random transfers on one link (1 to 20 of them,
// 1 to 1e9 bytes, starting at 0 to 1e6 us; capacity 1e3 to 1e12 bytes/s; a per-transfer cap half the
// time, binding or not), run through the real coordinator one round at a time. At every event:
//   - the rates the link reports sum to at most its capacity (1e-9 relative) and none exceeds the cap;
//   - the bytes it actually moved since the last event are at most capacity x elapsed, and each transfer's
//     at most cap x elapsed (exact, in micro-bytes).
// At the end:
//   - every transfer finished once, with its bytes: bytes delivered equal bytes started;
//   - no transfer finished before start + bytes / capacity (nor start + bytes / cap);
//   - the last finish is at least total bytes / capacity after the first start (work conservation), and
//     when no cap binds and the link is never idle in between, at most that plus the rounding the link
//     is allowed: one microsecond for each event at which transfers finished (their finish is rounded up)
//     and under one micro-byte per transfer in progress per event (each interval's share is floored).
// The expected values are computed here from the definitions, not from link.cpp.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "link_driver.h"
#include "sim/cluster/link.h"

namespace blis::sim {
namespace {

using testing::LinkDriver;
using testing::ScriptedStart;

constexpr MicroBytes kMicro = 1000000;

std::int64_t pick(std::int64_t lo, std::int64_t hi) { return *rc::gen::inRange(lo, hi + 1); }  // [lo, hi]

std::string str(MicroBytes v) { return std::to_string(static_cast<long long>(v)); }  // values here fit

RC_GTEST_PROP(LinkProperty, TrafficNeverExceedsCapacityAndWorkIsConserved, ()) {
  const std::int64_t capacity = pick(1, 1000) * *rc::gen::element<std::int64_t>(1000, 1000000, 1000000000);
  const bool has_cap = *rc::gen::arbitrary<bool>();
  const std::int64_t cap = has_cap ? std::max<std::int64_t>(1, capacity / 100 * pick(1, 150)) : 0;
  const auto n = static_cast<int>(pick(1, 20));
  std::vector<ScriptedStart> starts;
  std::map<std::string, ScriptedStart> by_id;
  for (int i = 0; i < n; ++i) {
    // Small values half the time, so that starts and finishes coincide.
    const std::int64_t bytes = *rc::gen::arbitrary<bool>() ? pick(1, 1000) : pick(1, 1000000000);
    const std::int64_t at = *rc::gen::arbitrary<bool>() ? pick(0, 10) : pick(0, 1000000);
    const std::string id = "t" + std::string(i < 10 ? "0" : "") + std::to_string(i);
    starts.push_back({SimTime{at}, id, bytes});
    by_id[id] = starts.back();
  }

  LinkDriver driver(starts);
  const std::optional<double> cap_arg = has_cap ? std::optional<double>(static_cast<double>(cap)) : std::nullopt;
  Link link("link", static_cast<double>(capacity), cap_arg);
  Coordinator co;
  const ComponentId d = co.add(driver), l = co.add(link);
  driver.wire(d, l);
  co.start();

  std::map<std::string, MicroBytes> moved;  // each transfer's micro-bytes moved, as of the previous event
  SimTime prev = kNever;
  std::size_t seen_finished = 0;
  MicroBytes floor_slack = 0;     // sum over intervals of the transfers in progress during each
  MicroBytes finish_events = 0;   // intervals that ended with transfers finishing
  bool idle_between = false;      // the link was empty after an event other than the last
  while (co.round()) {
    const SimTime t = co.now();
    const MicroBytes dt = prev == kNever ? 0 : t.us - prev.us;
    // The bytes moved over (prev, t]: by transfers that finished at t and by those still in progress.
    MicroBytes total = 0;
    auto check_one = [&](const std::string& id, MicroBytes now_moved) {
      const MicroBytes delta = now_moved - (moved.contains(id) ? moved[id] : 0);
      if (has_cap && delta > MicroBytes{cap} * dt)
        RC_FAIL(id + " moved " + str(delta) + " micro-bytes in " + str(dt) + " us, above its cap of " +
                std::to_string(cap) + " bytes/s");
      total += delta;
      moved[id] = now_moved;
    };
    if (driver.finished.size() > seen_finished) ++finish_events;
    for (; seen_finished < driver.finished.size(); ++seen_finished) {
      const auto& f = driver.finished[seen_finished];
      check_one(f.transfer, MicroBytes{f.bytes} * kMicro);
    }
    for (const auto& id : link.transfers()) check_one(id, link.moved(id));
    if (total > MicroBytes{capacity} * dt)
      RC_FAIL("at " + to_string(t) + " the link moved " + str(total) + " micro-bytes in " + str(dt) +
              " us, above its capacity of " + std::to_string(capacity) + " bytes/s");

    double rate_sum = 0;
    for (const auto& [id, r] : link.rates()) {
      rate_sum += r;
      if (has_cap && r > static_cast<double>(cap))
        RC_FAIL(id + " runs at " + std::to_string(r) + " bytes/s, above the cap");
    }
    if (rate_sum > static_cast<double>(capacity) * (1 + 1e-9))
      RC_FAIL("at " + to_string(t) + " the rates sum to " + std::to_string(rate_sum) + " bytes/s, above the capacity " +
              std::to_string(capacity));

    const auto in_progress = static_cast<MicroBytes>(link.transfers().size());
    floor_slack += in_progress;
    if (in_progress == 0 && co.next_time() != kNever) idle_between = true;
    prev = t;
  }

  // Every transfer finished once, with its bytes, and no sooner than its bytes could move.
  RC_ASSERT(driver.finished.size() == starts.size());
  MicroBytes started = 0, delivered = 0;
  std::map<std::string, int> count;
  SimTime first = kNever, last{0};
  for (const auto& s : starts) {
    started += MicroBytes{s.bytes} * kMicro;
    first = std::min(first, s.at);
  }
  for (const auto& f : driver.finished) {
    const int times = ++count[f.transfer];
    RC_ASSERT(times == 1);
    const ScriptedStart& s = by_id.at(f.transfer);
    RC_ASSERT(f.bytes == s.bytes);
    delivered += MicroBytes{f.bytes} * kMicro;
    last = std::max(last, f.at);
    const MicroBytes took = f.at.us - s.at.us;
    if (took * capacity < MicroBytes{s.bytes} * kMicro)
      RC_FAIL(f.transfer + " finished " + str(took) + " us after its start, before " + std::to_string(s.bytes) +
              " bytes could move");
    if (has_cap && took * cap < MicroBytes{s.bytes} * kMicro)
      RC_FAIL(f.transfer + " finished " + str(took) + " us after its start, faster than its cap allows");
  }
  RC_ASSERT(delivered == started);

  // Work conservation: never faster than the capacity; with no binding cap and no idle gap, no slower
  // than the capacity plus the link's rounding. floor_slack counts the last event too, which has no
  // interval after it: harmless in an upper bound.
  const MicroBytes span = last.us - first.us;
  if (span * capacity < started) RC_FAIL("all bytes moved in " + str(span) + " us, faster than the capacity allows");
  const bool cap_binds = has_cap && cap < capacity;
  if (!cap_binds && !idle_between) {
    const MicroBytes allowed = started + floor_slack + finish_events * capacity;
    if (span * capacity > allowed)
      RC_FAIL("the link took " + str(span) + " us for " + str(started / kMicro) + " bytes at " +
              std::to_string(capacity) + " bytes/s with " + str(finish_events) +
              " finishing events: more than the rounding allows");
  }
  RC_TAG(cap_binds ? "cap binds" : "no binding cap", idle_between ? "idle gap" : "busy throughout");
}

}  // namespace
}  // namespace blis::sim
