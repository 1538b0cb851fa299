// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocation.py@71de97b2; see allocation.h.
#include "srt/mem_cache/allocation.h"

#include <span>
#include <stdexcept>
#include <string>

#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/common.h"
#include "srt/mem_cache/memory_pool.h"

namespace blis::sglang {

namespace {

// allocation.py@71de97b2 write_cache_indices (the row-by-row path).
void write_cache_indices(const IndexVector& out_cache_loc, const std::vector<std::int64_t>& req_pool_indices,
                         const std::vector<std::int64_t>& prefix_lens, const std::vector<std::int64_t>& extend_lens,
                         const std::vector<const IndexVector*>& prefix_tensors, ReqToTokenPool& req_to_token_pool) {
  std::size_t pt = 0;
  for (std::size_t i = 0; i < req_pool_indices.size(); ++i) {
    const IndexVector& prefix = *prefix_tensors[i];
    req_to_token_pool.write(req_pool_indices[i], 0,
                            std::span<const std::int64_t>(prefix.data(), static_cast<std::size_t>(prefix_lens[i])));
    req_to_token_pool.write(req_pool_indices[i], prefix_lens[i],
                            std::span<const std::int64_t>(out_cache_loc.data() + pt, static_cast<std::size_t>(extend_lens[i])));
    pt += static_cast<std::size_t>(extend_lens[i]);
  }
}

[[noreturn]] void out_of_memory(const std::string& what, std::int64_t tokens, const BasePrefixCache& tree_cache) {
  throw std::runtime_error(what + " Try to lower your batch size.\nTry to allocate " + std::to_string(tokens) +
                           " tokens.\n" + tree_cache.available_and_evictable_str());
}

// allocation.py@71de97b2 alloc_paged_token_slots_extend.
IndexVector alloc_paged_token_slots_extend(BasePrefixCache& tree_cache, const std::vector<std::int64_t>& prefix_lens,
                                           const std::vector<std::int64_t>& seq_lens,
                                           const std::vector<std::int64_t>& last_loc, std::int64_t extend_num_tokens) {
  BaseTokenToKVPoolAllocator& allocator = *tree_cache.token_to_kv_pool_allocator;
  const std::int64_t num_tokens = extend_num_tokens + static_cast<std::int64_t>(seq_lens.size()) * allocator.page_size;
  evict_from_tree_cache(&tree_cache, num_tokens);
  std::optional<IndexVector> out = allocator.alloc_extend(prefix_lens, seq_lens, last_loc, extend_num_tokens);
  if (!out) out_of_memory("Prefill out of memory.", extend_num_tokens, tree_cache);
  return std::move(*out);
}

// allocation.py@71de97b2 alloc_paged_token_slots_decode.
IndexVector alloc_paged_token_slots_decode(BasePrefixCache& tree_cache, const std::vector<std::int64_t>& seq_lens,
                                           const std::vector<std::int64_t>& last_loc, std::int64_t token_per_req) {
  BaseTokenToKVPoolAllocator& allocator = *tree_cache.token_to_kv_pool_allocator;
  const std::int64_t num_tokens = static_cast<std::int64_t>(seq_lens.size()) * allocator.page_size;
  evict_from_tree_cache(&tree_cache, num_tokens);
  std::optional<IndexVector> out = allocator.alloc_decode(seq_lens, last_loc);
  if (!out) out_of_memory("Decode out of memory.", static_cast<std::int64_t>(seq_lens.size()) * token_per_req, tree_cache);
  return std::move(*out);
}

}  // namespace

// allocation.py@71de97b2 alloc_token_slots.
IndexVector alloc_token_slots(BasePrefixCache& tree_cache, std::int64_t num_tokens) {
  BaseTokenToKVPoolAllocator& allocator = *tree_cache.token_to_kv_pool_allocator;
  evict_from_tree_cache(&tree_cache, num_tokens);
  std::optional<IndexVector> out = allocator.alloc(num_tokens);
  if (!out) out_of_memory("Out of memory.", num_tokens, tree_cache);
  return std::move(*out);
}

// allocation.py@71de97b2 alloc_req_slots (no HybridReqToTokenPool).
std::vector<std::int64_t> alloc_req_slots(ReqToTokenPool& req_to_token_pool, std::vector<Req*>& reqs) {
  std::optional<std::vector<std::int64_t>> indices = req_to_token_pool.alloc(std::span<Req*>(reqs));
  if (!indices) {
    throw std::runtime_error(
        "alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`. "
        "req_to_token_pool.available_size()=" + std::to_string(req_to_token_pool.available_size()) +
        ", num_reqs=" + std::to_string(reqs.size()) + ", ");
  }
  return std::move(*indices);
}

// allocation.py@71de97b2 alloc_for_extend.
IndexVector alloc_for_extend(ScheduleBatch& batch) {
  std::vector<const IndexVector*> prefix_tensors;
  for (const Req* r : batch.reqs) prefix_tensors.push_back(&r->prefix_indices);
  const std::vector<std::int64_t> req_pool_indices = alloc_req_slots(*batch.req_to_token_pool, batch.reqs);
  IndexVector out_cache_loc;
  if (batch.tree_cache->page_size == 1) {
    out_cache_loc = alloc_token_slots(*batch.tree_cache, batch.extend_num_tokens);
  } else {
    std::vector<std::int64_t> last_loc;
    for (const IndexVector* t : prefix_tensors) last_loc.push_back(t->empty() ? -1 : t->back());
    out_cache_loc = alloc_paged_token_slots_extend(*batch.tree_cache, batch.prefix_lens, batch.seq_lens, last_loc,
                                                   batch.extend_num_tokens);
  }
  write_cache_indices(out_cache_loc, req_pool_indices, batch.prefix_lens, batch.extend_lens, prefix_tensors,
                      *batch.req_to_token_pool);
  for (std::size_t i = 0; i < batch.reqs.size(); ++i) {
    Req& req = *batch.reqs[i];
    if (!req.kv) {
      req.kv = ReqKvInfo{batch.seq_lens[i], 0};
    } else {
      req.kv->kv_allocated_len = batch.seq_lens[i];
    }
  }
  return out_cache_loc;
}

// allocation.py@71de97b2 alloc_for_decode.
IndexVector alloc_for_decode(ScheduleBatch& batch, std::int64_t token_per_req) {
  const std::size_t bs = batch.seq_lens.size();
  IndexVector out_cache_loc;
  if (batch.tree_cache->page_size == 1) {
    out_cache_loc = alloc_token_slots(*batch.tree_cache, static_cast<std::int64_t>(bs) * token_per_req);
  } else {
    std::vector<std::int64_t> last_loc, seq_lens_next;
    for (std::size_t i = 0; i < bs; ++i) {
      const std::int64_t idx = batch.reqs[i]->req_pool_idx.value();
      last_loc.push_back(batch.req_to_token_pool->read(idx, batch.seq_lens[i] - 1, batch.seq_lens[i]).at(0));
      seq_lens_next.push_back(batch.seq_lens[i] + token_per_req);
    }
    out_cache_loc = alloc_paged_token_slots_decode(*batch.tree_cache, seq_lens_next, last_loc, token_per_req);
  }
  // req_to_token[req_pool_indices, seq_lens] = out_cache_loc (token_per_req 1).
  for (std::size_t i = 0; i < bs; ++i) {
    batch.req_to_token_pool->write(batch.reqs[i]->req_pool_idx.value(), batch.seq_lens[i],
                                   std::span<const std::int64_t>(out_cache_loc.data() + i, 1));
  }
  for (Req* req : batch.reqs) req->kv->kv_allocated_len += token_per_req;
  return out_cache_loc;
}

}  // namespace blis::sglang
