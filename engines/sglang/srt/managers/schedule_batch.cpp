// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_batch.py@71de97b2; the Req subset of
// schedule_batch.h, split_cached_prefix_by_tier, and ScheduleBatch's request-list hooks.
#include "srt/managers/schedule_batch.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace blis::sglang {

// schedule_batch.py@71de97b2 split_cached_prefix_by_tier.
CachedPrefixTiers split_cached_prefix_by_tier(std::int64_t prefix_len, std::int64_t host_hit_len,
                                              std::int64_t storage_hit_len) {
  const std::int64_t storage = std::min(host_hit_len, storage_hit_len);
  const std::int64_t host = host_hit_len - storage;
  const std::int64_t device = std::max<std::int64_t>(0, prefix_len - host_hit_len);
  return CachedPrefixTiers{device, host, storage};
}

// schedule_batch.py@71de97b2 Req.__init__ (the subset's fields; cache_salt "or None": empty -> nullopt).
Req::Req(std::string rid_in, TokenIds origin_input_ids_in, SamplingParams sampling_params_in,
         std::optional<std::int64_t> priority_in, std::optional<std::string> extra_key_in,
         std::optional<std::string> routing_key_in, std::optional<std::string> cache_salt_in)
    : rid(std::move(rid_in)),
      origin_input_ids(std::move(origin_input_ids_in)),
      sampling_params(sampling_params_in),
      extra_key(std::move(extra_key_in)),
      cache_salt(cache_salt_in && !cache_salt_in->empty() ? std::move(cache_salt_in) : std::nullopt),
      routing_key(std::move(routing_key_in)),
      priority(priority_in) {}

// schedule_batch.py@71de97b2 Req.seqlen.
std::int64_t Req::seqlen() const {
  return static_cast<std::int64_t>(origin_input_ids.size() + output_ids.size());
}

// schedule_batch.py@71de97b2 Req.needs_host_load_back.
bool Req::needs_host_load_back() const {
  return host_hit_length > 0 || swa_host_hit_length > 0 || mamba_host_hit_length > 0;
}

// schedule_batch.py@71de97b2 Req._refresh_fill_ids.
void Req::refresh_fill_ids() {
  const auto n_have_output = static_cast<std::int64_t>(full_untruncated_fill_ids.size()) -
                             static_cast<std::int64_t>(origin_input_ids.size());
  if (0 <= n_have_output && n_have_output <= static_cast<std::int64_t>(output_ids.size())) {
    full_untruncated_fill_ids.insert(full_untruncated_fill_ids.end(), output_ids.begin() + n_have_output,
                                     output_ids.end());
  } else {
    full_untruncated_fill_ids = origin_input_ids;
    full_untruncated_fill_ids.insert(full_untruncated_fill_ids.end(), output_ids.begin(), output_ids.end());
  }
}

// schedule_batch.py@71de97b2 Req.init_next_round_input. Upstream applies the SWA re-prefill tail cap twice
// (idempotent); once here. SGLANG_RADIX_FORCE_MISS is not consulted on this path (the policy's
// match_prefix_for_req honours it).
void Req::init_next_round_input(BasePrefixCache* tree_cache, std::optional<bool> cow_mamba) {
  refresh_fill_ids();
  const auto input_len = static_cast<std::int64_t>(full_untruncated_fill_ids.size());
  std::optional<std::int64_t> key_limit = compute_max_prefix_len(input_len);
  if (tree_cache == nullptr) return;
  const std::int64_t reprefill_tail = tree_cache->swa_reprefill_tail_tokens();
  if (reprefill_tail != 0) {
    const std::int64_t capped = std::max<std::int64_t>(0, input_len - reprefill_tail);
    key_limit = key_limit ? std::min(*key_limit, capped) : capped;
  }
  const bool cow = cow_mamba.has_value() ? *cow_mamba : tree_cache->supports_mamba();
  MatchPrefixParams params{RadixKey(full_untruncated_fill_ids, extra_key, false, key_limit, cache_salt), cow, this};
  MatchResult match_result = tree_cache->match_prefix(params);
  prefix_indices = std::move(match_result.device_indices);
  last_node = match_result.last_device_node;
  last_host_node = match_result.last_host_node;
  best_match_node = match_result.best_match_node;
  host_hit_length = match_result.host_hit_length;
  swa_host_hit_length = match_result.swa_host_hit_length;
  mamba_host_hit_length = match_result.mamba_host_hit_length;
  mamba_branching_seqlen = match_result.mamba_branching_seqlen;
  cache_protected_len = match_result.cache_protected_len.has_value()
                            ? *match_result.cache_protected_len
                            : static_cast<std::int64_t>(prefix_indices.size());
}

// schedule_batch.py@71de97b2 Req._compute_max_prefix_len.
std::int64_t Req::compute_max_prefix_len(std::int64_t input_len) const {
  std::int64_t max_prefix_len = input_len - 1;
  if (return_logprob && logprob_start_len >= 0) max_prefix_len = std::min(max_prefix_len, logprob_start_len);
  return std::max<std::int64_t>(max_prefix_len, 0);
}

// schedule_batch.py@71de97b2 Req.reset_for_retract (this subset's fields; output_ids are kept, as upstream
// without input_embeds).
void Req::reset_for_retract() {
  retraction_count += 1;
  prefix_indices.clear();
  last_node = nullptr;
  cache_protected_len = 0;
  num_matched_prefix_tokens = 0;
  swa_uuid_for_lock.reset();
  swa_prefix_lock_released = false;
  skip_lock_node_ids.clear();
  extend_range.reset();
  is_retracted = true;
  retracted_stain = true;
  inflight_middle_chunks = 0;
  mamba_pool_idx.reset();
  mamba_branching_seqlen.reset();
  already_computed = 0;
  if (kv.has_value()) throw std::logic_error("reset_for_retract: expect it is already released (" + rid + ")");
  kv_committed_len = 0;
  extend_batch_idx = 0;
  decode_batch_idx = 0;
}

// schedule_batch.py@71de97b2 Req.update_finish_state: to_finish, then the token check
// (_check_token_based_finish over eos_token_ids, unless ignore_eos), then the length check. The port's
// stop tokens are the model's EOS only (no stop_token_ids, stop strings or grammar).
void Req::update_finish_state(std::int64_t new_accepted_len) {
  if (finished()) return;
  if (to_finish) {
    finished_reason = std::move(to_finish);
    to_finish.reset();
    return;
  }
  const auto n = static_cast<std::int64_t>(output_ids.size());
  const std::int64_t max_new_tokens = sampling_params.max_new_tokens;
  if (!sampling_params.ignore_eos) {
    for (std::int64_t i = std::max<std::int64_t>(0, n - new_accepted_len); i < n; ++i) {
      if (eos_token_ids.contains(output_ids[static_cast<std::size_t>(i)])) {
        finished_reason = "stop";  // FINISH_MATCHED_TOKEN
        finished_len = i + 1;
        // _cap_finished_len_at_max_new_tokens
        if (*finished_len > max_new_tokens) {
          finished_reason = "length";
          finished_len = max_new_tokens;
        }
        return;
      }
    }
  }
  if (n >= max_new_tokens) {
    finished_reason = "length";  // FINISH_LENGTH
    finished_len = max_new_tokens;
  }
}

// schedule_batch.py@71de97b2 Req.set_finish_with_abort.
void Req::set_finish_with_abort(const std::string& error_msg) {
  origin_input_ids = TokenIds{0};  // one token, to skip the long prefill
  return_logprob = false;
  logprob_start_len = -1;
  to_finish = "abort";  // FINISH_ABORT(error_msg, BAD_REQUEST)
  abort_message = error_msg;
}


}  // namespace blis::sglang
