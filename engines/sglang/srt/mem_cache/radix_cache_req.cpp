// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; binds RadixCache.cache_finished_req and cache_unfinished_req (radix_cache_req.h) to the managers package's Req. This file references Req::get_fill_ids, so a program linking the mem_cache library also links the managers library.
#include "srt/mem_cache/radix_cache_req.h"

#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/radix_cache.h"

namespace blis::sglang {

// radix_cache.py@71de97b2 RadixCache.cache_finished_req.
void RadixCache::cache_finished_req(Req& req, bool is_insert, std::int64_t kv_len_to_handle) {
  radix_cache_finished_req(*this, req, is_insert, kv_len_to_handle);
}

// radix_cache.py@71de97b2 RadixCache.cache_unfinished_req.
void RadixCache::cache_unfinished_req(Req& req, bool chunked) { radix_cache_unfinished_req(*this, req, chunked); }

}  // namespace blis::sglang
