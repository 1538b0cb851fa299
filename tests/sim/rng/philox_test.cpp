// Philox4x64-10 (src/sim/rng/philox.h) against Random123's published known-answer vectors: the three
// "philox4x64 10" lines of DEShawResearch/random123 tests/kat_vectors@9545ff64 (counter and key all zero,
// all ones, and the digits of pi), and the 128-bit product it is built on.
#include "sim/rng/philox.h"

#include <gtest/gtest.h>

namespace {

using blis::sim::rng::philox4x64_10;
using blis::sim::rng::PhiloxBlock;
using blis::sim::rng::PhiloxCounter;
using blis::sim::rng::PhiloxKey;

struct Kat {
  PhiloxCounter counter;
  PhiloxKey key;
  PhiloxBlock expected;
};

// tests/kat_vectors@9545ff64, lines 41-43: "philox4x64 10 CTR(4 words) KEY(2 words) EXPECTED(4 words)".
constexpr Kat kKats[] = {
    {{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000},
     {0x0000000000000000, 0x0000000000000000},
     {0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b}},
    {{0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff},
     {0xffffffffffffffff, 0xffffffffffffffff},
     {0x87b092c3013fe90b, 0x438c3c67be8d0224, 0x9cc7d7c69cd777b6, 0xa09caebf594f0ba0}},
    {{0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89},
     {0x452821e638d01377, 0xbe5466cf34e90c6c},
     {0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6}},
};

TEST(Philox, MatchesRandom123KnownAnswers) {
  for (const Kat& k : kKats) EXPECT_EQ(philox4x64_10(k.counter, k.key), k.expected);
}

// The generator is constexpr: the first vector holds at compile time too.
static_assert(philox4x64_10({0, 0, 0, 0}, {0, 0})[0] == 0x16554d9eca36314c);

TEST(Philox, ProductOfTheHighestWords) {
  // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high word 2^64 - 2, low word 1, every column carrying.
  const auto p = blis::sim::rng::philox_detail::mulhilo(~0ull, ~0ull);
  EXPECT_EQ(p.hi, 0xfffffffffffffffeull);
  EXPECT_EQ(p.lo, 1ull);
  // The first round multiplier a times 2^32 + 3, by hand: a * 2^32 = 0xD2E7470E_E14C6C93_00000000 and
  // 3a = 0x2_78B5D52C_A3E545B9; the low words' sum carries 1, so the high word is 0xD2E7470E + 2 + 1.
  const auto q = blis::sim::rng::philox_detail::mulhilo(0xD2E7470EE14C6C93ull, 0x100000003ull);
  EXPECT_EQ(q.hi, 0xD2E74711ull);
  EXPECT_EQ(q.lo, 0x5A0241BFA3E545B9ull);
}

TEST(Philox, EveryCounterWordAndKeyWordMatters) {
  const PhiloxBlock base = philox4x64_10({1, 2, 3, 4}, {5, 6});
  for (int i = 0; i < 4; ++i) {
    PhiloxCounter c{1, 2, 3, 4};
    c[i] ^= 1;
    EXPECT_NE(philox4x64_10(c, {5, 6}), base) << "counter word " << i;
  }
  EXPECT_NE(philox4x64_10({1, 2, 3, 4}, {4, 6}), base);
  EXPECT_NE(philox4x64_10({1, 2, 3, 4}, {5, 7}), base);
}

}  // namespace
