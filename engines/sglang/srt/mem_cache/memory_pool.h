// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/memory_pool.py@71de97b2; ReqToTokenPool only, with the req_to_token table held as rows grown on write (unwritten cells read 0, as upstream's torch.zeros), and alloc/free templates over the request type. Not ported: the KV caches themselves (no KV data is stored), the mamba pools and HybridReqToTokenPool, the memory saver.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "srt/mem_cache/allocator/base.h"

namespace blis::sglang {

// memory_pool.py@71de97b2 ReqToTokenPool.
class ReqToTokenPool {
 public:
  // ReqToTokenPool.__init__ (device and enable_memory_saver dropped).
  ReqToTokenPool(std::int64_t size, std::int64_t max_context_len);

  std::int64_t size;
  std::int64_t max_context_len;
  std::vector<std::int64_t> free_slots;
  std::vector<std::int64_t> req_generation;

  // req_to_token[idx, start:end] (end clamped to max_context_len, as a slice is).
  IndexVector read(std::int64_t req_pool_idx, std::int64_t start, std::int64_t end) const;
  // ReqToTokenPool.write((idx, slice(start, start + len(values))), values). Throws std::out_of_range past
  // the table.
  void write(std::int64_t req_pool_idx, std::int64_t start, std::span<const std::int64_t> values);
  // ReqToTokenPool.available_size.
  std::int64_t available_size() const { return static_cast<std::int64_t>(free_slots.size()); }

  // memory_pool.py@71de97b2 ReqToTokenPool.alloc: ReqT has `std::optional<std::int64_t> req_pool_idx`,
  // `inflight_middle_chunks` and `kv_committed_len`.
  template <class ReqT>
  std::optional<std::vector<std::int64_t>> alloc(std::span<ReqT*> reqs) {
    std::int64_t reusing = 0;
    for (ReqT* r : reqs) {
      if (r->req_pool_idx.has_value()) {
        // Upstream's assert (an AssertionError that propagates).
        if (!(r->inflight_middle_chunks > 0 || r->kv_committed_len > 0))
          throw std::logic_error("ReqToTokenPool.alloc: a request reusing its slot has no committed KV");
        ++reusing;
      }
    }
    const std::int64_t need_size = static_cast<std::int64_t>(reqs.size()) - reusing;
    if (need_size > available_size()) return std::nullopt;
    std::vector<std::int64_t> select_index(free_slots.end() - need_size, free_slots.end());
    free_slots.resize(free_slots.size() - static_cast<std::size_t>(need_size));
    std::size_t offset = 0;
    for (ReqT* r : reqs) {
      if (!r->req_pool_idx.has_value()) {
        r->req_pool_idx = select_index[offset];
        req_generation[static_cast<std::size_t>(*r->req_pool_idx)] += 1;
        ++offset;
      }
    }
    std::vector<std::int64_t> out;
    out.reserve(reqs.size());
    for (ReqT* r : reqs) out.push_back(*r->req_pool_idx);
    return out;
  }

  // memory_pool.py@71de97b2 ReqToTokenPool.free.
  template <class ReqT>
  void free(ReqT& req) {
    if (!req.req_pool_idx.has_value()) throw std::logic_error("ReqToTokenPool.free: the request holds no slot");
    free_slots.push_back(*req.req_pool_idx);
    req.req_pool_idx.reset();
  }

  // ReqToTokenPool.clear.
  void clear();

 private:
  std::vector<IndexVector> rows_;
};

}  // namespace blis::sglang
