// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/scheduler.py@71de97b2; see scheduler.h. This file
// holds construction, request intake and aborts, and the event loop's halves; scheduler_prefill.cpp the
// batch choice; batch_result_processor.cpp the result processing.
#include "srt/managers/scheduler.h"

#include <algorithm>
#include <climits>
#include <set>
#include <tuple>
#include <stdexcept>

#include "srt/mem_cache/allocator/paged.h"
#include "srt/mem_cache/allocator/token.h"
#include "srt/mem_cache/common.h"

namespace blis::sglang {

namespace {
constexpr int kServiceUnavailable = 503;  // HTTPStatus.SERVICE_UNAVAILABLE
}  // namespace

// scheduler.py@71de97b2 Scheduler.__init__ (init_memory_pool_and_cache, init_chunked_prefill, the policy,
// the new-token-ratio tracker) and tp_worker.py@71de97b2 get_worker_info (max_req_len, max_req_input_len).
Scheduler::Scheduler(SchedulerConfig config) : config_(std::move(config)) {
  if (config_.max_running_requests <= 0) throw std::invalid_argument("max_running_request is zero");
  enable_overlap_ = !config_.disable_overlap_schedule;
  enable_priority_preemption_ = config_.enable_priority_scheduling && !config_.disable_priority_preemption;
  // init_chunked_prefill
  chunked_prefill_size_ = config_.chunked_prefill_size;
  if (chunked_prefill_size_ && *chunked_prefill_size_ <= 0) chunked_prefill_size_.reset();
  is_mixed_chunk_ = chunked_prefill_size_.has_value() && config_.enable_mixed_chunk;
  // get_worker_info
  max_req_len_ = std::min(config_.context_len - 1, config_.max_total_num_tokens - 1);
  if (max_req_len_ <= 0) throw std::invalid_argument("Memory pool size is too small");
  max_req_input_len_ = max_req_len_ - 5;
  // model_runner.py@71de97b2: req_to_token_pool of max_running_requests rows (+1 upstream's padding slot is
  // not a schedulable row) and the allocator of the pool's tokens.
  req_to_token_pool_ = std::make_unique<ReqToTokenPool>(config_.max_running_requests, config_.context_len + 4);
  if (config_.page_size == 1) {
    allocator_ = std::make_unique<TokenToKVPoolAllocator>(config_.max_total_num_tokens, false);
  } else {
    allocator_ = std::make_unique<PagedTokenToKVPoolAllocator>(config_.max_total_num_tokens, config_.page_size, false);
  }
  CacheInitParams params;
  params.disable = config_.disable_radix_cache;
  params.req_to_token_pool = req_to_token_pool_.get();
  params.token_to_kv_pool_allocator = allocator_.get();
  params.page_size = config_.page_size;
  params.eviction_policy = config_.radix_eviction_policy;
  params.enable_kv_cache_events = config_.enable_kv_cache_events;
  tree_cache_ = std::make_unique<RadixCache>(params);
  policy_ = std::make_unique<SchedulePolicy>(config_.schedule_policy, *tree_cache_, false,
                                             config_.enable_priority_scheduling,
                                             config_.server_args.schedule_low_priority_values_first, config_.policy_env,
                                             config_.random_draw);
  new_token_ratio_ = NewTokenRatioTracker::from_config(config_.init_new_token_ratio, config_.schedule_conservativeness,
                                                       config_.min_new_token_ratio_factor,
                                                       config_.new_token_ratio_decay_steps);
  running_batch_ = std::make_shared<ScheduleBatch>();
}

const Req* Scheduler::request(const std::string& rid) const {
  auto it = reqs_.find(rid);
  return it == reqs_.end() ? nullptr : it->second.get();
}

// scheduler.py@71de97b2 init_req_max_new_tokens (SGLANG_MAX_NEW_TOKENS_LIMIT unset; attn_dcp_size 1).
void Scheduler::init_req_max_new_tokens(Req& req) const {
  const auto input_len = static_cast<std::int64_t>(req.origin_input_ids.size());
  const std::int64_t max_new_tokens = req.sampling_params.max_new_tokens;
  const std::int64_t page = config_.page_size;
  const std::int64_t paged_input_len = (input_len + page - 1) / page * page;
  req.sampling_params.max_new_tokens = std::max<std::int64_t>(
      0, std::min({max_new_tokens, max_req_len_ - input_len - 1,
                   config_.max_total_num_tokens - paged_input_len - page - 1}));
}

// scheduler.py@71de97b2 handle_generate_request (text-only: init_req_max_new_tokens, then
// validate_input_length of managers/utils.py@71de97b2, then the queue).
void Scheduler::handle_generate_request(std::unique_ptr<Req> owned) {
  Req* req = owned.get();
  if (reqs_.contains(req->rid)) throw std::invalid_argument("sglang scheduler: duplicate rid " + req->rid);
  reqs_.emplace(req->rid, std::move(owned));
  init_req_max_new_tokens(*req);
  const auto input_len = static_cast<std::int64_t>(req->origin_input_ids.size());
  if (input_len >= max_req_input_len_) {
    if (config_.allow_auto_truncate) {
      req->origin_input_ids.resize(static_cast<std::size_t>(max_req_input_len_));
    } else {
      req->set_finish_with_abort("Input length (" + std::to_string(input_len) +
                                 " tokens) exceeds the maximum allowed length (" + std::to_string(max_req_input_len_) +
                                 " tokens). Use a shorter input or enable --allow-auto-truncate.");
    }
  }
  add_request_to_queue(req);
}

// scheduler.py@71de97b2 _set_or_validate_priority.
bool Scheduler::set_or_validate_priority(Req& req) {
  if (config_.enable_priority_scheduling && !req.priority.has_value()) {
    req.priority = config_.server_args.schedule_low_priority_values_first ? INT64_MAX : INT64_MIN;
  } else if (!config_.enable_priority_scheduling && req.priority.has_value() && config_.abort_on_priority_when_disabled) {
    // AbortReq(finished_reason={"type": "abort", "status_code": HTTPStatus.SERVICE_UNAVAILABLE, "message": ...}).
    ended_outside_.push_back(
        EndedOutsideBatch{req.rid, "abort", kServiceUnavailable,
                          "Using priority is disabled for this server. Please send a new request without a priority."});
    reqs_.erase(req.rid);
    return false;
  }
  return true;
}

// scheduler.py@71de97b2 _abort_on_queued_limit: when the queue is full, the incoming request is aborted unless
// priority scheduling finds a queued request of lower priority to abort instead.
bool Scheduler::abort_on_queued_limit(Req& req) {
  if (!config_.max_queued_requests || static_cast<std::int64_t>(waiting_queue_.size()) + 1 <= *config_.max_queued_requests) {
    return false;
  }
  // Reject the incoming request by default.
  Req* req_to_abort = &req;
  std::string message = "The request queue is full.";
  if (config_.enable_priority_scheduling) {
    // Find the queued request of the lowest priority (the last one under the priority order).
    const std::int64_t sign = config_.server_args.schedule_low_priority_values_first ? 1 : -1;
    std::optional<std::size_t> idx;
    for (std::size_t i = 0; i < waiting_queue_.size(); ++i) {
      const Req* q = waiting_queue_[i];
      if (!idx) {
        idx = i;
        continue;
      }
      const Req* best = waiting_queue_[*idx];
      // max over (priority * sign, wait_queue_entry_time)
      const auto key = [&](const Req* r) {
        return std::make_pair(static_cast<__int128>(r->priority.value()) * sign, r->time_stats.wait_queue_entry_time);
      };
      if (key(q) > key(best)) idx = i;
    }
    if (idx) {
      Req* candidate = waiting_queue_[*idx];
      if (static_cast<__int128>(candidate->priority.value()) * sign > static_cast<__int128>(req.priority.value()) * sign) {
        waiting_queue_.erase(waiting_queue_.begin() + static_cast<std::ptrdiff_t>(*idx));
        req_to_abort = candidate;
        message = "The request is aborted by a higher priority request.";
      }
    }
  }
  // AbortReq(finished_reason={"type": "abort", "status_code": HTTPStatus.SERVICE_UNAVAILABLE, "message": message}).
  ended_outside_.push_back(EndedOutsideBatch{req_to_abort->rid, "abort", kServiceUnavailable, message});
  const bool incoming = req_to_abort == &req;
  reqs_.erase(req_to_abort->rid);
  return incoming;
}

// scheduler.py@71de97b2 _add_request_to_queue (no KV prefetch: no hierarchical cache storage).
void Scheduler::add_request_to_queue(Req* req, bool /*is_retracted*/) {
  if (!set_or_validate_priority(*req)) return;
  if (abort_on_queued_limit(*req)) return;
  waiting_queue_.push_back(req);
  // req.time_stats.set_wait_queue_entry_time(): upstream reads a clock; the port stamps a logical sequence,
  // which orders entries as the clock does (only comparisons read it).
  req->time_stats.wait_queue_entry_time = ++queue_entry_seq_;
}

// scheduler.py@71de97b2 abort_request (one rid; see the header on prefix matching).
void Scheduler::abort_request(const std::string& rid) {
  if (chunked_req_ != nullptr && chunked_req_->rid == rid) pending_chunked_abort_req_ = chunked_req_;
  for (std::size_t i = waiting_queue_.size(); i-- > 0;) {
    if (waiting_queue_[i]->rid == rid) {
      Req* req = waiting_queue_[i];
      waiting_queue_.erase(waiting_queue_.begin() + static_cast<std::ptrdiff_t>(i));
      ended_outside_.push_back(EndedOutsideBatch{rid, "abort", std::nullopt, ""});  // AbortReq(rid=req.rid)
      reqs_.erase(req->rid);
      return;
    }
  }
  for (const auto& b : {running_batch_, last_batch_}) {
    if (!b) continue;
    for (Req* req : b->reqs) {
      if (!req->finished() && req->rid == rid) req->to_finish = "abort";
    }
  }
}

// scheduler.py@71de97b2 process_pending_chunked_abort.
void Scheduler::process_pending_chunked_abort() {
  Req* req = pending_chunked_abort_req_;
  if (req == nullptr) return;
  if (chunked_req_ != req) {
    if (req->finished() || !req->req_pool_idx.has_value()) pending_chunked_abort_req_ = nullptr;
    return;
  }
  req->finished_reason = "abort";  // prepare_abort(req, "Aborted")
  req->abort_message = "Aborted";
  req->to_finish.reset();
  release_kv_cache(*req, *tree_cache_, /*is_insert=*/false);
  chunked_req_ = nullptr;
  pending_chunked_abort_req_ = nullptr;
  ended_outside_.push_back(EndedOutsideBatch{req->rid, "abort", std::nullopt, "Aborted"});
}

std::vector<std::pair<std::string, std::string>> Scheduler::take_ended_outside_batches() {
  std::vector<std::pair<std::string, std::string>> out;
  for (EndedOutsideBatch& e : take_ended_outside_batches_with_reasons()) {
    out.emplace_back(std::move(e.rid), std::move(e.type));
  }
  return out;
}

std::vector<EndedOutsideBatch> Scheduler::take_ended_outside_batches_with_reasons() {
  std::vector<EndedOutsideBatch> out;
  out.swap(ended_outside_);
  return out;
}

std::vector<std::string> Scheduler::take_retracted() {
  std::vector<std::string> out;
  out.swap(retracted_);
  return out;
}

// scheduler.py@71de97b2 event_loop_normal / event_loop_overlap: the scheduling half of one iteration. An
// iteration that finds no batch may still change the state (update_running_batch drops finished requests and
// clears batch_is_full); upstream's loop then spins and schedules on its next iteration, without new input and
// in no time the simulator sees. The port runs those idle iterations here, until one finds a batch or leaves
// the state as it found it. Under the overlap schedule an iteration that finds no batch while the last batch's
// result is pending processes that result next (pop_and_process, which waits for its forward) and runs no
// on_idle: the port returns with no batch, and the caller's process_batch_result is that processing.
const LaunchedBatch* Scheduler::next_batch() {
  std::shared_ptr<ScheduleBatch> batch;
  for (;;) {
    const auto signature = std::make_tuple(waiting_queue_.size(), running_batch_->batch_size(),
                                           running_batch_->batch_is_full, chunked_req_, last_batch_ != nullptr);
    NextBatchPlan plan = get_next_batch_to_run(running_batch_, last_batch_);
    running_batch_ = plan.running_batch;
    batch = plan.batch_to_run;
    if (batch) break;
    if (enable_overlap_ && !launched_.empty()) {  // event_loop_overlap: `if self.last_batch: pop_and_process()`
      last_batch_ = nullptr;
      sweep_finished();
      return nullptr;
    }
    // on_idle (is_fully_idle: nothing queued, running or in flight): publish the KV events (the engine core
    // takes the flag) and reset the token ratio.
    if (waiting_queue_.empty() && running_batch_->is_empty() && chunked_req_ == nullptr && launched_.empty()) {
      fully_idle_ = true;
      new_token_ratio_.reset();
    }
    last_batch_ = nullptr;
    if (signature == std::make_tuple(waiting_queue_.size(), running_batch_->batch_size(), running_batch_->batch_is_full,
                                     chunked_req_, false)) {
      sweep_finished();
      return nullptr;
    }
  }
  LaunchedBatch launched;  // batch.copy()
  launched.reqs = batch->reqs;
  launched.forward_mode = batch->forward_mode;
  launched.decoding_reqs = batch->decoding_reqs;
  if (is_extend(batch->forward_mode)) launched.chunked_req = batch->chunked_req;
  launched.prefix_lens = batch->prefix_lens;
  launched.extend_lens = batch->extend_lens;
  launched_.push_back(std::move(launched));
  last_batch_ = batch;
  sweep_finished();
  return &launched_.back();
}

BatchResultRecord Scheduler::process_batch_result(const std::vector<std::int64_t>& next_token_ids) {
  if (launched_.empty()) throw std::logic_error("sglang scheduler: process_batch_result with no batch launched");
  LaunchedBatch batch = std::move(launched_.front());
  launched_.pop_front();
  if (next_token_ids.size() != batch.reqs.size()) {
    throw std::logic_error("sglang scheduler: " + std::to_string(next_token_ids.size()) + " sampled tokens for a batch of " +
                           std::to_string(batch.reqs.size()));
  }
  BatchResultRecord record;
  if (batch.forward_mode == ForwardMode::kDecode) {
    process_batch_result_decode(batch, next_token_ids, record);
  } else {
    process_batch_result_prefill(batch, next_token_ids, record);
  }
  return record;
}

// Drops finished requests that hold no KV and that no batch, queue or launched step still holds.
void Scheduler::sweep_finished() {
  std::set<const Req*> held(waiting_queue_.begin(), waiting_queue_.end());
  held.insert(running_batch_->reqs.begin(), running_batch_->reqs.end());
  if (last_batch_) held.insert(last_batch_->reqs.begin(), last_batch_->reqs.end());
  for (const LaunchedBatch& b : launched_) held.insert(b.reqs.begin(), b.reqs.end());
  if (chunked_req_) held.insert(chunked_req_);
  if (pending_chunked_abort_req_) held.insert(pending_chunked_abort_req_);
  for (auto it = reqs_.begin(); it != reqs_.end();) {
    const Req* r = it->second.get();
    if (r->finished() && !r->kv.has_value() && !held.contains(r)) {
      it = reqs_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace blis::sglang
