// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/scheduler.py@6e448d0e: construction, requests,
// preemption and freeing, the step's bookkeeping and the counts; see scheduler.h.
#include "v1/core/sched/scheduler.h"

#include <stdexcept>
#include <utility>

#include "v1/core/sched/utils.h"

namespace blis::vllm {

// scheduler.py@6e448d0e Scheduler.__init__
Scheduler::Scheduler(const VllmConfig& vllm_config, const KVCacheConfig& kv_cache_config, std::int64_t block_size,
                     std::optional<std::int64_t> hash_block_size, bool log_stats)
    : vllm_config_(vllm_config),
      scheduler_config_(vllm_config_.scheduler_config),
      cache_config_(vllm_config_.cache_config),
      kv_cache_config_(kv_cache_config),
      log_stats_(log_stats) {
  max_num_running_reqs_ = scheduler_config_.max_num_seqs;
  max_num_scheduled_tokens_ = scheduler_config_.max_num_scheduled_tokens.value_or(scheduler_config_.max_num_batched_tokens);
  max_model_len_ = vllm_config_.model_config.max_model_len;
  if (!cache_config_.num_gpu_blocks || *cache_config_.num_gpu_blocks <= 0) {
    throw std::invalid_argument("Scheduler: cache_config.num_gpu_blocks must be set and positive");
  }
  block_size_ = block_size;
  policy_ = scheduling_policy_from(scheduler_config_.policy);
  waiting_ = create_request_queue(policy_);
  skipped_waiting_ = create_request_queue(policy_);
  hash_block_size_ = hash_block_size.value_or(block_size);
  kv_cache_manager_ = std::make_unique<KVCacheManager>(
      kv_cache_config_, max_model_len_, /*scheduler_block_size=*/block_size_, /*hash_block_size=*/hash_block_size_,
      /*max_in_flight_tokens=*/vllm_config_.max_in_flight_tokens(),
      /*enable_caching=*/cache_config_.enable_prefix_caching, /*use_eagle=*/false, /*log_stats=*/log_stats_,
      /*enable_kv_cache_events=*/vllm_config_.kv_events_config && vllm_config_.kv_events_config->enable_kv_cache_events,
      /*dcp_world_size=*/vllm_config_.parallel_config.decode_context_parallel_size, /*pcp_world_size=*/1,
      /*watermark=*/scheduler_config_.watermark);
  // scheduler.py@6e448d0e Scheduler.__init__: EventPublisherFactory.create(kv_events_config, data_parallel_index);
  // each data-parallel rank of this port is its own instance, of index 0.
  kv_event_publisher_ = create_event_publisher(vllm_config_.kv_events_config, 0);
  use_pp_ = vllm_config_.parallel_config.pipeline_parallel_size > 1;
  use_v2_model_runner_ = vllm_config_.use_v2_model_runner();
}

Request& Scheduler::request_at(const std::string& id) {
  auto it = requests_.find(id);
  if (it == requests_.end()) throw std::logic_error("Scheduler: unknown request " + id);
  return *it->second;
}

const Request* Scheduler::request(const std::string& id) const {
  auto it = requests_.find(id);
  return it == requests_.end() ? nullptr : it->second.get();
}

// scheduler.py@6e448d0e Scheduler._preempt_request
void Scheduler::preempt_request(Request& request, bool drop_stale_output) {
  if (request.status != RequestStatus::kRunning) throw std::logic_error("Only running requests can be preempted");
  kv_cache_manager_->free(request);  // _free_request_blocks with no deferred frees
  inflight_prefills_.erase(&request);
  request.status = RequestStatus::kPreempted;
  request.num_computed_tokens = 0;
  if (!request.spec_token_ids.empty()) request.spec_token_ids.clear();
  request.drop_stale_output = drop_stale_output || (request.drop_stale_output && request.num_stale_output_tokens > 0);
  request.num_stale_output_tokens = request.num_in_flight_tokens;
  request.num_output_placeholders = 0;
  request.num_preemptions += 1;
  waiting_->prepend_request(&request);
  reset_preempted_req_ids_.insert(request.request_id);
}

// scheduler.py@6e448d0e Scheduler._update_after_schedule
void Scheduler::update_after_schedule(SchedulerOutput& scheduler_output) {
  for (const auto& [req_id, num_scheduled_token] : scheduler_output.num_scheduled_tokens) {
    Request& request = request_at(req_id);
    request.num_computed_tokens += num_scheduled_token;
    request.num_in_flight_tokens += num_scheduled_token;
    request.is_prefill_chunk = request.num_computed_tokens < request.num_tokens() + request.num_output_placeholders;
    if (!request.is_prefill_chunk) inflight_prefills_.erase(&request);
  }
  finished_req_ids_.clear();
  reset_preempted_req_ids_.clear();
}

// scheduler.py@6e448d0e Scheduler._make_cached_request_data (lines 1410-1467; new_token_ids, sent only
// with PP and synchronous scheduling, is not ported)
CachedRequestData Scheduler::make_cached_request_data(const std::vector<Request*>& running_reqs,
                                                      const std::vector<Request*>& resumed_reqs,
                                                      const std::map<std::string, KVCacheBlocks>& req_to_new_blocks) const {
  CachedRequestData d;
  const std::size_t num_running_reqs = running_reqs.size();
  std::size_t idx = 0;
  auto add = [&](const Request* req) {
    const std::string& req_id = req->request_id;
    d.req_ids.push_back(req_id);
    if (idx >= num_running_reqs) d.resumed_req_ids.insert(req_id);
    // MRV1 only: the token ids of a request not scheduled in the previous step.
    if (!use_v2_model_runner_ && !prev_step_scheduled_req_ids_.contains(req_id)) {
      d.all_token_ids[req_id] = req->all_token_ids();
    }
    d.new_block_ids.push_back(req_to_new_blocks.at(req_id).get_block_ids_allow_none());
    d.num_computed_tokens.push_back(req->num_computed_tokens);
    d.num_output_tokens.push_back(req->num_output_tokens() + req->num_output_placeholders);
    ++idx;
  };
  for (const Request* r : running_reqs) add(r);
  for (const Request* r : resumed_reqs) add(r);
  return d;
}

// scheduler.py@6e448d0e Scheduler._is_blocked_waiting_status
bool Scheduler::is_blocked_waiting_status(RequestStatus status) {
  return status == RequestStatus::kWaitingForStructuredOutputGrammar || status == RequestStatus::kWaitingForRemoteKvs ||
         status == RequestStatus::kWaitingForStreamingReq;
}

// scheduler.py@6e448d0e Scheduler._enqueue_waiting_request
void Scheduler::enqueue_waiting_request(Request* request) {
  if (is_blocked_waiting_status(request->status)) skipped_waiting_->add_request(request);
  else waiting_->add_request(request);
}

// scheduler.py@6e448d0e Scheduler._select_waiting_queue_for_scheduling
RequestQueue* Scheduler::select_waiting_queue_for_scheduling() {
  if (policy_ == SchedulingPolicy::kFcfs) {
    if (*skipped_waiting_) return skipped_waiting_.get();
    if (*waiting_) return waiting_.get();
    return nullptr;
  }
  if (*waiting_ && *skipped_waiting_) {
    Request* waiting_req = waiting_->peek_request();
    Request* skipped_req = skipped_waiting_->peek_request();
    return *waiting_req < *skipped_req ? waiting_.get() : skipped_waiting_.get();
  }
  if (*waiting_) return waiting_.get();
  if (*skipped_waiting_) return skipped_waiting_.get();
  return nullptr;
}

// scheduler.py@6e448d0e Scheduler._update_request_with_output
std::pair<std::vector<std::int32_t>, bool> Scheduler::update_request_with_output(Request& request,
                                                                                 std::vector<std::int32_t> new_token_ids,
                                                                                 bool) {
  bool stopped = false;
  for (std::size_t num_new = 1; num_new <= new_token_ids.size(); ++num_new) {
    request.append_output_token_id(new_token_ids[num_new - 1]);
    stopped = check_stop(request, max_model_len_);
    if (stopped) {
      new_token_ids.resize(num_new);
      break;
    }
  }
  return {std::move(new_token_ids), stopped};
}

// scheduler.py@6e448d0e Scheduler.add_request (a new id; streaming sessions are not ported)
void Scheduler::add_request(std::unique_ptr<Request> request) {
  if (requests_.contains(request->request_id)) throw std::logic_error("duplicate request id " + request->request_id);
  Request* r = request.get();
  requests_.emplace(r->request_id, std::move(request));
  enqueue_waiting_request(r);
}

// scheduler.py@6e448d0e Scheduler.finish_requests
std::vector<std::string> Scheduler::finish_requests(const std::vector<std::string>& request_ids,
                                                    RequestStatus finished_status) {
  if (!is_finished(finished_status)) throw std::logic_error("finish_requests: not a finished status");
  std::set<Request*> running_requests_to_remove;
  std::set<Request*> waiting_requests_to_remove;
  std::vector<Request*> valid_requests;
  std::set<std::string> seen;
  for (const std::string& req_id : request_ids) {
    if (!seen.insert(req_id).second) continue;  // request_ids is a set upstream
    auto it = requests_.find(req_id);
    if (it == requests_.end() || it->second->is_finished()) continue;
    Request* request = it->second.get();
    valid_requests.push_back(request);
    if (request->status == RequestStatus::kRunning) running_requests_to_remove.insert(request);
    else waiting_requests_to_remove.insert(request);
  }
  if (!running_requests_to_remove.empty()) running_ = remove_all(running_, running_requests_to_remove);
  if (!waiting_requests_to_remove.empty()) {
    waiting_->remove_requests(waiting_requests_to_remove);
    skipped_waiting_->remove_requests(waiting_requests_to_remove);
  }
  std::vector<std::string> finished;
  for (Request* request : valid_requests) {
    request->status = finished_status;
    finished.push_back(request->request_id);
    free_request(*request);
  }
  return finished;
}

// scheduler.py@6e448d0e Scheduler._free_request (no connector: blocks are freed at once)
void Scheduler::free_request(Request& request) {
  if (!request.is_finished()) throw std::logic_error("_free_request of an unfinished request");
  inflight_prefills_.erase(&request);
  finished_req_ids_.insert(request.request_id);
  free_blocks(request);
}

// scheduler.py@6e448d0e Scheduler._free_blocks
void Scheduler::free_blocks(Request& request) {
  kv_cache_manager_->free(request);
  // `del self.requests[...]`: Python keeps the object alive while callers hold it; here it moves to
  // retired_, emptied when the next schedule() or update_from_output() starts.
  auto it = requests_.find(request.request_id);
  retired_.push_back(std::move(it->second));
  requests_.erase(it);
}

// scheduler.py@6e448d0e Scheduler.reset_prefix_cache (lines 2423-2463; no connector to reset)
bool Scheduler::reset_prefix_cache(bool reset_running_requests) {
  if (reset_running_requests) {
    // Preempt in reverse order so the requests are added back to the running queue in FIFO order.
    while (!running_.empty()) {
      Request* request = running_.back();
      running_.pop_back();
      preempt_request(*request, /*drop_stale_output=*/true);
    }
    // Preemption and resumption in the same step: act as if these were not scheduled in the prior step.
    prev_step_scheduled_req_ids_.clear();
  }
  const bool reset_successful = kv_cache_manager_->reset_prefix_cache();
  if (reset_running_requests && !reset_successful) {
    throw std::runtime_error(
        "Failed to reset KV cache even when all the running requests are preempted and moved to the waiting "
        "queue. This is likely due to the presence of running requests waiting for remote KV transfer, which "
        "is not supported yet.");
  }
  return reset_successful;
}

// scheduler.py@6e448d0e Scheduler.get_request_counts
std::pair<std::int64_t, std::int64_t> Scheduler::get_request_counts() const {
  return {static_cast<std::int64_t>(running_.size()),
          static_cast<std::int64_t>(waiting_->size() + skipped_waiting_->size())};
}

// scheduler.py@6e448d0e Scheduler.get_kv_cache_usage
double Scheduler::get_kv_cache_usage() const { return kv_cache_manager_->usage(); }

// scheduler.py@6e448d0e Scheduler.get_num_unfinished_requests (unpaused)
std::int64_t Scheduler::get_num_unfinished_requests() const {
  return static_cast<std::int64_t>(waiting_->size() + skipped_waiting_->size() + running_.size());
}

// scheduler.py@6e448d0e Scheduler.make_stats
SchedulerStats Scheduler::make_stats() {
  SchedulerStats s;
  s.num_running_reqs = static_cast<std::int64_t>(running_.size());
  s.num_waiting_reqs = static_cast<std::int64_t>(waiting_->size());
  s.num_skipped_waiting_reqs = static_cast<std::int64_t>(skipped_waiting_->size());
  s.kv_cache_usage = kv_cache_manager_->usage();
  if (auto stats = kv_cache_manager_->make_prefix_cache_stats()) {
    s.prefix_cache_queries = stats->queries;
    s.prefix_cache_hits = stats->hits;
  }
  return s;
}

}  // namespace blis::vllm
