// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; RadixKey only, with token ids held in a std::vector and the Python child-key tuple replaced by the ChildKey struct.
#include "srt/mem_cache/radix_key.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "srt/mem_cache/utils.h"

namespace blis::sglang {

namespace {

std::string py_repr(const std::optional<std::string>& s) { return s ? "'" + *s + "'" : std::string("None"); }

}  // namespace

// radix_cache.py@71de97b2 RadixKey.__init__.
RadixKey::RadixKey(std::vector<std::int64_t> token_ids_, std::optional<std::string> extra_key_, bool is_bigram_,
                   std::optional<std::int64_t> limit_, std::optional<std::string> cache_salt_)
    : token_ids(std::move(token_ids_)),
      extra_key(std::move(extra_key_)),
      cache_salt(cache_salt_ && !cache_salt_->empty() ? std::move(cache_salt_) : std::nullopt),
      is_bigram(is_bigram_),
      limit(limit_) {}

// radix_cache.py@71de97b2 RadixKey._raw_len.
std::int64_t RadixKey::raw_len() const {
  const auto n = static_cast<std::int64_t>(token_ids.size());
  if (limit && *limit < n) return *limit;
  return n;
}

// radix_cache.py@71de97b2 RadixKey.raw_token_ids.
std::vector<std::int64_t> RadixKey::raw_token_ids() const {
  return std::vector<std::int64_t>(token_ids.begin(), token_ids.begin() + raw_len());
}

// radix_cache.py@71de97b2 RadixKey.__len__.
std::int64_t RadixKey::size() const {
  const std::int64_t n = raw_len();
  if (is_bigram) return n > 0 ? n - 1 : 0;
  return n;
}

// radix_cache.py@71de97b2 RadixKey.__iter__ (plain keys).
std::vector<std::int64_t> RadixKey::tokens() const {
  return std::vector<std::int64_t>(token_ids.begin(), token_ids.begin() + size());
}

// radix_cache.py@71de97b2 RadixKey.__getitem__ (int index).
RadixKey RadixKey::at(std::int64_t idx) const {
  const std::int64_t n = size();
  if (idx < 0) idx += n;
  if (idx < 0 || idx >= n) throw std::out_of_range("RadixKey index out of range: " + std::to_string(idx));
  return slice(idx, idx + 1);
}

// radix_cache.py@71de97b2 RadixKey.__getitem__ (slice, step 1; slice.indices clamping).
RadixKey RadixKey::slice(std::optional<std::int64_t> start_, std::optional<std::int64_t> stop_) const {
  const std::int64_t n = size();
  auto norm = [n](std::optional<std::int64_t> v, std::int64_t dflt) {
    if (!v) return dflt;
    std::int64_t x = *v;
    if (x < 0) x += n;
    return std::clamp<std::int64_t>(x, 0, n);
  };
  const std::int64_t start = norm(start_, 0);
  const std::int64_t stop = norm(stop_, n);
  if (is_bigram) {
    std::vector<std::int64_t> raw;
    if (stop > start) {
      const auto end = std::min<std::int64_t>(stop + 1, static_cast<std::int64_t>(token_ids.size()));
      raw.assign(token_ids.begin() + start, token_ids.begin() + end);
    }
    return RadixKey(std::move(raw), extra_key, true, std::nullopt, cache_salt);
  }
  std::vector<std::int64_t> raw;
  if (stop > start) raw.assign(token_ids.begin() + start, token_ids.begin() + stop);
  return RadixKey(std::move(raw), extra_key, false, std::nullopt, cache_salt);
}

// radix_cache.py@71de97b2 RadixKey.page_aligned.
RadixKey RadixKey::page_aligned(std::int64_t page_size) const {
  if (page_size == 1) return *this;
  const std::int64_t aligned_len = size() / page_size * page_size;
  return slice(std::nullopt, aligned_len);
}

// radix_cache.py@71de97b2 RadixKey.maybe_to_bigram_view.
RadixKey& RadixKey::maybe_to_bigram_view(bool is_eagle, std::vector<std::int64_t>* value) {
  if (is_eagle && !is_bigram) {
    is_bigram = true;
    if (value != nullptr) {
      const auto n = static_cast<std::size_t>(size());
      if (value->size() > n) value->resize(n);
    }
  }
  return *this;
}

// radix_cache.py@71de97b2 RadixKey._check_compatible.
void RadixKey::check_compatible(const RadixKey& other) const {
  if (extra_key != other.extra_key) {
    throw std::invalid_argument("RadixKey operations require matching extra_key, but got self.extra_key=" +
                                py_repr(extra_key) + " != other.extra_key=" + py_repr(other.extra_key));
  }
  if (cache_salt != other.cache_salt) {
    throw std::invalid_argument("RadixKey operations require matching cache_salt, but got self.cache_salt=" +
                                py_repr(cache_salt) + " != other.cache_salt=" + py_repr(other.cache_salt));
  }
}

// radix_cache.py@71de97b2 RadixKey.match. Upstream finds the first diverging raw token by galloping slice
// compares over the whole token_ids (not honoring `limit`); a linear scan finds the same index.
std::int64_t RadixKey::match(const RadixKey& other, std::int64_t page_size) const {
  check_compatible(other);
  const auto& t0 = token_ids;
  const auto& t1 = other.token_ids;
  const std::size_t n = std::min(t0.size(), t1.size());
  std::size_t i = 0;
  while (i < n && t0[i] == t1[i]) ++i;
  std::int64_t matched_tokens = static_cast<std::int64_t>(i);
  if (is_bigram) {
    const std::int64_t matched = std::max<std::int64_t>(0, std::min({matched_tokens - 1, size(), other.size()}));
    return page_size > 1 ? (matched / page_size) * page_size : matched;
  }
  matched_tokens = std::min({matched_tokens, size(), other.size()});
  if (page_size == 1) return matched_tokens;
  return (matched_tokens / page_size) * page_size;
}

// radix_cache.py@71de97b2 RadixKey.child_key. Like upstream's tuple slice, a short key yields the tokens
// it has.
ChildKey RadixKey::child_key(std::int64_t page_size) const {
  ChildKey k;
  const auto& t = token_ids;
  k.is_bigram = is_bigram;
  if (is_bigram) {
    for (std::int64_t j = 0; j < page_size && static_cast<std::size_t>(j + 1) < t.size(); ++j) {
      k.tokens.push_back(t[static_cast<std::size_t>(j)]);
      k.tokens.push_back(t[static_cast<std::size_t>(j + 1)]);
    }
  } else {
    const auto n = std::min<std::size_t>(static_cast<std::size_t>(page_size), t.size());
    k.tokens.assign(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n));
  }
  if (cache_salt) {
    k.salted = true;
    k.extra_key = extra_key;
    k.cache_salt = cache_salt;
  } else {
    k.extra_key = extra_key;
  }
  return k;
}

// radix_cache.py@71de97b2 RadixKey.hash_page.
std::string RadixKey::hash_page(std::int64_t start, std::int64_t end,
                                const std::optional<std::string>& prior_hash) const {
  return get_hash_str(slice(start, end), prior_hash);
}

// radix_cache.py@71de97b2 RadixKey.__repr__.
std::string RadixKey::repr() const {
  std::string preview = "array('q', [";
  for (std::size_t i = 0; i < std::min<std::size_t>(10, token_ids.size()); ++i) {
    if (i) preview += ", ";
    preview += std::to_string(token_ids[i]);
  }
  preview += "])";
  return "RadixKey(extra_key=" + py_repr(extra_key) + ", cache_salt=" + py_repr(cache_salt) + ", token_ids=" + preview +
         (token_ids.size() > 10 ? "..." : "") + ", is_bigram=" + (is_bigram ? "True" : "False") + ")";
}

}  // namespace blis::sglang
