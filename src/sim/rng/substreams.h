// Named random substreams (DEV-6, design §8.4): every random draw of the simulator comes from a Stream
// named by component, purpose and entity (client "chat", purpose "prompt_tokens", request 17), seeded by
// the SHA-256 of the scenario seed and that name. A stream depends on nothing but the seed and its name, so
// request 17 gets the same draws whatever was drawn for requests 1..16, in every configuration.
//
// Generator "philox4x64-10.v1", as the Result's frame records it (the trace header: "philox4x64-10", 1).
// The version covers everything below and the samplers of distributions.h: any change that alters a draw
// for the same seed, name and calls (the generator, the name encoding, the key and counter layout, the word
// order, a conversion or a sampler) is a new version, and the golden values of tests/sim/rng fail on it.
//
// The name bytes hashed (v1), every integer 8 bytes little-endian:
//   seed        the scenario seed
//   component   length in bytes, then the bytes
//   purpose     length in bytes, then the bytes
//   entity      the entity number
// so digest = SHA-256(le64(seed) || le64(|component|) || component || le64(|purpose|) || purpose ||
// le64(entity)). Length prefixes make the encoding unambiguous for any bytes: ("ab", "c") and ("a", "bc")
// differ. Empty component or purpose is refused (std::invalid_argument naming the field).
//
// Key and counter: with w_i = le64(digest[8i .. 8i+8)), the Philox key is (w_0, w_1) and block b (b = 0, 1,
// ...) is philox4x64_10({b mod 2^64, b div 2^64, w_2, w_3}, key). A stream hands out the 4 words of block 0
// in order, then those of block 1, and so on.
//
// This file and substreams.cpp are the one place a generator is built and seeded (blis-no-unnamed-random).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/rng/philox.h"

namespace blis::sim::rng {

// One named substream: a sequence of 64-bit words, and the conversions every sampler builds on. Not
// copyable (a copy would hand out the same draws twice); movable.
class Stream {
 public:
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&&) = default;
  Stream& operator=(Stream&&) = default;

  // The next word: uniform on [0, 2^64).
  std::uint64_t next_u64();

  // One word as a uniform number strictly inside (0, 1): (k + 0.5) * 2^-52 with k = next_u64() >> 12, so
  // 52 random bits on the grid of midpoints from 2^-53 to 1 - 2^-53. Every value is exact, and 1 - u is a
  // value of the same grid (the inverse CDFs are symmetric in u). Not 53 bits: (k + 0.5) * 2^-53 with a
  // 53-bit k needs 54 significant bits and rounds the top value to 1.
  double uniform01();

  // Uniform on {0, ..., n - 1}, unbiased: words below 2^64 mod n are rejected and the next drawn, then the
  // result is word mod n. Consumes at least one word (also for n = 1). n = 0 is refused
  // (std::invalid_argument).
  std::uint64_t below(std::uint64_t n);

  // How many words this stream has handed out.
  std::uint64_t draws() const { return draws_; }

 private:
  friend class Substreams;
  Stream(PhiloxKey key, std::uint64_t counter_2, std::uint64_t counter_3);

  PhiloxKey key_;
  PhiloxCounter counter_;  // the next block's counter: {index low, index high, w_2, w_3}
  PhiloxBlock block_{};    // the current block's words
  unsigned used_ = 4;      // words of block_ already handed out (4: none left)
  std::uint64_t draws_ = 0;
};

// The exact name bytes of (component, purpose, entity) as above, without the seed.
std::string substream_name_bytes(std::string_view component, std::string_view purpose, std::uint64_t entity);

// The factory: one per scenario seed; stream() may be called any number of times, in any order.
class Substreams {
 public:
  explicit Substreams(std::uint64_t scenario_seed) : seed_(scenario_seed) {}

  // A fresh stream for this name: the same seed and name give the same words every time.
  Stream stream(std::string_view component, std::string_view purpose, std::uint64_t entity) const;

  std::uint64_t seed() const { return seed_; }

  // "philox4x64-10.v1": the generator's name and version, as the experimental frame records it.
  static std::string_view generator() { return "philox4x64-10.v1"; }
  static std::string_view generator_name() { return "philox4x64-10"; }
  static int generator_version() { return 1; }

 private:
  std::uint64_t seed_;
};

}  // namespace blis::sim::rng
