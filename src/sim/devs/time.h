// Simulated time (design §8.3): an integer number of microseconds since the run started. A step time the
// cost model prices in seconds becomes simulated time once, through duration_of(), the one rounding rule.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>
#include <string>

#include "contracts/units.h"

namespace blis::sim {

struct SimTime {
  std::int64_t us = 0;

  friend constexpr auto operator<=>(SimTime, SimTime) = default;
  friend constexpr bool operator==(SimTime, SimTime) = default;
};

// No next event: a passive component's time advance, and the time of an empty queue.
inline constexpr SimTime kNever{std::numeric_limits<std::int64_t>::max()};

// t + d, refusing (std::overflow_error) a sum past kNever; kNever + anything is kNever.
SimTime later(SimTime t, SimTime d);

// The one rounding rule from priced seconds to simulated time: the nearest whole microsecond, ties to
// even (IEEE round-to-nearest-even of seconds x 10^6, one rounding). Refuses (std::domain_error, naming the
// value and `what`) a negative, non-finite or unrepresentable duration: a price is never clamped.
SimTime duration_of(units::Seconds seconds, const std::string& what);

// Whole seconds to simulated time, exactly (a think time or horizon stated in seconds goes through
// duration_of; this is for integer constants such as scrape intervals stated in microseconds' multiples).
constexpr SimTime micros(std::int64_t us) { return SimTime{us}; }

// Simulated time in seconds, for figures (exact for every time below 2^53 microseconds).
constexpr double seconds_of(SimTime t) { return static_cast<double>(t.us) / 1e6; }

std::string to_string(SimTime t);  // "12.345678s", or "never"

}  // namespace blis::sim
