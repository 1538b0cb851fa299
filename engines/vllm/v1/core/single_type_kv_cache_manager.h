// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/single_type_kv_cache_manager.py@6e448d0e
// (SingleTypeKVCacheManager, FullAttentionManager, SlidingWindowManager, ChunkedLocalAttentionManager,
// CrossAttentionManager, SinkFullAttentionManager, get_manager_for_kv_cache_spec with the built-in
// registrations of register_all_kvcache_specs). Not ported, refused by spec type name at construction:
// MambaManager (MambaSpec) and RSWAManager (RSWASpec, refused by kv_cache_interface). Python classmethods
// (find_longest_cache_hit, reachable_block_mask) are virtual const methods that read only their arguments.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "v1/core/block_pool.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/kv_cache_interface.h"
#include "v1/request.h"

namespace blis::vllm {

// find_longest_cache_hit's result: per group of kv_cache_group_ids the hit blocks, and the hit length.
using CacheHitBlocks = std::vector<std::vector<KVCacheBlock*>>;

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.
class SingleTypeKVCacheManager {
 public:
  // single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.__init__.
  SingleTypeKVCacheManager(KVCacheSpecPtr kv_cache_spec, BlockPool* block_pool, bool enable_caching,
                           std::int64_t kv_cache_group_id, std::int64_t scheduler_block_size,
                           std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1,
                           bool needs_kv_cache_zeroing = false,
                           std::optional<std::int64_t> max_admission_blocks_per_request = std::nullopt);
  virtual ~SingleTypeKVCacheManager() = default;
  SingleTypeKVCacheManager(const SingleTypeKVCacheManager&) = delete;
  SingleTypeKVCacheManager& operator=(const SingleTypeKVCacheManager&) = delete;

  // The upstream class name ("FullAttentionManager", ...): `type(manager)` / manager_cls identity.
  virtual const char* manager_class_name() const = 0;
  // SingleTypeKVCacheManager.supports_fine_grained_hash_lookup (a ClassVar).
  virtual bool supports_fine_grained_hash_lookup() const { return false; }

  std::int64_t scheduler_block_size;
  std::int64_t block_size;
  std::int64_t dcp_world_size;
  std::int64_t pcp_world_size;
  KVCacheSpecPtr kv_cache_spec;
  BlockPool* block_pool;
  bool enable_caching;
  std::optional<std::int64_t> _max_admission_blocks_per_request;
  bool _record_new_block_ids;
  std::vector<std::int64_t> new_block_ids;
  // defaultdict(list): operator[] creates an empty entry exactly where upstream's `self.req_to_blocks[id]`
  // does.
  std::map<std::string, std::vector<KVCacheBlock*>> req_to_blocks;
  std::map<std::string, std::int64_t> num_cached_block;
  std::int64_t kv_cache_group_id;
  KVCacheBlock* _null_block;
  bool use_eagle = false;
  std::map<std::string, std::pair<std::int64_t, KVCacheBlock*>> _partial_hit_reqs;
  std::vector<std::pair<KVCacheBlock*, KVCacheBlock*>> _pending_cow_copies;

  // SingleTypeKVCacheManager._get_num_evictable_blocks (over blocks[from, end)).
  static std::int64_t _get_num_evictable_blocks(const std::vector<KVCacheBlock*>& blocks, std::size_t from = 0);
  // SingleTypeKVCacheManager._has_partial_local_hit.
  bool _has_partial_local_hit(const std::vector<KVCacheBlock*>& new_computed_blocks,
                              std::int64_t num_local_computed_tokens) const;
  // SingleTypeKVCacheManager.get_num_blocks_to_allocate.
  virtual std::int64_t get_num_blocks_to_allocate(const std::string& request_id, std::int64_t num_tokens,
                                                  const std::vector<KVCacheBlock*>& new_computed_blocks,
                                                  std::int64_t total_computed_tokens,
                                                  std::int64_t num_local_computed_tokens,
                                                  std::int64_t num_tokens_main_model, bool apply_admission_cap = false);
  // SingleTypeKVCacheManager.add_local_computed_blocks.
  virtual void add_local_computed_blocks(const std::string& request_id,
                                         const std::vector<KVCacheBlock*>& new_computed_blocks,
                                         std::int64_t num_local_computed_tokens,
                                         std::int64_t num_external_computed_tokens);
  // SingleTypeKVCacheManager.allocate_external_computed_blocks.
  virtual void allocate_external_computed_blocks(const std::string& request_id, std::int64_t num_local_computed_tokens,
                                                 std::int64_t num_external_computed_tokens);
  // SingleTypeKVCacheManager.allocate_new_blocks.
  virtual std::vector<KVCacheBlock*> allocate_new_blocks(const std::string& request_id, std::int64_t num_tokens,
                                                         std::int64_t num_tokens_main_model);
  // SingleTypeKVCacheManager.records_new_block_ids (property) / take_new_block_ids /
  // take_pending_cow_copies.
  bool records_new_block_ids() const { return _record_new_block_ids; }
  std::vector<std::int64_t> take_new_block_ids();
  std::vector<std::pair<KVCacheBlock*, KVCacheBlock*>> take_pending_cow_copies();
  // SingleTypeKVCacheManager._apply_cow.
  void _apply_cow(const std::string& request_id, std::int64_t block_idx, KVCacheBlock* source_block,
                  KVCacheBlock* cow_block);
  // SingleTypeKVCacheManager.cache_blocks.
  virtual void cache_blocks(const Request& request, std::int64_t num_tokens,
                            std::optional<std::int64_t> retention_interval = std::nullopt);
  // SingleTypeKVCacheManager.reachable_block_mask (classmethod): nullopt caches every block.
  virtual std::optional<std::vector<bool>> reachable_block_mask(
      std::int64_t start_block, std::int64_t end_block, std::optional<std::int64_t> alignment_tokens,
      const KVCacheSpec& kv_cache_spec, bool use_eagle, std::optional<std::int64_t> retention_interval = std::nullopt,
      const std::vector<std::int64_t>& reachable_boundaries = {}) const;
  // SingleTypeKVCacheManager.pop_blocks_for_free / free.
  virtual std::vector<KVCacheBlock*> pop_blocks_for_free(const std::string& request_id);
  void free(const std::string& request_id);
  // SingleTypeKVCacheManager.get_num_common_prefix_blocks (abstract).
  virtual std::int64_t get_num_common_prefix_blocks(const std::string& running_request_id) = 0;
  // SingleTypeKVCacheManager.find_longest_cache_hit (abstract classmethod).
  virtual std::pair<CacheHitBlocks, std::int64_t> find_longest_cache_hit(
      const BlockHashList& block_hashes, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
      BlockPool& block_pool, const KVCacheSpec& kv_cache_spec, bool drop_eagle_block, std::int64_t alignment_tokens,
      std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1) const = 0;
  // SingleTypeKVCacheManager._remove_blocks_in_range.
  void _remove_blocks_in_range(const std::string& request_id, std::int64_t first_block, std::int64_t last_block);
  // SingleTypeKVCacheManager.remove_skipped_blocks.
  virtual void remove_skipped_blocks(const std::string& request_id, std::int64_t processed_computed_tokens,
                                     std::optional<std::int64_t> num_prompt_tokens = std::nullopt);
  // SingleTypeKVCacheManager.get_num_skipped_tokens.
  virtual std::int64_t get_num_skipped_tokens(std::int64_t num_computed_tokens) const;
  // SingleTypeKVCacheManager.new_step_starts.
  virtual void new_step_starts() {}
};

// single_type_kv_cache_manager.py@6e448d0e FullAttentionManager.
class FullAttentionManager : public SingleTypeKVCacheManager {
 public:
  using SingleTypeKVCacheManager::SingleTypeKVCacheManager;
  const char* manager_class_name() const override { return "FullAttentionManager"; }
  bool supports_fine_grained_hash_lookup() const override { return true; }
  std::pair<CacheHitBlocks, std::int64_t> find_longest_cache_hit(
      const BlockHashList& block_hashes, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
      BlockPool& block_pool, const KVCacheSpec& kv_cache_spec, bool drop_eagle_block, std::int64_t alignment_tokens,
      std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1) const override;
  void cache_blocks(const Request& request, std::int64_t num_tokens,
                    std::optional<std::int64_t> retention_interval = std::nullopt) override;
  // FullAttentionManager._cache_partial_tail_block.
  void _cache_partial_tail_block(const Request& request, std::int64_t num_tokens);
  std::int64_t get_num_common_prefix_blocks(const std::string& running_request_id) override;
};

// single_type_kv_cache_manager.py@6e448d0e SlidingWindowManager.
class SlidingWindowManager : public SingleTypeKVCacheManager {
 public:
  SlidingWindowManager(KVCacheSpecPtr kv_cache_spec, BlockPool* block_pool, bool enable_caching,
                       std::int64_t kv_cache_group_id, std::int64_t scheduler_block_size,
                       std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1,
                       bool needs_kv_cache_zeroing = false,
                       std::optional<std::int64_t> max_admission_blocks_per_request = std::nullopt);
  const char* manager_class_name() const override { return "SlidingWindowManager"; }
  std::int64_t sliding_window;
  // SlidingWindowManager._contiguous_blocks_for_hit.
  static std::int64_t _contiguous_blocks_for_hit(std::int64_t window_size, std::int64_t block_size, bool use_eagle);
  std::pair<CacheHitBlocks, std::int64_t> find_longest_cache_hit(
      const BlockHashList& block_hashes, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
      BlockPool& block_pool, const KVCacheSpec& kv_cache_spec, bool drop_eagle_block, std::int64_t alignment_tokens,
      std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1) const override;
  std::optional<std::vector<bool>> reachable_block_mask(
      std::int64_t start_block, std::int64_t end_block, std::optional<std::int64_t> alignment_tokens,
      const KVCacheSpec& kv_cache_spec, bool use_eagle, std::optional<std::int64_t> retention_interval = std::nullopt,
      const std::vector<std::int64_t>& reachable_boundaries = {}) const override;
  std::int64_t get_num_skipped_tokens(std::int64_t num_computed_tokens) const override;
  std::int64_t get_num_common_prefix_blocks(const std::string&) override { return 0; }
};

// single_type_kv_cache_manager.py@6e448d0e ChunkedLocalAttentionManager.
class ChunkedLocalAttentionManager : public SingleTypeKVCacheManager {
 public:
  ChunkedLocalAttentionManager(KVCacheSpecPtr kv_cache_spec, BlockPool* block_pool, bool enable_caching,
                               std::int64_t kv_cache_group_id, std::int64_t scheduler_block_size,
                               std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1,
                               bool needs_kv_cache_zeroing = false,
                               std::optional<std::int64_t> max_admission_blocks_per_request = std::nullopt);
  const char* manager_class_name() const override { return "ChunkedLocalAttentionManager"; }
  std::int64_t attention_chunk_size;
  std::pair<CacheHitBlocks, std::int64_t> find_longest_cache_hit(
      const BlockHashList& block_hashes, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
      BlockPool& block_pool, const KVCacheSpec& kv_cache_spec, bool drop_eagle_block, std::int64_t alignment_tokens,
      std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1) const override;
  std::int64_t get_num_skipped_tokens(std::int64_t num_computed_tokens) const override;
  std::int64_t get_num_common_prefix_blocks(const std::string&) override { return 0; }
};

// single_type_kv_cache_manager.py@6e448d0e CrossAttentionManager.
class CrossAttentionManager : public SingleTypeKVCacheManager {
 public:
  using SingleTypeKVCacheManager::SingleTypeKVCacheManager;
  const char* manager_class_name() const override { return "CrossAttentionManager"; }
  void add_local_computed_blocks(const std::string& request_id, const std::vector<KVCacheBlock*>& new_computed_blocks,
                                 std::int64_t num_local_computed_tokens,
                                 std::int64_t num_external_computed_tokens) override;
  void allocate_external_computed_blocks(const std::string&, std::int64_t, std::int64_t) override {}
  void cache_blocks(const Request& request, std::int64_t num_tokens,
                    std::optional<std::int64_t> retention_interval = std::nullopt) override;
  std::int64_t get_num_common_prefix_blocks(const std::string&) override { return 0; }
  std::pair<CacheHitBlocks, std::int64_t> find_longest_cache_hit(
      const BlockHashList& block_hashes, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
      BlockPool& block_pool, const KVCacheSpec& kv_cache_spec, bool drop_eagle_block, std::int64_t alignment_tokens,
      std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1) const override;
};

// single_type_kv_cache_manager.py@6e448d0e SinkFullAttentionManager.
class SinkFullAttentionManager : public FullAttentionManager {
 public:
  SinkFullAttentionManager(KVCacheSpecPtr kv_cache_spec, BlockPool* block_pool, bool enable_caching,
                           std::int64_t kv_cache_group_id, std::int64_t scheduler_block_size,
                           std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1);
  const char* manager_class_name() const override { return "SinkFullAttentionManager"; }
  std::vector<KVCacheBlock*> sink_blocks;
};

// The manager class register_all_kvcache_specs maps a spec's class to, walking the class's MRO as
// KVCacheSpecRegistry.get_manager_class does: "FullAttentionManager", "SlidingWindowManager",
// "ChunkedLocalAttentionManager", "CrossAttentionManager", "SinkFullAttentionManager", "MambaManager", or
// nullopt for a spec with no registered manager (EncoderOnlyAttentionSpec, UniformTypeKVCacheSpecs).
std::optional<std::string> spec_manager_map(const KVCacheSpec& kv_cache_spec);

// single_type_kv_cache_manager.py@6e448d0e get_manager_for_kv_cache_spec (with its **kwargs spelled out;
// nullopt needs_kv_cache_zeroing = the keyword not passed). Throws std::invalid_argument naming the spec
// type for MambaSpec (MambaManager is not ported) and for SinkFullAttentionSpec when needs_kv_cache_zeroing
// is passed (upstream's SinkFullAttentionManager.__init__ does not take it: a TypeError, which makes every
// coordinator-built SinkFullAttentionSpec group fail at the pin), and AssertionError for a spec with no
// registered manager.
std::unique_ptr<SingleTypeKVCacheManager> get_manager_for_kv_cache_spec(
    const KVCacheSpecPtr& kv_cache_spec, std::int64_t max_in_flight_tokens, std::int64_t max_model_len,
    BlockPool* block_pool, bool enable_caching, std::int64_t kv_cache_group_id, std::int64_t scheduler_block_size,
    std::int64_t dcp_world_size = 1, std::int64_t pcp_world_size = 1,
    std::optional<bool> needs_kv_cache_zeroing = std::nullopt);

}  // namespace blis::vllm
