// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; RadixCache.cache_finished_req and cache_unfinished_req as templates over the request type, so the mem_cache package needs no request definition (the managers package's Req binds them).
//
// The request type ReqT needs what upstream's methods read and write on a Req: req_pool_idx (an integer or
// an optional one), cache_protected_len, extra_key and cache_salt (optional strings), priority (an integer
// or an optional one; unset counts as 0), last_node (TreeNode*), origin_input_ids and output_ids (int64
// sequences), get_fill_ids(), and prefix_indices (an IndexVector).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "srt/mem_cache/memory_pool.h"
#include "srt/mem_cache/radix_cache.h"

namespace blis::sglang::radix_cache_req {

// `getattr(req, "priority", 0) or 0` for an integer or an optional integer (also used for req_pool_idx).
template <class T>
std::int64_t value_or_zero(const T& v) {
  if constexpr (requires { v.has_value(); }) {
    return v.has_value() ? static_cast<std::int64_t>(*v) : 0;
  } else {
    return static_cast<std::int64_t>(v);
  }
}

// Python's seq[a:b] on a vector (bounds clamped; empty when b <= a).
inline std::span<const std::int64_t> py_slice(const IndexVector& v, std::int64_t a, std::int64_t b) {
  const auto n = static_cast<std::int64_t>(v.size());
  a = std::clamp<std::int64_t>(a, 0, n);
  b = std::clamp<std::int64_t>(b, 0, n);
  if (b <= a) return {};
  return std::span<const std::int64_t>(v.data() + a, static_cast<std::size_t>(b - a));
}

}  // namespace blis::sglang::radix_cache_req

namespace blis::sglang {

// radix_cache.py@71de97b2 RadixCache.cache_finished_req.
template <class ReqT>
void radix_cache_finished_req(RadixCache& cache, ReqT& req, bool is_insert, std::int64_t kv_len_to_handle) {
  using radix_cache_req::py_slice;
  using radix_cache_req::value_or_zero;
  // In deterministic mode, disable finished request insertion to radix cache.
  if (cache.disable_finished_insert) is_insert = false;
  const std::int64_t req_pool_idx = value_or_zero(req.req_pool_idx);
  const auto cache_protected_len = static_cast<std::int64_t>(req.cache_protected_len);

  if (cache.disable) {
    // The protected prefix is not this req's to free.
    const IndexVector kv_indices = cache.req_to_token_pool->read(req_pool_idx, cache_protected_len, kv_len_to_handle);
    cache.token_to_kv_pool_allocator->free_segment(kv_indices, cache_protected_len);
    return;
  }

  std::vector<std::int64_t> token_ids(req.origin_input_ids.begin(), req.origin_input_ids.end());
  token_ids.insert(token_ids.end(), req.output_ids.begin(), req.output_ids.end());
  if (static_cast<std::int64_t>(token_ids.size()) > kv_len_to_handle) {
    token_ids.resize(static_cast<std::size_t>(std::max<std::int64_t>(kv_len_to_handle, 0)));
  }
  const IndexVector kv_indices =
      cache.req_to_token_pool->read(req_pool_idx, 0, static_cast<std::int64_t>(token_ids.size()));

  const RadixKey radix_key = RadixKey(std::move(token_ids), req.extra_key, cache.is_eagle, std::nullopt, req.cache_salt)
                                 .page_aligned(cache.page_size);
  const std::int64_t key_len = radix_key.size();
  const auto values_span = py_slice(kv_indices, 0, key_len);
  IndexVector values(values_span.begin(), values_span.end());

  // Radix Cache takes one ref in memory pool.
  std::int64_t freed_end = key_len;
  if (is_insert) {
    InsertParams params;
    params.key = radix_key;
    params.value = std::move(values);
    params.priority = value_or_zero(req.priority);
    freed_end = cache.insert(params).prefix_len;
  }

  // Duplicates / uninserted range, then the unaligned tail.
  cache.token_to_kv_pool_allocator->free_segments(
      {{py_slice(kv_indices, cache_protected_len, freed_end), cache_protected_len},
       {py_slice(kv_indices, key_len, static_cast<std::int64_t>(kv_indices.size())), key_len}});

  // Remove req slot release the cache lock.
  if (req.last_node != nullptr) cache.dec_lock_ref(req.last_node);
}

// radix_cache.py@71de97b2 RadixCache.cache_unfinished_req.
template <class ReqT>
void radix_cache_unfinished_req(RadixCache& cache, ReqT& req, bool chunked) {
  using radix_cache_req::py_slice;
  using radix_cache_req::value_or_zero;
  if (cache.disable) return;
  const std::int64_t req_pool_idx = value_or_zero(req.req_pool_idx);
  const auto cache_protected_len = static_cast<std::int64_t>(req.cache_protected_len);

  const auto& fill_ids = req.get_fill_ids();
  std::vector<std::int64_t> token_ids(fill_ids.begin(), fill_ids.end());
  const IndexVector kv_indices =
      cache.req_to_token_pool->read(req_pool_idx, 0, static_cast<std::int64_t>(token_ids.size()));

  const RadixKey radix_key = RadixKey(std::move(token_ids), req.extra_key, cache.is_eagle, std::nullopt, req.cache_salt)
                                 .page_aligned(cache.page_size);
  const auto values_span = py_slice(kv_indices, 0, radix_key.size());

  // Radix Cache takes one ref in memory pool.
  InsertParams params;
  params.key = radix_key;
  params.value = IndexVector(values_span.begin(), values_span.end());
  params.chunked = chunked;
  params.priority = value_or_zero(req.priority);
  const std::int64_t new_prefix_len = cache.insert(params).prefix_len;

  cache.token_to_kv_pool_allocator->free_segment(py_slice(kv_indices, cache_protected_len, new_prefix_len),
                                                 cache_protected_len);

  // The prefix indices could be updated, reuse it.
  MatchResult match_result = cache.match_prefix(MatchPrefixParams{radix_key});
  IndexVector new_indices = std::move(match_result.device_indices);
  TreeNode* new_last_node = match_result.last_device_node;
  if (static_cast<std::int64_t>(new_indices.size()) != radix_key.size()) {
    throw std::logic_error("cache_unfinished_req: len(new_indices) != len(radix_key)");
  }
  const auto new_len = static_cast<std::int64_t>(new_indices.size());
  cache.req_to_token_pool->write(req_pool_idx, cache_protected_len,
                                 py_slice(new_indices, cache_protected_len, new_len));

  // cache_protected_len is not always len(req.prefix_indices): with page_size > 1 the partial page is in
  // req.prefix_indices but not in the tree, and is freed by the next cache_unfinished_req or the final
  // cache_finished_req.
  req.cache_protected_len = new_len;

  cache.dec_lock_ref(req.last_node);
  cache.inc_lock_ref(new_last_node);

  // req.prefix_indices is used by PrefillAdder.add_chunked_req: with page_size != 1 there is a partial page
  // at the end (keep the full kv_indices); with bigram keys only len - 1 indices are cached.
  if (new_len < static_cast<std::int64_t>(kv_indices.size())) {
    const auto tail = py_slice(kv_indices, new_len, static_cast<std::int64_t>(kv_indices.size()));
    new_indices.insert(new_indices.end(), tail.begin(), tail.end());
  }
  req.prefix_indices = std::move(new_indices);
  req.last_node = new_last_node;
}

}  // namespace blis::sglang
