// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_batch.py@71de97b2; ScheduleBatch's
// batch operations (init_new, prepare_for_extend, mix_with_running, the decode memory check and retraction,
// prepare_for_decode, filter_batch, merge_batch) and the module's release_req, over host copies of the
// batch's tensors. Left out: sampling info, logprobs, hidden states, multimodal and encoder inputs, Mamba
// tracking, speculative decoding and hierarchical-sparse state (none is modelled by this port).
#include <algorithm>
#include <stdexcept>

#include "srt/managers/new_token_ratio_tracker.h"
#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/allocation.h"
#include "srt/mem_cache/common.h"
#include "srt/mem_cache/memory_pool.h"

namespace blis::sglang {

// schedule_batch.py@71de97b2 ScheduleBatch.init_new.
ScheduleBatch ScheduleBatch::init_new(std::vector<Req*> reqs_in, ReqToTokenPool* req_to_token_pool_in,
                                      BaseTokenToKVPoolAllocator* allocator, BasePrefixCache* tree_cache_in,
                                      bool enable_overlap_in, Req* chunked_req_in) {
  ScheduleBatch batch(std::move(reqs_in));
  batch.req_to_token_pool = req_to_token_pool_in;
  batch.token_to_kv_pool_allocator = allocator;
  batch.tree_cache = tree_cache_in;
  batch.enable_overlap = enable_overlap_in;
  batch.return_logprob = std::any_of(batch.reqs.begin(), batch.reqs.end(), [](const Req* r) { return r->return_logprob; });
  batch.is_prefill_only = std::all_of(batch.reqs.begin(), batch.reqs.end(), [](const Req* r) { return r->is_prefill_only(); });
  batch.chunked_req = chunked_req_in;
  return batch;
}

// schedule_batch.py@71de97b2 ScheduleBatch.prepare_for_extend.
void ScheduleBatch::prepare_for_extend() {
  forward_mode = ForwardMode::kExtend;
  std::vector<std::int64_t> seq, prefix, extend;
  std::int64_t num_tokens = 0;
  for (const Req* r : reqs) {
    const std::int64_t fill = r->extend_range.value().end;
    const auto pre = static_cast<std::int64_t>(r->prefix_indices.size());
    num_tokens += fill - pre;  // len(get_fill_ids()[len(prefix_indices):])
    seq.push_back(fill);
    prefix.push_back(pre);
    extend.push_back(r->extend_range->length());
  }
  prefix_lens = std::move(prefix);
  extend_lens = std::move(extend);
  seq_lens = std::move(seq);
  extend_num_tokens = num_tokens;
  out_cache_loc = alloc_for_extend(*this);
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    Req& req = *reqs[i];
    if (seq_lens[i] - prefix_lens[i] != req.extend_range->length()) {
      throw std::logic_error("prepare_for_extend: seq_len - pre_len != extend_range.length for " + req.rid);
    }
    req.extend_batch_idx += 1;
    req.kv_committed_len = seq_lens[i];
    if (!req.retracted_stain) {
      req.cached_tokens += prefix_lens[i] - req.already_computed;
      req.already_computed = seq_lens[i];
    }
    req.is_retracted = false;
  }
}

// schedule_batch.py@71de97b2 ScheduleBatch.mix_with_running.
void ScheduleBatch::mix_with_running(ScheduleBatch& running_batch) {
  forward_mode = ForwardMode::kMixed;
  const std::int64_t running_bs = running_batch.batch_size();
  for (Req* req : running_batch.reqs) {
    req->refresh_fill_ids();
    const auto full_len = static_cast<std::int64_t>(req->full_untruncated_fill_ids.size());
    req->set_extend_range(full_len - 1, full_len);
  }
  IndexVector loc = out_cache_loc;
  loc.insert(loc.end(), running_batch.out_cache_loc.begin(), running_batch.out_cache_loc.end());
  merge_batch(running_batch);
  out_cache_loc = std::move(loc);
  // For the overlap scheduler, the output_ids have one step of delay.
  const std::int64_t delta = enable_overlap ? 0 : -1;
  for (const Req* r : running_batch.reqs) {
    prefix_lens.push_back(static_cast<std::int64_t>(r->origin_input_ids.size() + r->output_ids.size()) + delta);
    extend_lens.push_back(1);
  }
  extend_num_tokens += running_bs;
  is_prefill_only = false;
}

// schedule_batch.py@71de97b2 ScheduleBatch.new_tokens_required_next_decode.
std::int64_t ScheduleBatch::new_tokens_required_next_decode(const std::optional<std::vector<std::size_t>>& selected) const {
  const std::int64_t page_size = token_to_kv_pool_allocator->page_size;
  std::int64_t new_pages = 0;
  if (selected) {
    for (std::size_t i : *selected) new_pages += reqs.at(i)->kv_committed_len % page_size == 0 ? 1 : 0;
  } else {
    for (const Req* r : reqs) new_pages += r->kv_committed_len % page_size == 0 ? 1 : 0;
  }
  return new_pages * page_size;
}

// schedule_batch.py@71de97b2 ScheduleBatch.check_decode_mem.
bool ScheduleBatch::check_decode_mem(const std::optional<std::vector<std::size_t>>& selected) {
  const std::int64_t num_tokens = new_tokens_required_next_decode(selected);
  evict_from_tree_cache(tree_cache, num_tokens);
  return token_to_kv_pool_allocator->available_size() >= num_tokens;
}

// schedule_batch.py@71de97b2 ScheduleBatch.retract_decode.
ScheduleBatch::Retraction ScheduleBatch::retract_decode(const ServerArgs& server_args) {
  std::vector<std::size_t> sorted_indices = get_decode_retraction_order(reqs, server_args);
  Retraction out;
  bool first_iter = true;
  while (first_iter || !check_decode_mem(sorted_indices)) {
    if (sorted_indices.size() == 1) break;  // always keep at least one request
    first_iter = false;
    const std::size_t idx = sorted_indices.back();
    sorted_indices.pop_back();
    out.retracted_reqs.push_back(reqs[idx]);
    // Release memory and do not insert into the tree: the space is needed at once.
    release_req(idx, static_cast<std::int64_t>(sorted_indices.size()), server_args);
  }
  if (sorted_indices.size() <= 1 && !check_decode_mem(sorted_indices)) {
    // Even the last remaining request cannot fit: abort it instead of crashing the scheduler.
    const std::size_t last_idx = sorted_indices.back();
    sorted_indices.pop_back();
    Req* last_req = reqs[last_idx];
    last_req->to_finish = "abort";
    last_req->abort_message =
        "Out of memory even after retracting all other requests in the decode batch. Aborting the last request.";
    out.reqs_to_abort.push_back(last_req);
    release_req(last_idx, 0, server_args);  // offload_kv=False: no decode disaggregation here
  }
  filter_batch(std::nullopt, sorted_indices);
  out.new_estimate_ratio = NewTokenRatioTracker::estimate_new_token_ratio_after_retract(reqs, retract_decode_steps);
  return out;
}

// schedule_batch.py@71de97b2 ScheduleBatch._get_decode_retraction_order. Python's sort(reverse=True) is
// stable (equal keys keep their order), as std::stable_sort with the comparison reversed. Keys are compared
// as Python ints: priority x (-sign) is formed in 128 bits so no value overflows.
std::vector<std::size_t> ScheduleBatch::get_decode_retraction_order(const std::vector<Req*>& reqs_in,
                                                                    const ServerArgs& server_args) {
  using Key = std::tuple<__int128, std::int64_t, std::int64_t>;
  const bool by_priority = server_args.retraction_policy == "priority";
  const bool low_first = server_args.schedule_low_priority_values_first;
  const __int128 priority_sign = low_first ? 1 : -1;
  std::vector<Key> keys;
  for (const Req* r : reqs_in) {
    // length_key: (len(output_ids), -len(origin_input_ids))
    const auto out_len = static_cast<std::int64_t>(r->output_ids.size());
    const auto in_len = -static_cast<std::int64_t>(r->origin_input_ids.size());
    __int128 head = 0;
    if (by_priority) {
      __int128 priority = r->priority.has_value()
                              ? static_cast<__int128>(*r->priority)
                              : (low_first ? static_cast<__int128>(INT64_MAX) : static_cast<__int128>(INT64_MIN));
      head = priority * (-priority_sign);
    }
    keys.emplace_back(head, out_len, in_len);
  }
  std::vector<std::size_t> sorted_indices(reqs_in.size());
  for (std::size_t i = 0; i < sorted_indices.size(); ++i) sorted_indices[i] = i;
  std::stable_sort(sorted_indices.begin(), sorted_indices.end(),
                   [&](std::size_t a, std::size_t b) { return keys[b] < keys[a]; });
  return sorted_indices;
}

// schedule_batch.py@71de97b2 ScheduleBatch.release_req -> release_req (module function; no hierarchical
// sparse coordinator, no decode-disaggregation offload).
void ScheduleBatch::release_req(std::size_t idx, std::int64_t remaining_req_count, const ServerArgs& server_args) {
  Req& req = *reqs.at(idx);
  if (tree_cache != nullptr) {
    if (server_args.disaggregation_mode == "decode") {
      throw std::invalid_argument("disaggregation_mode 'decode' is not modelled by this port: retraction backup");
    }
    release_kv_cache(req, *tree_cache, /*is_insert=*/false);
    // Use the newly evictable memory at once.
    evict_from_tree_cache(tree_cache, remaining_req_count * retract_decode_steps);
  }
  req.reset_for_retract();
}

// schedule_batch.py@71de97b2 ScheduleBatch.prepare_for_decode.
void ScheduleBatch::prepare_for_decode() {
  forward_mode = ForwardMode::kDecode;
  out_cache_loc = alloc_for_decode(*this, 1);
  for (Req* req : reqs) {
    req->decode_batch_idx += 1;
    req->kv_committed_len += 1;
  }
  for (std::int64_t& s : seq_lens) s += 1;
}

// schedule_batch.py@71de97b2 ScheduleBatch.filter_batch.
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
    seq_lens.clear();
    return;
  }
  if (keep.size() == reqs.size()) return;
  std::vector<Req*> kept;
  std::vector<std::int64_t> kept_lens;
  for (std::size_t i : keep) {
    kept.push_back(reqs.at(i));
    if (i < seq_lens.size()) kept_lens.push_back(seq_lens[i]);
  }
  reqs = std::move(kept);
  if (!seq_lens.empty()) seq_lens = std::move(kept_lens);
  out_cache_loc.clear();
  return_logprob = std::any_of(reqs.begin(), reqs.end(), [](const Req* r) { return r->return_logprob; });
}

// schedule_batch.py@71de97b2 ScheduleBatch.merge_batch.
void ScheduleBatch::merge_batch(const ScheduleBatch& other) {
  seq_lens.insert(seq_lens.end(), other.seq_lens.begin(), other.seq_lens.end());
  out_cache_loc.clear();
  reqs.insert(reqs.end(), other.reqs.begin(), other.reqs.end());
  return_logprob = return_logprob || other.return_logprob;
  is_prefill_only = is_prefill_only && other.is_prefill_only;
}

}  // namespace blis::sglang
