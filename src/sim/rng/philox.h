// Philox4x64-10, the counter-based generator of Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
// as easy as 1, 2, 3" (SC11), written from its definition in DEShawResearch/random123
// include/Random123/philox.h@9545ff64 (_philox4xWround_tpl, _philox4xWbumpkey_tpl, philox4x64_R with R = 10).
// A pure function of a 4-word counter and a 2-word key: each distinct (counter, key) gives 4 words that can
// be treated as independent uniform 64-bit integers. Integer arithmetic only, so the output is the same
// bits on every platform; the 128-bit product is built from 32-bit halves, with no compiler extension.
// The known-answer test (tests/sim/rng/philox_test.cpp) checks Random123's tests/kat_vectors.
#pragma once

#include <array>
#include <cstdint>

namespace blis::sim::rng {

using PhiloxCounter = std::array<std::uint64_t, 4>;
using PhiloxKey = std::array<std::uint64_t, 2>;
using PhiloxBlock = std::array<std::uint64_t, 4>;

namespace philox_detail {

// Random123's round multipliers (PHILOX_M4x64_0, _1) and Weyl key increments (PHILOX_W64_0, _1: the golden
// ratio and sqrt(3) - 1 as 64-bit fractions).
inline constexpr std::uint64_t kM0 = 0xD2E7470EE14C6C93u;
inline constexpr std::uint64_t kM1 = 0xCA5A826395121157u;
inline constexpr std::uint64_t kW0 = 0x9E3779B97F4A7C15u;
inline constexpr std::uint64_t kW1 = 0xBB67AE8584CAA73Bu;

// The 128-bit product a * b as its high and low words.
struct HiLo {
  std::uint64_t hi;
  std::uint64_t lo;
};
constexpr HiLo mulhilo(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t kLow32 = 0xFFFFFFFFu;
  const std::uint64_t a0 = a & kLow32, a1 = a >> 32, b0 = b & kLow32, b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  // The middle column: at most 3 * (2^32 - 1), so no overflow.
  const std::uint64_t mid = (p00 >> 32) + (p01 & kLow32) + (p10 & kLow32);
  return {p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (p00 & kLow32)};
}

constexpr PhiloxCounter one_round(const PhiloxCounter& c, const PhiloxKey& k) {
  const HiLo p0 = mulhilo(kM0, c[0]);
  const HiLo p1 = mulhilo(kM1, c[2]);
  return {p1.hi ^ c[1] ^ k[0], p1.lo, p0.hi ^ c[3] ^ k[1], p0.lo};
}

}  // namespace philox_detail

// The 4 output words of Philox4x64 with 10 rounds for this counter and key: one round with the key as
// given, then 9 rounds each after adding the Weyl increments to the key (as philox4x64_R(10, ctr, key)).
constexpr PhiloxBlock philox4x64_10(PhiloxCounter counter, PhiloxKey key) {
  counter = philox_detail::one_round(counter, key);
  for (int r = 1; r < 10; ++r) {
    key[0] += philox_detail::kW0;
    key[1] += philox_detail::kW1;
    counter = philox_detail::one_round(counter, key);
  }
  return counter;
}

}  // namespace blis::sim::rng
