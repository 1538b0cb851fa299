// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/base_prefix_cache.py@71de97b2; node handles are TreeNode*, index tensors are int64 vectors, Python's Optional is std::optional. Not ported: the metrics collector, HiCache (init_load_back, ready_to_load_host_cache, check_hicache_events, cache_controller, release_host_resources), session and mamba accounting, zero_match_result, IncLockRefResult.skip_lock_node_ids, and the unified-cache cache_actions fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "srt/disaggregation/kv_events.h"
#include "srt/mem_cache/allocator/base.h"
#include "srt/mem_cache/radix_key.h"

namespace blis::sglang {

struct Req;            // srt/managers/schedule_batch.h (schedule_batch.py@71de97b2 Req)
class TreeNode;        // srt/mem_cache/tree_node.h
class ReqToTokenPool;  // srt/mem_cache/memory_pool.h

// base_prefix_cache.py@71de97b2 MatchPrefixParams.
struct MatchPrefixParams {
  RadixKey key;
  bool cow_mamba = false;
  Req* req = nullptr;
};

// base_prefix_cache.py@71de97b2 InsertParams. The mamba and c128 sidecar values are not ported.
struct InsertParams {
  std::optional<RadixKey> key{};
  std::optional<IndexVector> value{};
  std::int64_t prev_prefix_len = 0;
  std::int64_t swa_evicted_seqlen = 0;
  bool chunked = false;
  std::int64_t priority = 0;
};

// base_prefix_cache.py@71de97b2 InsertResult.
struct InsertResult {
  std::int64_t prefix_len = 0;
  std::int64_t total_len = 0;
  TreeNode* last_device_node = nullptr;
  bool mamba_exist = false;
  TreeNode* inserted_host_node = nullptr;
  bool host_insert_dropped = false;
};

// base_prefix_cache.py@71de97b2 EvictParams.
struct EvictParams {
  std::int64_t num_tokens = 0;
  std::int64_t swa_num_tokens = 0;
  std::int64_t mamba_num = 0;
};

// base_prefix_cache.py@71de97b2 EvictResult.
struct EvictResult {
  std::int64_t num_tokens_evicted = 0;
  std::int64_t swa_num_tokens_evicted = 0;
  std::int64_t mamba_num_evicted = 0;
};

// base_prefix_cache.py@71de97b2 DecLockRefParams (without skip_lock_node_ids).
struct DecLockRefParams {
  std::optional<std::int64_t> swa_uuid_for_lock{};
  std::optional<std::int64_t> swa_uuid_for_host_lock{};
};

// base_prefix_cache.py@71de97b2 IncLockRefResult (without skip_lock_node_ids).
struct IncLockRefResult {
  std::optional<std::int64_t> delta{};
  std::optional<std::int64_t> swa_uuid_for_lock{};
  std::optional<std::int64_t> swa_uuid_for_host_lock{};

  // IncLockRefResult.to_dec_params.
  DecLockRefParams to_dec_params() const { return DecLockRefParams{swa_uuid_for_lock, swa_uuid_for_host_lock}; }
};

// base_prefix_cache.py@71de97b2 DecLockRefResult.
struct DecLockRefResult {
  std::optional<std::int64_t> delta{};
};

// base_prefix_cache.py@71de97b2 MatchResult.
struct MatchResult {
  IndexVector device_indices;
  TreeNode* last_device_node = nullptr;
  TreeNode* last_host_node = nullptr;
  TreeNode* best_match_node = nullptr;
  std::int64_t host_hit_length = 0;
  std::int64_t swa_host_hit_length = 0;
  std::int64_t mamba_host_hit_length = 0;
  std::optional<std::int64_t> mamba_branching_seqlen{};
  std::optional<std::int64_t> cache_protected_len{};
  std::int64_t full_kv_hit_length = 0;
};

// base_prefix_cache.py@71de97b2 BasePrefixCache (with PrefixCacheTrait's attributes). Every method a
// scheduler calls is virtual so a test can fake the cache by subclassing.
class BasePrefixCache {
 public:
  virtual ~BasePrefixCache() = default;

  // PrefixCacheTrait attributes (non-owning pointers).
  ReqToTokenPool* req_to_token_pool = nullptr;
  BaseTokenToKVPoolAllocator* token_to_kv_pool_allocator = nullptr;
  std::int64_t page_size = 1;
  bool disable = false;

  // BasePrefixCache.reset / match_prefix (abstract).
  virtual void reset() = 0;
  virtual MatchResult match_prefix(const MatchPrefixParams& params) = 0;
  // BasePrefixCache.supports_fast_match_prefix.
  virtual bool supports_fast_match_prefix() const { return false; }
  // BasePrefixCache.resolve_node_handle.
  virtual TreeNode* resolve_node_handle(TreeNode* node_handle) const { return node_handle; }
  // BasePrefixCache.root_node_handle: upstream returns self.root_node, an attribute of the subclasses;
  // here the subclasses override it (the base has no root and returns nullptr).
  virtual TreeNode* root_node_handle(const std::optional<std::string>& extra_key = std::nullopt) const;
  // BasePrefixCache.is_root.
  virtual bool is_root(const TreeNode* node) const;
  // BasePrefixCache.is_backuped / get_last_hash_value / get_prefix_hash_values.
  virtual bool is_backuped(const TreeNode* node) const;
  virtual std::optional<std::string> get_last_hash_value(const TreeNode* node) const;
  virtual std::vector<std::string> get_prefix_hash_values(const TreeNode* node) const;

  // BasePrefixCache.cache_finished_req (abstract). RadixCache's keyword-only kv_len_to_handle is a
  // parameter here.
  virtual void cache_finished_req(Req& req, bool is_insert, std::int64_t kv_len_to_handle) = 0;
  // BasePrefixCache.cache_unfinished_req (abstract; RadixCache's `chunked` keyword).
  virtual void cache_unfinished_req(Req& req, bool chunked = false) = 0;
  // BasePrefixCache.evict / inc_lock_ref / dec_lock_ref (abstract).
  virtual EvictResult evict(const EvictParams& params) = 0;
  virtual IncLockRefResult inc_lock_ref(TreeNode* node) = 0;
  virtual DecLockRefResult dec_lock_ref(TreeNode* node,
                                        const std::optional<DecLockRefParams>& params = std::nullopt) = 0;

  // BasePrefixCache.evictable_size / full_evictable_size / swa_evictable_size / protected_size /
  // full_protected_size / swa_protected_size.
  virtual std::int64_t evictable_size() const { return 0; }
  virtual std::int64_t full_evictable_size() const { return 0; }
  virtual std::int64_t swa_evictable_size() const { return 0; }
  virtual std::int64_t protected_size() const { return 0; }
  virtual std::int64_t full_protected_size() const { return 0; }
  virtual std::int64_t swa_protected_size() const { return 0; }
  // BasePrefixCache.total_size: throws std::logic_error (upstream's NotImplementedError).
  virtual std::int64_t total_size() const;

  // BasePrefixCache.take_events.
  virtual std::vector<KVCacheEvent> take_events() { return {}; }
  // BasePrefixCache.supports_swa / swa_retain_floor / swa_reprefill_tail_tokens / supports_mamba /
  // supports_streaming_session.
  virtual bool supports_swa() const { return false; }
  virtual std::optional<std::int64_t> swa_retain_floor(const Req& /*req*/) const { return std::nullopt; }
  virtual std::int64_t swa_reprefill_tail_tokens() const { return 0; }
  virtual bool supports_mamba() const { return false; }
  virtual bool supports_streaming_session() const { return false; }
  // BasePrefixCache.is_chunk_cache / is_tree_cache.
  virtual bool is_chunk_cache() const { return false; }
  virtual bool is_tree_cache() const { return !is_chunk_cache(); }
  // BasePrefixCache.available_and_evictable_str.
  std::string available_and_evictable_str() const;
};

}  // namespace blis::sglang
