// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_coordinator.py@6e448d0e (KVCacheCoordinator,
// KVCacheCoordinatorNoPrefixCache, UnitaryKVCacheCoordinator, HybridKVCacheCoordinator,
// get_kv_cache_coordinator, _validate_prefix_cache_retention_interval). Not ported: the
// KVCacheMetricsCollector (metrics only). envs.VLLM_PREFIX_CACHE_RETENTION_INTERVAL is the constructor
// argument `retention_interval` (default nullopt, upstream's unset default).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "v1/core/block_pool.h"
#include "v1/core/single_type_kv_cache_manager.h"
#include "v1/kv_cache_interface.h"
#include "v1/request.h"

namespace blis::vllm {

// kv_cache_coordinator.py@6e448d0e _validate_prefix_cache_retention_interval (ValueError).
void _validate_prefix_cache_retention_interval(std::optional<std::int64_t> retention_interval,
                                               std::int64_t scheduler_block_size, const KVCacheConfig& kv_cache_config);

// find_longest_cache_hit's result: per-group hit blocks, hit length, num_uncached_common_prefix_tokens.
using CoordinatorCacheHit = std::tuple<CacheHitBlocks, std::int64_t, std::int64_t>;

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.
class KVCacheCoordinator {
 public:
  // kv_cache_coordinator.py@6e448d0e KVCacheCoordinator.__init__.
  KVCacheCoordinator(KVCacheConfig kv_cache_config, std::int64_t max_model_len, std::int64_t max_in_flight_tokens,
                     bool use_eagle, bool enable_caching, bool enable_kv_cache_events, std::int64_t dcp_world_size,
                     std::int64_t pcp_world_size, std::int64_t scheduler_block_size, std::int64_t hash_block_size,
                     std::optional<std::int64_t> retention_interval = std::nullopt);
  virtual ~KVCacheCoordinator() = default;
  KVCacheCoordinator(const KVCacheCoordinator&) = delete;
  KVCacheCoordinator& operator=(const KVCacheCoordinator&) = delete;

  KVCacheConfig kv_cache_config;
  std::int64_t max_model_len;
  bool enable_caching;
  std::int64_t scheduler_block_size;
  std::unique_ptr<BlockPool> block_pool;
  std::set<std::int64_t> eagle_group_ids;
  std::vector<std::unique_ptr<SingleTypeKVCacheManager>> single_type_managers;
  std::optional<std::int64_t> retention_interval;

  // KVCacheCoordinator.get_num_blocks_to_allocate.
  std::int64_t get_num_blocks_to_allocate(const std::string& request_id, std::int64_t num_tokens,
                                          const CacheHitBlocks& new_computed_blocks, std::int64_t num_encoder_tokens,
                                          std::int64_t total_computed_tokens, std::int64_t num_local_computed_tokens,
                                          std::int64_t num_tokens_main_model, bool apply_admission_cap = false);
  // KVCacheCoordinator.allocate_new_computed_blocks.
  void allocate_new_computed_blocks(const std::string& request_id, const CacheHitBlocks& new_computed_blocks,
                                    std::int64_t num_local_computed_tokens, std::int64_t num_external_computed_tokens);
  // KVCacheCoordinator.allocate_new_blocks.
  CacheHitBlocks allocate_new_blocks(const std::string& request_id, std::int64_t num_tokens,
                                     std::int64_t num_tokens_main_model, std::int64_t num_encoder_tokens = 0);
  // KVCacheCoordinator.cache_blocks.
  virtual void cache_blocks(const Request& request, std::int64_t num_computed_tokens);
  // KVCacheCoordinator.free / pop_blocks_for_free.
  void free(const std::string& request_id);
  std::vector<KVCacheBlock*> pop_blocks_for_free(const std::string& request_id);
  // KVCacheCoordinator.get_num_common_prefix_blocks.
  virtual std::vector<std::int64_t> get_num_common_prefix_blocks(const std::string& running_request_id);
  // KVCacheCoordinator.remove_skipped_blocks.
  void remove_skipped_blocks(const std::string& request_id, std::int64_t processed_computed_tokens,
                             std::optional<std::int64_t> num_prompt_tokens = std::nullopt);
  // KVCacheCoordinator.get_blocks.
  CacheHitBlocks get_blocks(const std::string& request_id) const;
  // KVCacheCoordinator.find_longest_cache_hit (abstract).
  virtual CoordinatorCacheHit find_longest_cache_hit(const std::vector<BlockHash>& block_hashes,
                                                     std::int64_t max_cache_hit_length) = 0;
  // KVCacheCoordinator.new_step_starts.
  void new_step_starts();
};

// kv_cache_coordinator.py@6e448d0e KVCacheCoordinatorNoPrefixCache.
class KVCacheCoordinatorNoPrefixCache : public KVCacheCoordinator {
 public:
  KVCacheCoordinatorNoPrefixCache(KVCacheConfig kv_cache_config, std::int64_t max_model_len,
                                  std::int64_t max_in_flight_tokens, bool use_eagle, bool enable_kv_cache_events,
                                  std::int64_t dcp_world_size, std::int64_t pcp_world_size,
                                  std::int64_t scheduler_block_size, std::int64_t hash_block_size,
                                  std::optional<std::int64_t> retention_interval = std::nullopt);
  std::int64_t num_single_type_manager;
  std::vector<std::int64_t> get_num_common_prefix_blocks(const std::string& running_request_id) override;
  CoordinatorCacheHit find_longest_cache_hit(const std::vector<BlockHash>& block_hashes,
                                             std::int64_t max_cache_hit_length) override;
};

// kv_cache_coordinator.py@6e448d0e UnitaryKVCacheCoordinator.
class UnitaryKVCacheCoordinator : public KVCacheCoordinator {
 public:
  UnitaryKVCacheCoordinator(KVCacheConfig kv_cache_config, std::int64_t max_model_len,
                            std::int64_t max_in_flight_tokens, bool use_eagle, bool enable_caching,
                            bool enable_kv_cache_events, std::int64_t dcp_world_size, std::int64_t pcp_world_size,
                            std::int64_t scheduler_block_size, std::int64_t hash_block_size,
                            std::optional<std::int64_t> retention_interval = std::nullopt);
  KVCacheSpecPtr kv_cache_spec;
  std::int64_t block_size;
  std::int64_t dcp_world_size;
  std::int64_t pcp_world_size;
  CoordinatorCacheHit find_longest_cache_hit(const std::vector<BlockHash>& block_hashes,
                                             std::int64_t max_cache_hit_length) override;
};

// kv_cache_coordinator.py@6e448d0e SpecGroup. `manager_cls` is named by the group's first manager (the
// classmethods are called on it; they read only their arguments).
struct SpecGroup {
  KVCacheSpecPtr spec;
  std::vector<std::int64_t> group_ids;
  const SingleTypeKVCacheManager* manager_cls;
  bool use_eagle;
};

// kv_cache_coordinator.py@6e448d0e HybridKVCacheCoordinator.
class HybridKVCacheCoordinator : public KVCacheCoordinator {
 public:
  HybridKVCacheCoordinator(KVCacheConfig kv_cache_config, std::int64_t max_model_len,
                           std::int64_t max_in_flight_tokens, bool use_eagle, bool enable_caching,
                           bool enable_kv_cache_events, std::int64_t dcp_world_size, std::int64_t pcp_world_size,
                           std::int64_t scheduler_block_size, std::int64_t hash_block_size,
                           std::optional<std::int64_t> retention_interval = std::nullopt);
  std::int64_t hash_block_size;
  std::int64_t dcp_world_size;
  bool enable_partial_hash_hits;
  std::vector<SpecGroup> attention_groups;
  std::optional<std::int64_t> full_attention_group_id;

  // HybridKVCacheCoordinator._cache_hit_alignment_tokens (property).
  std::int64_t _cache_hit_alignment_tokens() const;
  // HybridKVCacheCoordinator.verify_and_split_kv_cache_groups.
  void verify_and_split_kv_cache_groups();
  void cache_blocks(const Request& request, std::int64_t num_computed_tokens) override;
  CoordinatorCacheHit find_longest_cache_hit(const std::vector<BlockHash>& block_hashes,
                                             std::int64_t max_cache_hit_length) override;
  // HybridKVCacheCoordinator.find_longest_cache_hit_per_group.
  std::pair<CacheHitBlocks, std::vector<std::int64_t>> find_longest_cache_hit_per_group(
      const std::vector<BlockHash>& block_hashes, std::int64_t max_cache_hit_length);
};

// kv_cache_coordinator.py@6e448d0e get_kv_cache_coordinator.
std::unique_ptr<KVCacheCoordinator> get_kv_cache_coordinator(
    const KVCacheConfig& kv_cache_config, std::int64_t max_model_len, std::int64_t max_in_flight_tokens,
    bool use_eagle, bool enable_caching, bool enable_kv_cache_events, std::int64_t dcp_world_size,
    std::int64_t pcp_world_size, std::int64_t scheduler_block_size, std::int64_t hash_block_size,
    std::optional<std::int64_t> retention_interval = std::nullopt);

}  // namespace blis::vllm
