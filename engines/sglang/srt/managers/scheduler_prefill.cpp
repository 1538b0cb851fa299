// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/scheduler.py@71de97b2; get_next_batch_to_run,
// get_new_batch_prefill (_get_new_batch_prefill_raw), update_running_batch and get_num_allocatable_reqs for
// the configuration scheduler.h models (the dLLM, HiSparse, hierarchical-cache, LoRA, disaggregation, DP
// attention, n-gram embedding and prefill-delayer branches are not taken, as upstream does not take them there).
#include <algorithm>
#include <set>

#include "srt/managers/scheduler.h"
#include "srt/mem_cache/common.h"

namespace blis::sglang {

// scheduler.py@71de97b2 get_num_allocatable_reqs (pp_max_micro_batch_size = max(max_running_requests // pp_size, 1)).
std::int64_t Scheduler::get_num_allocatable_reqs(std::int64_t running_bs) const {
  const std::int64_t res = std::max<std::int64_t>(config_.max_running_requests, 1) - running_bs;
  return std::min(res, req_to_token_pool_->available_size());
}

// scheduler.py@71de97b2 get_next_batch_to_run.
NextBatchPlan Scheduler::get_next_batch_to_run(std::shared_ptr<ScheduleBatch> running_batch,
                                               std::shared_ptr<ScheduleBatch> last_batch) {
  process_pending_chunked_abort();
  // Merge the prefill batch into the running batch.
  std::vector<Req*> chunked_req_to_exclude;
  if (chunked_req_ != nullptr) {
    // Move the chunked request out of the batch so that only finished requests merge into running_batch;
    // stash (cache) the previous chunk when it produced new KV beyond what is cached.
    chunked_req_to_exclude.push_back(chunked_req_);
    if (chunked_req_->extend_range.value().end > static_cast<std::int64_t>(chunked_req_->prefix_indices.size())) {
      maybe_cache_unfinished_req(*chunked_req_, *tree_cache_, /*chunked=*/true);  // stash_chunked_request
    }
  }
  if (last_batch && is_extend(last_batch->forward_mode)) {
    if (last_batch->chunked_req != nullptr &&
        std::find(chunked_req_to_exclude.begin(), chunked_req_to_exclude.end(), last_batch->chunked_req) ==
            chunked_req_to_exclude.end()) {
      chunked_req_to_exclude.push_back(last_batch->chunked_req);
    }
    const std::int64_t last_bs = last_batch->batch_size();
    last_batch->filter_batch(chunked_req_to_exclude);
    if (last_batch->batch_size() < last_bs) running_batch->batch_is_full = false;
    if (!last_batch->is_empty()) {
      if (running_batch->is_empty()) {
        running_batch = last_batch;
      } else {
        running_batch->merge_batch(*last_batch);
      }
    }
  }
  // A prefill-only running batch drops its finished requests here (they never decode).
  if (running_batch->is_prefill_only) {
    running_batch->filter_batch();
    if (running_batch->is_empty()) running_batch->batch_is_full = false;
  }
  NextBatchPlan prefill_plan = get_new_batch_prefill(running_batch);
  std::shared_ptr<ScheduleBatch> new_batch = prefill_plan.batch_to_run;
  running_batch = prefill_plan.running_batch;
  std::shared_ptr<ScheduleBatch> ret;
  if (new_batch) {
    ret = new_batch;  // run prefill first if possible
  } else if (!running_batch->is_empty() && !running_batch->is_prefill_only) {
    running_batch = update_running_batch(running_batch);
    if (!running_batch->is_empty()) ret = running_batch;
  }
  return NextBatchPlan{ret, running_batch};
}

// scheduler.py@71de97b2 get_new_batch_prefill -> _get_new_batch_prefill_raw.
NextBatchPlan Scheduler::get_new_batch_prefill(std::shared_ptr<ScheduleBatch> running_batch) {
  if (enable_priority_preemption_) running_batch->batch_is_full = false;  // try preemption with a prefill adder
  if ((running_batch->batch_is_full || waiting_queue_.empty()) && chunked_req_ == nullptr) {
    return NextBatchPlan{nullptr, running_batch};
  }
  std::int64_t running_bs = running_batch->batch_size();
  if (get_num_allocatable_reqs(running_bs) <= 0 && chunked_req_ == nullptr && !enable_priority_preemption_) {
    running_batch->batch_is_full = true;
    return NextBatchPlan{nullptr, running_batch};
  }
  policy_->calc_priority(waiting_queue_, running_batch.get());

  PrefillAdderOptions options;
  options.num_mixed_decode_tokens = is_mixed_chunk_ ? running_bs : 0;
  options.priority_scheduling_preemption_threshold = config_.priority_scheduling_preemption_threshold;
  options.max_prefill_bs = 0;
  options.max_running_requests = config_.max_running_requests;
  options.prefill_max_requests = config_.prefill_max_requests;
  options.waiting_queue_len = static_cast<std::int64_t>(waiting_queue_.size());
  options.prefill_tile_block_m = 64;  // not a Triton backend: upstream's fallback
  options.env = config_.policy_env;
  PrefillAdder adder(config_.page_size, *tree_cache_, *allocator_, running_batch.get(), new_token_ratio_.current,
                     config_.max_prefill_tokens, chunked_prefill_size_, options);

  if (chunked_req_ != nullptr) {
    chunked_req_->init_next_round_input();
    chunked_req_ = adder.add_chunked_req(*chunked_req_);
  }
  for (Req* req : waiting_queue_) {
    running_bs = running_batch->batch_size();
    if (static_cast<std::int64_t>(adder.can_run_list.size()) >= get_num_allocatable_reqs(running_bs)) {
      running_batch->batch_is_full = true;
    }
    if (running_batch->batch_is_full) {
      if (!enable_priority_preemption_ || !adder.preempt_to_schedule(*req, config_.server_args)) break;
    }
    req->init_next_round_input(tree_cache_.get());
    const AddReqResult res = adder.add_one_req(*req, chunked_req_ != nullptr, std::nullopt);
    if (res != AddReqResult::CONTINUE) {
      if (res == AddReqResult::NO_TOKEN) running_batch->batch_is_full = true;
      break;
    }
  }
  // Update the waiting queue.
  const std::vector<Req*>& can_run_list = adder.can_run_list;
  if (can_run_list.empty()) return NextBatchPlan{nullptr, running_batch};
  const std::set<Req*> can_run_set(can_run_list.begin(), can_run_list.end());
  std::erase_if(waiting_queue_, [&](Req* r) { return can_run_set.contains(r); });
  for (Req* req : adder.preempt_list) add_request_to_queue(req);
  if (adder.new_chunked_req != nullptr) {
    if (chunked_req_ != nullptr) throw std::logic_error("sglang scheduler: a second chunked request");
    chunked_req_ = adder.new_chunked_req;
  }
  if (chunked_req_ != nullptr) chunked_req_->inflight_middle_chunks += 1;

  // Create a new batch.
  auto new_batch = std::make_shared<ScheduleBatch>(ScheduleBatch::init_new(
      can_run_list, req_to_token_pool_.get(), allocator_.get(), tree_cache_.get(), enable_overlap_, chunked_req_));
  new_batch->retract_decode_steps = config_.retract_decode_steps;
  new_batch->contains_last_prefill_chunk = chunked_req_ == nullptr || can_run_list.size() != 1;
  new_batch->prepare_for_extend();

  // Mixed-style chunked prefill.
  if (is_mixed_chunk_ && !running_batch->is_empty() && !(new_batch->return_logprob || running_batch->return_logprob)) {
    running_batch->filter_batch();
    if (!running_batch->is_empty()) {
      running_batch->prepare_for_decode();
      new_batch->mix_with_running(*running_batch);
      new_batch->decoding_reqs = running_batch->reqs;
    }
    auto fresh = std::make_shared<ScheduleBatch>();
    fresh->batch_is_full = running_batch->batch_is_full;
    running_batch = fresh;
  } else {
    new_batch->decoding_reqs.clear();
  }
  return NextBatchPlan{new_batch, running_batch};
}

// scheduler.py@71de97b2 update_running_batch.
std::shared_ptr<ScheduleBatch> Scheduler::update_running_batch(std::shared_ptr<ScheduleBatch> batch) {
  const std::int64_t initial_bs = batch->batch_size();
  batch->filter_batch();
  if (batch->is_empty()) {
    batch->batch_is_full = false;
    return batch;
  }
  batch->retract_decode_steps = config_.retract_decode_steps;
  if (!batch->check_decode_mem()) {
    ScheduleBatch::Retraction r = batch->retract_decode(config_.server_args);
    new_token_ratio_.current = r.new_estimate_ratio;
    for (Req* req : r.reqs_to_abort) {
      // send_to_tokenizer AbortReq(finished_reason=req.to_finish): the request ends with an abort now.
      req->finished_reason = "abort";
      req->to_finish.reset();
      // AbortReq(finished_reason=req.to_finish.to_json()): FINISH_ABORT(message), no status code.
      ended_outside_.push_back(EndedOutsideBatch{req->rid, "abort", std::nullopt, req->abort_message});
    }
    for (Req* req : r.retracted_reqs) {
      retracted_.push_back(req->rid);
      add_request_to_queue(req, /*is_retracted=*/true);
    }
  } else {
    new_token_ratio_.decay_step();
  }
  if (batch->batch_size() < initial_bs) batch->batch_is_full = false;
  if (batch->is_empty()) return batch;
  batch->prepare_for_decode();
  return batch;
}

}  // namespace blis::sglang
