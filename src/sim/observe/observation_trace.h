// DEV-4's trace of published values and their observations: every value an engine publishes (its endpoint,
// publication time and sequence) and, at every routing decision, what the router held of each endpoint.
// The check reads the trace against the declared scrape interval and delivery delay: an observation at t
// must be a value the engine published, scraped at a grid point s (a whole multiple of the interval, the
// publication at or before s) with s + delay <= t, so never before its time plus the delays; and it must be
// no older than the newest value published at or before the last scrape s with s + delay < t (strict: at the
// instant a delivery lands, a decision may see it or the value before, as one instant's activities order).
//
// File format (format 1): three comment lines, a CSV header, then one row per event in the order they
// happened:
//   # blis observation trace (DEV-4), format 1
//   # scrape_interval_us: I
//   # delivery_delay_us: D
//   event,time_us,endpoint,published_us,sequence
//   publish,<t>,<e>,<t>,<n>          engine e published its n-th value at t
//   observe,<t>,<e>,<p>,<n>          a decision at t saw e's value published at p with sequence n
//   observe,<t>,<e>,,                a decision at t saw nothing of e yet
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/devs/time.h"

namespace blis::sim {

// A published value's identity: its time and publication sequence (DEV-4 keys every cache on both).
struct PublishedKey {
  SimTime published{};
  std::uint64_t sequence = 0;
  auto operator<=>(const PublishedKey&) const = default;
};

struct ObservationEvent {
  bool publish = false;          // a publication, else an observation
  SimTime at{};
  std::int64_t endpoint = 0;
  std::optional<PublishedKey> value;  // an observation of nothing yet has none
};

class ObservationTrace {
 public:
  void publish(std::int64_t endpoint, SimTime at, std::uint64_t sequence);
  void observe(SimTime at, std::int64_t endpoint, std::optional<PublishedKey> seen);
  const std::vector<ObservationEvent>& events() const { return events_; }
  std::string text(SimTime interval, SimTime delay) const;

 private:
  std::vector<ObservationEvent> events_;
};

struct ParsedObservationTrace {
  SimTime interval{}, delay{};
  std::vector<ObservationEvent> events;
};

// Reads a trace's text; refuses (std::invalid_argument naming `name`, the line and the field) anything
// malformed: a missing or unknown header line, a non-positive interval, a negative delay, a bad row.
ParsedObservationTrace read_observation_trace(const std::string& text, const std::string& name);

// Every breach of DEV-4 in the trace, one sentence each naming the line's event; empty when none.
std::vector<std::string> check_observations(const ParsedObservationTrace& trace);

}  // namespace blis::sim
