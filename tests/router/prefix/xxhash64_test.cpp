// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: tests of the XXH64 digest the C++ port of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.go@71f4f099 uses in place of
// github.com/cespare/xxhash/v2 (published XXH64 vectors, seed 0; streaming equals one-shot).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/xxhash64.h"

namespace {

using blis::router::prefixhash::Digest;
using blis::router::prefixhash::XXH64;

struct Vector {
  std::string input;
  std::uint64_t want;
};

// The XXH64 (seed 0) vectors of github.com/cespare/xxhash/v2 xxhash_test.go TestSum (the library upstream
// hashes with), plus XXH64("abc") = 0x44BC2CF5AD770999. The 63-byte input covers a full 32-byte stripe,
// the 8-byte, 4-byte and 1-byte tails.
const std::vector<Vector>& vectors() {
  static const std::vector<Vector> v = {
      {"", 0xef46db3751d8e999ULL},
      {"a", 0xd24ec4f1a98c6e5bULL},
      {"as", 0x1c330fb2d66be179ULL},
      {"asd", 0x631c37ce72a97393ULL},
      {"asdf", 0x415872f599cea71eULL},
      {"abc", 0x44bc2cf5ad770999ULL},
      {"Call me Ishmael. Some years ago--never mind how long precisely-", 0x02a2e85470d6fd96ULL},
  };
  return v;
}

TEST(XXH64, OneShotMatchesPublishedVectors) {
  for (const auto& v : vectors()) EXPECT_EQ(XXH64(v.input), v.want) << "input \"" << v.input << "\"";
}

// As cespare/xxhash TestSum: every chunk size from 1 to len(input) through the streaming digest.
TEST(XXH64, StreamingEveryChunkSizeMatchesVectors) {
  for (const auto& v : vectors()) {
    for (std::size_t chunk = 1; chunk <= v.input.size(); ++chunk) {
      Digest d;
      for (std::size_t j = 0; j < v.input.size(); j += chunk) d.Write(std::string_view(v.input).substr(j, chunk));
      EXPECT_EQ(d.Sum64(), v.want) << "input \"" << v.input << "\" chunk " << chunk;
    }
    Digest whole;
    whole.Write(v.input);
    EXPECT_EQ(whole.Sum64(), v.want);
  }
}

// Long inputs (several stripes, odd tails) split at uneven points give the one-shot result; Sum64 does
// not disturb the state; Reset starts over (cespare/xxhash TestReset).
TEST(XXH64, StreamingSplitsSumAndReset) {
  std::string s;
  for (int i = 0; i < 1000; ++i) s.push_back(static_cast<char>((i * 131 + 7) & 0xff));
  for (std::size_t len : {31u, 32u, 33u, 64u, 95u, 100u, 1000u}) {
    const std::string in = s.substr(0, len);
    const std::uint64_t oneShot = XXH64(in);
    for (std::size_t a : {0u, 1u, 7u, 31u, 32u, 45u}) {
      if (a > len) continue;
      Digest d;
      d.Write(std::string_view(in).substr(0, a));
      (void)d.Sum64();  // must not change the state
      d.Write(std::string_view(in).substr(a));
      EXPECT_EQ(d.Sum64(), oneShot) << "len " << len << " split " << a;
    }
  }
  Digest d;
  for (const char* part : {"The quic", "k br", "o", "wn fox jumps", " ov", "er the lazy ", "dog."}) d.Write(part);
  const std::uint64_t h0 = d.Sum64();
  d.Reset();
  d.Write("The quick brown fox jumps over the lazy dog.");
  EXPECT_EQ(d.Sum64(), h0);
  EXPECT_EQ(h0, XXH64("The quick brown fox jumps over the lazy dog."));
  d.Reset();
  EXPECT_EQ(d.Sum64(), 0xef46db3751d8e999ULL);
}

}  // namespace
