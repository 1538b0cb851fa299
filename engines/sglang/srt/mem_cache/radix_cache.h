// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2; RadixCache, with the logical clock of tree_node.h for time.monotonic(), a deterministic eviction tie-break, and no metrics or devices.
//
// Stated differences from upstream:
// - time.monotonic() is a logical clock owned by the cache (NodeClock, tree_node.h).
// - evict(): upstream heapifies (priority, node) pairs built from a Python set, so nodes of equal priority
//   are ordered by TreeNode.__lt__ (last_access_time) and, when that ties too, by set iteration order
//   (object addresses). Here ties on (priority, last_access_time) are broken by the node id (smaller
//   first), so the eviction order is a total order. evictable_leaves is held ordered by node id.
// - The metrics collector (enable_metrics, update_eviction_metrics) and the torch device are not ported;
//   pretty_print writes to a std::ostream.
// - cache_finished_req / cache_unfinished_req are templates over the request type in radix_cache_req.h;
//   the BasePrefixCache overrides bind them to Req (radix_cache_req.cpp).
// - match_prefix and insert work on a copy of the key: upstream's maybe_to_bigram_view flips is_bigram on
//   the caller's RadixKey in place (with is_eagle), which a caller here does not see.
// - Nodes are owned by their parent (tree_node.h): an evicted node is destroyed once evict() has finished
//   with it, and reset() destroys the old tree; upstream's garbage collector keeps a node alive while any
//   handle refers to it.
// - evict() throws std::logic_error when the cache has no allocator (upstream fails on None).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "srt/mem_cache/base_prefix_cache.h"
#include "srt/mem_cache/cache_init_params.h"
#include "srt/mem_cache/events.h"
#include "srt/mem_cache/evict_policy.h"
#include "srt/mem_cache/radix_key.h"
#include "srt/mem_cache/tree_node.h"

namespace blis::sglang {

// radix_cache.py@71de97b2 RadixCache. Owns its tree; neither copied nor moved.
class RadixCache : public KVCacheEventMixin, public BasePrefixCache {
 public:
  // RadixCache.__init__. Throws std::invalid_argument for an unknown eviction policy.
  explicit RadixCache(const CacheInitParams& params);
  RadixCache(const RadixCache&) = delete;
  RadixCache& operator=(const RadixCache&) = delete;
  ~RadixCache() override;

  // RadixCache.create_simulated.
  static std::unique_ptr<RadixCache> create_simulated(bool disable = false,
                                                      BaseTokenToKVPoolAllocator* mock_allocator = nullptr,
                                                      std::int64_t page_size = 1, bool enable_kv_cache_events = false);

  bool is_eagle = false;
  bool disable_finished_insert = false;
  std::string eviction_policy;
  std::unique_ptr<EvictionStrategy> eviction_strategy;
  NodeClock clock;  // time.monotonic() and TreeNode.counter (tree_node.h)
  std::unique_ptr<TreeNode> root_node;
  std::int64_t evictable_size_ = 0;
  std::int64_t protected_size_ = 0;

  // RadixCache.reset.
  void reset() override;
  // RadixCache.match_prefix.
  MatchResult match_prefix(const MatchPrefixParams& params) override;
  // RadixCache.insert.
  InsertResult insert(const InsertParams& params);
  // RadixCache.cache_finished_req / cache_unfinished_req (radix_cache_req.h).
  void cache_finished_req(Req& req, bool is_insert, std::int64_t kv_len_to_handle) override;
  void cache_unfinished_req(Req& req, bool chunked = false) override;
  // RadixCache.pretty_print.
  void pretty_print(std::ostream& out) const;
  // RadixCache.total_size.
  std::int64_t total_size() const override;
  // RadixCache.evict. Throws std::logic_error without an allocator (upstream fails on None).
  EvictResult evict(const EvictParams& params) override;
  // RadixCache.inc_lock_ref / dec_lock_ref.
  IncLockRefResult inc_lock_ref(TreeNode* node) override;
  DecLockRefResult dec_lock_ref(TreeNode* node, const std::optional<DecLockRefParams>& params = std::nullopt) override;
  // RadixCache.evictable_size / protected_size.
  std::int64_t evictable_size() const override { return evictable_size_; }
  std::int64_t protected_size() const override { return protected_size_; }
  // RadixCache.all_values_flatten.
  IndexVector all_values_flatten() const;
  // KVCacheEventMixin.take_events.
  std::vector<KVCacheEvent> take_events() override { return take_kv_events(); }
  // BasePrefixCache.root_node_handle.
  TreeNode* root_node_handle(const std::optional<std::string>& extra_key = std::nullopt) const override;

  // The leaves evict() may take (RadixCache.evictable_leaves), by node id.
  const std::map<std::int64_t, TreeNode*>& evictable_leaves() const { return evictable_leaves_; }

 private:
  std::pair<IndexVector, TreeNode*> match_prefix_helper(TreeNode* node, RadixKey key);
  TreeNode* split_node(RadixKey key, TreeNode* child, std::int64_t split_len);  // key: a copy of child->key
  void inc_hit_count(TreeNode* node, bool chunked);
  std::pair<std::int64_t, TreeNode*> insert_helper(TreeNode* node, RadixKey key, IndexVector value,
                                                   std::int64_t priority, bool chunked);
  std::unique_ptr<TreeNode> delete_leaf(TreeNode* node);
  void update_leaf_status(TreeNode* node);
  std::int64_t total_size_helper() const;
  void all_values_flatten_helper(const TreeNode* node, IndexVector& values) const;

  std::map<std::int64_t, TreeNode*> evictable_leaves_;
};

}  // namespace blis::sglang
