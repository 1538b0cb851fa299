// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/common.py@71de97b2; evict_from_tree_cache,
// maybe_cache_unfinished_req, release_kv_cache and _release_overallocated_kv_indices for the full-attention
// pools this port models (no SWA allocator, no HybridReqToTokenPool, no streaming sessions, no speculative
// decoding). The functions read the managers package's Req, so this file is compiled into sglang_managers_dep.
#pragma once

#include <cstdint>

#include "srt/mem_cache/base_prefix_cache.h"

namespace blis::sglang {

// common.py@71de97b2 evict_from_tree_cache (the standard allocator arm: evict only the shortfall).
void evict_from_tree_cache(BasePrefixCache* tree_cache, std::int64_t num_tokens);
// common.py@71de97b2 maybe_cache_unfinished_req.
void maybe_cache_unfinished_req(Req& req, BasePrefixCache& tree_cache, bool chunked = false);
// common.py@71de97b2 release_kv_cache.
void release_kv_cache(Req& req, BasePrefixCache& tree_cache, bool is_insert = true);

}  // namespace blis::sglang
