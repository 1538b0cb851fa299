// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/single_type_kv_cache_manager.py@6e448d0e, the base class
// SingleTypeKVCacheManager and the manager registry; the subclasses are in
// single_type_kv_cache_manager_attention.cpp. MambaManager and RSWAManager are not ported (refused).
#include "v1/core/single_type_kv_cache_manager.h"

#include <algorithm>
#include <stdexcept>

namespace blis::vllm {

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.__init__
SingleTypeKVCacheManager::SingleTypeKVCacheManager(KVCacheSpecPtr kv_cache_spec_, BlockPool* block_pool_,
                                                   bool enable_caching_, std::int64_t kv_cache_group_id_,
                                                   std::int64_t scheduler_block_size_, std::int64_t dcp_world_size_,
                                                   std::int64_t pcp_world_size_, bool needs_kv_cache_zeroing,
                                                   std::optional<std::int64_t> max_admission_blocks_per_request)
    : scheduler_block_size(scheduler_block_size_),
      block_size(kv_cache_spec_->block_size),
      dcp_world_size(dcp_world_size_),
      pcp_world_size(pcp_world_size_),
      kv_cache_spec(std::move(kv_cache_spec_)),
      block_pool(block_pool_),
      enable_caching(enable_caching_),
      _max_admission_blocks_per_request(max_admission_blocks_per_request),
      _record_new_block_ids(false),
      kv_cache_group_id(kv_cache_group_id_),
      _null_block(block_pool_->null_block) {
  if (dcp_world_size > 1) block_size *= dcp_world_size;
  // type(kv_cache_spec) in (FullAttentionSpec, TQFullAttentionSpec, MLAAttentionSpec, HiddenStateCacheSpec):
  // exact types, so SinkFullAttentionSpec is not among them.
  const std::string t = kv_cache_spec->type_name();
  _record_new_block_ids = needs_kv_cache_zeroing && (t == "FullAttentionSpec" || t == "MLAAttentionSpec");
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager._get_num_evictable_blocks
std::int64_t SingleTypeKVCacheManager::_get_num_evictable_blocks(const std::vector<KVCacheBlock*>& blocks,
                                                                 std::size_t from) {
  std::int64_t n = 0;
  for (std::size_t i = from; i < blocks.size(); ++i) {
    if (blocks[i]->ref_cnt == 0 && !blocks[i]->is_null) ++n;
  }
  return n;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager._has_partial_local_hit
bool SingleTypeKVCacheManager::_has_partial_local_hit(const std::vector<KVCacheBlock*>& new_computed_blocks,
                                                      std::int64_t num_local_computed_tokens) const {
  return !new_computed_blocks.empty() && num_local_computed_tokens % block_size != 0;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.get_num_blocks_to_allocate
std::int64_t SingleTypeKVCacheManager::get_num_blocks_to_allocate(
    const std::string& request_id, std::int64_t num_tokens, const std::vector<KVCacheBlock*>& new_computed_blocks,
    std::int64_t total_computed_tokens, std::int64_t num_local_computed_tokens, std::int64_t /*num_tokens_main_model*/,
    bool apply_admission_cap) {
  std::int64_t num_required_blocks = cdiv(num_tokens, block_size);
  if (apply_admission_cap && _max_admission_blocks_per_request.has_value()) {
    num_required_blocks = std::min(num_required_blocks, *_max_admission_blocks_per_request);
  }
  auto it = req_to_blocks.find(request_id);
  const std::int64_t num_req_blocks = it == req_to_blocks.end() ? 0 : static_cast<std::int64_t>(it->second.size());

  if (num_cached_block.count(request_id) != 0) {
    // Fast path: a running request won't have any new prefix-cache hits.
    if (!new_computed_blocks.empty()) throw AssertionError("running request with new computed blocks");
    return std::max<std::int64_t>(num_required_blocks - num_req_blocks, 0);
  }

  const std::int64_t num_skipped_tokens = get_num_skipped_tokens(total_computed_tokens);
  const std::int64_t num_local_computed_blocks = static_cast<std::int64_t>(new_computed_blocks.size()) + num_req_blocks;
  const std::int64_t num_skipped_blocks = floor_div(num_skipped_tokens, block_size);
  std::int64_t num_new_blocks =
      std::max<std::int64_t>(num_required_blocks - std::max(num_skipped_blocks, num_local_computed_blocks), 0);
  const std::int64_t num_skipped_new_computed_blocks = std::max<std::int64_t>(0, num_skipped_blocks - num_req_blocks);
  const std::int64_t num_evictable_blocks =
      _get_num_evictable_blocks(new_computed_blocks, static_cast<std::size_t>(num_skipped_new_computed_blocks));
  if (_has_partial_local_hit(new_computed_blocks, num_local_computed_tokens)) {
    // Reserve the extra block that allocate_new_blocks pulls for the partial-hit CoW redirect.
    num_new_blocks += 1;
  }
  return num_new_blocks + num_evictable_blocks;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.add_local_computed_blocks
void SingleTypeKVCacheManager::add_local_computed_blocks(const std::string& request_id,
                                                         const std::vector<KVCacheBlock*>& new_computed_blocks_in,
                                                         std::int64_t num_local_computed_tokens,
                                                         std::int64_t num_external_computed_tokens) {
  auto& req_blocks = req_to_blocks[request_id];
  if (!req_blocks.empty()) throw AssertionError("add_local_computed_blocks: request already has blocks");
  const std::int64_t num_total_computed_tokens = num_local_computed_tokens + num_external_computed_tokens;
  const std::int64_t num_skipped_tokens = get_num_skipped_tokens(num_total_computed_tokens);
  const std::int64_t num_skipped_blocks = floor_div(num_skipped_tokens, block_size);
  std::vector<KVCacheBlock*> new_computed_blocks = new_computed_blocks_in;
  if (num_skipped_blocks > 0) {
    // All new computed blocks may be skipped when num_skipped_blocks > len(new_computed_blocks).
    const auto skip = std::min<std::size_t>(static_cast<std::size_t>(num_skipped_blocks), new_computed_blocks.size());
    new_computed_blocks.erase(new_computed_blocks.begin(), new_computed_blocks.begin() + static_cast<std::ptrdiff_t>(skip));
  }
  if (enable_caching) {
    block_pool->touch(new_computed_blocks);
  } else if (!new_computed_blocks.empty()) {
    // `assert not any(new_computed_blocks)`: a KVCacheBlock is always truthy.
    throw AssertionError("Computed blocks should be empty when prefix caching is disabled");
  }
  req_blocks.insert(req_blocks.end(), static_cast<std::size_t>(std::max<std::int64_t>(num_skipped_blocks, 0)),
                    _null_block);
  req_blocks.insert(req_blocks.end(), new_computed_blocks.begin(), new_computed_blocks.end());
  num_cached_block[request_id] = static_cast<std::int64_t>(req_blocks.size());
  if (_has_partial_local_hit(new_computed_blocks, num_local_computed_tokens)) {
    const std::int64_t block_idx = floor_div(num_local_computed_tokens, block_size);
    _partial_hit_reqs[request_id] = {block_idx, new_computed_blocks.back()};
    num_cached_block[request_id] = block_idx;
  }
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.allocate_external_computed_blocks
void SingleTypeKVCacheManager::allocate_external_computed_blocks(const std::string& request_id,
                                                                 std::int64_t num_local_computed_tokens,
                                                                 std::int64_t num_external_computed_tokens) {
  const std::int64_t num_total_computed_tokens = num_local_computed_tokens + num_external_computed_tokens;
  const std::int64_t num_skipped_tokens = get_num_skipped_tokens(num_total_computed_tokens);
  if (num_skipped_tokens > 0) {
    num_external_computed_tokens =
        std::min(num_total_computed_tokens - num_skipped_tokens, num_external_computed_tokens);
  }
  if (num_external_computed_tokens <= 0) return;
  auto& req_blocks = req_to_blocks[request_id];
  auto allocated_blocks = block_pool->get_new_blocks(cdiv(num_total_computed_tokens, block_size) -
                                                     static_cast<std::int64_t>(req_blocks.size()));
  req_blocks.insert(req_blocks.end(), allocated_blocks.begin(), allocated_blocks.end());
  if (_record_new_block_ids) {
    for (auto* b : allocated_blocks) new_block_ids.push_back(b->block_id);
  }
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.allocate_new_blocks
std::vector<KVCacheBlock*> SingleTypeKVCacheManager::allocate_new_blocks(const std::string& request_id,
                                                                         std::int64_t num_tokens,
                                                                         std::int64_t /*num_tokens_main_model*/) {
  std::vector<KVCacheBlock*> cow_blocks;
  auto pit = _partial_hit_reqs.find(request_id);
  if (pit != _partial_hit_reqs.end()) {
    // Partial hit: redirect the shared tail to a private CoW block.
    auto [block_idx, source_block] = pit->second;
    _partial_hit_reqs.erase(pit);
    KVCacheBlock* cow_block = block_pool->get_new_blocks(1)[0];
    _apply_cow(request_id, block_idx, source_block, cow_block);
    new_block_ids.push_back(cow_block->block_id);
    cow_blocks.push_back(cow_block);
  }
  auto& req_blocks = req_to_blocks[request_id];
  const std::int64_t num_required_blocks = cdiv(num_tokens, block_size);
  const std::int64_t num_new_blocks = num_required_blocks - static_cast<std::int64_t>(req_blocks.size());
  if (num_new_blocks <= 0) return cow_blocks;
  auto new_blocks = block_pool->get_new_blocks(num_new_blocks);
  req_blocks.insert(req_blocks.end(), new_blocks.begin(), new_blocks.end());
  if (_record_new_block_ids) {
    for (auto* b : new_blocks) new_block_ids.push_back(b->block_id);
  }
  cow_blocks.insert(cow_blocks.end(), new_blocks.begin(), new_blocks.end());
  return cow_blocks;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.take_new_block_ids
std::vector<std::int64_t> SingleTypeKVCacheManager::take_new_block_ids() {
  std::vector<std::int64_t> ids;
  ids.swap(new_block_ids);
  return ids;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.take_pending_cow_copies
std::vector<std::pair<KVCacheBlock*, KVCacheBlock*>> SingleTypeKVCacheManager::take_pending_cow_copies() {
  std::vector<std::pair<KVCacheBlock*, KVCacheBlock*>> pending;
  pending.swap(_pending_cow_copies);
  return pending;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager._apply_cow
void SingleTypeKVCacheManager::_apply_cow(const std::string& request_id, std::int64_t block_idx,
                                          KVCacheBlock* source_block, KVCacheBlock* cow_block) {
  auto& req_blocks = req_to_blocks[request_id];
  if (block_idx >= static_cast<std::int64_t>(req_blocks.size()) ||
      req_blocks[static_cast<std::size_t>(block_idx)] != source_block || source_block->is_null ||
      source_block->ref_cnt <= 0) {
    throw AssertionError("_apply_cow: the partial-hit block is not the request's source block");
  }
  req_blocks[static_cast<std::size_t>(block_idx)] = cow_block;
  _pending_cow_copies.emplace_back(source_block, cow_block);
  cow_block->ref_cnt += 1;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.cache_blocks
void SingleTypeKVCacheManager::cache_blocks(const Request& request, std::int64_t num_tokens,
                                            std::optional<std::int64_t> retention_interval) {
  auto nit = num_cached_block.find(request.request_id);
  const std::int64_t num_cached_blocks = nit == num_cached_block.end() ? 0 : nit->second;
  const std::int64_t num_full_blocks = floor_div(num_tokens, block_size);
  if (num_cached_blocks >= num_full_blocks) return;

  std::vector<std::int64_t> reachable_boundaries{request.num_prompt_tokens - 1};
  if (request.shared_prefix_boundary != 0) reachable_boundaries.push_back(request.shared_prefix_boundary);

  const auto block_mask = reachable_block_mask(num_cached_blocks, num_full_blocks, scheduler_block_size,
                                               *kv_cache_spec, use_eagle, retention_interval, reachable_boundaries);
  block_pool->cache_full_blocks(request, req_to_blocks[request.request_id], num_cached_blocks, num_full_blocks,
                                block_size, kv_cache_group_id, block_mask);
  num_cached_block[request.request_id] = num_full_blocks;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.reachable_block_mask
std::optional<std::vector<bool>> SingleTypeKVCacheManager::reachable_block_mask(
    std::int64_t, std::int64_t, std::optional<std::int64_t>, const KVCacheSpec&, bool, std::optional<std::int64_t>,
    const std::vector<std::int64_t>&) const {
  return std::nullopt;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.pop_blocks_for_free
std::vector<KVCacheBlock*> SingleTypeKVCacheManager::pop_blocks_for_free(const std::string& request_id) {
  std::vector<KVCacheBlock*> req_blocks;
  auto it = req_to_blocks.find(request_id);
  if (it != req_to_blocks.end()) {
    req_blocks = std::move(it->second);
    req_to_blocks.erase(it);
  }
  num_cached_block.erase(request_id);
  _partial_hit_reqs.erase(request_id);
  return req_blocks;
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.free
void SingleTypeKVCacheManager::free(const std::string& request_id) {
  auto blocks = pop_blocks_for_free(request_id);
  std::reverse(blocks.begin(), blocks.end());  // tail blocks are freed first
  block_pool->free_blocks(blocks);
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager._remove_blocks_in_range
void SingleTypeKVCacheManager::_remove_blocks_in_range(const std::string& request_id, std::int64_t first_block,
                                                       std::int64_t last_block) {
  auto it = req_to_blocks.find(request_id);
  if (it == req_to_blocks.end()) return;
  if (first_block >= last_block) return;
  auto& blocks = it->second;
  last_block = std::min<std::int64_t>(last_block, static_cast<std::int64_t>(blocks.size()));
  std::vector<KVCacheBlock*> freed;
  for (std::int64_t i = last_block - 1; i >= first_block; --i) {
    auto& b = blocks[static_cast<std::size_t>(i)];
    if (b == _null_block) break;
    freed.push_back(b);
    b = _null_block;
  }
  if (!freed.empty()) block_pool->free_blocks(freed);
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.remove_skipped_blocks
void SingleTypeKVCacheManager::remove_skipped_blocks(const std::string& request_id,
                                                     std::int64_t processed_computed_tokens,
                                                     std::optional<std::int64_t> /*num_prompt_tokens*/) {
  const std::int64_t num_skipped_tokens = get_num_skipped_tokens(processed_computed_tokens);
  if (num_skipped_tokens <= 0) return;
  auto& blocks = req_to_blocks[request_id];  // defaultdict access: creates the entry
  std::int64_t num_skipped_blocks = floor_div(num_skipped_tokens, block_size);
  num_skipped_blocks = std::min<std::int64_t>(num_skipped_blocks, static_cast<std::int64_t>(blocks.size()));
  _remove_blocks_in_range(request_id, 0, num_skipped_blocks);
}

// single_type_kv_cache_manager.py@6e448d0e SingleTypeKVCacheManager.get_num_skipped_tokens
std::int64_t SingleTypeKVCacheManager::get_num_skipped_tokens(std::int64_t) const { return 0; }

// single_type_kv_cache_manager.py@6e448d0e register_all_kvcache_specs (the built-in registrations) and
// KVCacheSpecRegistry.get_manager_class (MRO walk, most-derived class first).
std::optional<std::string> spec_manager_map(const KVCacheSpec& kv_cache_spec) {
  if (isinstance<SinkFullAttentionSpec>(kv_cache_spec)) return "SinkFullAttentionManager";
  if (isinstance<MLAAttentionSpec>(kv_cache_spec)) return "FullAttentionManager";
  if (isinstance<FullAttentionSpec>(kv_cache_spec)) return "FullAttentionManager";
  if (isinstance<SlidingWindowSpec>(kv_cache_spec)) return "SlidingWindowManager";
  if (isinstance<ChunkedLocalAttentionSpec>(kv_cache_spec)) return "ChunkedLocalAttentionManager";
  if (isinstance<CrossAttentionSpec>(kv_cache_spec)) return "CrossAttentionManager";
  if (isinstance<MambaSpec>(kv_cache_spec)) return "MambaManager";
  return std::nullopt;
}

// single_type_kv_cache_manager.py@6e448d0e get_manager_for_kv_cache_spec
std::unique_ptr<SingleTypeKVCacheManager> get_manager_for_kv_cache_spec(
    const KVCacheSpecPtr& kv_cache_spec, std::int64_t max_in_flight_tokens, std::int64_t max_model_len,
    BlockPool* block_pool, bool enable_caching, std::int64_t kv_cache_group_id, std::int64_t scheduler_block_size,
    std::int64_t dcp_world_size, std::int64_t pcp_world_size, std::optional<bool> needs_kv_cache_zeroing_kw) {
  const bool needs_kv_cache_zeroing = needs_kv_cache_zeroing_kw.value_or(false);
  check_kv_cache_spec_type_ported(kv_cache_spec->type_name());
  const auto manager_class = spec_manager_map(*kv_cache_spec);
  if (!manager_class) {
    throw AssertionError(std::string("No manager registered for KVCacheSpec ") + kv_cache_spec->type_name());
  }
  if (*manager_class == "MambaManager") {
    throw std::invalid_argument(std::string("KV cache spec ") + kv_cache_spec->type_name() +
                                " (MambaManager) is not modelled by this port: the Mamba state-block manager "
                                "(align/none cache modes, speculative state blocks) is not ported");
  }
  std::optional<std::int64_t> cap;
  if (const auto* sw = dynamic_cast<const SlidingWindowSpec*>(kv_cache_spec.get())) {
    cap = sw->max_admission_blocks_per_request(max_in_flight_tokens, max_model_len);
  } else if (const auto* cl = dynamic_cast<const ChunkedLocalAttentionSpec*>(kv_cache_spec.get())) {
    cap = cl->max_admission_blocks_per_request(max_in_flight_tokens, max_model_len);
  }
  if (*manager_class == "FullAttentionManager") {
    return std::make_unique<FullAttentionManager>(kv_cache_spec, block_pool, enable_caching, kv_cache_group_id,
                                                  scheduler_block_size, dcp_world_size, pcp_world_size,
                                                  needs_kv_cache_zeroing, cap);
  }
  if (*manager_class == "SlidingWindowManager") {
    return std::make_unique<SlidingWindowManager>(kv_cache_spec, block_pool, enable_caching, kv_cache_group_id,
                                                  scheduler_block_size, dcp_world_size, pcp_world_size,
                                                  needs_kv_cache_zeroing, cap);
  }
  if (*manager_class == "ChunkedLocalAttentionManager") {
    return std::make_unique<ChunkedLocalAttentionManager>(kv_cache_spec, block_pool, enable_caching,
                                                          kv_cache_group_id, scheduler_block_size, dcp_world_size,
                                                          pcp_world_size, needs_kv_cache_zeroing, cap);
  }
  if (*manager_class == "CrossAttentionManager") {
    return std::make_unique<CrossAttentionManager>(kv_cache_spec, block_pool, enable_caching, kv_cache_group_id,
                                                   scheduler_block_size, dcp_world_size, pcp_world_size,
                                                   needs_kv_cache_zeroing, cap);
  }
  // SinkFullAttentionManager.__init__ takes no needs_kv_cache_zeroing keyword: upstream raises TypeError
  // whenever it is passed (the coordinator always passes it).
  if (needs_kv_cache_zeroing_kw.has_value()) {
    throw std::invalid_argument(
        "KV cache spec SinkFullAttentionSpec is not modelled by this port through the coordinator: upstream's "
        "SinkFullAttentionManager.__init__ does not accept the needs_kv_cache_zeroing keyword the coordinator "
        "passes (a TypeError at the pin)");
  }
  return std::make_unique<SinkFullAttentionManager>(kv_cache_spec, block_pool, enable_caching, kv_cache_group_id,
                                                    scheduler_block_size, dcp_world_size, pcp_world_size);
}

}  // namespace blis::vllm
