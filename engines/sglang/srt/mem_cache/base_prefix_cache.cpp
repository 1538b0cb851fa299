// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/base_prefix_cache.py@71de97b2; the non-inline defaults of BasePrefixCache.
#include "srt/mem_cache/base_prefix_cache.h"

#include <stdexcept>
#include <string>

#include "srt/mem_cache/tree_node.h"

namespace blis::sglang {

// base_prefix_cache.py@71de97b2 BasePrefixCache.root_node_handle (the base has no root_node).
TreeNode* BasePrefixCache::root_node_handle(const std::optional<std::string>& /*extra_key*/) const { return nullptr; }

// base_prefix_cache.py@71de97b2 BasePrefixCache.is_root.
bool BasePrefixCache::is_root(const TreeNode* node) const { return node == root_node_handle(); }

// base_prefix_cache.py@71de97b2 BasePrefixCache.is_backuped.
bool BasePrefixCache::is_backuped(const TreeNode* node) const { return node->backuped(); }

// base_prefix_cache.py@71de97b2 BasePrefixCache.get_last_hash_value.
std::optional<std::string> BasePrefixCache::get_last_hash_value(const TreeNode* node) const {
  return node->get_last_hash_value();
}

// base_prefix_cache.py@71de97b2 BasePrefixCache.get_prefix_hash_values.
std::vector<std::string> BasePrefixCache::get_prefix_hash_values(const TreeNode* node) const {
  return node->get_prefix_hash_values(node->parent);
}

// base_prefix_cache.py@71de97b2 BasePrefixCache.total_size.
std::int64_t BasePrefixCache::total_size() const { throw std::logic_error("NotImplementedError: total_size"); }

// base_prefix_cache.py@71de97b2 BasePrefixCache.available_and_evictable_str.
std::string BasePrefixCache::available_and_evictable_str() const {
  const std::int64_t available_size = token_to_kv_pool_allocator->available_size();
  const std::int64_t evictable = evictable_size();
  return "Available tokens: " + std::to_string(available_size + evictable) +
         " (available_size=" + std::to_string(available_size) + " + evictable_size=" + std::to_string(evictable) +
         ")\n";
}

}  // namespace blis::sglang
