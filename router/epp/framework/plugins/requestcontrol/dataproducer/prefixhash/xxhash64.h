// Original to BLIS: XXH64, the hash llm-d's prefix hashing (the port of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099) takes from
// github.com/cespare/xxhash/v2. Written from the public xxHash specification
// (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md, "XXH64 algorithm description"), not
// from any implementation's code; the API mirrors the subset of cespare/xxhash/v2 that upstream calls
// (Sum64, New, Digest.Reset/Write/Sum64). Only seed 0 is used upstream; the seed is kept as a parameter.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace blis::router::prefixhash {

// XXH64 of data in one shot (cespare/xxhash/v2 Sum64; xxhash_spec.md XXH64 with the given seed).
std::uint64_t XXH64(std::span<const std::uint8_t> data, std::uint64_t seed = 0);
std::uint64_t XXH64(std::string_view data, std::uint64_t seed = 0);

// A streaming XXH64 digest, the equivalent of cespare/xxhash/v2 xxhash.New() / Digest: Write appends
// bytes, Sum64 returns the XXH64 of everything written since construction or the last Reset (and does
// not change the state), Reset starts over. Splitting the input over several Writes does not change
// the result.
class Digest {
 public:
  explicit Digest(std::uint64_t seed = 0);
  void Reset();
  void Write(std::span<const std::uint8_t> data);
  void Write(std::string_view data);
  std::uint64_t Sum64() const;

 private:
  std::uint64_t seed_;
  std::array<std::uint64_t, 4> acc_{};      // the four lane accumulators (spec "Step 1")
  std::array<std::uint8_t, 32> buffer_{};   // a partial stripe not yet consumed
  std::size_t buffered_ = 0;                // bytes held in buffer_
  std::uint64_t totalLen_ = 0;              // all bytes written since the last Reset
};

}  // namespace blis::router::prefixhash
