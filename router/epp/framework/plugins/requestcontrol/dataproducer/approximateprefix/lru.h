// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: the per-server LRU that pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.go@71f4f099
// takes from github.com/hashicorp/golang-lru/v2 (v2.0.7 at the pin): a small single-threaded class with
// the semantics of lru.NewWithEvict / simplelru.LRU that the indexer relies on (no locking: the port is
// single-threaded; no Get/Peek/Resize, which the indexer does not call).
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace blis::router::approximateprefix {

// An LRU keyed by K with values V and an eviction callback, as hashicorp/golang-lru/v2 simplelru.LRU:
//  - Add of a new key puts it at the most-recent end; when that exceeds the capacity the least-recent
//    entry is removed and the callback runs for it; Add returns whether an eviction happened.
//  - Add of an existing key updates its value and moves it to the most-recent end; nothing is evicted.
//  - Remove deletes a key and runs the callback for it (simplelru removeElement calls onEvict).
//  - Keys lists the keys from least to most recent.
template <typename K, typename V>
class LRU {
 public:
  using EvictCallback = std::function<void(const K&, const V&)>;

  // golang-lru/v2 NewWithEvict: "must provide a positive size" when size <= 0.
  LRU(int size, EvictCallback onEvict) : size_(size), onEvict_(std::move(onEvict)) {
    if (size <= 0) throw std::invalid_argument("must provide a positive size");
  }

  // simplelru LRU.Add
  bool Add(const K& key, const V& value) {
    auto it = items_.find(key);
    if (it != items_.end()) {
      order_.splice(order_.end(), order_, it->second);  // MoveToFront (most recent)
      it->second->second = value;
      return false;
    }
    order_.emplace_back(key, value);
    items_.emplace(key, std::prev(order_.end()));
    const bool evict = order_.size() > static_cast<std::size_t>(size_);
    if (evict) removeOldest();
    return evict;
  }

  // simplelru LRU.Contains (no recency update)
  bool Contains(const K& key) const { return items_.count(key) != 0; }

  // simplelru LRU.Remove
  bool Remove(const K& key) {
    auto it = items_.find(key);
    if (it == items_.end()) return false;
    removeElement(it);
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

  void removeOldest() {
    if (order_.empty()) return;
    removeElement(items_.find(order_.front().first));
  }

  // simplelru removeElement: unlink, forget, then call the eviction callback.
  void removeElement(typename std::map<K, Iter>::iterator it) {
    Entry entry = std::move(*it->second);
    order_.erase(it->second);
    items_.erase(it);
    if (onEvict_) onEvict_(entry.first, entry.second);
  }

  int size_;
  EvictCallback onEvict_;
  std::list<Entry> order_;     // front = least recent, back = most recent
  std::map<K, Iter> items_;
};

}  // namespace blis::router::approximateprefix
