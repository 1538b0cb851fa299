// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of the type selection of python/sglang/srt/mem_cache/kv_cache_configurator.py@71de97b2
// (KVCacheConfigurator._build_token_to_kv_pool, _build_mha_kv_pool, _build_token_to_kv_pool_allocator, on CUDA
// without an out-of-tree platform), of python/sglang/srt/mem_cache/registry.py@71de97b2 (create_tree_cache,
// default_radix_cache_factory) and of the kv-cache-dtype checks that decide between those branches
// (python/sglang/srt/server_args.py@71de97b2 _handle_mxfp8_kv_cache_compatibility and the first check of
// _handle_kv4_compatibility, python/sglang/srt/mem_cache/kv_cache_dtype.py@71de97b2 configure_kv_cache_dtype's
// fp4_e2m1 refusal): which memory pool, token-to-KV allocator and tree cache a start-up builds for the model and
// the modelled server arguments, by the upstream class name, so that a configuration selecting a type this port
// does not model is refused before the run with a message naming the type (SGL-6).
//
// The graph stands in for the hf_config predicates upstream reads: use_mla_backend is an MLA attention layer,
// is_deepseek_dsa an MLA layer with a sparse indexer (index_topk), mambaish_config a recurrent (mamba2) layer and
// is_hybrid_swa a layer with a sliding or chunked window. Upstream keys is_hybrid_swa on the architecture
// (configs/model_config.py@71de97b2 is_hybrid_swa_model), which the catalog graph keeps for people only, so the
// refusal of a windowed model names both outcomes. The server arguments that select a type without reference to
// the model (--enable-hierarchical-cache, --enable-unified-memory, the radix-tree environment variables, ...) are
// refused by parse_server_args, naming their type (server_args_cli.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "schema/graph.h"
#include "srt/entrypoints/server_args_cli.h"
#include "srt/model_executor/lowering.h"

namespace blis::sglang {

// The KV-cache types one engine instance builds, by upstream class name (engines/sglang/surface.json's
// memory_pool, allocator, tree_cache and tree_core items).
struct KVCacheTypes {
  std::string memory_pool;  // the KVCache subclass (token_to_kv_pool)
  std::string allocator;    // the BaseTokenToKVPoolAllocator subclass
  std::string tree_cache;   // the BasePrefixCache subclass
  std::string tree_core;    // UnifiedRadixCache's tree core (SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND); else empty
};

// The selection for the graph and the parsed arguments at the resolved page size (TokenToKVPoolAllocator at page
// size 1, PagedTokenToKVPoolAllocator above it). Throws std::invalid_argument ("sglang: ...") when a type it
// selects is not one this port models (MHATokenToKVPool, TokenToKVPoolAllocator, PagedTokenToKVPoolAllocator,
// RadixCache), naming every such type, where upstream selects it and the argument or graph field that selects it;
// and with upstream's own message for the kv-cache-dtype values upstream refuses on the device.
KVCacheTypes select_kv_cache_types(const schema::Graph& graph, const ParsedServerArgs& args,
                                   const model_executor::DeviceCapability& capability, std::int64_t page_size);

}  // namespace blis::sglang
