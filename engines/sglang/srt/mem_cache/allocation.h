// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocation.py@71de97b2; the KV-slot and
// request-slot allocation of extend and decode batches for the token and paged allocators (no dLLM KV reuse,
// no DSV4/NPU bundles, no Mamba pools, no encoder-decoder models, no decode context parallelism). Tensors are
// host vectors; write_cache_indices takes the non-Triton path (the table is written row by row: the result is
// the same). Compiled into sglang_managers_dep (it reads ScheduleBatch and Req).
#pragma once

#include <cstdint>
#include <vector>

#include "srt/mem_cache/allocator/base.h"

namespace blis::sglang {

class BasePrefixCache;
class ReqToTokenPool;
class ScheduleBatch;
struct Req;

// allocation.py@71de97b2 alloc_token_slots: throws std::runtime_error with upstream's message when the
// allocator cannot serve num_tokens after eviction.
IndexVector alloc_token_slots(BasePrefixCache& tree_cache, std::int64_t num_tokens);
// allocation.py@71de97b2 alloc_req_slots.
std::vector<std::int64_t> alloc_req_slots(ReqToTokenPool& req_to_token_pool, std::vector<Req*>& reqs);
// allocation.py@71de97b2 alloc_for_extend: the out_cache_loc of the batch's extend tokens (and the request
// slots), written into req_to_token.
IndexVector alloc_for_extend(ScheduleBatch& batch);
// allocation.py@71de97b2 alloc_for_decode.
IndexVector alloc_for_decode(ScheduleBatch& batch, std::int64_t token_per_req);

}  // namespace blis::sglang
