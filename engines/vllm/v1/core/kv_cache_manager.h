// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_manager.py@6e448d0e (KVCacheBlocks, KVCacheManager)
// and of PrefixCacheStats from vllm/v1/metrics/stats.py@6e448d0e. Not ported (KV-connector / worker-side
// paths): get_computed_blocks_for_connector, take_partial_tail_offloads (and the partial-tail pins), the
// KVCacheMetricsCollector. Ported though connector-leaning because the scheduler calls them every step:
// take_kv_cache_block_copies, take_new_block_ids, get_zeroing_block_ids_in_range, record_blocks_for_zeroing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "distributed/kv_events.h"
#include "v1/core/block_pool.h"
#include "v1/core/kv_cache_coordinator.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/kv_cache_interface.h"
#include "v1/request.h"

namespace blis::vllm {

// vllm/v1/metrics/stats.py@6e448d0e PrefixCacheStats (with BaseCacheStats' fields).
struct PrefixCacheStats {
  bool reset = false;
  std::int64_t requests = 0;
  std::int64_t queries = 0;
  std::int64_t hits = 0;
  std::int64_t preempted_requests = 0;
  std::int64_t preempted_queries = 0;
  std::int64_t preempted_hits = 0;
  // stats.py@6e448d0e PrefixCacheStats.record.
  void record(std::int64_t num_tokens, std::int64_t num_hits, bool preempted);
  friend bool operator==(const PrefixCacheStats&, const PrefixCacheStats&) = default;
};

// vllm/v1/core/kv_cache_utils.py@6e448d0e KVCacheBlockCopy.
struct KVCacheBlockCopy {
  std::int64_t src_block_id = 0;
  std::int64_t dst_block_id = 0;
  friend bool operator==(const KVCacheBlockCopy&, const KVCacheBlockCopy&) = default;
};

// kv_cache_manager.py@6e448d0e KVCacheBlocks: blocks[i][j] is the j-th block of kv cache group i.
struct KVCacheBlocks {
  std::vector<std::vector<KVCacheBlock*>> blocks;
  // BLIS: true for KVCacheManager::empty_kv_cache_blocks and its copies. Stands for upstream's identity
  // test `new_computed_blocks.blocks is self.empty_kv_cache_blocks.blocks` in allocate_slots.
  bool is_precomputed_empty = false;

  // KVCacheBlocks.__add__.
  KVCacheBlocks operator+(const KVCacheBlocks& other) const;
  // KVCacheBlocks.get_block_ids (allow_none=False).
  std::vector<std::vector<std::int64_t>> get_block_ids() const;
  // KVCacheBlocks.get_block_ids(allow_none=True): nullopt when every group is empty.
  std::optional<std::vector<std::vector<std::int64_t>>> get_block_ids_allow_none() const;
  // KVCacheBlocks.get_unhashed_block_ids / get_unhashed_block_ids_all_groups.
  std::vector<std::int64_t> get_unhashed_block_ids() const;
  std::vector<std::vector<std::int64_t>> get_unhashed_block_ids_all_groups() const;
  // KVCacheBlocks.new_empty.
  KVCacheBlocks new_empty() const;
};

// kv_cache_manager.py@6e448d0e KVCacheManager.
class KVCacheManager {
 public:
  // kv_cache_manager.py@6e448d0e KVCacheManager.__init__. `prefix_cache_retention_interval` stands in for
  // envs.VLLM_PREFIX_CACHE_RETENTION_INTERVAL (unset by default).
  KVCacheManager(const KVCacheConfig& kv_cache_config, std::int64_t max_model_len, std::int64_t scheduler_block_size,
                 std::int64_t hash_block_size, std::optional<std::int64_t> max_in_flight_tokens = std::nullopt,
                 bool enable_caching = true, bool use_eagle = false, bool log_stats = false,
                 bool enable_kv_cache_events = false, std::int64_t dcp_world_size = 1,
                 std::int64_t pcp_world_size = 1, double watermark = 0.0,
                 std::optional<std::int64_t> prefix_cache_retention_interval = std::nullopt);
  KVCacheManager(const KVCacheManager&) = delete;
  KVCacheManager& operator=(const KVCacheManager&) = delete;

  std::int64_t max_model_len;
  bool enable_caching;
  bool enable_kv_cache_events;
  bool use_eagle;
  bool log_stats;
  std::optional<PrefixCacheStats> prefix_cache_stats;
  std::unique_ptr<KVCacheCoordinator> coordinator;
  std::int64_t num_kv_cache_groups;
  BlockPool* block_pool;
  KVCacheConfig kv_cache_config;
  std::int64_t watermark_blocks;
  // (KVCacheSpecKind value, sliding window) per group.
  std::vector<std::pair<std::string, std::optional<std::int64_t>>> kv_cache_event_metadata;
  KVCacheBlocks empty_kv_cache_blocks;

  // KVCacheManager.usage (property).
  double usage() const;
  // KVCacheManager.make_prefix_cache_stats.
  std::optional<PrefixCacheStats> make_prefix_cache_stats();
  // KVCacheManager.prefix_cache_lookup_enabled / record_prefix_cache_stats.
  bool prefix_cache_lookup_enabled(const Request& request) const;
  void record_prefix_cache_stats(const Request& request, std::int64_t num_hits);
  // KVCacheManager.get_computed_blocks: (blocks, num_new_computed_tokens, shared_prefix_boundary).
  std::tuple<KVCacheBlocks, std::int64_t, std::int64_t> get_computed_blocks(const Request& request);
  // KVCacheManager.allocate_slots: nullopt when the blocks cannot be allocated.
  std::optional<KVCacheBlocks> allocate_slots(const Request& request, std::int64_t num_new_tokens,
                                              std::int64_t num_new_computed_tokens = 0,
                                              const KVCacheBlocks* new_computed_blocks = nullptr,
                                              std::int64_t num_lookahead_tokens = 0,
                                              std::int64_t num_external_computed_tokens = 0,
                                              bool delay_cache_blocks = false, std::int64_t num_encoder_tokens = 0,
                                              bool full_sequence_must_fit = false, std::int64_t reserved_blocks = 0,
                                              bool has_scheduled_reqs = true);
  // KVCacheManager.free / remove_skipped_blocks / pop_blocks_for_free.
  void free(const Request& request);
  void remove_skipped_blocks(const std::string& request_id, std::int64_t processed_computed_tokens,
                             std::optional<std::int64_t> num_prompt_tokens = std::nullopt);
  std::vector<KVCacheBlock*> pop_blocks_for_free(const Request& request);
  // KVCacheManager.evict_blocks / reset_prefix_cache / get_num_common_prefix_blocks / take_events.
  void evict_blocks(const std::set<std::int64_t>& block_ids);
  bool reset_prefix_cache();
  std::vector<std::int64_t> get_num_common_prefix_blocks(const std::string& running_request_id);
  std::vector<KVCacheEvent> take_events();
  // KVCacheManager.get_blocks / get_block_ids / get_block_ids_for_computed_tokens.
  KVCacheBlocks get_blocks(const std::string& request_id) const;
  std::vector<std::vector<std::int64_t>> get_block_ids(const std::string& request_id) const;
  std::vector<std::vector<std::int64_t>> get_block_ids_for_computed_tokens(const std::string& request_id,
                                                                           std::int64_t num_computed_tokens) const;
  // KVCacheManager.estimate_cached_tokens.
  std::int64_t estimate_cached_tokens(const Request& request) const;
  // KVCacheManager.cache_blocks / create_kv_cache_blocks / truncate_computed_blocks.
  void cache_blocks(const Request& request, std::int64_t num_computed_tokens);
  KVCacheBlocks create_kv_cache_blocks(std::vector<std::vector<KVCacheBlock*>> blocks) const;
  KVCacheBlocks truncate_computed_blocks(const KVCacheBlocks& blocks, std::int64_t num_computed_tokens) const;
  // KVCacheManager.take_new_block_ids / get_zeroing_block_ids_in_range / record_blocks_for_zeroing.
  std::vector<std::int64_t> take_new_block_ids();
  std::vector<std::int64_t> get_zeroing_block_ids_in_range(const std::string& request_id, std::int64_t start_token,
                                                           std::int64_t end_token);
  void record_blocks_for_zeroing(const std::string& request_id, std::int64_t start_token);
  // KVCacheManager.take_kv_cache_block_copies: (copies, retained endpoint blocks).
  std::pair<std::vector<KVCacheBlockCopy>, std::vector<KVCacheBlock*>> take_kv_cache_block_copies();
  // KVCacheManager.new_step_starts.
  void new_step_starts();
};

}  // namespace blis::vllm
