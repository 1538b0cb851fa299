// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_manager.py@6e448d0e (KVCacheBlocks, KVCacheManager)
// and stats.py@6e448d0e PrefixCacheStats.record; see kv_cache_manager.h for what is not ported.
#include "v1/core/kv_cache_manager.h"

#include <algorithm>
#include <stdexcept>

namespace blis::vllm {

// stats.py@6e448d0e PrefixCacheStats.record
void PrefixCacheStats::record(std::int64_t num_tokens, std::int64_t num_hits, bool preempted) {
  if (preempted) {
    preempted_requests += 1;
    preempted_queries += num_tokens;
    preempted_hits += num_hits;
  } else {
    requests += 1;
    queries += num_tokens;
    hits += num_hits;
  }
}

// kv_cache_manager.py@6e448d0e KVCacheBlocks.__add__
KVCacheBlocks KVCacheBlocks::operator+(const KVCacheBlocks& other) const {
  KVCacheBlocks out;
  const std::size_t n = std::min(blocks.size(), other.blocks.size());  // zip
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<KVCacheBlock*> g = blocks[i];
    g.insert(g.end(), other.blocks[i].begin(), other.blocks[i].end());
    out.blocks.push_back(std::move(g));
  }
  return out;
}

// kv_cache_manager.py@6e448d0e KVCacheBlocks.get_block_ids
std::vector<std::vector<std::int64_t>> KVCacheBlocks::get_block_ids() const {
  std::vector<std::vector<std::int64_t>> out;
  for (const auto& group : blocks) {
    std::vector<std::int64_t> ids;
    for (const auto* blk : group) ids.push_back(blk->block_id);
    out.push_back(std::move(ids));
  }
  return out;
}

// kv_cache_manager.py@6e448d0e KVCacheBlocks.get_block_ids (allow_none=True)
std::optional<std::vector<std::vector<std::int64_t>>> KVCacheBlocks::get_block_ids_allow_none() const {
  if (std::all_of(blocks.begin(), blocks.end(), [](const auto& g) { return g.empty(); })) return std::nullopt;
  return get_block_ids();
}

// kv_cache_manager.py@6e448d0e KVCacheBlocks.get_unhashed_block_ids
std::vector<std::int64_t> KVCacheBlocks::get_unhashed_block_ids() const {
  if (blocks.size() != 1) throw AssertionError("Only one group is supported");
  std::vector<std::int64_t> out;
  for (const auto* block : blocks[0]) {
    if (!block->block_hash().has_value()) out.push_back(block->block_id);
  }
  return out;
}

// kv_cache_manager.py@6e448d0e KVCacheBlocks.get_unhashed_block_ids_all_groups
std::vector<std::vector<std::int64_t>> KVCacheBlocks::get_unhashed_block_ids_all_groups() const {
  std::vector<std::vector<std::int64_t>> out;
  for (const auto& group : blocks) {
    std::vector<std::int64_t> ids;
    for (const auto* block : group) {
      if (!block->block_hash().has_value() && !block->is_null) ids.push_back(block->block_id);
    }
    out.push_back(std::move(ids));
  }
  return out;
}

// kv_cache_manager.py@6e448d0e KVCacheBlocks.new_empty
KVCacheBlocks KVCacheBlocks::new_empty() const {
  KVCacheBlocks out;
  out.blocks.resize(blocks.size());
  return out;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.__init__
KVCacheManager::KVCacheManager(const KVCacheConfig& kv_cache_config_, std::int64_t max_model_len_,
                               std::int64_t scheduler_block_size, std::int64_t hash_block_size,
                               std::optional<std::int64_t> max_in_flight_tokens, bool enable_caching_,
                               bool use_eagle_, bool log_stats_, bool enable_kv_cache_events_,
                               std::int64_t dcp_world_size, std::int64_t pcp_world_size, double watermark,
                               std::optional<std::int64_t> prefix_cache_retention_interval)
    : max_model_len(max_model_len_),
      enable_caching(enable_caching_),
      enable_kv_cache_events(enable_kv_cache_events_),
      use_eagle(use_eagle_),
      log_stats(log_stats_),
      kv_cache_config(kv_cache_config_) {
  if (!max_in_flight_tokens.has_value()) max_in_flight_tokens = max_model_len;
  if (log_stats) prefix_cache_stats = PrefixCacheStats{};
  coordinator = get_kv_cache_coordinator(kv_cache_config, max_model_len, *max_in_flight_tokens, use_eagle,
                                         enable_caching, enable_kv_cache_events, dcp_world_size, pcp_world_size,
                                         scheduler_block_size, hash_block_size, prefix_cache_retention_interval);
  num_kv_cache_groups = static_cast<std::int64_t>(kv_cache_config.kv_cache_groups.size());
  block_pool = coordinator->block_pool.get();
  if (!(watermark >= 0.0)) throw AssertionError("watermark must be non-negative");
  // int(watermark * num_blocks): truncation toward zero of a non-negative product.
  watermark_blocks = static_cast<std::int64_t>(watermark * static_cast<double>(kv_cache_config.num_blocks));
  for (const auto& group : kv_cache_config.kv_cache_groups) {
    kv_cache_event_metadata.emplace_back(kv_cache_spec_kind_value(get_kv_cache_spec_kind(*group.kv_cache_spec)),
                                         get_kv_cache_spec_sliding_window(*group.kv_cache_spec));
  }
  empty_kv_cache_blocks.blocks.resize(static_cast<std::size_t>(num_kv_cache_groups));
  empty_kv_cache_blocks.is_precomputed_empty = true;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.usage
double KVCacheManager::usage() const { return block_pool->get_usage(); }

// kv_cache_manager.py@6e448d0e KVCacheManager.make_prefix_cache_stats
std::optional<PrefixCacheStats> KVCacheManager::make_prefix_cache_stats() {
  if (!log_stats) return std::nullopt;
  auto stats = prefix_cache_stats;
  prefix_cache_stats = PrefixCacheStats{};
  return stats;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.prefix_cache_lookup_enabled
bool KVCacheManager::prefix_cache_lookup_enabled(const Request& request) const {
  return enable_caching && !request.skip_reading_prefix_cache;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.record_prefix_cache_stats
void KVCacheManager::record_prefix_cache_stats(const Request& request, std::int64_t num_hits) {
  if (!log_stats || !prefix_cache_lookup_enabled(request)) return;
  prefix_cache_stats->record(request.num_tokens(), num_hits, request.num_preemptions > 0);
}

// kv_cache_manager.py@6e448d0e KVCacheManager.get_computed_blocks
std::tuple<KVCacheBlocks, std::int64_t, std::int64_t> KVCacheManager::get_computed_blocks(const Request& request) {
  if (!prefix_cache_lookup_enabled(request)) return {empty_kv_cache_blocks, 0, 0};
  // When all tokens hit the cache, the last token must be recomputed to obtain logits.
  const std::int64_t max_cache_hit_length = request.num_tokens() - 1;
  auto [computed_blocks, num_new_computed_tokens, num_uncached] =
      coordinator->find_longest_cache_hit(request.block_hashes, max_cache_hit_length);

  if (num_new_computed_tokens > 0 && enable_kv_cache_events && request.kv_cache_report_mode == "full") {
    for (std::size_t group_idx = 0; group_idx < computed_blocks.size(); ++group_idx) {
      const auto num_blocks = static_cast<std::int64_t>(computed_blocks[group_idx].size());
      if (num_blocks > 0) {
        const std::int64_t block_size = kv_cache_config.kv_cache_groups[group_idx].kv_cache_spec->block_size;
        block_pool->emit_cached_block_events(request, num_blocks, block_size, static_cast<std::int64_t>(group_idx));
      }
    }
  }
  const std::int64_t shared_prefix_boundary = num_uncached != 0 ? num_new_computed_tokens + num_uncached : 0;
  return {create_kv_cache_blocks(std::move(computed_blocks)), num_new_computed_tokens, shared_prefix_boundary};
}

// kv_cache_manager.py@6e448d0e KVCacheManager.allocate_slots
std::optional<KVCacheBlocks> KVCacheManager::allocate_slots(const Request& request, std::int64_t num_new_tokens,
                                                            std::int64_t num_new_computed_tokens,
                                                            const KVCacheBlocks* new_computed_blocks,
                                                            std::int64_t num_lookahead_tokens,
                                                            std::int64_t num_external_computed_tokens,
                                                            bool delay_cache_blocks, std::int64_t num_encoder_tokens,
                                                            bool full_sequence_must_fit, std::int64_t reserved_blocks,
                                                            bool has_scheduled_reqs) {
  if (num_new_tokens == 0 && num_external_computed_tokens == 0) {
    throw ValueError("num_new_tokens must be greater than 0 when there are no external computed tokens");
  }
  const KVCacheBlocks& new_computed = new_computed_blocks != nullptr ? *new_computed_blocks : empty_kv_cache_blocks;
  const CacheHitBlocks& new_computed_block_list = new_computed.blocks;
  const bool is_empty_list = new_computed.is_precomputed_empty;

  const std::int64_t num_local_computed_tokens = request.num_computed_tokens + num_new_computed_tokens;
  const std::int64_t total_computed_tokens =
      std::min(num_local_computed_tokens + num_external_computed_tokens, max_model_len);

  std::int64_t watermark = 0;
  // Applied to waiting/preempted requests only, and only when a request is already scheduled.
  if (has_scheduled_reqs && (request.status == RequestStatus::kWaiting || request.status == RequestStatus::kPreempted)) {
    watermark = watermark_blocks;
  }

  if (full_sequence_must_fit) {
    const std::int64_t full_num_tokens = std::min(request.num_tokens(), max_model_len);
    const std::int64_t num_blocks_to_allocate = coordinator->get_num_blocks_to_allocate(
        request.request_id, full_num_tokens, new_computed_block_list, num_encoder_tokens, total_computed_tokens,
        num_local_computed_tokens, full_num_tokens, /*apply_admission_cap=*/true);
    if (num_blocks_to_allocate + watermark > block_pool->get_num_free_blocks()) return std::nullopt;
  }

  const std::int64_t num_tokens_main_model = total_computed_tokens + num_new_tokens;
  const std::int64_t num_tokens_need_slot = std::min(num_tokens_main_model + num_lookahead_tokens, max_model_len);

  // Free the blocks skipped during attention (e.g. outside the sliding window), on the processed-token basis.
  coordinator->remove_skipped_blocks(request.request_id,
                                     std::max<std::int64_t>(0, total_computed_tokens - request.num_in_flight_tokens),
                                     request.num_prompt_tokens);

  const std::int64_t num_blocks_to_allocate = coordinator->get_num_blocks_to_allocate(
      request.request_id, num_tokens_need_slot, new_computed_block_list, num_encoder_tokens,
      num_local_computed_tokens + num_external_computed_tokens, num_local_computed_tokens, num_tokens_main_model);

  const std::int64_t available_blocks = block_pool->get_num_free_blocks() - reserved_blocks;
  if (num_blocks_to_allocate + watermark > available_blocks) return std::nullopt;

  if (!is_empty_list || num_external_computed_tokens > 0) {
    coordinator->allocate_new_computed_blocks(request.request_id, new_computed_block_list, num_local_computed_tokens,
                                              num_external_computed_tokens);
  }

  auto new_blocks = coordinator->allocate_new_blocks(request.request_id, num_tokens_need_slot, num_tokens_main_model,
                                                     num_encoder_tokens);

  if (!enable_caching || delay_cache_blocks) return create_kv_cache_blocks(std::move(new_blocks));

  // Cache only finalized tokens (capped at request.num_tokens, excluding unverified draft tokens).
  const std::int64_t num_tokens_to_cache = std::min(total_computed_tokens + num_new_tokens, request.num_tokens());
  coordinator->cache_blocks(request, num_tokens_to_cache);
  return create_kv_cache_blocks(std::move(new_blocks));
}

// kv_cache_manager.py@6e448d0e KVCacheManager.free (no partial-tail pins in this port)
void KVCacheManager::free(const Request& request) { coordinator->free(request.request_id); }

// kv_cache_manager.py@6e448d0e KVCacheManager.remove_skipped_blocks
void KVCacheManager::remove_skipped_blocks(const std::string& request_id, std::int64_t processed_computed_tokens,
                                           std::optional<std::int64_t> num_prompt_tokens) {
  coordinator->remove_skipped_blocks(request_id, processed_computed_tokens, num_prompt_tokens);
}

// kv_cache_manager.py@6e448d0e KVCacheManager.pop_blocks_for_free (no partial-tail pins in this port)
std::vector<KVCacheBlock*> KVCacheManager::pop_blocks_for_free(const Request& request) {
  return coordinator->pop_blocks_for_free(request.request_id);
}

// kv_cache_manager.py@6e448d0e KVCacheManager.evict_blocks
void KVCacheManager::evict_blocks(const std::set<std::int64_t>& block_ids) { block_pool->evict_blocks(block_ids); }

// kv_cache_manager.py@6e448d0e KVCacheManager.reset_prefix_cache
bool KVCacheManager::reset_prefix_cache() {
  if (!block_pool->reset_prefix_cache()) return false;
  if (log_stats) prefix_cache_stats->reset = true;
  return true;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.get_num_common_prefix_blocks
std::vector<std::int64_t> KVCacheManager::get_num_common_prefix_blocks(const std::string& running_request_id) {
  return coordinator->get_num_common_prefix_blocks(running_request_id);
}

// kv_cache_manager.py@6e448d0e KVCacheManager.take_events
std::vector<KVCacheEvent> KVCacheManager::take_events() {
  auto events = block_pool->take_events();
  for (auto& event : events) {
    auto* stored = std::get_if<BlockStored>(&event);
    if (stored == nullptr || !stored->group_idx.has_value()) continue;
    const std::int64_t g = *stored->group_idx;
    // Upstream logs a warning for an out-of-range group and leaves the event unannotated.
    if (g < 0 || g >= static_cast<std::int64_t>(kv_cache_event_metadata.size())) continue;
    const auto& [kind, sliding_window] = kv_cache_event_metadata[static_cast<std::size_t>(g)];
    stored->kv_cache_spec_kind = kind;
    stored->kv_cache_spec_sliding_window = sliding_window;
  }
  return events;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.get_blocks
KVCacheBlocks KVCacheManager::get_blocks(const std::string& request_id) const {
  return create_kv_cache_blocks(coordinator->get_blocks(request_id));
}

// kv_cache_manager.py@6e448d0e KVCacheManager.get_block_ids
std::vector<std::vector<std::int64_t>> KVCacheManager::get_block_ids(const std::string& request_id) const {
  return get_blocks(request_id).get_block_ids();
}

// kv_cache_manager.py@6e448d0e KVCacheManager.get_block_ids_for_computed_tokens
std::vector<std::vector<std::int64_t>> KVCacheManager::get_block_ids_for_computed_tokens(
    const std::string& request_id, std::int64_t num_computed_tokens) const {
  auto block_ids = get_block_ids(request_id);
  std::vector<std::vector<std::int64_t>> clipped;
  for (std::size_t i = 0; i < block_ids.size() && i < kv_cache_config.kv_cache_groups.size(); ++i) {
    const auto& spec = kv_cache_config.kv_cache_groups[i].kv_cache_spec;
    if (!isinstance<AttentionSpec>(spec) || isinstance<CrossAttentionSpec>(spec) ||
        isinstance<EncoderOnlyAttentionSpec>(spec)) {
      clipped.push_back(block_ids[i]);
      continue;
    }
    const auto num_valid_blocks =
        std::min<std::size_t>(static_cast<std::size_t>(cdiv(num_computed_tokens, spec->block_size)), block_ids[i].size());
    clipped.emplace_back(block_ids[i].begin(), block_ids[i].begin() + static_cast<std::ptrdiff_t>(num_valid_blocks));
  }
  return clipped;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.estimate_cached_tokens
std::int64_t KVCacheManager::estimate_cached_tokens(const Request& request) const {
  std::optional<std::int64_t> cached_tokens;
  const auto blocks = get_blocks(request.request_id);
  for (std::size_t i = 0; i < kv_cache_config.kv_cache_groups.size() && i < blocks.blocks.size(); ++i) {
    const auto& spec = kv_cache_config.kv_cache_groups[i].kv_cache_spec;
    if (isinstance<CrossAttentionSpec>(spec) || isinstance<EncoderOnlyAttentionSpec>(spec)) continue;
    std::int64_t group_cached_tokens = 0;
    for (const auto* block : blocks.blocks[i]) {
      group_cached_tokens = std::max(group_cached_tokens, block->block_hash_num_tokens().value_or(0));
    }
    cached_tokens = cached_tokens.has_value() ? std::min(*cached_tokens, group_cached_tokens) : group_cached_tokens;
  }
  return cached_tokens.value_or(0);
}

// kv_cache_manager.py@6e448d0e KVCacheManager.cache_blocks
void KVCacheManager::cache_blocks(const Request& request, std::int64_t num_computed_tokens) {
  if (enable_caching) coordinator->cache_blocks(request, num_computed_tokens);
}

// kv_cache_manager.py@6e448d0e KVCacheManager.create_kv_cache_blocks
KVCacheBlocks KVCacheManager::create_kv_cache_blocks(std::vector<std::vector<KVCacheBlock*>> blocks) const {
  // `any(blocks)`: some group has a block.
  if (std::any_of(blocks.begin(), blocks.end(), [](const auto& g) { return !g.empty(); })) {
    return KVCacheBlocks{std::move(blocks), false};
  }
  return empty_kv_cache_blocks;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.truncate_computed_blocks
KVCacheBlocks KVCacheManager::truncate_computed_blocks(const KVCacheBlocks& blocks,
                                                       std::int64_t num_computed_tokens) const {
  if (blocks.blocks.size() != coordinator->single_type_managers.size()) {
    throw ValueError("truncate_computed_blocks: zip() arguments differ in length");
  }
  std::vector<std::vector<KVCacheBlock*>> truncated;
  for (std::size_t i = 0; i < blocks.blocks.size(); ++i) {
    const std::int64_t bs = coordinator->single_type_managers[i]->block_size;
    if (num_computed_tokens % bs != 0) throw AssertionError("truncate_computed_blocks: unaligned token count");
    const std::int64_t num_blocks = num_computed_tokens / bs;
    if (num_blocks > static_cast<std::int64_t>(blocks.blocks[i].size())) {
      throw AssertionError("truncate_computed_blocks: more blocks than the lookup returned");
    }
    truncated.emplace_back(blocks.blocks[i].begin(), blocks.blocks[i].begin() + num_blocks);
  }
  return create_kv_cache_blocks(std::move(truncated));
}

// kv_cache_manager.py@6e448d0e KVCacheManager.take_new_block_ids
std::vector<std::int64_t> KVCacheManager::take_new_block_ids() {
  std::vector<std::int64_t> ids;
  for (auto& mgr : coordinator->single_type_managers) {
    auto m = mgr->take_new_block_ids();
    ids.insert(ids.end(), m.begin(), m.end());
  }
  return ids;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.get_zeroing_block_ids_in_range
std::vector<std::int64_t> KVCacheManager::get_zeroing_block_ids_in_range(const std::string& request_id,
                                                                         std::int64_t start_token,
                                                                         std::int64_t end_token) {
  std::vector<std::int64_t> ids;
  for (auto& mgr : coordinator->single_type_managers) {
    if (!mgr->records_new_block_ids()) continue;
    const auto& blocks = mgr->req_to_blocks[request_id];
    const auto n = static_cast<std::int64_t>(blocks.size());
    const std::int64_t start_idx = std::min(floor_div(start_token, mgr->block_size), n);
    const std::int64_t end_idx = std::min(cdiv(end_token, mgr->block_size), n);
    for (std::int64_t i = start_idx; i < end_idx; ++i) ids.push_back(blocks[static_cast<std::size_t>(i)]->block_id);
  }
  return ids;
}

// kv_cache_manager.py@6e448d0e KVCacheManager.record_blocks_for_zeroing
void KVCacheManager::record_blocks_for_zeroing(const std::string& request_id, std::int64_t start_token) {
  for (auto& mgr : coordinator->single_type_managers) {
    if (!mgr->records_new_block_ids()) continue;
    if (start_token % mgr->block_size != 0) throw AssertionError("record_blocks_for_zeroing: unaligned start_token");
    const auto& blocks = mgr->req_to_blocks[request_id];
    for (std::size_t i = static_cast<std::size_t>(start_token / mgr->block_size); i < blocks.size(); ++i) {
      mgr->new_block_ids.push_back(blocks[i]->block_id);
    }
  }
}

// kv_cache_manager.py@6e448d0e KVCacheManager.take_kv_cache_block_copies
std::pair<std::vector<KVCacheBlockCopy>, std::vector<KVCacheBlock*>> KVCacheManager::take_kv_cache_block_copies() {
  std::vector<std::pair<KVCacheBlock*, KVCacheBlock*>> pending;
  for (auto& mgr : coordinator->single_type_managers) {
    auto p = mgr->take_pending_cow_copies();
    pending.insert(pending.end(), p.begin(), p.end());
  }
  std::vector<KVCacheBlockCopy> copies;
  std::vector<KVCacheBlock*> retained;
  for (const auto& [source_block, cow_block] : pending) {
    copies.push_back(KVCacheBlockCopy{source_block->block_id, cow_block->block_id});
    retained.push_back(source_block);
    retained.push_back(cow_block);
  }
  return {std::move(copies), std::move(retained)};
}

// kv_cache_manager.py@6e448d0e KVCacheManager.new_step_starts
void KVCacheManager::new_step_starts() { coordinator->new_step_starts(); }

}  // namespace blis::vllm
