// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_policy.py@71de97b2 (PrefillAdder's
// add_one_req_ignore_eos, add_one_req, _lock_node and preempt_to_schedule); no dLLM, no DSA context
// parallelism, no HiCache load-back, and preempted requests are appended in the order they were chosen.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "srt/managers/prefill_adder.h"

namespace blis::sglang {

namespace {

std::int64_t len(const TokenIds& v) { return static_cast<std::int64_t>(v.size()); }

}  // namespace

// schedule_policy.py@71de97b2 PrefillAdder.add_one_req_ignore_eos (with its add_req_state closure).
AddReqResult PrefillAdder::add_one_req_ignore_eos(Req& req) {
  const std::int64_t cand_extend_input_len = len(req.full_untruncated_fill_ids) - len(req.prefix_indices);
  std::int64_t paged_input = ceil_paged_tokens(cand_extend_input_len);
  paged_input += mamba_gap_budget_for_req(req);
  if (static_cast<double>(paged_input) >
      std::min(static_cast<double>(cur_rem_tokens()), rem_total_tokens())) {
    return AddReqResult::NO_TOKEN;
  }
  if (is_hybrid_swa) {
    if (swa_budget_for_req(cand_extend_input_len, swa_new_tokens(req)) > rem_swa_tokens()) {
      return AddReqResult::NO_TOKEN;
    }
  }

  auto add_req_state = [this](const Req& r, bool insert_sort) {
    const double ratio = r.sampling_params.ignore_eos ? 1.0 : new_token_ratio;
    const double tokens_left =
        static_cast<double>(r.sampling_params.max_new_tokens) * ratio - static_cast<double>(r.output_ids.size());
    const std::int64_t tokens_occupied = len(r.origin_input_ids) + len(r.output_ids);
    if (tokens_left <= 0) return;
    if (!insert_sort) {
      req_states->emplace_back(tokens_left, tokens_occupied);
    } else {
      // Python: `i = 0; for i in range(n): if tokens_left <= states[i][0]: break` -- when nothing
      // breaks, i is n - 1 (or 0 for an empty list), so the insert goes before the last element.
      std::size_t i = 0;
      for (i = 0; i < req_states->size(); ++i) {
        if (tokens_left <= (*req_states)[i].first) break;
      }
      if (i == req_states->size() && i > 0) i -= 1;
      req_states->insert(req_states->begin() + static_cast<std::ptrdiff_t>(i), {tokens_left, tokens_occupied});
    }
  };

  if (!req_states.has_value()) {
    req_states.emplace();
    add_req_state(req, false);
    if (running_batch != nullptr) {
      for (const Req* r : running_batch->reqs) add_req_state(*r, false);
    }
    for (const Req* r : can_run_list) add_req_state(*r, false);
    std::stable_sort(req_states->begin(), req_states->end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  } else {
    add_req_state(req, true);
  }

  if (!is_hybrid_swa) {
    const std::int64_t cur_rem = cur_rem_tokens() - ceil_paged_tokens(cand_extend_input_len);
    std::int64_t tokens_freed = 0;
    const std::size_t n = req_states->size();
    for (std::size_t i = 0; i < n; ++i) {
      const auto& [tokens_left, tokens_occupied] = (*req_states)[i];
      const auto bs = static_cast<std::int64_t>(n - i);
      const double min_free_tokens =
          static_cast<double>(cur_rem + tokens_freed) - tokens_left * static_cast<double>(bs);
      if (min_free_tokens <= static_cast<double>(env.ignore_eos_reserve_tokens * bs)) return AddReqResult::NO_TOKEN;
      tokens_freed += tokens_occupied;
    }
  }

  if (prefill_delayer_single_pass != nullptr && !negotiate_prefill()) return AddReqResult::OTHER;

  if (!rem_chunk_tokens.has_value() || cand_extend_input_len <= *rem_chunk_tokens) {
    if (auto tile_stop = check_prefill_tile_budget(cand_extend_input_len)) return *tile_stop;
    req.set_extend_range(len(req.prefix_indices), len(req.full_untruncated_fill_ids));
    can_run_list.push_back(&req);
    update_prefill_budget(0, req.extend_range->length(), clipped(req.sampling_params.max_new_tokens),
                          req.retracted_stain, mamba_gap_budget_for_req(req));
  } else {
    if (*rem_chunk_tokens <= 0) return AddReqResult::OTHER;
    const std::int64_t trunc_len = *rem_chunk_tokens;
    if (auto tile_stop = check_prefill_tile_budget(trunc_len)) return *tile_stop;
    if (!req.prefix_indices.empty()) throw std::logic_error("add_one_req_ignore_eos: chunked with a prefix");
    req.set_extend_range(len(req.prefix_indices), len(req.prefix_indices) + trunc_len);
    can_run_list.push_back(&req);
    new_chunked_req = &req;
    update_prefill_budget(0, trunc_len, 0, req.retracted_stain, mamba_gap_budget_for_req(req));
  }
  return budget_state();
}

// schedule_policy.py@71de97b2 PrefillAdder.add_one_req, up to `with self._lock_node(req.last_node)`; the
// context manager is the inc_lock_ref / dec_lock_ref pair around add_one_req_locked.
AddReqResult PrefillAdder::add_one_req(Req& req, bool /*has_chunked_req*/,
                                       std::optional<std::int64_t> truncation_align_size) {
  if (prefill_max_requests.has_value() && static_cast<std::int64_t>(can_run_list.size()) >= *prefill_max_requests) {
    return AddReqResult::OTHER;
  }
  if (req.sampling_params.ignore_eos && tree_cache.disable) return add_one_req_ignore_eos(req);

  const std::int64_t max_new =
      clipped(std::max<std::int64_t>(req.sampling_params.max_new_tokens - len(req.output_ids), 0));
  const std::int64_t cand_extend_input_len = len(req.full_untruncated_fill_ids) - len(req.prefix_indices);
  std::int64_t total_tokens = cand_extend_input_len + max_new + page_size;
  total_tokens += mamba_gap_budget_for_req(req);
  std::int64_t real_input_tokens = cand_extend_input_len - req.host_hit_length;
  real_input_tokens = ceil_paged_tokens(real_input_tokens);

  if (static_cast<double>(total_tokens) >= rem_total_tokens()) return AddReqResult::NO_TOKEN;

  std::optional<std::int64_t> chunk_tokens_limit = rem_chunk_tokens;
  if (is_hybrid_swa) {
    const std::int64_t swa_needed =
        swa_budget_for_req(real_input_tokens, swa_new_tokens(req), req.swa_host_hit_length);
    if (swa_needed >= rem_swa_tokens()) {
      if (!swa_req_never_fits(real_input_tokens, swa_new_tokens(req), req.swa_host_hit_length)) {
        return AddReqResult::NO_TOKEN;
      }
      const std::int64_t swa_cap = swa_chunk_cap(swa_new_tokens(req), req.swa_host_hit_length);
      if (!rem_chunk_tokens.has_value() || swa_cap <= 0) return AddReqResult::NO_TOKEN;
      chunk_tokens_limit = std::min(*rem_chunk_tokens, swa_cap);
    }
  }

  if (!rem_chunk_tokens.has_value() && !can_run_list.empty() && real_input_tokens >= rem_input_tokens) {
    return AddReqResult::OTHER;
  }

  // schedule_policy.py@71de97b2 PrefillAdder._lock_node.
  TreeNode* const last_node = req.last_node;
  const IncLockRefResult lock = tree_cache.inc_lock_ref(last_node);
  std::optional<DecLockRefParams> dec_lock_params;
  if (tree_cache.is_tree_cache()) dec_lock_params = lock.to_dec_params();
  AddReqResult result;
  try {
    result = add_one_req_locked(req, truncation_align_size, total_tokens, real_input_tokens, chunk_tokens_limit);
  } catch (...) {
    tree_cache.dec_lock_ref(last_node, dec_lock_params);
    throw;
  }
  tree_cache.dec_lock_ref(last_node, dec_lock_params);
  return result;
}

// schedule_policy.py@71de97b2 PrefillAdder.add_one_req, the body under the temporary lock and the final
// budget_state(). A host hit needing load-back throws std::logic_error: HiCache (init_load_back) is not ported.
AddReqResult PrefillAdder::add_one_req_locked(Req& req, std::optional<std::int64_t> truncation_align_size,
                                              std::int64_t total_tokens, std::int64_t real_input_tokens,
                                              std::optional<std::int64_t> chunk_tokens_limit) {
  if (static_cast<double>(total_tokens) >= rem_total_tokens()) return AddReqResult::NO_TOKEN;

  if (is_hybrid_swa) {
    const std::int64_t swa_needed =
        swa_budget_for_req(real_input_tokens, swa_new_tokens(req), req.swa_host_hit_length);
    if (swa_needed >= rem_swa_tokens()) {
      if (!swa_req_never_fits(real_input_tokens, swa_new_tokens(req), req.swa_host_hit_length)) {
        return AddReqResult::NO_TOKEN;
      }
      const std::int64_t swa_cap = swa_chunk_cap(swa_new_tokens(req), req.swa_host_hit_length);
      if (!rem_chunk_tokens.has_value() || swa_cap <= 0) return AddReqResult::NO_TOKEN;
      chunk_tokens_limit = std::min(*rem_chunk_tokens, swa_cap);
    }
  }

  if (prefill_delayer_single_pass != nullptr && !negotiate_prefill()) return AddReqResult::OTHER;

  if (req.needs_host_load_back()) {
    throw std::logic_error("PrefillAdder.add_one_req: host load-back (HiCache init_load_back) is not ported");
  }
  const std::int64_t prefix_len = len(req.prefix_indices);

  const std::int64_t input_tokens = ceil_paged_tokens(len(req.full_untruncated_fill_ids) - len(req.prefix_indices));
  if (!rem_chunk_tokens.has_value() && !can_run_list.empty() && input_tokens >= rem_input_tokens) {
    return AddReqResult::OTHER;
  }

  if (!chunk_tokens_limit.has_value() || input_tokens <= *chunk_tokens_limit) {
    if (auto tile_stop = check_prefill_tile_budget(input_tokens)) return *tile_stop;
    // Non-chunked prefill: the whole sequence is committed this iteration.
    req.set_extend_range(len(req.prefix_indices), len(req.full_untruncated_fill_ids));
    can_run_list.push_back(&req);
    req_inc_lock_ref(req);
    update_prefill_budget(prefix_len, input_tokens, clipped(req.sampling_params.max_new_tokens),
                          req.retracted_stain, mamba_gap_budget_for_req(req), req.host_hit_length,
                          req.storage_hit_length);
  } else {
    // Make sure at least one page is available.
    std::int64_t trunc_len = *chunk_tokens_limit / page_size * page_size;
    if (trunc_len <= 0) return AddReqResult::OTHER;
    if (truncation_align_size.has_value()) {
      if (trunc_len < *truncation_align_size) return AddReqResult::OTHER;
      trunc_len = *truncation_align_size * (trunc_len / *truncation_align_size);
    }
    std::int64_t now_input_len = trunc_len + len(req.prefix_indices);
    now_input_len = now_input_len / page_size * page_size;
    trunc_len = now_input_len - len(req.prefix_indices);
    if (trunc_len <= 0) return AddReqResult::OTHER;
    if (auto tile_stop = check_prefill_tile_budget(trunc_len)) return *tile_stop;
    // Chunked prefill.
    req.set_extend_range(len(req.prefix_indices), len(req.prefix_indices) + trunc_len);
    can_run_list.push_back(&req);
    new_chunked_req = &req;
    req_inc_lock_ref(req);
    update_prefill_budget(prefix_len, trunc_len, 0, req.retracted_stain, mamba_gap_budget_for_req(req),
                          req.host_hit_length, req.storage_hit_length);
  }
  return budget_state();
}

// schedule_policy.py@71de97b2 PrefillAdder.preempt_to_schedule. Upstream extends preempt_list from a set
// (an order Python does not fix); here the preempted requests are appended in the order they were chosen.
bool PrefillAdder::preempt_to_schedule(Req& req, const ServerArgs& server_args) {
  const std::int64_t priority_sign = server_args.schedule_low_priority_values_first ? 1 : -1;
  std::vector<Req*> sorted_valid_running_reqs;
  for (Req* r : running_batch->reqs) {
    if (std::find(preempt_list.begin(), preempt_list.end(), r) == preempt_list.end() && !r->finished()) {
      sorted_valid_running_reqs.push_back(r);
    }
  }
  // key = (priority * -priority_sign, -wait_queue_entry_time); Python's sorted is stable.
  std::stable_sort(sorted_valid_running_reqs.begin(), sorted_valid_running_reqs.end(),
                   [priority_sign](const Req* a, const Req* b) {
                     const std::int64_t pa = a->priority.value() * -priority_sign;
                     const std::int64_t pb = b->priority.value() * -priority_sign;
                     if (pa != pb) return pa < pb;
                     return -a->time_stats.wait_queue_entry_time < -b->time_stats.wait_queue_entry_time;
                   });

  std::vector<Req*> preemptible_reqs;
  double min_tokens_to_remove =
      static_cast<double>(len(req.full_untruncated_fill_ids) - len(req.prefix_indices) +
                          clipped(req.sampling_params.max_new_tokens)) -
      rem_total_tokens();
  for (Req* running_req : sorted_valid_running_reqs) {
    // Priority difference needs to meet the threshold to be preemptible.
    const std::int64_t priority_diff = (req.priority.value() - running_req->priority.value()) * -priority_sign;
    if (priority_diff > priority_scheduling_preemption_threshold) {
      preemptible_reqs.push_back(running_req);
      min_tokens_to_remove -= get_running_request_total_token_offset(*running_req);
      if (min_tokens_to_remove <= 0) break;
    } else {
      break;
    }
  }

  if (preemptible_reqs.empty() || min_tokens_to_remove > 0) return false;

  // Preempt running requests. Release allocated resources for immediate usage.
  const std::set<const Req*> preemptible(preemptible_reqs.begin(), preemptible_reqs.end());
  std::vector<std::size_t> keep_indices;
  std::int64_t release_counter = 0;
  for (std::size_t i = 0; i < running_batch->reqs.size(); ++i) {
    Req* running_req = running_batch->reqs[i];
    if (preemptible.count(running_req) != 0) {
      rem_total_token_offset -= get_running_request_total_token_offset(*running_req);
      release_counter += 1;
      running_batch->release_req(i, static_cast<std::int64_t>(running_batch->reqs.size()) - release_counter,
                                 server_args);
    } else {
      keep_indices.push_back(i);
    }
  }
  running_batch->filter_batch(std::nullopt, keep_indices);
  preempt_list.insert(preempt_list.end(), preemptible_reqs.begin(), preemptible_reqs.end());
  return true;
}

}  // namespace blis::sglang
