// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/common.py@71de97b2; see common.h.
#include "srt/mem_cache/common.h"

#include <stdexcept>

#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/memory_pool.h"

namespace blis::sglang {

namespace {

std::int64_t ceil_align(std::int64_t x, std::int64_t a) { return (x + a - 1) / a * a; }

// common.py@71de97b2 _release_overallocated_kv_indices (no speculative decoding, strip_thinking_cache off:
// upstream asserts the range is empty, and so does the port).
void release_overallocated_kv_indices(Req& req, std::int64_t start_p, std::int64_t end_p, BasePrefixCache& tree_cache) {
  BaseTokenToKVPoolAllocator& allocator = *tree_cache.token_to_kv_pool_allocator;
  if (start_p != end_p) {
    throw std::logic_error("Unexpected overallocated KV cache, req.kv_committed_len=" + std::to_string(start_p) +
                           ", req.kv.kv_allocated_len=" + std::to_string(end_p));
  }
  if (allocator.page_size > 1) start_p = ceil_align(start_p, allocator.page_size);
  if (start_p < end_p) {
    const IndexVector indices = tree_cache.req_to_token_pool->read(req.req_pool_idx.value(), start_p, end_p);
    allocator.free_segment(indices, start_p);
  }
}

}  // namespace

// common.py@71de97b2 evict_from_tree_cache.
void evict_from_tree_cache(BasePrefixCache* tree_cache, std::int64_t num_tokens) {
  if (tree_cache == nullptr) return;
  if (tree_cache->is_chunk_cache()) return;
  BaseTokenToKVPoolAllocator& allocator = *tree_cache->token_to_kv_pool_allocator;
  const std::int64_t available_size = allocator.available_size();
  if (available_size < num_tokens) tree_cache->evict(EvictParams{num_tokens - available_size, 0, 0});
}

// common.py@71de97b2 maybe_cache_unfinished_req (skip_radix_cache_insert is never set here).
void maybe_cache_unfinished_req(Req& req, BasePrefixCache& tree_cache, bool chunked) {
  tree_cache.cache_unfinished_req(req, chunked);
}

// common.py@71de97b2 release_kv_cache.
void release_kv_cache(Req& req, BasePrefixCache& tree_cache, bool is_insert) {
  if (req.req_pool_idx.has_value() != req.kv.has_value()) {
    throw std::logic_error("release_kv_cache: req_pool_idx and kv out of step for " + req.rid);
  }
  // MambaRadixCache may free before allocating; no Mamba pools here.
  if (!req.req_pool_idx.has_value()) {
    if (!tree_cache.supports_mamba()) throw std::logic_error("Only MambaRadixCache allow freeing before alloc");
    return;
  }
  const std::int64_t effective_kv_committed_len = req.effective_kv_committed_len();
  tree_cache.cache_finished_req(req, is_insert, effective_kv_committed_len);
  release_overallocated_kv_indices(req, effective_kv_committed_len, req.kv->kv_allocated_len, tree_cache);
  tree_cache.req_to_token_pool->free(req);
  req.kv.reset();
}

}  // namespace blis::sglang
