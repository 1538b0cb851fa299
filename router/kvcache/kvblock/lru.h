// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: the LRU cache pkg/kvcache/kvblock/in_memory.go@71f4f099 takes from
// github.com/hashicorp/golang-lru/v2 (v2.0.7 at the pin): lru.New / Cache with the semantics of its
// simplelru.LRU (Add, Get, Peek, ContainsOrAdd, Remove, Keys, Len), single-threaded (no locks: the port has
// no threads), no eviction callback (in_memory.go passes none).
#pragma once

#include <cstddef>
#include <iterator>
#include <list>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace blis::router::kvblock {

template <typename K, typename V>
class LRUCache {
 public:
  // golang-lru/v2 lru.New: error "must provide a positive size" when size <= 0 (thrown here).
  explicit LRUCache(int size) : size_(size) {
    if (size <= 0) throw std::invalid_argument("must provide a positive size");
  }

  // simplelru LRU.Add: an existing key is updated and becomes most recent; a new key is added as most
  // recent and, beyond capacity, the least recent entry is dropped. Returns whether one was dropped.
  bool Add(const K& key, V value) {
    auto it = items_.find(key);
    if (it != items_.end()) {
      order_.splice(order_.end(), order_, it->second);
      it->second->second = std::move(value);
      return false;
    }
    order_.emplace_back(key, std::move(value));
    items_.emplace(key, std::prev(order_.end()));
    if (order_.size() > static_cast<std::size_t>(size_)) {
      items_.erase(order_.front().first);
      order_.pop_front();
      return true;
    }
    return false;
  }

  // simplelru LRU.Get: the value (and the key becomes most recent), or nullptr.
  V* Get(const K& key) {
    auto it = items_.find(key);
    if (it == items_.end()) return nullptr;
    order_.splice(order_.end(), order_, it->second);
    return &it->second->second;
  }

  // simplelru LRU.Peek: the value without a recency update, or nullptr.
  V* Peek(const K& key) {
    auto it = items_.find(key);
    return it == items_.end() ? nullptr : &it->second->second;
  }

  // lru.Cache.ContainsOrAdd: when the key is present returns true without touching recency; otherwise adds.
  bool ContainsOrAdd(const K& key, V value) {
    if (items_.count(key) != 0) return true;
    Add(key, std::move(value));
    return false;
  }

  // simplelru LRU.Contains (no recency update)
  bool Contains(const K& key) const { return items_.count(key) != 0; }

  // simplelru LRU.Remove
  bool Remove(const K& key) {
    auto it = items_.find(key);
    if (it == items_.end()) return false;
    order_.erase(it->second);
    items_.erase(it);
    return true;
  }

  // simplelru LRU.Keys: oldest to newest.
  std::vector<K> Keys() const {
    std::vector<K> keys;
    keys.reserve(order_.size());
    for (const auto& kv : order_) keys.push_back(kv.first);
    return keys;
  }

  // simplelru LRU.Len
  int Len() const { return static_cast<int>(order_.size()); }

 private:
  using Entry = std::pair<K, V>;
  using Iter = typename std::list<Entry>::iterator;
  int size_;
  std::list<Entry> order_;  // front = least recent
  std::map<K, Iter> items_;
};

}  // namespace blis::router::kvblock
