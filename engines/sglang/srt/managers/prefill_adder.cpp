// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_policy.py@71de97b2 (PrefillAdder); the
// dLLM, DSA context-parallel, HiCache load-back and unified-Mamba paths are not ported (see prefill_adder.h).
#include "srt/managers/prefill_adder.h"

#include <algorithm>
#include <stdexcept>

namespace blis::sglang {

namespace {

std::int64_t len(const TokenIds& v) { return static_cast<std::int64_t>(v.size()); }

}  // namespace

// schedule_policy.py@71de97b2 PrefillAdder.__init__.
PrefillAdder::PrefillAdder(std::int64_t page_size_in, BasePrefixCache& tree_cache_in,
                           BaseTokenToKVPoolAllocator& token_to_kv_pool_allocator_in, ScheduleBatch* running_batch_in,
                           double new_token_ratio_in, std::int64_t rem_input_tokens_in,
                           std::optional<std::int64_t> rem_chunk_tokens_in, PrefillAdderOptions options)
    : page_size(page_size_in),
      prefill_tile_block_m(options.prefill_tile_block_m),
      tree_cache(tree_cache_in),
      token_to_kv_pool_allocator(token_to_kv_pool_allocator_in),
      running_batch(running_batch_in),
      new_token_ratio(new_token_ratio_in),
      rem_input_tokens(rem_input_tokens_in - options.num_mixed_decode_tokens),
      rem_chunk_tokens(rem_chunk_tokens_in),
      rem_total_token_offset(static_cast<double>(options.num_mixed_decode_tokens)),
      cur_rem_token_offset(options.num_mixed_decode_tokens),
      is_hybrid_swa(options.allocator_kind == AllocatorKind::HYBRID_SWA),
      is_all_swa(options.allocator_kind == AllocatorKind::PURE_SWA),
      is_hybrid_ssm_cache(tree_cache_in.supports_mamba()),
      priority_scheduling_preemption_threshold(options.priority_scheduling_preemption_threshold),
      max_running_requests(options.max_running_requests),
      prefill_max_requests(options.prefill_max_requests),
      prefill_delayer_single_pass(options.prefill_delayer_single_pass),
      max_prefill_bs(options.max_prefill_bs),
      waiting_queue_len(options.waiting_queue_len),
      sliding_window_size(options.sliding_window_size),
      env(options.env) {
  if (rem_chunk_tokens.has_value()) *rem_chunk_tokens -= options.num_mixed_decode_tokens;
  if (running_batch != nullptr) {
    // Estimate the offset in the remaining token space (summed left to right, as Python's sum).
    double sum = 0;
    for (const Req* r : running_batch->reqs) sum += get_running_request_total_token_offset(*r);
    rem_total_token_offset += sum;
  }
}

std::int64_t PrefillAdder::clipped(std::int64_t max_new_tokens) const {
  return std::min(max_new_tokens, env.clip_max_new_tokens);
}

// schedule_policy.py@71de97b2 PrefillAdder._admitted_extend_lens (getattr(req, "extend_input_len", 0)).
std::vector<std::int64_t> PrefillAdder::admitted_extend_lens() const {
  std::vector<std::int64_t> out;
  out.reserve(can_run_list.size());
  for (const Req* req : can_run_list) out.push_back(req->extend_input_len);
  return out;
}

// schedule_policy.py@71de97b2 PrefillAdder._check_prefill_tile_budget (with _tile_admission_metric_key and
// _candidate_tile_metrics).
std::optional<AddReqResult> PrefillAdder::check_prefill_tile_budget(std::int64_t candidate_extend_len) const {
  if (!env.is_hip || env.prefill_tile_budget <= 0) return std::nullopt;
  if (can_run_list.empty()) return std::nullopt;
  std::vector<std::int64_t> lens = admitted_extend_lens();
  lens.push_back(candidate_extend_len);
  const PrefillExtendTileMetrics metrics = estimate_prefill_extend_tile_metrics(lens, prefill_tile_block_m);
  const std::int64_t candidate_metric = env.normalized_tile_budget_mode() == "legacy"
                                            ? metrics.legacy_q_tiles_per_head
                                            : metrics.compact_q_tiles_per_head;
  if (candidate_metric <= env.prefill_tile_budget) return std::nullopt;
  return AddReqResult::OTHER;
}

// schedule_policy.py@71de97b2 PrefillAdder._get_running_request_total_token_offset.
double PrefillAdder::get_running_request_total_token_offset(const Req& req) const {
  return static_cast<double>(clipped(req.sampling_params.max_new_tokens - len(req.output_ids))) * new_token_ratio;
}

// schedule_policy.py@71de97b2 PrefillAdder.rem_total_tokens / cur_rem_tokens: the shared
// available_and_evictable choice.
std::int64_t PrefillAdder::available_and_evictable() const {
  if (is_all_swa) return token_to_kv_pool_allocator.swa_available_size() + tree_cache.swa_evictable_size();
  if (is_hybrid_swa) return token_to_kv_pool_allocator.full_available_size() + tree_cache.full_evictable_size();
  if (is_hybrid_ssm_cache) return token_to_kv_pool_allocator.available_size() + tree_cache.full_evictable_size();
  return token_to_kv_pool_allocator.available_size() + tree_cache.evictable_size();
}

// schedule_policy.py@71de97b2 PrefillAdder.rem_total_tokens.
double PrefillAdder::rem_total_tokens() const {
  return static_cast<double>(available_and_evictable()) - rem_total_token_offset;
}

// schedule_policy.py@71de97b2 PrefillAdder.rem_swa_tokens.
std::int64_t PrefillAdder::rem_swa_tokens() const {
  return token_to_kv_pool_allocator.swa_available_size() + tree_cache.swa_evictable_size() - rem_swa_token_offset;
}

// schedule_policy.py@71de97b2 PrefillAdder.cur_rem_tokens.
std::int64_t PrefillAdder::cur_rem_tokens() const { return available_and_evictable() - cur_rem_token_offset; }

// schedule_policy.py@71de97b2 PrefillAdder._swa_budget_for_req.
std::int64_t PrefillAdder::swa_budget_for_req(std::int64_t extend_input_len, std::int64_t max_new_tokens,
                                              std::int64_t swa_host_hit_length) const {
  const std::int64_t alloc =
      rem_chunk_tokens.has_value() ? std::min(extend_input_len, *rem_chunk_tokens) : extend_input_len;
  const std::int64_t window = sliding_window_size;
  return std::max<std::int64_t>(alloc - window, 0) +
         swa_reserved_tokens(extend_input_len, max_new_tokens, swa_host_hit_length);
}

// schedule_policy.py@71de97b2 PrefillAdder._swa_reserved_tokens.
std::int64_t PrefillAdder::swa_reserved_tokens(std::int64_t extend_input_len, std::int64_t max_new_tokens,
                                               std::int64_t swa_host_hit_length) const {
  const std::int64_t window = sliding_window_size;
  const std::int64_t headroom = std::min(extend_input_len + max_new_tokens, window);
  std::int64_t reserved = headroom + page_size;
  if (swa_host_hit_length > 0) reserved += ceil_paged_tokens(swa_host_hit_length);
  return reserved;
}

// schedule_policy.py@71de97b2 PrefillAdder._swa_new_tokens.
std::int64_t PrefillAdder::swa_new_tokens(const Req& req) const {
  return clipped(std::max<std::int64_t>(req.sampling_params.max_new_tokens - len(req.output_ids), 0));
}

// schedule_policy.py@71de97b2 PrefillAdder._swa_chunk_cap.
std::int64_t PrefillAdder::swa_chunk_cap(std::int64_t max_new_tokens, std::int64_t swa_host_hit_length) const {
  const std::int64_t cap = rem_swa_tokens() - swa_reserved_tokens(0, max_new_tokens, swa_host_hit_length);
  if (cap <= 0) return 0;
  return cap / page_size * page_size;
}

// schedule_policy.py@71de97b2 PrefillAdder._swa_req_never_fits.
bool PrefillAdder::swa_req_never_fits(std::int64_t extend_input_len, std::int64_t max_new_tokens,
                                      std::int64_t swa_host_hit_length) const {
  const std::int64_t capacity = token_to_kv_pool_allocator.size_swa();
  return swa_budget_for_req(extend_input_len, max_new_tokens, swa_host_hit_length) >= capacity;
}

// schedule_policy.py@71de97b2 PrefillAdder._mamba_gap_budget_for_req.
std::int64_t PrefillAdder::mamba_gap_budget_for_req(const Req& /*req*/) const { return 0; }

// schedule_policy.py@71de97b2 PrefillAdder.ceil_paged_tokens (Python's floor division on -tokens).
std::int64_t PrefillAdder::ceil_paged_tokens(std::int64_t tokens) const {
  const std::int64_t n = -tokens;
  std::int64_t q = n / page_size;
  if ((n % page_size != 0) && ((n < 0) != (page_size < 0))) --q;
  return -q * page_size;
}

// schedule_policy.py@71de97b2 PrefillAdder.budget_state (no rem_mamba_slots, no dLLM).
AddReqResult PrefillAdder::budget_state() const {
  bool no_token = rem_total_tokens() <= 0 || cur_rem_tokens() <= 0;
  if (!no_token && is_hybrid_swa) no_token = rem_swa_tokens() <= 0;
  if (no_token) return AddReqResult::NO_TOKEN;
  if (rem_input_tokens <= 0) return AddReqResult::OTHER;
  if (rem_chunk_tokens.has_value() && *rem_chunk_tokens <= 0) return AddReqResult::OTHER;
  return AddReqResult::CONTINUE;
}

// schedule_policy.py@71de97b2 PrefillAdder._update_prefill_budget.
void PrefillAdder::update_prefill_budget(std::int64_t prefix_len, std::int64_t extend_input_len,
                                         std::int64_t max_new_tokens, bool retracted_stain,
                                         std::int64_t mamba_gap_reserve, std::int64_t host_hit_len,
                                         std::int64_t storage_hit_len) {
  extend_input_len = ceil_paged_tokens(extend_input_len);
  const std::int64_t page_overhead = page_size;
  rem_total_token_offset += static_cast<double>(extend_input_len + max_new_tokens + page_overhead + mamba_gap_reserve);
  cur_rem_token_offset += extend_input_len + page_overhead + mamba_gap_reserve;
  rem_input_tokens -= extend_input_len;
  if (is_hybrid_swa) rem_swa_token_offset += swa_budget_for_req(extend_input_len, max_new_tokens);
  if (rem_chunk_tokens.has_value()) *rem_chunk_tokens -= extend_input_len;

  log_hit_tokens += prefix_len;
  log_input_tokens += extend_input_len;
  if (retracted_stain) {
    reprocessed_log_hit_tokens += prefix_len;
    reprocessed_log_input_tokens += extend_input_len;
  } else if (prefix_len > 0) {
    const CachedPrefixTiers tiers = split_cached_prefix_by_tier(prefix_len, host_hit_len, storage_hit_len);
    log_device_hit_tokens += tiers.device;
    log_host_hit_tokens += tiers.host;
    log_storage_hit_tokens += tiers.storage;
  }
}

// schedule_policy.py@71de97b2 PrefillAdder._req_inc_lock_ref.
void PrefillAdder::req_inc_lock_ref(Req& req) {
  const IncLockRefResult result = tree_cache.inc_lock_ref(req.last_node);
  if (is_hybrid_swa) req.swa_uuid_for_lock = result.swa_uuid_for_lock;
  req.skip_lock_node_ids.clear();
}

// The delayer call PrefillAdder makes with local_prefillable=True (running_batch.batch_size(); a null
// running batch throws std::logic_error, as upstream's None raises AttributeError).
bool PrefillAdder::negotiate_prefill() const {
  if (running_batch == nullptr) throw std::logic_error("PrefillAdder: the prefill delayer needs a running batch");
  return prefill_delayer_single_pass->negotiate_should_allow_prefill(
      true, running_batch->batch_size(), max_prefill_bs, max_running_requests, waiting_queue_len);
}

// schedule_policy.py@71de97b2 PrefillAdder.add_chunked_req.
Req* PrefillAdder::add_chunked_req(Req& req) {
  std::int64_t rem_tokens =
      std::min(rem_chunk_tokens.value(), static_cast<std::int64_t>(rem_total_tokens()));
  if (is_hybrid_swa) rem_tokens = std::min(rem_tokens, rem_swa_tokens() - page_size);
  if (rem_tokens <= 0) {
    if (is_hybrid_swa) return &req;
    rem_tokens = *rem_chunk_tokens;
  }
  if (prefill_delayer_single_pass != nullptr) (void)negotiate_prefill();

  const std::int64_t cand_extend_input_len = len(req.full_untruncated_fill_ids) - len(req.prefix_indices);
  const bool truncated = cand_extend_input_len > rem_tokens;
  const std::int64_t new_len = std::min(cand_extend_input_len, rem_tokens);
  req.set_extend_range(len(req.prefix_indices), len(req.prefix_indices) + new_len);
  can_run_list.push_back(&req);
  update_prefill_budget(0, req.extend_range->length(),
                        truncated ? 0 : clipped(req.sampling_params.max_new_tokens), req.retracted_stain,
                        mamba_gap_budget_for_req(req));
  return truncated ? &req : nullptr;
}

}  // namespace blis::sglang
