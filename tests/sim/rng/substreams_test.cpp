// Named substreams (src/sim/rng/substreams.h, DEV-6): the documented derivation, independence of history,
// distinct streams for distinct names and seeds, the unambiguous name encoding, and the conversions.
#include "sim/rng/substreams.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "contracts/sha256.h"
#include "sim/rng/philox.h"

namespace {

using namespace blis::sim::rng;

std::vector<std::uint64_t> words(Stream s, int n) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(s.next_u64());
  return out;
}

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

TEST(Substreams, NamesTheGenerator) {
  EXPECT_EQ(Substreams::generator(), "philox4x64-10.v1");
  EXPECT_EQ(std::string(Substreams::generator_name()) + ".v" + std::to_string(Substreams::generator_version()),
            Substreams::generator());
}

TEST(Substreams, NameBytesAreTheDocumentedEncoding) {
  // le64(4) "chat" le64(13) "prompt_tokens" le64(17)
  EXPECT_EQ(hex(substream_name_bytes("chat", "prompt_tokens", 17)),
            "0400000000000000"
            "63686174"
            "0d00000000000000"
            "70726f6d70745f746f6b656e73"
            "1100000000000000");
}

// Computed independently of this code, by a Python transcription of the header's derivation (hashlib's
// SHA-256 and Random123's round function with Python integers), which also reproduces the all-zero KAT.
TEST(Substreams, GoldenWordsFromAnIndependentTranscription) {
  EXPECT_EQ(words(Substreams(42).stream("chat", "prompt_tokens", 17), 6),
            (std::vector<std::uint64_t>{0x7f00fd1863ed6a91, 0x6b50eb3abd56772b, 0x859259f28fda0eb0, 0xa09049b19567453e,
                                        0xefc0ce4b5aff7841, 0x241fc9bf0d6691e4}));
  EXPECT_EQ(words(Substreams(0).stream("a", "b", 0), 6),
            (std::vector<std::uint64_t>{0xc2361441e4745909, 0xc5bca617e09b4f47, 0x0380327da6f73c0f, 0x218ef0c622203d20,
                                        0x23edcf29588f114f, 0x43171ab0706803c4}));
  // The same first four words as uniforms: ((w >> 12) + 0.5) * 2^-52.
  Stream s = Substreams(42).stream("chat", "prompt_tokens", 17);
  EXPECT_EQ(s.uniform01(), 0.49610883565394703);
  EXPECT_EQ(s.uniform01(), 0.41920347389290125);
  EXPECT_EQ(s.uniform01(), 0.52176439449235812);
  EXPECT_EQ(s.uniform01(), 0.62720165811097417);
}

// The header's key and counter layout, rebuilt here from SHA-256 and philox4x64_10 for three blocks.
TEST(Substreams, FollowsTheDocumentedKeyAndCounterLayout) {
  const std::uint64_t seed = 0x0123456789abcdefull;
  std::string seed_bytes;
  for (int i = 0; i < 8; ++i) seed_bytes.push_back(static_cast<char>((seed >> (8 * i)) & 0xff));
  blis::contracts::Sha256 h;
  h.update(seed_bytes + substream_name_bytes("router", "tie_break", 99));
  const auto d = h.digest();
  std::array<std::uint64_t, 4> w{};
  for (int i = 0; i < 32; ++i) w[i / 8] |= static_cast<std::uint64_t>(d[i]) << (8 * (i % 8));
  std::vector<std::uint64_t> expected;
  for (std::uint64_t b = 0; b < 3; ++b)
    for (std::uint64_t x : philox4x64_10({b, 0, w[2], w[3]}, {w[0], w[1]})) expected.push_back(x);
  EXPECT_EQ(words(Substreams(seed).stream("router", "tie_break", 99), 12), expected);
}

TEST(Substreams, AStreamIgnoresWhatOtherStreamsDrew) {
  const std::vector<std::uint64_t> fresh = words(Substreams(7).stream("chat", "prompt_tokens", 17), 9);
  const Substreams subs(7);
  Stream other = subs.stream("chat", "prompt_tokens", 3);
  for (int i = 0; i < 1000; ++i) other.next_u64();
  EXPECT_EQ(words(subs.stream("chat", "prompt_tokens", 17), 9), fresh);
  // Interleaved with another stream's draws, and made twice from one factory.
  Stream a = subs.stream("chat", "prompt_tokens", 17);
  Stream b = subs.stream("chat", "output_tokens", 17);
  for (int i = 0; i < 9; ++i) {
    b.next_u64();
    b.uniform01();
    EXPECT_EQ(a.next_u64(), fresh[i]) << "word " << i;
  }
  EXPECT_EQ(words(subs.stream("chat", "prompt_tokens", 17), 9), fresh);
}

TEST(Substreams, DifferentNamesAndSeedsGiveDifferentStreams) {
  const auto base = words(Substreams(1).stream("chat", "prompt_tokens", 17), 4);
  EXPECT_NE(words(Substreams(2).stream("chat", "prompt_tokens", 17), 4), base);
  EXPECT_NE(words(Substreams(1).stream("code", "prompt_tokens", 17), 4), base);
  EXPECT_NE(words(Substreams(1).stream("chat", "output_tokens", 17), 4), base);
  EXPECT_NE(words(Substreams(1).stream("chat", "prompt_tokens", 18), 4), base);
  // 2000 neighbouring names and seeds: all first words distinct.
  std::set<std::uint64_t> firsts;
  for (std::uint64_t e = 0; e < 1000; ++e) firsts.insert(Substreams(1).stream("chat", "arrival", e).next_u64());
  for (std::uint64_t seed = 0; seed < 1000; ++seed)
    firsts.insert(Substreams(seed).stream("chat", "arrival", 1000).next_u64());
  EXPECT_EQ(firsts.size(), 2000u);
}

TEST(Substreams, TheNameEncodingIsUnambiguous) {
  // A field boundary moved, an entity byte-swapped, a NUL inside a field: different bytes, different streams.
  EXPECT_NE(substream_name_bytes("ab", "c", 1), substream_name_bytes("a", "bc", 1));
  EXPECT_NE(words(Substreams(5).stream("ab", "c", 1), 4), words(Substreams(5).stream("a", "bc", 1), 4));
  EXPECT_NE(words(Substreams(5).stream("a", "b", 1), 4), words(Substreams(5).stream("a", "b", 1ull << 56), 4));
  const std::string with_nul("a\0b", 3);
  EXPECT_NE(words(Substreams(5).stream(with_nul, "c", 1), 4),
            words(Substreams(5).stream("a", std::string("b\0c", 3), 1), 4));
}

void expect_invalid(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no std::invalid_argument; expected one saying: " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Substreams, RefusesAnEmptyComponentOrPurpose) {
  const Substreams subs(1);
  expect_invalid([&] { subs.stream("", "prompt_tokens", 1); }, "component must not be empty");
  expect_invalid([&] { subs.stream("chat", "", 1); }, "purpose must not be empty");
  EXPECT_NO_THROW(subs.stream("c", "p", 1));  // the shortest accepted names
}

TEST(Stream, Uniform01IsTheTopWordBitsAtMidpoints) {
  Stream s = Substreams(3).stream("t", "u", 0);
  Stream twin = Substreams(3).stream("t", "u", 0);
  for (int i = 0; i < 100000; ++i) {
    const double u = s.uniform01();
    ASSERT_EQ(u, (static_cast<double>(twin.next_u64() >> 12) + 0.5) * 0x1p-52);
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
  EXPECT_EQ(s.draws(), 100000u);
}

TEST(Stream, CountsWords) {
  Stream s = Substreams(3).stream("t", "count", 0);
  EXPECT_EQ(s.draws(), 0u);
  s.uniform01();
  s.next_u64();
  s.below(1);  // at least one word, also for n = 1
  EXPECT_EQ(s.draws(), 3u);
}

TEST(Stream, BelowRejectsTheShortTopRangeAndIsUniform) {
  // n = 2^63 + 1: 2^64 mod n = 2^63 - 1, so words below 2^63 - 1 (about half) are redrawn.
  const std::uint64_t n = (1ull << 63) + 1;
  Stream s = Substreams(9).stream("t", "below", 0);
  Stream twin = Substreams(9).stream("t", "below", 0);
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t w = twin.next_u64();
    while (w < (1ull << 63) - 1) w = twin.next_u64();
    ASSERT_EQ(s.below(n), w % n);
  }
  EXPECT_EQ(s.draws(), twin.draws());
  EXPECT_GT(s.draws(), 1500u);  // the rejections happened (expected about 2000 words)
  // Counts of below(6) over 60000 draws: chi-square with 5 degrees of freedom below 20.5 (p = 0.001).
  Stream d = Substreams(9).stream("t", "die", 0);
  std::array<int, 6> counts{};
  for (int i = 0; i < 60000; ++i) ++counts.at(d.below(6));
  double chi2 = 0;
  for (int c : counts) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
  EXPECT_LT(chi2, 20.5);
}

TEST(Stream, BelowRefusesZero) {
  Stream s = Substreams(9).stream("t", "below", 1);
  expect_invalid([&] { s.below(0); }, "n must be at least 1, got 0");
  EXPECT_EQ(s.below(1), 0u);
}

}  // namespace
