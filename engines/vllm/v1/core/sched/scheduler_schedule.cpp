// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/scheduler.py@6e448d0e Scheduler.schedule (lines
// 439-1253): running requests first, then waiting ones; preemption by recompute. The branches for
// encoder inputs, KV connectors, LoRA, speculative padding, Mamba splits, DP throttling and pause states
// are not ported (their features are refused at configuration); see scheduler.h.
#include <algorithm>
#include <stdexcept>

#include "v1/core/sched/scheduler.h"

namespace blis::vllm {

// scheduler.py@6e448d0e Scheduler.schedule
SchedulerOutput Scheduler::schedule() {
  retired_.clear();
  current_step_ += 1;

  std::vector<Request*> scheduled_new_reqs;
  std::vector<Request*> scheduled_resumed_reqs;
  std::vector<Request*> scheduled_running_reqs;
  std::vector<Request*> preempted_reqs;

  std::map<std::string, KVCacheBlocks> req_to_new_blocks;
  SchedulerOutput out;
  auto& num_scheduled_tokens = out.num_scheduled_tokens;
  auto pop_scheduled = [&](const std::string& id) {
    auto it = std::find_if(num_scheduled_tokens.begin(), num_scheduled_tokens.end(),
                           [&](const auto& p) { return p.first == id; });
    const std::int64_t n = it->second;
    num_scheduled_tokens.erase(it);
    return n;
  };
  std::int64_t token_budget = max_num_scheduled_tokens_;
  bool prefill_scheduled = false;

  kv_cache_manager_->new_step_starts();

  // First, schedule the RUNNING requests (scheduler.py@6e448d0e:484-653).
  std::ptrdiff_t req_index = 0;
  while (req_index < static_cast<std::ptrdiff_t>(running_.size()) && token_budget > 0) {
    Request* request = running_[static_cast<std::size_t>(req_index)];

    if (request->num_output_placeholders > 0 &&
        request->num_computed_tokens + 2 - request->num_output_placeholders >=
            request->num_prompt_tokens + request->max_tokens) {
      // Async scheduling: the previous step already reaches max_tokens.
      req_index += 1;
      continue;
    }
    if (current_step_ < request->next_decode_eligible_step) {
      req_index += 1;
      continue;
    }

    std::int64_t num_new_tokens =
        request->num_tokens_with_spec() + request->num_output_placeholders - request->num_computed_tokens;
    const std::int64_t threshold = scheduler_config_.long_prefill_token_threshold;
    if (0 < threshold && threshold < num_new_tokens) num_new_tokens = threshold;
    num_new_tokens = std::min(num_new_tokens, token_budget);
    // Make sure the input position does not exceed the max model len.
    num_new_tokens = std::min(num_new_tokens, max_model_len_ - request->num_computed_tokens - num_sampled_tokens_per_step_);

    if (num_new_tokens == 0) {
      // Nothing to schedule now (e.g. async scheduling reached max_model_len); not strictly FCFS.
      req_index += 1;
      continue;
    }

    std::optional<KVCacheBlocks> new_blocks;
    while (true) {
      new_blocks = kv_cache_manager_->allocate_slots(*request, num_new_tokens, /*num_new_computed_tokens=*/0,
                                                     /*new_computed_blocks=*/nullptr,
                                                     /*num_lookahead_tokens=*/num_lookahead_tokens_);
      if (new_blocks) break;

      // The request cannot be scheduled: preempt the lowest-priority request.
      Request* preempted_req = nullptr;
      if (policy_ == SchedulingPolicy::kPriority) {
        // max(self.running, key=(priority, arrival_time)): the first of the maxima.
        auto it = running_.begin();
        for (auto jt = running_.begin(); jt != running_.end(); ++jt) {
          if (std::make_pair((*jt)->priority, (*jt)->arrival_time) > std::make_pair((*it)->priority, (*it)->arrival_time)) it = jt;
        }
        preempted_req = *it;
        running_.erase(it);
        auto sit = std::find(scheduled_running_reqs.begin(), scheduled_running_reqs.end(), preempted_req);
        if (sit != scheduled_running_reqs.end()) {
          scheduled_running_reqs.erase(sit);
          token_budget += pop_scheduled(preempted_req->request_id);
          req_to_new_blocks.erase(preempted_req->request_id);
          std::erase_if(out.scheduled_spec_decode_tokens, [&](const auto& p) { return p.first == preempted_req->request_id; });
          req_index -= 1;
        }
      } else {
        preempted_req = running_.back();
        running_.pop_back();
      }
      preempt_request(*preempted_req, /*drop_stale_output=*/false);
      preempted_reqs.push_back(preempted_req);
      if (preempted_req == request) break;  // no more request to preempt
    }
    if (!new_blocks) break;  // cannot schedule this request

    scheduled_running_reqs.push_back(request);
    prefill_scheduled = prefill_scheduled || request->is_prefill_chunk;
    req_to_new_blocks.insert_or_assign(request->request_id, *new_blocks);
    num_scheduled_tokens.emplace_back(request->request_id, num_new_tokens);
    token_budget -= num_new_tokens;
    req_index += 1;
    // Speculative decoding is not ported: spec_token_ids stay empty (placeholders are dropped here).
    request->spec_token_ids.clear();
  }

  // Next, schedule the WAITING requests (scheduler.py@6e448d0e:666-1095).
  if (preempted_reqs.empty()) {
    auto step_skipped_waiting = create_request_queue(policy_);
    while ((*waiting_ || *skipped_waiting_) && token_budget > 0) {
      if (static_cast<std::int64_t>(running_.size()) >= max_num_running_reqs_) break;
      RequestQueue* request_queue = select_waiting_queue_for_scheduling();
      Request* request = request_queue->peek_request();
      const std::string request_id = request->request_id;

      if (is_blocked_waiting_status(request->status)) {
        // No connector, grammar or stream ever unblocks it here; upstream keeps it skipped.
        request_queue->pop_request();
        step_skipped_waiting->prepend_request(request);
        continue;
      }
      if (request->num_stale_output_tokens > 0 && !request->drop_stale_output) {
        // Deliverable stale output still in flight: it drains within the pipeline depth.
        request_queue->pop_request();
        step_skipped_waiting->prepend_request(request);
        continue;
      }

      KVCacheBlocks new_computed_blocks = kv_cache_manager_->empty_kv_cache_blocks;
      std::int64_t num_new_local_computed_tokens = 0;
      std::int64_t num_computed_tokens = 0;
      const std::int64_t num_external_computed_tokens = 0;
      bool did_prefix_cache_lookup = false;
      if (request->num_computed_tokens == 0) {
        did_prefix_cache_lookup = true;
        auto [blocks, n_local, boundary] = kv_cache_manager_->get_computed_blocks(*request);
        new_computed_blocks = std::move(blocks);
        num_new_local_computed_tokens = n_local;
        request->shared_prefix_boundary = boundary;
        num_computed_tokens = num_new_local_computed_tokens + num_external_computed_tokens;
      } else {
        num_computed_tokens = request->num_computed_tokens;
      }

      // Number of tokens to be scheduled (num_tokens, not num_prompt_tokens: resumed requests have output).
      std::int64_t num_new_tokens = request->num_tokens() - num_computed_tokens;
      const std::int64_t threshold = scheduler_config_.long_prefill_token_threshold;
      if (0 < threshold && threshold < num_new_tokens) num_new_tokens = threshold;
      if (!scheduler_config_.enable_chunked_prefill && num_new_tokens > token_budget) break;
      num_new_tokens = std::min(num_new_tokens, token_budget);
      if (num_new_tokens <= 0) throw std::logic_error("schedule: a waiting request with no tokens to schedule");

      auto new_blocks = kv_cache_manager_->allocate_slots(
          *request, num_new_tokens, /*num_new_computed_tokens=*/num_new_local_computed_tokens,
          /*new_computed_blocks=*/&new_computed_blocks, /*num_lookahead_tokens=*/num_lookahead_tokens_,
          /*num_external_computed_tokens=*/num_external_computed_tokens, /*delay_cache_blocks=*/false,
          /*num_encoder_tokens=*/0, /*full_sequence_must_fit=*/scheduler_config_.scheduler_reserve_full_isl,
          /*reserved_blocks=*/0, /*has_scheduled_reqs=*/!running_.empty());
      if (!new_blocks) break;  // the request cannot be scheduled

      if (did_prefix_cache_lookup) kv_cache_manager_->record_prefix_cache_stats(*request, num_new_local_computed_tokens);

      request = request_queue->pop_request();
      running_.push_back(request);
      if (request->status == RequestStatus::kWaiting) scheduled_new_reqs.push_back(request);
      else if (request->status == RequestStatus::kPreempted) scheduled_resumed_reqs.push_back(request);
      else throw std::logic_error("Invalid request status");

      req_to_new_blocks.insert_or_assign(request_id, kv_cache_manager_->get_blocks(request_id));
      num_scheduled_tokens.emplace_back(request_id, num_new_tokens);
      token_budget -= num_new_tokens;
      request->status = RequestStatus::kRunning;
      request->num_computed_tokens = num_computed_tokens;
      if (num_computed_tokens + num_new_tokens < request->num_tokens()) inflight_prefills_.insert(request);
    }
    // Re-queue requests skipped in this pass ahead of older skipped items.
    if (*step_skipped_waiting) skipped_waiting_->prepend_requests(*step_skipped_waiting);
  }

  // Check the scheduling constraints.
  std::int64_t total_num_scheduled_tokens = 0;
  for (const auto& [id, n] : num_scheduled_tokens) total_num_scheduled_tokens += n;
  if (total_num_scheduled_tokens > max_num_scheduled_tokens_ || token_budget < 0 ||
      static_cast<std::int64_t>(running_.size()) > max_num_running_reqs_ ||
      scheduled_new_reqs.size() + scheduled_resumed_reqs.size() + scheduled_running_reqs.size() > running_.size()) {
    throw std::logic_error("schedule: a scheduling constraint does not hold");
  }

  out.num_common_prefix_blocks.assign(kv_cache_config_.kv_cache_groups.size(), 0);
  if (!running_.empty()) out.num_common_prefix_blocks = kv_cache_manager_->get_num_common_prefix_blocks(running_.front()->request_id);

  if (use_v2_model_runner_) {
    scheduled_new_reqs.insert(scheduled_new_reqs.end(), scheduled_resumed_reqs.begin(), scheduled_resumed_reqs.end());
    scheduled_resumed_reqs.clear();
  }
  for (const Request* req : scheduled_new_reqs) {
    // output.py@6e448d0e NewRequestData.from_request (prefill_token_ids: V2 model runner only).
    NewRequestData d;
    d.req_id = req->request_id;
    d.prompt_token_ids = req->prompt_token_ids;
    d.block_ids = req_to_new_blocks.at(req->request_id).get_block_ids();
    d.num_computed_tokens = req->num_computed_tokens;
    if (use_v2_model_runner_) d.prefill_token_ids = req->all_token_ids();
    out.scheduled_new_reqs.push_back(std::move(d));
  }
  out.scheduled_cached_reqs = make_cached_request_data(scheduled_running_reqs, scheduled_resumed_reqs, req_to_new_blocks);
  if (!use_v2_model_runner_) {
    prev_step_scheduled_req_ids_.clear();
    for (const auto& [id, n] : num_scheduled_tokens) prev_step_scheduled_req_ids_.insert(id);
  }
  out.total_num_scheduled_tokens = total_num_scheduled_tokens;
  out.preempted_req_ids = reset_preempted_req_ids_;
  out.finished_req_ids = finished_req_ids_;
  out.num_spec_tokens_to_schedule = num_spec_tokens_;

  update_after_schedule(out);
  return out;
}

}  // namespace blis::vllm
