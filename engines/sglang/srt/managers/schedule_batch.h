// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/schedule_batch.py@71de97b2; the Req subset the
// schedule policy and PrefillAdder read and write, split_cached_prefix_by_tier, and ScheduleBatch's request list.
//
// What is left out of Req, and why: everything that only feeds the model forward or the detokenizer
// (text, logprobs, hidden states, multimodal inputs, grammar, streaming offsets, speculative-decoding
// counters), disaggregation bootstrap state, dLLM (diffusion) state (the DLLM mixin; the port has no
// dLLM path), Mamba ping-pong/COW state except mamba_pool_idx's presence (Mamba pools are not ported),
// LoRA (lora_id's concatenation into extra_key: callers pass the combined extra_key), sessions and
// positional-embed overrides (no prefix-match suppression), and time_stats except wait_queue_entry_time.
// Token arrays (array("q") / int64 tensors upstream) are std::vector<std::int64_t>.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "srt/managers/server_args.h"
#include "srt/mem_cache/base_prefix_cache.h"
#include "srt/mem_cache/allocator/base.h"

namespace blis::sglang {

using TokenIds = std::vector<std::int64_t>;

// utils/common.py@71de97b2 Range.
struct Range {
  std::int64_t start = 0;
  std::int64_t end = 0;
  // utils/common.py@71de97b2 Range.length.
  std::int64_t length() const { return end - start; }
  bool operator==(const Range&) const = default;
};

// sampling/sampling_params.py@71de97b2 SamplingParams: the two fields the scheduler's budgets read (upstream
// defaults: max_new_tokens=128, ignore_eos=False).
struct SamplingParams {
  std::int64_t max_new_tokens = 128;
  bool ignore_eos = false;
};

// observability/req_time_stats.py@71de97b2 SchedulerReqTimeStats: only wait_queue_entry_time. Upstream holds
// a float of seconds read from a clock; BLIS hands in an integer time stamp (the simulator's clock) so the
// engine reads no clock.
struct ReqTimeStats {
  std::int64_t wait_queue_entry_time = 0;
};

// schedule_batch.py@71de97b2 split_cached_prefix_by_tier: (device, host, storage) tokens of a cached prefix.
struct CachedPrefixTiers {
  std::int64_t device = 0;
  std::int64_t host = 0;
  std::int64_t storage = 0;
};
CachedPrefixTiers split_cached_prefix_by_tier(std::int64_t prefix_len, std::int64_t host_hit_len,
                                              std::int64_t storage_hit_len);

// schedule_batch.py@71de97b2 ReqKvInfo: the KV slots a request holds in req_to_token (allocated length).
struct ReqKvInfo {
  std::int64_t kv_allocated_len = 0;
  std::int64_t swa_evicted_seqlen = 0;
};

// schedule_batch.py@71de97b2 Req (the subset described at the top of this file). A struct, as the mem_cache
// package forward-declares it.
struct Req {
  // schedule_batch.py@71de97b2 Req.__init__ (rid, origin_input_ids, sampling_params and the keyword
  // arguments the policy reads; origin_input_text is not kept).
  Req(std::string rid, TokenIds origin_input_ids, SamplingParams sampling_params = {},
      std::optional<std::int64_t> priority = std::nullopt, std::optional<std::string> extra_key = std::nullopt,
      std::optional<std::string> routing_key = std::nullopt, std::optional<std::string> cache_salt = std::nullopt);

  // Input and output info.
  std::string rid;
  TokenIds origin_input_ids;
  // Append-only by contract (see _refresh_fill_ids).
  TokenIds output_ids;
  // origin_input_ids + output_ids, kept in sync by _refresh_fill_ids.
  TokenIds full_untruncated_fill_ids;
  std::optional<Range> extend_range;

  SamplingParams sampling_params;
  std::optional<std::string> extra_key;
  std::optional<std::string> cache_salt;  // upstream: cache_salt or None (an empty salt is None)
  std::optional<std::string> routing_key;
  // Upstream: Optional[int]; sorting a None priority raises there, value() throws here.
  std::optional<std::int64_t> priority;

  // Memory pool info: only whether a Mamba state is held (mamba_pool_idx is None upstream).
  std::optional<std::int64_t> req_pool_idx;
  std::optional<std::int64_t> mamba_pool_idx;

  // Check finish: upstream holds a BaseFinishReason; BLIS keeps its to_json()["type"] ("stop", "length",
  // "abort"), and for an abort the message in abort_message.
  std::optional<std::string> finished_reason;
  std::optional<std::string> to_finish;  // a finish decided before the next update_finish_state (an abort)
  std::string abort_message;
  std::optional<std::int64_t> finished_len;
  // The tokens that end the request (eos_token_ids: the model's EOS; the tokenizer's own EOS is the same here).
  std::set<std::int64_t> eos_token_ids;

  // KV bookkeeping (schedule_batch.py@71de97b2 Req.kv, kv_committed_len): the slots allocated and the
  // tokens whose KV the forward has written (committed).
  std::optional<ReqKvInfo> kv;
  std::int64_t kv_committed_len = 0;
  std::int64_t already_computed = 0;
  std::int64_t cached_tokens = 0;
  std::int64_t extend_batch_idx = 0;
  std::int64_t decode_batch_idx = 0;

  // Prefix info.
  TokenIds prefix_indices;
  TreeNode* last_node = nullptr;
  TreeNode* last_host_node = nullptr;
  TreeNode* best_match_node = nullptr;
  std::int64_t host_hit_length = 0;
  std::int64_t swa_host_hit_length = 0;
  std::int64_t mamba_host_hit_length = 0;
  std::int64_t num_matched_prefix_tokens = 0;
  std::int64_t storage_hit_length = 0;
  std::optional<std::int64_t> swa_uuid_for_lock;
  bool swa_prefix_lock_released = false;
  std::map<int, std::set<std::int64_t>> skip_lock_node_ids;  // ComponentType -> node ids
  std::int64_t cache_protected_len = 0;
  std::optional<std::int64_t> mamba_branching_seqlen;

  // Incremented whenever the request is chunked, decremented when a chunk is processed.
  std::int64_t inflight_middle_chunks = 0;

  // For retraction.
  bool is_retracted = false;
  bool retracted_stain = false;
  std::int64_t retraction_count = 0;

  // Logprobs: only what _compute_max_prefix_len reads.
  bool return_logprob = false;
  std::int64_t logprob_start_len = 0;

  ReqTimeStats time_stats;

  // Not a Req attribute upstream at this commit: PrefillAdder._admitted_extend_lens reads it with
  // getattr(req, "extend_input_len", 0), so a real Req reports 0. Kept (default 0, never set by the port)
  // so the tile-budget estimate can be fed the way upstream's test feeds it (SimpleNamespace objects).
  std::int64_t extend_input_len = 0;

  // schedule_batch.py@71de97b2 Req.is_prefill_only (no speculative decoding).
  bool is_prefill_only() const { return sampling_params.max_new_tokens == 0; }
  // schedule_batch.py@71de97b2 Req.seqlen.
  std::int64_t seqlen() const;
  // schedule_batch.py@71de97b2 Req.needs_host_load_back.
  bool needs_host_load_back() const;
  // schedule_batch.py@71de97b2 Req.finished.
  bool finished() const { return finished_reason.has_value(); }
  // schedule_batch.py@71de97b2 Req.set_extend_range.
  void set_extend_range(std::int64_t start, std::int64_t end) { extend_range = Range{start, end}; }
  // schedule_batch.py@71de97b2 Req.get_fill_ids (extend_range must be set, as upstream's attribute access).
  // Inline so the mem_cache library, which calls it from RadixCache.cache_unfinished_req, links alone.
  TokenIds get_fill_ids() const {
    const std::int64_t n = static_cast<std::int64_t>(full_untruncated_fill_ids.size());
    const std::int64_t end = std::clamp<std::int64_t>(extend_range.value().end, 0, n);
    return TokenIds(full_untruncated_fill_ids.begin(), full_untruncated_fill_ids.begin() + end);
  }
  // schedule_batch.py@71de97b2 Req._refresh_fill_ids (no aliasing case: the vectors never alias here).
  void refresh_fill_ids();
  // schedule_batch.py@71de97b2 Req.init_next_round_input (no dLLM, no sessions, no embed overrides, no
  // mrope; cow_mamba defaults to tree_cache.supports_mamba()).
  void init_next_round_input(BasePrefixCache* tree_cache = nullptr, std::optional<bool> cow_mamba = std::nullopt);
  // schedule_batch.py@71de97b2 Req._compute_max_prefix_len.
  std::int64_t compute_max_prefix_len(std::int64_t input_len) const;
  // schedule_batch.py@71de97b2 Req.reset_for_retract (the fields this subset holds).
  void reset_for_retract();
  // schedule_batch.py@71de97b2 Req.update_finish_state: the to_finish, token (EOS) and length checks (no
  // stop strings, grammar or vocabulary-boundary checks: the simulated model samples no text).
  void update_finish_state(std::int64_t new_accepted_len = 1);
  // schedule_batch.py@71de97b2 Req.set_finish_with_abort.
  void set_finish_with_abort(const std::string& error_msg);
  // schedule_batch.py@71de97b2 Req.effective_kv_committed_len (strip_thinking_cache off).
  std::int64_t effective_kv_committed_len() const { return kv_committed_len; }
  // Not an upstream method (a BLIS convenience): whether the request is mid-chunk, i.e. upstream's
  // `req.inflight_middle_chunks > 0` test at its call sites.
  bool is_chunked() const { return inflight_middle_chunks > 0; }
};

// schedule_batch.py@71de97b2 ForwardMode (model_executor/forward_batch_info.py@71de97b2): the modes this
// port's batches take.
enum class ForwardMode { kExtend, kDecode, kMixed, kIdle };
inline bool is_extend(ForwardMode m) { return m == ForwardMode::kExtend || m == ForwardMode::kMixed; }

class ReqToTokenPool;

// schedule_batch.py@71de97b2 ScheduleBatch: the request list and the host-side state the scheduler reads.
// Device tensors are not held: seq_lens (host copy), prefix_lens, extend_lens and extend_num_tokens are what
// the scheduler and the step's shape need; out_cache_loc is kept as the allocated slots. The pools are
// borrowed from the scheduler; a batch without them (the unit tests' fakes) only resets released requests.
class ScheduleBatch {
 public:
  ScheduleBatch() = default;
  explicit ScheduleBatch(std::vector<Req*> reqs_in) : reqs(std::move(reqs_in)) {}
  virtual ~ScheduleBatch() = default;

  std::vector<Req*> reqs;
  ReqToTokenPool* req_to_token_pool = nullptr;
  BaseTokenToKVPoolAllocator* token_to_kv_pool_allocator = nullptr;
  BasePrefixCache* tree_cache = nullptr;
  bool enable_overlap = false;
  bool batch_is_full = false;
  Req* chunked_req = nullptr;
  bool contains_last_prefill_chunk = true;
  std::vector<Req*> decoding_reqs;  // upstream None when empty
  ForwardMode forward_mode = ForwardMode::kIdle;
  bool return_logprob = false;
  bool is_prefill_only = false;
  std::vector<std::int64_t> seq_lens;  // seq_lens_cpu
  std::vector<std::int64_t> prefix_lens;
  std::vector<std::int64_t> extend_lens;
  std::int64_t extend_num_tokens = 0;
  IndexVector out_cache_loc;

  // schedule_batch.py@71de97b2 ScheduleBatch.init_new (model_config, spec_algorithm: none).
  static ScheduleBatch init_new(std::vector<Req*> reqs, ReqToTokenPool* req_to_token_pool,
                                BaseTokenToKVPoolAllocator* token_to_kv_pool_allocator, BasePrefixCache* tree_cache,
                                bool enable_overlap, Req* chunked_req);
  // schedule_batch.py@71de97b2 ScheduleBatch.batch_size.
  std::int64_t batch_size() const { return static_cast<std::int64_t>(reqs.size()); }
  // schedule_batch.py@71de97b2 ScheduleBatch.is_empty.
  bool is_empty() const { return reqs.empty(); }
  // schedule_batch.py@71de97b2 ScheduleBatch.prepare_for_extend.
  void prepare_for_extend();
  // schedule_batch.py@71de97b2 ScheduleBatch.mix_with_running.
  void mix_with_running(ScheduleBatch& running_batch);
  // schedule_batch.py@71de97b2 ScheduleBatch.new_tokens_required_next_decode (no speculative decoding).
  std::int64_t new_tokens_required_next_decode(const std::optional<std::vector<std::size_t>>& selected = std::nullopt) const;
  // schedule_batch.py@71de97b2 ScheduleBatch.check_decode_mem.
  bool check_decode_mem(const std::optional<std::vector<std::size_t>>& selected = std::nullopt);
  // schedule_batch.py@71de97b2 ScheduleBatch.retract_decode: (retracted, new_estimate_ratio, reqs_to_abort).
  struct Retraction {
    std::vector<Req*> retracted_reqs;
    double new_estimate_ratio = 0;
    std::vector<Req*> reqs_to_abort;
  };
  Retraction retract_decode(const ServerArgs& server_args);
  // schedule_batch.py@71de97b2 ScheduleBatch._get_decode_retraction_order: indices from most to least
  // preferred to keep (the loop pops from the end).
  static std::vector<std::size_t> get_decode_retraction_order(const std::vector<Req*>& reqs,
                                                              const ServerArgs& server_args);
  // schedule_batch.py@71de97b2 ScheduleBatch.release_req -> the module's release_req: frees the request's
  // KV without inserting it into the tree, evicts for the remaining requests' next decode steps, and
  // resets the request. Without pools (tests' fakes), only the reset.
  virtual void release_req(std::size_t idx, std::int64_t remaining_req_count, const ServerArgs& server_args);
  // schedule_batch.py@71de97b2 ScheduleBatch.prepare_for_decode (no speculative decoding, no penalties).
  void prepare_for_decode();
  // schedule_batch.py@71de97b2 ScheduleBatch.filter_batch.
  virtual void filter_batch(const std::optional<std::vector<Req*>>& chunked_req_to_exclude = std::nullopt,
                            const std::optional<std::vector<std::size_t>>& keep_indices = std::nullopt);
  // schedule_batch.py@71de97b2 ScheduleBatch.merge_batch.
  void merge_batch(const ScheduleBatch& other);

  // SGLANG_RETRACT_DECODE_STEPS (environ.py@71de97b2, default 20): release_req's eviction horizon.
  std::int64_t retract_decode_steps = 20;
};

}  // namespace blis::sglang
