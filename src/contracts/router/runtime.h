// The router's runtime (design "seams", RTR-2, RTR-6, RTR-7): the only way the router port (router/)
// reaches simulated time and randomness. The simulator implements it (src/sim); tests implement it with
// fixed clocks and recorded draws. The router never reads a clock, starts a thread or seeds a generator
// (lints blis-no-clock, blis-no-thread, blis-no-unnamed-random).
//
// One router activity runs at a time; the runtime resumes parked activities in an order that must not
// change a decision (a seeded test permutes it).
#pragma once

#include <cstdint>
#include <string_view>

namespace blis::router {

// A named random substream (DEV-6), handed in by the simulator: the same scenario seed and name give the
// same draws whatever else was drawn.
class RandomStream {
 public:
  virtual ~RandomStream() = default;
  // Uniform on [0, 2^64).
  virtual std::uint64_t next_u64() = 0;
  // Uniform strictly inside (0, 1).
  virtual double uniform01() = 0;
  // Uniform on {0, ..., n - 1}, unbiased; n = 0 is refused (std::invalid_argument).
  virtual std::uint64_t below(std::uint64_t n) = 0;
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  // Simulated time, microseconds since the run started.
  virtual std::int64_t now_us() const = 0;
  // The router's substream for `purpose` (e.g. "picker/max-score-picker"); the same purpose returns the
  // same stream for the whole run.
  virtual RandomStream& stream(std::string_view purpose) = 0;
};

}  // namespace blis::router
