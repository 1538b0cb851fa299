#include "sim/devs/time.h"

#include <cmath>
#include <stdexcept>

namespace blis::sim {

SimTime later(SimTime t, SimTime d) {
  if (t == kNever || d == kNever) return kNever;
  if (d.us < 0) throw std::invalid_argument("simulated time: a negative delay " + std::to_string(d.us) + " us");
  if (t.us > kNever.us - d.us) throw std::overflow_error("simulated time: " + to_string(t) + " + " + to_string(d) + " overflows");
  return SimTime{t.us + d.us};
}

SimTime duration_of(units::Seconds seconds, const std::string& what) {
  const double s = seconds.value();
  if (!std::isfinite(s) || s < 0) {
    throw std::domain_error(what + ": duration " + std::to_string(s) + " s is not a finite, non-negative time");
  }
  const double us = std::nearbyint(s * 1e6);  // default rounding mode: to nearest, ties to even
  if (us >= 9.0e18) throw std::domain_error(what + ": duration " + std::to_string(s) + " s exceeds simulated time's range");
  return SimTime{static_cast<std::int64_t>(us)};
}

std::string to_string(SimTime t) {
  if (t == kNever) return "never";
  const std::int64_t whole = t.us / 1000000, frac = t.us % 1000000;
  std::string f = std::to_string(frac < 0 ? -frac : frac);
  return std::to_string(whole) + "." + std::string(6 - f.size(), '0') + f + "s";
}

}  // namespace blis::sim
