// Original to BLIS: transcription of test/registered/unit/mem_cache/test_radix_cache_unit.py@71de97b2 (class TestRadixKey) into GoogleTest.
// Stand-ins: array("q", ...) is a std::vector<std::int64_t>; key[i] is RadixKey::at, key[a:b] RadixKey::slice,
// list(key) RadixKey::tokens; upstream's IndexError is std::out_of_range; subTest loops are plain loops with
// SCOPED_TRACE.
#include "srt/mem_cache/radix_key.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace blis::sglang {
namespace {

using Tokens = std::vector<std::int64_t>;

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_init_with_extra_key.
TEST(SglRadixKey, InitWithExtraKey) {
  const Tokens token_ids{1, 2, 3};
  RadixKey key(token_ids, std::string("test_key"));
  EXPECT_EQ(key.token_ids, token_ids);
  EXPECT_EQ(key.extra_key, std::optional<std::string>("test_key"));
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_len_and_iter.
TEST(SglRadixKey, LenAndIter) {
  const std::vector<std::pair<Tokens, std::int64_t>> cases{{{1, 2, 3}, 3}, {{}, 0}, {{42}, 1}};
  for (const auto& [tokens, expected] : cases) {
    SCOPED_TRACE(testing::Message() << "len " << tokens.size());
    RadixKey key(tokens);
    EXPECT_EQ(key.size(), expected);
    EXPECT_EQ(key.tokens(), tokens);
  }
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_getitem_int.
TEST(SglRadixKey, GetitemInt) {
  const Tokens tokens{10, 20, 30};
  const std::vector<std::pair<std::int64_t, Tokens>> cases{{0, {10}}, {-1, {30}}, {2, {30}}};
  for (const auto& [index, expected] : cases) {
    SCOPED_TRACE(testing::Message() << "index " << index);
    RadixKey key(tokens);
    RadixKey result = key.at(index);
    EXPECT_EQ(result.token_ids, expected);
  }
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_getitem_slice.
TEST(SglRadixKey, GetitemSlice) {
  RadixKey key(Tokens{1, 2, 3, 4, 5}, std::string("extra"));
  RadixKey sliced = key.slice(1, 4);
  EXPECT_EQ(sliced.token_ids, (Tokens{2, 3, 4}));
  EXPECT_EQ(sliced.extra_key, std::optional<std::string>("extra"));
  EXPECT_EQ(key.slice(2, 2).token_ids, Tokens{});
  EXPECT_EQ(key.slice(std::nullopt, std::nullopt).token_ids, (Tokens{1, 2, 3, 4, 5}));
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_cache_salt_is_preserved_by_slicing.
TEST(SglRadixKey, CacheSaltIsPreservedBySlicing) {
  RadixKey key(Tokens{1, 2, 3, 4}, std::string("classification"), false, std::nullopt, std::string("tenant-a"));
  RadixKey sliced = key.slice(1, 3);
  EXPECT_EQ(sliced.extra_key, std::optional<std::string>("classification"));
  EXPECT_EQ(sliced.cache_salt, std::optional<std::string>("tenant-a"));
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_getitem_invalid_index.
TEST(SglRadixKey, GetitemInvalidIndex) {
  RadixKey key(Tokens{1, 2, 3});
  EXPECT_THROW(key.at(10), std::out_of_range);
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey._assert_match.
void assert_match(const Tokens& a, const Tokens& b, std::int64_t page_size, std::int64_t expected,
                  bool is_bigram = false) {
  RadixKey key_a(a, std::nullopt, is_bigram);
  RadixKey key_b(b, std::nullopt, is_bigram);
  EXPECT_EQ(key_a.match(key_b, page_size), expected);
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_match_page_size_1.
TEST(SglRadixKey, MatchPageSize1) {
  assert_match({1, 2, 3, 4}, {1, 2, 3, 4}, 1, 4);
  assert_match({1, 2, 3, 4}, {1, 2, 9, 9}, 1, 2);
  assert_match({9, 2, 3}, {1, 2, 3}, 1, 0);
  assert_match({1, 2, 3, 4}, {1, 2, 3}, 1, 3);
  assert_match({}, {1, 2}, 1, 0);
  assert_match({1, 2}, {}, 1, 0);
  assert_match({}, {}, 1, 0);
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_match_page_size_gt_1_rounds_down.
TEST(SglRadixKey, MatchPageSizeGt1RoundsDown) {
  assert_match({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 9, 8}, 4, 4);
  assert_match({1, 2, 3, 4}, {1, 9, 3, 4}, 4, 0);
  assert_match({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 9, 6, 7, 8}, 4, 4);
  assert_match({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}, 4, 8);
  assert_match({1, 2, 3}, {1, 2, 3}, 4, 0);
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_match_long_keys_exponential_search.
TEST(SglRadixKey, MatchLongKeysExponentialSearch) {
  Tokens base(2000);
  for (std::int64_t i = 0; i < 2000; ++i) base[static_cast<std::size_t>(i)] = i;
  for (std::int64_t div : {1, 2, 63, 64, 65, 127, 128, 511, 512, 513, 1234, 1999}) {
    Tokens b = base;
    b[static_cast<std::size_t>(div)] = -1;
    for (std::int64_t page_size : {1, 4, 64}) {
      SCOPED_TRACE(testing::Message() << "div " << div << " page_size " << page_size);
      assert_match(base, b, page_size, (div / page_size) * page_size);
    }
  }
  assert_match(base, base, 64, (2000 / 64) * 64);
}

// test_radix_cache_unit.py@71de97b2 TestRadixKey.test_match_bigram.
TEST(SglRadixKey, MatchBigram) {
  assert_match({1, 2, 3, 4, 5}, {1, 2, 3, 9, 5}, 1, 2, true);
  assert_match({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, 1, 4, true);
  assert_match({1, 2}, {1, 2}, 1, 1, true);
  Tokens long_a(130);
  for (std::int64_t i = 0; i < 130; ++i) long_a[static_cast<std::size_t>(i)] = i;
  Tokens long_b = long_a;
  long_b[70] = -1;
  assert_match(long_a, long_b, 64, 64, true);
}

}  // namespace
}  // namespace blis::sglang
