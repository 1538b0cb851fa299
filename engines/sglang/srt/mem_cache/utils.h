// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/utils.py@71de97b2; only the eviction-strategy factory and the page hashing (get_hash_str with cpp_utils/native_hash.py and cpp_utils/hash_binding.cpp@71de97b2 folded in, hash_str_to_int64, compute_node_hash_values, compute_node_event_hash_values, split_node_hash_value). Not ported: the MLA buffer kernels and maybe_init_custom_mem_pool.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "srt/mem_cache/evict_policy.h"
#include "srt/mem_cache/radix_key.h"
#include "srt/mem_cache/tree_node.h"

namespace blis::sglang {

// utils.py@71de97b2 get_eviction_strategy: throws std::invalid_argument (upstream's ValueError) with
// upstream's message for an unknown policy.
std::unique_ptr<EvictionStrategy> get_eviction_strategy(const std::string& eviction_policy);

// utils.py@71de97b2 get_hash_str with page_size None (hash_binding.cpp hash_all): one SHA-256 over the
// key's logical units, each token as a little-endian uint32 (bigram units as two), chained on prior_hash's
// digest bytes. Throws std::out_of_range when a token does not fit in uint32, as upstream does.
std::string get_hash_str(const RadixKey& key, const std::optional<std::string>& prior_hash = std::nullopt);
// utils.py@71de97b2 get_hash_str with a page_size (hash_binding.cpp pages_hashes): one chained hash per
// page.
std::vector<std::string> get_hash_str_pages(const RadixKey& key, const std::optional<std::string>& prior_hash,
                                            std::int64_t page_size);
// utils.py@71de97b2 hash_str_to_int64.
std::int64_t hash_str_to_int64(const std::string& hash_str);
// utils.py@71de97b2 compute_node_hash_values.
std::vector<std::string> compute_node_hash_values(const TreeNode& node, std::int64_t page_size);
// utils.py@71de97b2 compute_node_event_hash_values (memoizes into event_hash_value along the path).
std::vector<std::string> compute_node_event_hash_values(TreeNode& node, std::int64_t page_size);
// utils.py@71de97b2 split_node_hash_value: (new_node_hash, child_hash).
std::pair<std::optional<std::vector<std::string>>, std::optional<std::vector<std::string>>> split_node_hash_value(
    const std::optional<std::vector<std::string>>& child_hash_value, std::int64_t split_len, std::int64_t page_size);

}  // namespace blis::sglang
