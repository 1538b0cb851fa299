// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_policy.py@71de97b2 (AddReqResult,
// PrefillAdder); the keyword arguments become PrefillAdderOptions, the allocator's isinstance checks a stated
// kind, and the dLLM, DSA context-parallel, HiCache load-back and unified-Mamba paths are not ported.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "srt/managers/schedule_batch.h"
#include "srt/managers/schedule_policy.h"
#include "srt/managers/server_args.h"
#include "srt/mem_cache/allocator/base.h"
#include "srt/mem_cache/base_prefix_cache.h"

namespace blis::sglang {

// schedule_policy.py@71de97b2 AddReqResult.
enum class AddReqResult { CONTINUE, NO_TOKEN, OTHER };

// prefill_delayer.py@71de97b2 PrefillDelayerSinglePassExecutor.negotiate_should_allow_prefill, the one method
// PrefillAdder calls (duck-typed upstream). The DP-rank negotiation behind it is the implementer's.
class PrefillDelayerSinglePassExecutor {
 public:
  virtual ~PrefillDelayerSinglePassExecutor() = default;
  // prefill_delayer.py@71de97b2 PrefillDelayerSinglePassExecutor.negotiate_should_allow_prefill.
  virtual bool negotiate_should_allow_prefill(bool local_prefillable, std::int64_t running_batch,
                                              std::int64_t max_prefill_bs,
                                              std::optional<std::int64_t> max_running_requests,
                                              std::int64_t waiting_queue_len) = 0;
};

// What upstream's PrefillAdder learns with isinstance() on the token allocator: SWATokenToKVPoolAllocator (or
// DeepSeek V4 HiSparse, which wraps one) is hybrid SWA, PureSWATokenToKVPoolAllocator all-SWA.
enum class AllocatorKind { FULL, HYBRID_SWA, PURE_SWA };

// schedule_policy.py@71de97b2 PrefillAdder.__init__'s keyword arguments (upstream defaults), plus the values
// upstream reads from module globals or other objects.
struct PrefillAdderOptions {
  std::int64_t num_mixed_decode_tokens = 0;
  std::int64_t priority_scheduling_preemption_threshold = 0;
  std::int64_t max_prefill_bs = 0;
  std::optional<std::int64_t> max_running_requests;
  std::optional<std::int64_t> prefill_max_requests;
  PrefillDelayerSinglePassExecutor* prefill_delayer_single_pass = nullptr;  // non-owning
  std::int64_t waiting_queue_len = 0;
  std::int64_t prefill_tile_block_m = 64;
  // isinstance(token_to_kv_pool_allocator, ...) upstream.
  AllocatorKind allocator_kind = AllocatorKind::FULL;
  // tree_cache.sliding_window_size upstream (an attribute of the SWA radix cache, absent from the ported
  // BasePrefixCache): read only on the hybrid-SWA paths.
  std::int64_t sliding_window_size = 0;
  // The schedule_policy.py module constants.
  SchedulePolicyEnv env;
};

// schedule_policy.py@71de97b2 PrefillAdder. running_batch may be null (upstream's None). Requests are held
// by non-owning pointers. Upstream's dllm_config is always None here (no dLLM), so the dLLM branches, the
// rem_dllm_tokens budget and add_dllm_staging_req are not ported; is_dsa_prefill_cp_in_seq_split() is False
// (no DSA context parallelism); the unified Mamba pool's gap reserve is 0 (that allocator is not ported).
class PrefillAdder {
 public:
  // schedule_policy.py@71de97b2 PrefillAdder.__init__.
  PrefillAdder(std::int64_t page_size, BasePrefixCache& tree_cache,
               BaseTokenToKVPoolAllocator& token_to_kv_pool_allocator, ScheduleBatch* running_batch,
               double new_token_ratio, std::int64_t rem_input_tokens, std::optional<std::int64_t> rem_chunk_tokens,
               PrefillAdderOptions options = {});
  virtual ~PrefillAdder() = default;
  PrefillAdder(const PrefillAdder&) = delete;
  PrefillAdder& operator=(const PrefillAdder&) = delete;

  std::int64_t page_size;
  std::int64_t prefill_tile_block_m;
  BasePrefixCache& tree_cache;
  BaseTokenToKVPoolAllocator& token_to_kv_pool_allocator;
  ScheduleBatch* running_batch;
  double new_token_ratio;
  std::int64_t rem_input_tokens;
  std::optional<std::int64_t> rem_chunk_tokens;
  // Floats upstream (new_token_ratio scales the running requests' reservations).
  double rem_total_token_offset;
  std::int64_t cur_rem_token_offset;

  // (tokens_left, tokens_occupied) of add_one_req_ignore_eos; nullopt until first used.
  std::optional<std::vector<std::pair<double, std::int64_t>>> req_states;
  std::vector<Req*> can_run_list;
  std::vector<Req*> preempt_list;
  Req* new_chunked_req = nullptr;
  std::int64_t log_hit_tokens = 0;
  std::int64_t reprocessed_log_hit_tokens = 0;
  std::int64_t log_device_hit_tokens = 0;
  std::int64_t log_host_hit_tokens = 0;
  std::int64_t log_storage_hit_tokens = 0;
  std::int64_t log_input_tokens = 0;
  std::int64_t reprocessed_log_input_tokens = 0;

  bool is_hybrid_swa;
  bool is_all_swa;
  bool is_hybrid_ssm_cache;
  std::int64_t rem_swa_token_offset = 0;
  std::int64_t priority_scheduling_preemption_threshold;
  std::optional<std::int64_t> max_running_requests;
  std::optional<std::int64_t> prefill_max_requests;
  PrefillDelayerSinglePassExecutor* prefill_delayer_single_pass;
  std::int64_t max_prefill_bs;
  std::int64_t waiting_queue_len;
  std::int64_t sliding_window_size;
  SchedulePolicyEnv env;

  // schedule_policy.py@71de97b2 PrefillAdder._admitted_extend_lens.
  std::vector<std::int64_t> admitted_extend_lens() const;
  // schedule_policy.py@71de97b2 PrefillAdder._check_prefill_tile_budget.
  std::optional<AddReqResult> check_prefill_tile_budget(std::int64_t candidate_extend_len) const;
  // schedule_policy.py@71de97b2 PrefillAdder._get_running_request_total_token_offset.
  double get_running_request_total_token_offset(const Req& req) const;
  // schedule_policy.py@71de97b2 PrefillAdder.rem_total_tokens.
  double rem_total_tokens() const;
  // schedule_policy.py@71de97b2 PrefillAdder.rem_swa_tokens.
  std::int64_t rem_swa_tokens() const;
  // schedule_policy.py@71de97b2 PrefillAdder.cur_rem_tokens.
  std::int64_t cur_rem_tokens() const;
  // schedule_policy.py@71de97b2 PrefillAdder._swa_budget_for_req.
  std::int64_t swa_budget_for_req(std::int64_t extend_input_len, std::int64_t max_new_tokens,
                                  std::int64_t swa_host_hit_length = 0) const;
  // schedule_policy.py@71de97b2 PrefillAdder._swa_reserved_tokens (virtual: a test seam standing in for
  // upstream's patch.object).
  virtual std::int64_t swa_reserved_tokens(std::int64_t extend_input_len, std::int64_t max_new_tokens,
                                           std::int64_t swa_host_hit_length = 0) const;
  // schedule_policy.py@71de97b2 PrefillAdder._swa_new_tokens.
  std::int64_t swa_new_tokens(const Req& req) const;
  // schedule_policy.py@71de97b2 PrefillAdder._swa_chunk_cap.
  std::int64_t swa_chunk_cap(std::int64_t max_new_tokens, std::int64_t swa_host_hit_length = 0) const;
  // schedule_policy.py@71de97b2 PrefillAdder._swa_req_never_fits.
  bool swa_req_never_fits(std::int64_t extend_input_len, std::int64_t max_new_tokens,
                          std::int64_t swa_host_hit_length = 0) const;
  // schedule_policy.py@71de97b2 PrefillAdder._mamba_gap_budget_for_req: 0, as _mamba_slot_cost is 0 outside
  // the unified Mamba pool (not ported).
  std::int64_t mamba_gap_budget_for_req(const Req& req) const;
  // schedule_policy.py@71de97b2 PrefillAdder.ceil_paged_tokens.
  std::int64_t ceil_paged_tokens(std::int64_t tokens) const;
  // schedule_policy.py@71de97b2 PrefillAdder.budget_state.
  AddReqResult budget_state() const;
  // schedule_policy.py@71de97b2 PrefillAdder._update_prefill_budget.
  void update_prefill_budget(std::int64_t prefix_len, std::int64_t extend_input_len, std::int64_t max_new_tokens,
                             bool retracted_stain, std::int64_t mamba_gap_reserve = 0, std::int64_t host_hit_len = 0,
                             std::int64_t storage_hit_len = 0);
  // schedule_policy.py@71de97b2 PrefillAdder._req_inc_lock_ref.
  void req_inc_lock_ref(Req& req);
  // schedule_policy.py@71de97b2 PrefillAdder.add_chunked_req: the request again if still truncated, else null.
  Req* add_chunked_req(Req& req);
  // schedule_policy.py@71de97b2 PrefillAdder.add_one_req_ignore_eos.
  AddReqResult add_one_req_ignore_eos(Req& req);
  // schedule_policy.py@71de97b2 PrefillAdder.add_one_req (has_chunked_req is unused upstream too).
  AddReqResult add_one_req(Req& req, bool has_chunked_req, std::optional<std::int64_t> truncation_align_size);
  // schedule_policy.py@71de97b2 PrefillAdder.preempt_to_schedule.
  bool preempt_to_schedule(Req& req, const ServerArgs& server_args);

 private:
  // min(max_new_tokens, CLIP_MAX_NEW_TOKENS), the clip upstream writes inline at each use.
  std::int64_t clipped(std::int64_t max_new_tokens) const;
  std::int64_t available_and_evictable() const;
  // The body of add_one_req inside `with self._lock_node(req.last_node)`.
  AddReqResult add_one_req_locked(Req& req, std::optional<std::int64_t> truncation_align_size,
                                  std::int64_t total_tokens, std::int64_t real_input_tokens,
                                  std::optional<std::int64_t> chunk_tokens_limit);
  bool negotiate_prefill() const;
};

}  // namespace blis::sglang
