// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/block_pool.py@6e448d0e (BlockHashToBlockMap, BlockPool
// with prefix caching, partial-block entries and KV events). Not ported: the KVCacheMetricsCollector
// (block-residency sampling for metrics; it makes no decision). Where upstream iterates a Python set of
// hashes or block ids (cached_block_hashes_by_block, evict_blocks), this port iterates in sorted order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "distributed/kv_events.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/request.h"

namespace blis::vllm {

// block_pool.py@6e448d0e BlockHashToBlockMap: block hash (with group id) -> cached block(s). Several
// blocks under one key keep their insertion order; get_one_block returns the first.
class BlockHashToBlockMap {
 public:
  // BlockHashToBlockMap.get_one_block / contain / insert / pop / __len__.
  KVCacheBlock* get_one_block(const BlockHashWithGroupId& key) const;
  bool contain(const BlockHashWithGroupId& key, std::int64_t block_id) const;
  void insert(const BlockHashWithGroupId& key, KVCacheBlock* block);
  KVCacheBlock* pop(const BlockHashWithGroupId& key, std::int64_t block_id);
  std::size_t size() const { return _cache.size(); }

 private:
  // Looked up only, never iterated (X6).
  std::unordered_map<BlockHashWithGroupId, std::vector<KVCacheBlock*>, BlockHashWithGroupIdHash> _cache;
};

// block_pool.py@6e448d0e BlockPool. Holds the blocks (allocated once); neither copied nor moved.
class BlockPool {
 public:
  // BlockPool.__init__. `kv_events_use_int_block_hashes` stands in for
  // envs.VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES (upstream default true).
  BlockPool(std::int64_t num_gpu_blocks, bool enable_caching, std::int64_t hash_block_size,
            bool enable_kv_cache_events = false, bool kv_events_use_int_block_hashes = true);
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  std::int64_t num_gpu_blocks;
  bool enable_caching;
  std::int64_t hash_block_size;
  std::vector<KVCacheBlock> blocks;  // never reallocated: KVCacheBlock* into it stay valid
  FreeKVCacheBlockQueue free_block_queue;
  BlockHashToBlockMap cached_block_hash_to_block;
  std::map<std::int64_t, std::set<BlockHashWithGroupId>> cached_block_hashes_by_block;
  KVCacheBlock* null_block = nullptr;
  bool enable_kv_cache_events;
  bool kv_events_use_int_block_hashes;
  std::vector<KVCacheEvent> kv_event_queue;

  // BlockPool.get_cached_block: the cached block for each group, or nullopt on a miss in any.
  std::optional<std::vector<KVCacheBlock*>> get_cached_block(const BlockHash& block_hash,
                                                             const std::vector<std::int64_t>& kv_cache_group_ids) const;
  // BlockPool.cache_full_blocks.
  void cache_full_blocks(const Request& request, const std::vector<KVCacheBlock*>& blocks, std::int64_t num_cached_blocks,
                         std::int64_t num_full_blocks, std::int64_t block_size, std::int64_t kv_cache_group_id,
                         const std::optional<std::vector<bool>>& block_mask = std::nullopt);
  // BlockPool.emit_cached_block_events.
  void emit_cached_block_events(const Request& request, std::int64_t num_cached_blocks, std::int64_t block_size,
                                std::int64_t kv_cache_group_id);
  // BlockPool.cache_partial_block (nullopt for a null block).
  std::optional<BlockHashWithGroupId> cache_partial_block(const Request& request, KVCacheBlock* block,
                                                          std::int64_t num_tokens, std::int64_t kv_cache_group_id,
                                                          std::int64_t block_size);
  // BlockPool.move_block_hashes.
  void move_block_hashes(KVCacheBlock* src_block, KVCacheBlock* dst_block);
  // BlockPool.get_new_blocks (ValueError "Cannot get N free blocks from the pool").
  std::vector<KVCacheBlock*> get_new_blocks(std::int64_t num_blocks);
  // BlockPool._maybe_evict_cached_block.
  bool _maybe_evict_cached_block(KVCacheBlock* block);
  // BlockPool.touch.
  void touch(const std::vector<KVCacheBlock*>& blocks);
  // BlockPool.free_blocks (ordered by eviction priority, first evicted first).
  void free_blocks(const std::vector<KVCacheBlock*>& ordered_blocks);
  // BlockPool.evict_blocks.
  void evict_blocks(const std::set<std::int64_t>& block_ids);
  // BlockPool.reset_prefix_cache.
  bool reset_prefix_cache();
  // BlockPool.get_num_free_blocks / get_usage / take_events.
  std::int64_t get_num_free_blocks() const { return free_block_queue.num_free_blocks; }
  double get_usage() const;
  std::vector<KVCacheEvent> take_events();

  // BlockPool private helpers, kept public for the managers and tests.
  BlockStored _build_block_stored_event(const Request& request, std::vector<ExternalBlockHash> block_hashes,
                                        std::optional<ExternalBlockHash> parent_block_hash, std::int64_t start_token_idx,
                                        std::int64_t end_token_idx, std::int64_t block_size, std::int64_t kv_cache_group_id,
                                        const std::vector<BlockExtraKeys>& extra_keys_list) const;
  BlockHash _get_partial_block_hash(const Request& request, std::int64_t num_tokens) const;
  std::pair<std::optional<BlockHash>, std::int64_t> _get_partial_block_parent_hash_and_start(const Request& request,
                                                                                            std::int64_t num_tokens) const;
  std::vector<BlockHashWithGroupId> _remove_cached_block_hashes(KVCacheBlock* block);
  void _emit_block_removed_events(const std::vector<BlockHashWithGroupId>& block_hashes);
  void _insert_block_hash(const BlockHashWithGroupId& block_hash_with_group_id, KVCacheBlock* block,
                          std::optional<std::int64_t> num_tokens);

 private:
  static std::vector<KVCacheBlock> make_blocks(std::int64_t n);
  static std::vector<KVCacheBlock*> pointers(std::vector<KVCacheBlock>& blocks);
};

}  // namespace blis::vllm
