// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; RadixKey only, with token ids held in a std::vector and the Python child-key tuple replaced by the ChildKey struct.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace blis::sglang {

// radix_cache.py@71de97b2 RadixKey.child_key's return value. Upstream returns a hashable Python value:
// the first token (page_size 1) or a tuple of the first page_size tokens (bigram mode: (t_i, t_i+1) pairs),
// wrapped as (extra_key, plain) when extra_key is set, or ((extra_key, cache_salt), plain) when a cache
// salt is set. This struct holds the same parts; two ChildKeys are equal exactly when upstream's values
// are (within one cache, whose page_size and bigram mode are fixed). The ordering only serves as a
// deterministic map key; it never reaches a decision.
struct ChildKey {
  bool salted = false;  // the ((extra_key, cache_salt), plain) shape
  std::optional<std::string> extra_key;
  std::optional<std::string> cache_salt;
  bool is_bigram = false;
  std::vector<std::int64_t> tokens;  // bigram mode: the pairs, flattened

  auto operator<=>(const ChildKey&) const = default;
  bool operator==(const ChildKey&) const = default;
};

// radix_cache.py@71de97b2 RadixKey. `token_ids` are the raw tokens (N+1 for N bigrams in bigram mode).
// Slicing copies, as slicing a Python array does.
class RadixKey {
 public:
  RadixKey() = default;
  explicit RadixKey(std::vector<std::int64_t> token_ids, std::optional<std::string> extra_key = std::nullopt,
                    bool is_bigram = false, std::optional<std::int64_t> limit = std::nullopt,
                    std::optional<std::string> cache_salt = std::nullopt);

  std::vector<std::int64_t> token_ids;
  std::optional<std::string> extra_key;
  std::optional<std::string> cache_salt;  // `cache_salt or None`: an empty salt is stored as nullopt
  bool is_bigram = false;
  std::optional<std::int64_t> limit;

  // RadixKey.raw_token_ids: token_ids honoring `limit`.
  std::vector<std::int64_t> raw_token_ids() const;
  // RadixKey.__len__: logical units (bigrams in bigram mode).
  std::int64_t size() const;
  // RadixKey.__iter__ for plain keys: the first size() raw tokens (bigram keys iterate pairs; use unit()).
  std::vector<std::int64_t> tokens() const;
  // RadixKey.__getitem__(int): a one-unit key; negative indices count from the end; throws
  // std::out_of_range (upstream's IndexError) when out of range.
  RadixKey at(std::int64_t idx) const;
  // RadixKey.__getitem__(slice(start, stop)) with step 1 and Python's index clamping. nullopt bounds are
  // the slice's omitted bounds.
  RadixKey slice(std::optional<std::int64_t> start, std::optional<std::int64_t> stop = std::nullopt) const;
  // RadixKey.page_aligned.
  RadixKey page_aligned(std::int64_t page_size) const;
  // RadixKey.maybe_to_bigram_view: flips is_bigram (in place, as upstream) when is_eagle; `value`, when
  // given, is truncated to the bigram count.
  RadixKey& maybe_to_bigram_view(bool is_eagle, std::vector<std::int64_t>* value = nullptr);
  // RadixKey._check_compatible: throws std::invalid_argument (upstream's ValueError).
  void check_compatible(const RadixKey& other) const;
  // RadixKey.match: the shared logical prefix length rounded down to page_size. Upstream gallops with
  // slice compares; a linear scan finds the same first divergence.
  std::int64_t match(const RadixKey& other, std::int64_t page_size = 1) const;
  // RadixKey.child_key.
  ChildKey child_key(std::int64_t page_size = 1) const;
  // RadixKey.hash_page: SHA-256 hex of logical units [start, end) chained on prior_hash.
  std::string hash_page(std::int64_t start, std::int64_t end,
                        const std::optional<std::string>& prior_hash = std::nullopt) const;
  // RadixKey.__repr__.
  std::string repr() const;

 private:
  std::int64_t raw_len() const;
};

}  // namespace blis::sglang
