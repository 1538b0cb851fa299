// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/cache_init_params.py@71de97b2; the fields RadixCache reads. Not ported: the process groups, pipeline/context-parallel ranks, mamba, session, sliding-window, TTL, unified-cache component and draft-pool fields.
#pragma once

#include <cstdint>
#include <string>

namespace blis::sglang {

class ReqToTokenPool;
class BaseTokenToKVPoolAllocator;

// cache_init_params.py@71de97b2 CacheInitParams.
struct CacheInitParams {
  bool disable = false;
  ReqToTokenPool* req_to_token_pool = nullptr;
  BaseTokenToKVPoolAllocator* token_to_kv_pool_allocator = nullptr;
  std::int64_t page_size = 1;
  bool is_eagle = false;
  std::string eviction_policy = "lru";
  bool disable_finished_insert = false;
  bool enable_metrics = false;
  bool enable_kv_cache_events = false;
};

}  // namespace blis::sglang
