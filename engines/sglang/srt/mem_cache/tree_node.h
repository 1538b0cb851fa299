// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; TreeNode only, with time.monotonic() replaced by a logical clock and the class-wide id counter replaced by a counter the cache owns (NodeClock), and children held in an insertion-ordered map that owns them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "srt/mem_cache/allocator/base.h"
#include "srt/mem_cache/radix_key.h"

namespace blis::sglang {

// Stated difference from upstream: TreeNode stamps last_access_time and creation_time with
// time.monotonic(), and numbers nodes from the class attribute TreeNode.counter. BLIS engines read no clock
// and keep no process-wide state, so a NodeClock, owned by the cache, stands in for both: `now` is a
// logical access clock, a strictly increasing int64 ticked (tick()) at every place upstream calls
// time.monotonic() (twice in TreeNode.__init__, once per _match_prefix_helper and _insert_helper), so the
// order of access times equals upstream's; `counter` is TreeNode.counter.
struct NodeClock {
  std::int64_t now = 0;
  std::int64_t counter = 0;
  std::int64_t tick() { return ++now; }
};

class TreeNode;

// radix_cache.py@71de97b2 TreeNode.children (`defaultdict(TreeNode)`, used as a dict): child key -> child,
// owning the children. Iteration follows insertion order as a Python dict's does; assigning to an existing
// key keeps its position.
class ChildMap {
 public:
  std::size_t size() const { return map_.size(); }
  bool empty() const { return map_.empty(); }
  bool contains(const ChildKey& key) const { return map_.count(key) != 0; }
  // children[key], or nullptr when absent.
  TreeNode* find(const ChildKey& key) const;
  // children[key] = node; returns the node it replaces (kept in place), or nullptr.
  std::unique_ptr<TreeNode> set(const ChildKey& key, std::unique_ptr<TreeNode> node);
  // children.pop(key, None).
  std::unique_ptr<TreeNode> pop(const ChildKey& key);
  // children.items() in insertion order.
  std::vector<std::pair<const ChildKey*, TreeNode*>> items() const;
  // children.values() in insertion order.
  std::vector<TreeNode*> values() const;
  // Whether pred holds for some child; for_each visits every child. Both walk in key order, not insertion
  // order: only for uses where order cannot matter.
  template <class Pred>
  bool any_of(Pred pred) const {
    for (const auto& [k, e] : map_) {
      if (pred(static_cast<const TreeNode&>(*e.node))) return true;
    }
    return false;
  }
  template <class Fn>
  void for_each(Fn fn) const {
    for (const auto& [k, e] : map_) fn(static_cast<const TreeNode&>(*e.node));
  }

 private:
  struct Entry {
    std::uint64_t seq;
    std::unique_ptr<TreeNode> node;
  };
  std::map<ChildKey, Entry> map_;
  std::uint64_t next_seq_ = 0;
};

// radix_cache.py@71de97b2 TreeNode. A node is owned by its parent's ChildMap (the root by the cache) and
// is destroyed when it leaves the tree (evicted, or the tree reset); upstream's garbage collector keeps an
// unreachable node alive while referenced, which no caller relies on.
class TreeNode {
 public:
  // TreeNode.__init__: takes the cache's clock (two ticks) and, without an id, the next counter value.
  explicit TreeNode(NodeClock& clock, std::optional<std::int64_t> id = std::nullopt, std::int64_t priority = 0);
  TreeNode(const TreeNode&) = delete;
  TreeNode& operator=(const TreeNode&) = delete;

  ChildMap children;
  TreeNode* parent = nullptr;
  std::optional<RadixKey> key;
  std::optional<IndexVector> value;
  std::int64_t lock_ref = 0;
  std::int64_t last_access_time;
  std::int64_t creation_time;
  std::int64_t hit_count = 0;
  std::int64_t host_ref_counter = 0;
  std::optional<IndexVector> host_value;
  std::optional<std::int64_t> write_through_pending_id;
  std::optional<std::vector<std::string>> hash_value;
  std::optional<std::vector<std::string>> event_hash_value;
  std::int64_t priority;
  std::int64_t id;

  // TreeNode.evicted / backuped.
  bool evicted() const { return !value.has_value(); }
  bool backuped() const { return host_value.has_value(); }
  // TreeNode.protect_host / release_host (release_host throws std::runtime_error at zero).
  void protect_host();
  void release_host();
  // TreeNode.get_last_hash_value.
  std::optional<std::string> get_last_hash_value() const;
  // TreeNode.get_prefix_hash_values: a fresh list each call.
  std::vector<std::string> get_prefix_hash_values(const TreeNode* node) const;
  // TreeNode.__lt__.
  bool operator<(const TreeNode& other) const { return last_access_time < other.last_access_time; }
  // len(self.key) and len(self.value), 0 when unset.
  std::int64_t key_len() const { return key ? key->size() : 0; }
  std::int64_t value_len() const { return value ? static_cast<std::int64_t>(value->size()) : 0; }
};

}  // namespace blis::sglang
