// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/evict_policy.py@71de97b2; priorities are int64 sequences compared lexicographically (upstream returns a float or a tuple), and times are the logical clock of tree_node.h.
#pragma once

#include <cstdint>
#include <vector>

#include "srt/mem_cache/tree_node.h"

namespace blis::sglang {

// An eviction priority: upstream's float (one element) or tuple (several), compared as Python compares
// tuples. Smaller is evicted first.
using EvictionPriority = std::vector<std::int64_t>;

// evict_policy.py@71de97b2 EvictionStrategy.
class EvictionStrategy {
 public:
  virtual ~EvictionStrategy() = default;
  virtual EvictionPriority get_priority(const TreeNode& node) const = 0;
};

// evict_policy.py@71de97b2 LRUStrategy.
class LRUStrategy : public EvictionStrategy {
 public:
  EvictionPriority get_priority(const TreeNode& node) const override;
};

// evict_policy.py@71de97b2 LFUStrategy.
class LFUStrategy : public EvictionStrategy {
 public:
  EvictionPriority get_priority(const TreeNode& node) const override;
};

// evict_policy.py@71de97b2 FIFOStrategy.
class FIFOStrategy : public EvictionStrategy {
 public:
  EvictionPriority get_priority(const TreeNode& node) const override;
};

// evict_policy.py@71de97b2 MRUStrategy.
class MRUStrategy : public EvictionStrategy {
 public:
  EvictionPriority get_priority(const TreeNode& node) const override;
};

// evict_policy.py@71de97b2 FILOStrategy.
class FILOStrategy : public EvictionStrategy {
 public:
  EvictionPriority get_priority(const TreeNode& node) const override;
};

// evict_policy.py@71de97b2 PriorityStrategy.
class PriorityStrategy : public EvictionStrategy {
 public:
  EvictionPriority get_priority(const TreeNode& node) const override;
};

// evict_policy.py@71de97b2 SLRUStrategy.
class SLRUStrategy : public EvictionStrategy {
 public:
  explicit SLRUStrategy(std::int64_t protected_threshold = 2) : protected_threshold(protected_threshold) {}
  std::int64_t protected_threshold;
  EvictionPriority get_priority(const TreeNode& node) const override;
};

}  // namespace blis::sglang
