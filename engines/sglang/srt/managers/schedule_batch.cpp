// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_batch.py@71de97b2; the Req subset of
// schedule_batch.h, split_cached_prefix_by_tier, and ScheduleBatch's request-list hooks.
#include "srt/managers/schedule_batch.h"

#include <algorithm>
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
}

// schedule_batch.py@71de97b2 ScheduleBatch.release_req: the request reset only (see the header).
void ScheduleBatch::release_req(std::size_t idx, std::int64_t /*remaining_req_count*/,
                                const ServerArgs& /*server_args*/) {
  reqs.at(idx)->reset_for_retract();
}

// schedule_batch.py@71de97b2 ScheduleBatch.filter_batch (the request list).
void ScheduleBatch::filter_batch(const std::optional<std::vector<Req*>>& chunked_req_to_exclude,
                                 const std::optional<std::vector<std::size_t>>& keep_indices) {
  std::vector<std::size_t> keep;
  if (!keep_indices.has_value()) {
    for (std::size_t i = 0; i < reqs.size(); ++i) {
      const bool excluded = chunked_req_to_exclude.has_value() &&
                            std::find(chunked_req_to_exclude->begin(), chunked_req_to_exclude->end(), reqs[i]) !=
                                chunked_req_to_exclude->end();
      if (!reqs[i]->finished() && !excluded) keep.push_back(i);
    }
  } else {
    keep = *keep_indices;
  }
  if (keep.empty()) {
    reqs.clear();
    return;
  }
  if (keep.size() == reqs.size()) return;
  std::vector<Req*> kept;
  kept.reserve(keep.size());
  for (std::size_t i : keep) kept.push_back(reqs.at(i));
  reqs = std::move(kept);
}

}  // namespace blis::sglang
