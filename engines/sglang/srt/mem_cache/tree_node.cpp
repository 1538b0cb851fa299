// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; TreeNode only, with time.monotonic() replaced by a logical clock and the class-wide id counter replaced by a counter the cache owns (NodeClock), and children held in an insertion-ordered map that owns them.
#include "srt/mem_cache/tree_node.h"

#include <algorithm>
#include <stdexcept>

namespace blis::sglang {

// radix_cache.py@71de97b2 TreeNode.children: `node.children[key]` after a `key in node.children` test.
TreeNode* ChildMap::find(const ChildKey& key) const {
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : it->second.node.get();
}

// radix_cache.py@71de97b2 TreeNode.children: `node.children[key] = node` (a replaced key keeps its place).
std::unique_ptr<TreeNode> ChildMap::set(const ChildKey& key, std::unique_ptr<TreeNode> node) {
  auto it = map_.find(key);
  if (it == map_.end()) {
    map_.emplace(key, Entry{next_seq_++, std::move(node)});
    return nullptr;
  }
  std::unique_ptr<TreeNode> old = std::move(it->second.node);
  it->second.node = std::move(node);
  return old;
}

// radix_cache.py@71de97b2 TreeNode.children: `node.children.pop(key, None)`.
std::unique_ptr<TreeNode> ChildMap::pop(const ChildKey& key) {
  auto it = map_.find(key);
  if (it == map_.end()) return nullptr;
  std::unique_ptr<TreeNode> node = std::move(it->second.node);
  map_.erase(it);
  return node;
}

// radix_cache.py@71de97b2 TreeNode.children: `node.children.items()` in insertion order.
std::vector<std::pair<const ChildKey*, TreeNode*>> ChildMap::items() const {
  std::vector<std::pair<std::uint64_t, std::pair<const ChildKey*, TreeNode*>>> seq;
  seq.reserve(map_.size());
  for (const auto& [k, e] : map_) seq.push_back({e.seq, {&k, e.node.get()}});
  std::sort(seq.begin(), seq.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<const ChildKey*, TreeNode*>> out;
  out.reserve(seq.size());
  for (const auto& s : seq) out.push_back(s.second);
  return out;
}

// radix_cache.py@71de97b2 TreeNode.children: `node.children.values()` in insertion order.
std::vector<TreeNode*> ChildMap::values() const {
  std::vector<TreeNode*> out;
  for (const auto& [k, n] : items()) out.push_back(n);
  return out;
}

// radix_cache.py@71de97b2 TreeNode.__init__: last_access_time and creation_time are two clock reads.
TreeNode::TreeNode(NodeClock& clock, std::optional<std::int64_t> id_, std::int64_t priority_)
    : last_access_time(clock.tick()), creation_time(clock.tick()), priority(priority_), id(id_ ? *id_ : clock.counter) {
  clock.counter += 1;
}

// radix_cache.py@71de97b2 TreeNode.protect_host.
void TreeNode::protect_host() { host_ref_counter += 1; }

// radix_cache.py@71de97b2 TreeNode.release_host.
void TreeNode::release_host() {
  if (host_ref_counter > 0) {
    host_ref_counter -= 1;
  } else {
    throw std::runtime_error("Host reference counter is already zero.");
  }
}

// radix_cache.py@71de97b2 TreeNode.get_last_hash_value.
std::optional<std::string> TreeNode::get_last_hash_value() const {
  if (!hash_value || hash_value->empty()) return std::nullopt;
  return hash_value->back();
}

// radix_cache.py@71de97b2 TreeNode.get_prefix_hash_values (iterative; same list).
std::vector<std::string> TreeNode::get_prefix_hash_values(const TreeNode* node) const {
  std::vector<const TreeNode*> chain;
  for (const TreeNode* n = node; n != nullptr && n->hash_value; n = n->parent) chain.push_back(n);
  std::vector<std::string> out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    out.insert(out.end(), (*it)->hash_value->begin(), (*it)->hash_value->end());
  }
  return out;
}

}  // namespace blis::sglang
