// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_utils.py@6e448d0e, second part: the KV-cache
// grouping and pool sizing at start-up (get_kv_cache_groups and its uniform-spec, uniform-type and
// uniform-page-size paths, page-size unification, the full-allocation fallback and hybrid unification,
// memory checks, auto-fit of max_model_len, get_kv_cache_config_from_groups, get_kv_cache_configs).
// Not ported, and refused where reachable: the packed per-block layout (_get_kv_cache_config_packed:
// DeepSeek-V4 and the connector's enable_cross_layers_blocks), the DeepSeek-V4 grouping
// (group_and_unify_kv_cache_specs needs SlidingWindowMLASpec, which is refused) and its eagle
// annotation, HiddenStateCacheSpec layers (refused).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "v1/kv_cache_interface.h"

namespace blis::vllm {

// vllm/utils/mem_utils.py format_gib: str(round(b / GiB, 2)) as Python prints it.
std::string format_gib(std::int64_t b);

// kv_cache_utils.py@6e448d0e resolve_kv_cache_block_sizes: (scheduler_block_size, hash_block_size).
std::pair<std::int64_t, std::int64_t> resolve_kv_cache_block_sizes(const KVCacheConfig& kv_cache_config,
                                                                   const KVCacheVllmConfig& vllm_config);

// kv_cache_utils.py@6e448d0e _check_enough_kv_cache_memory (ValueError with upstream's text).
void _check_enough_kv_cache_memory(std::int64_t available_memory, const std::function<std::int64_t()>& get_needed_memory,
                                   std::int64_t max_model_len,
                                   const std::function<std::int64_t(std::int64_t)>& estimate_max_model_len);
// kv_cache_utils.py@6e448d0e max_memory_usage_bytes (the sum over specs).
std::int64_t max_memory_usage_bytes(const KVCacheVllmConfig& vllm_config, const std::vector<KVCacheSpecPtr>& kv_cache_specs);
// kv_cache_utils.py@6e448d0e estimate_max_model_len.
std::int64_t estimate_max_model_len(const KVCacheVllmConfig& vllm_config, const KVCacheSpecDict& kv_cache_spec,
                                    std::int64_t available_memory);
// kv_cache_utils.py@6e448d0e check_enough_kv_cache_memory.
void check_enough_kv_cache_memory(const KVCacheVllmConfig& vllm_config, const KVCacheSpecDict& kv_cache_spec,
                                  std::int64_t available_memory);

// kv_cache_utils.py@6e448d0e create_kv_cache_group_specs.
std::vector<KVCacheGroupSpec> create_kv_cache_group_specs(const KVCacheSpecDict& kv_cache_spec,
                                                          const std::vector<std::vector<std::string>>& grouped_layer_names);
// kv_cache_utils.py@6e448d0e is_kv_cache_spec_uniform.
bool is_kv_cache_spec_uniform(const KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e get_max_concurrency_for_kv_cache_config.
double get_max_concurrency_for_kv_cache_config(const KVCacheVllmConfig& vllm_config, const KVCacheConfig& kv_cache_config);
// kv_cache_utils.py@6e448d0e may_override_num_blocks.
std::int64_t may_override_num_blocks(const KVCacheVllmConfig& vllm_config, std::int64_t num_blocks);
// kv_cache_utils.py@6e448d0e _pool_bytes_per_block.
std::int64_t _pool_bytes_per_block(const KVCacheVllmConfig& vllm_config, const std::vector<KVCacheGroupSpec>& kv_cache_groups);
// kv_cache_utils.py@6e448d0e get_num_blocks.
std::int64_t get_num_blocks(const KVCacheVllmConfig& vllm_config, std::int64_t num_layers, std::int64_t available_memory,
                            std::int64_t page_size);
// kv_cache_utils.py@6e448d0e get_uniform_page_size (AssertionError unless all equal).
std::int64_t get_uniform_page_size(const std::vector<KVCacheSpecPtr>& kv_cache_specs);
// kv_cache_utils.py@6e448d0e is_kv_cache_page_size_uniform.
bool is_kv_cache_page_size_uniform(const KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e unify_kv_cache_spec_page_size (NotImplementedError when impossible).
KVCacheSpecDict unify_kv_cache_spec_page_size(const KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e is_kv_cache_type_attention_free.
bool is_kv_cache_type_attention_free(const KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e _get_kv_cache_groups_uniform_spec / _uniform_type / _uniform_page_size.
std::vector<KVCacheGroupSpec> _get_kv_cache_groups_uniform_spec(const KVCacheSpecDict& kv_cache_specs);
std::vector<KVCacheGroupSpec> _get_kv_cache_groups_uniform_type(const std::shared_ptr<const UniformTypeKVCacheSpecs>& spec);
std::vector<KVCacheGroupSpec> _get_kv_cache_groups_uniform_page_size(const KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e _promote_local_kv_cache_specs (ValueError when it cannot unify).
KVCacheSpecDict _promote_local_kv_cache_specs(const KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e _try_get_full_allocation_fallback_groups (nullopt for None).
std::optional<std::vector<KVCacheGroupSpec>> _try_get_full_allocation_fallback_groups(const KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e unify_hybrid_kv_cache_specs (updates kv_cache_spec in place).
void unify_hybrid_kv_cache_specs(KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e get_kv_cache_groups (may update kv_cache_spec in place, as upstream).
std::vector<KVCacheGroupSpec> get_kv_cache_groups(const KVCacheVllmConfig& vllm_config, KVCacheSpecDict& kv_cache_spec);
// kv_cache_utils.py@6e448d0e get_kv_cache_config_from_groups.
KVCacheConfig get_kv_cache_config_from_groups(const KVCacheVllmConfig& vllm_config,
                                              const std::vector<KVCacheGroupSpec>& kv_cache_groups,
                                              std::int64_t available_memory);
// kv_cache_utils.py@6e448d0e generate_scheduler_kv_cache_config.
KVCacheConfig generate_scheduler_kv_cache_config(const std::vector<KVCacheConfig>& kv_cache_configs);
// kv_cache_utils.py@6e448d0e get_kv_cache_capacity: (tokens, max concurrency).
std::pair<std::int64_t, double> get_kv_cache_capacity(const KVCacheVllmConfig& vllm_config, const KVCacheConfig& kv_cache_config);
// kv_cache_utils.py@6e448d0e _max_memory_usage_bytes_from_groups / _estimate_max_model_len_from_groups.
std::int64_t _max_memory_usage_bytes_from_groups(const KVCacheVllmConfig& vllm_config,
                                                 const std::vector<KVCacheGroupSpec>& kv_cache_groups);
std::int64_t _estimate_max_model_len_from_groups(const KVCacheVllmConfig& vllm_config,
                                                 const std::vector<KVCacheGroupSpec>& kv_cache_groups,
                                                 std::int64_t available_memory);
// kv_cache_utils.py@6e448d0e _auto_fit_max_model_len (updates vllm_config.max_model_len).
void _auto_fit_max_model_len(KVCacheVllmConfig& vllm_config,
                             const std::vector<std::vector<KVCacheGroupSpec>>& projected_groups_per_worker,
                             const std::vector<std::int64_t>& available_memory);
// kv_cache_utils.py@6e448d0e _project_kv_cache_groups_to_worker.
std::vector<KVCacheGroupSpec> _project_kv_cache_groups_to_worker(const std::vector<KVCacheGroupSpec>& global_kv_cache_groups,
                                                                 const KVCacheSpecDict& worker_spec);
// kv_cache_utils.py@6e448d0e get_kv_cache_configs (one spec dict and one available-memory figure per
// worker; updates vllm_config.max_model_len when auto-fit applies).
std::vector<KVCacheConfig> get_kv_cache_configs(KVCacheVllmConfig& vllm_config,
                                                const std::vector<KVCacheSpecDict>& kv_cache_specs,
                                                const std::vector<std::int64_t>& available_memory);
// The single-worker form of get_kv_cache_configs for BLIS: the per-layer specs in layer order, the bytes
// available for the KV cache, num_gpu_blocks_override and max_model_len (other VllmConfig fields at
// their defaults).
KVCacheConfig get_kv_cache_config(const KVCacheSpecDict& kv_cache_spec, std::int64_t available_memory,
                                  std::optional<std::int64_t> num_gpu_blocks_override, std::int64_t max_model_len);

}  // namespace blis::vllm
