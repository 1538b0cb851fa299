// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/async_scheduler.py@6e448d0e; see async_scheduler.h.
#include "v1/core/sched/async_scheduler.h"

#include <stdexcept>

namespace blis::vllm {

// async_scheduler.py@6e448d0e AsyncScheduler._update_after_schedule
void AsyncScheduler::update_after_schedule(SchedulerOutput& scheduler_output) {
  Scheduler::update_after_schedule(scheduler_output);
  const std::int64_t pp_size = vllm_config_.parallel_config.pipeline_parallel_size;
  for (const auto& [req_id, n] : scheduler_output.num_scheduled_tokens) {
    Request& request = request_at(req_id);
    if (request.is_prefill_chunk) continue;
    // num_sampled_tokens_per_step new tokens plus the scheduled spec tokens (none: not ported).
    request.num_output_placeholders += num_sampled_tokens_per_step_;
    request.spec_token_ids.assign(static_cast<std::size_t>(scheduler_output.num_spec_tokens_to_schedule), -1);
    if (use_v2_model_runner_) request.next_decode_eligible_step = current_step_ + pp_size;
  }
}

// async_scheduler.py@6e448d0e AsyncScheduler._update_request_with_output
std::pair<std::vector<std::int32_t>, bool> AsyncScheduler::update_request_with_output(
    Request& request, std::vector<std::int32_t> new_token_ids, bool is_stale) {
  const RequestStatus status_before_update = request.status;
  auto result = Scheduler::update_request_with_output(request, std::move(new_token_ids), is_stale);
  if (!is_stale) {
    request.num_output_placeholders -= static_cast<std::int64_t>(result.first.size());
    if (request.num_output_placeholders < 0) throw std::logic_error("AsyncScheduler: output placeholders underflow");
  }
  // Cache the new tokens. Preempted requests are skipped.
  if (status_before_update == RequestStatus::kRunning) {
    kv_cache_manager_->cache_blocks(request, request.num_computed_tokens - request.num_output_placeholders);
  }
  return result;
}

}  // namespace blis::vllm
