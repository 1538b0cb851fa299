// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/scheduler.py@6e448d0e Scheduler.update_from_output
// (lines 1670-2049) for text-only, connector-free outputs: in-flight and stale accounting, the stop check,
// freeing finished requests, removing them from the queues, draining KV events. Spec-decode rejection,
// structured output, pooling, logprobs, routed experts and connector outputs are not ported; see
// scheduler.h.
#include <stdexcept>

#include "v1/core/sched/scheduler.h"
#include "v1/core/sched/utils.h"

namespace blis::vllm {

// scheduler.py@6e448d0e Scheduler.update_from_output
std::vector<EngineCoreOutput> Scheduler::update_from_output(const SchedulerOutput& scheduler_output,
                                                            const ModelRunnerOutput& model_runner_output) {
  retired_.clear();
  std::vector<EngineCoreOutput> outputs;
  std::set<Request*> stopped_running_reqs;
  std::set<Request*> stopped_preempted_reqs;

  for (const auto& [req_id, num_tokens_scheduled] : scheduler_output.num_scheduled_tokens) {
    if (num_tokens_scheduled <= 0) throw std::logic_error("update_from_output: a request scheduled no tokens");
    auto it = requests_.find(req_id);
    Request* request = it == requests_.end() ? nullptr : it->second.get();
    bool output_is_stale = false;
    if (request) {
      request->num_in_flight_tokens -= num_tokens_scheduled;
      if (request->num_stale_output_tokens > 0) {
        output_is_stale = true;
        request->num_stale_output_tokens -= num_tokens_scheduled;
        if (request->num_stale_output_tokens < 0) throw std::logic_error("update_from_output: stale output underflow");
      }
    }
    // The request already finished (aborted while its step ran).
    if (!request || request->is_finished()) continue;
    // Drop-mode stale output (same-step resume) is discarded entirely.
    if (output_is_stale && request->drop_stale_output) continue;

    const auto idx = model_runner_output.req_id_to_index.find(req_id);
    std::vector<std::int32_t> generated_token_ids;
    if (idx != model_runner_output.req_id_to_index.end() && !model_runner_output.sampled_token_ids.empty()) {
      generated_token_ids = model_runner_output.sampled_token_ids.at(idx->second);
    }

    bool stopped = false;
    std::vector<std::int32_t> new_token_ids = generated_token_ids;
    const RequestStatus status_before_stop = request->status;
    if (!new_token_ids.empty()) {
      auto [kept, s] = update_request_with_output(*request, std::move(new_token_ids), output_is_stale);
      new_token_ids = std::move(kept);
      stopped = s;
    }

    std::optional<std::string> finish_reason;
    const std::optional<std::string> stop_reason = request->stop_reason;
    if (stopped) {
      finish_reason = request->get_finished_reason();
      // _handle_stopped_request: a request that is not resumable is finished.
      if (status_before_stop == RequestStatus::kRunning) stopped_running_reqs.insert(request);
      else stopped_preempted_reqs.insert(request);
      free_request(*request);
    }
    if (!new_token_ids.empty() || stopped) {
      outputs.push_back(EngineCoreOutput{req_id, std::move(new_token_ids), finish_reason, stop_reason});
    }
  }

  // Remove the stopped requests from the running and waiting queues.
  if (!stopped_running_reqs.empty()) running_ = remove_all(running_, stopped_running_reqs);
  if (!stopped_preempted_reqs.empty()) {
    waiting_->remove_requests(stopped_preempted_reqs);
    skipped_waiting_->remove_requests(stopped_preempted_reqs);
  }

  // Collect the KV cache events from the KV cache manager (no connector is ported) and publish them. The
  // batch's ts is time.time() upstream; the port has no clock, and the simulator stamps the message it
  // delivers with the step's end.
  std::vector<KVCacheEvent> events = kv_cache_manager_->take_events();
  if (!events.empty()) kv_event_publisher_->publish(KVEventBatch{0.0, std::move(events), std::nullopt});
  return outputs;
}

}  // namespace blis::vllm
