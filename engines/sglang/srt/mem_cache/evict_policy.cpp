// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/evict_policy.py@71de97b2; priorities are int64 sequences compared lexicographically (upstream returns a float or a tuple), and times are the logical clock of tree_node.h.
#include "srt/mem_cache/evict_policy.h"

namespace blis::sglang {

// evict_policy.py@71de97b2 LRUStrategy.get_priority.
EvictionPriority LRUStrategy::get_priority(const TreeNode& node) const { return {node.last_access_time}; }

// evict_policy.py@71de97b2 LFUStrategy.get_priority.
EvictionPriority LFUStrategy::get_priority(const TreeNode& node) const {
  return {node.hit_count, node.last_access_time};
}

// evict_policy.py@71de97b2 FIFOStrategy.get_priority.
EvictionPriority FIFOStrategy::get_priority(const TreeNode& node) const { return {node.creation_time}; }

// evict_policy.py@71de97b2 MRUStrategy.get_priority.
EvictionPriority MRUStrategy::get_priority(const TreeNode& node) const { return {-node.last_access_time}; }

// evict_policy.py@71de97b2 FILOStrategy.get_priority.
EvictionPriority FILOStrategy::get_priority(const TreeNode& node) const { return {-node.creation_time}; }

// evict_policy.py@71de97b2 PriorityStrategy.get_priority.
EvictionPriority PriorityStrategy::get_priority(const TreeNode& node) const {
  return {node.priority, node.last_access_time};
}

// evict_policy.py@71de97b2 SLRUStrategy.get_priority.
EvictionPriority SLRUStrategy::get_priority(const TreeNode& node) const {
  const std::int64_t is_protected = node.hit_count >= protected_threshold ? 1 : 0;
  return {is_protected, node.last_access_time};
}

}  // namespace blis::sglang
