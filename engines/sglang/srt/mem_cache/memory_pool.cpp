// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/memory_pool.py@71de97b2; ReqToTokenPool only, with the req_to_token table held as rows grown on write (unwritten cells read 0, as upstream's torch.zeros), and alloc/free templates over the request type.
#include "srt/mem_cache/memory_pool.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace blis::sglang {

// memory_pool.py@71de97b2 ReqToTokenPool.__init__: size + 1 rows (row 0 is padding); free slots 1..size.
ReqToTokenPool::ReqToTokenPool(std::int64_t size_, std::int64_t max_context_len_)
    : size(size_), max_context_len(max_context_len_) {
  rows_.resize(static_cast<std::size_t>(size + 1));
  req_generation.assign(static_cast<std::size_t>(size + 1), 0);
  clear();
}

// memory_pool.py@71de97b2 ReqToTokenPool.req_to_token[idx, start:end] (unwritten cells read 0).
IndexVector ReqToTokenPool::read(std::int64_t req_pool_idx, std::int64_t start, std::int64_t end) const {
  if (req_pool_idx < 0 || req_pool_idx > size) throw std::out_of_range("req_to_token row out of range");
  start = std::clamp<std::int64_t>(start, 0, max_context_len);
  end = std::clamp<std::int64_t>(end, 0, max_context_len);
  IndexVector out;
  if (end <= start) return out;
  const IndexVector& row = rows_[static_cast<std::size_t>(req_pool_idx)];
  out.reserve(static_cast<std::size_t>(end - start));
  for (std::int64_t i = start; i < end; ++i) {
    out.push_back(static_cast<std::size_t>(i) < row.size() ? row[static_cast<std::size_t>(i)] : 0);
  }
  return out;
}

// memory_pool.py@71de97b2 ReqToTokenPool.write.
void ReqToTokenPool::write(std::int64_t req_pool_idx, std::int64_t start, std::span<const std::int64_t> values) {
  if (req_pool_idx < 0 || req_pool_idx > size) throw std::out_of_range("req_to_token row out of range");
  const std::int64_t end = start + static_cast<std::int64_t>(values.size());
  if (start < 0 || end > max_context_len) throw std::out_of_range("req_to_token write past max_context_len");
  IndexVector& row = rows_[static_cast<std::size_t>(req_pool_idx)];
  if (static_cast<std::int64_t>(row.size()) < end) row.resize(static_cast<std::size_t>(end), 0);
  std::copy(values.begin(), values.end(), row.begin() + start);
}

// memory_pool.py@71de97b2 ReqToTokenPool.clear.
void ReqToTokenPool::clear() {
  free_slots.resize(static_cast<std::size_t>(size));
  std::iota(free_slots.begin(), free_slots.end(), 1);
  std::fill(req_generation.begin(), req_generation.end(), 0);
}

}  // namespace blis::sglang
