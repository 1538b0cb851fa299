// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of the fixtures of tests/v1/core/utils.py@6e448d0e and of the
// helpers of tests/v1/core/test_scheduler.py@6e448d0e and test_async_scheduler.py@6e448d0e; see harness.h.
#include "harness.h"

#include <stdexcept>
#include <string>

#include "v1/core/kv_cache_utils.h"
#include "v1/core/kv_cache_utils_hashing.h"
#include "v1/core/single_type_kv_cache_manager.h"

namespace blis::vllm::testing {
namespace {

// utils.py@6e448d0e create_requests: `init_none_hash(sha256)` once. PYTHONHASHSEED="0" makes NONE_HASH
// deterministic (upstream draws random bytes; no assertion depends on its value).
HashFn sha256_hash_fn() {
  static const HashFn fn = [] {
    HashFn f = get_hash_fn_by_name("sha256");
    init_none_hash(f, std::string("0"));
    return f;
  }();
  return fn;
}

// Request.arrival_time = time.time() at creation: increasing with every request made.
double next_arrival_time() {
  static double t = 1.0e9;
  t += 1.0;
  return t;
}

std::unique_ptr<Request> make_request(const std::string& req_id, std::vector<std::int32_t> prompt,
                                      std::int64_t max_tokens, double arrival_time, std::int64_t priority,
                                      bool ignore_eos, const std::vector<std::int32_t>& stop_token_ids,
                                      std::optional<std::int64_t> prompt_logprobs, std::int64_t block_size) {
  auto request = std::make_unique<Request>(req_id, std::move(prompt), max_tokens, arrival_time, priority, std::nullopt,
                                           std::nullopt, get_request_block_hasher(block_size, sha256_hash_fn()));
  // sampling_params.update_from_generation_config({}, EOS_TOKEN_ID): the EOS token unless ignore_eos.
  if (!ignore_eos) request->eos_token_id = EOS_TOKEN_ID;
  request->stop_token_ids = stop_token_ids;
  // SamplingParams.__post_init__: skip_reading_prefix_cache = prompt_logprobs is not None.
  request->skip_reading_prefix_cache = prompt_logprobs.has_value();
  return request;
}

}  // namespace

std::unique_ptr<Scheduler> create_scheduler(const SchedulerArgs& args) {
  VllmConfig vllm_config;
  vllm_config.model_config.model = "facebook/opt-125m";
  vllm_config.model_config.dtype = "float16";
  vllm_config.model_config.seed = 42;
  const std::int64_t max_model_len = args.max_model_len.value_or(args.max_num_batched_tokens);
  vllm_config.model_config.max_model_len = max_model_len;
  SchedulerConfig& sc = vllm_config.scheduler_config;
  sc.max_num_seqs = args.max_num_seqs;
  sc.max_num_batched_tokens = args.max_num_batched_tokens;
  sc.long_prefill_token_threshold = args.long_prefill_token_threshold;
  sc.enable_chunked_prefill = args.enable_chunked_prefill;
  sc.async_scheduling = args.async_scheduling;
  sc.watermark = 0.0;
  sc.policy = args.policy;
  sc.verify_max_model_len(max_model_len);
  CacheConfig& cc = vllm_config.cache_config;
  cc.block_size = args.block_size;
  cc.user_specified_block_size = true;
  cc.gpu_memory_utilization = 0.9;
  cc.cache_dtype = "auto";
  cc.enable_prefix_caching = args.enable_prefix_caching;
  vllm_config.parallel_config.pipeline_parallel_size = args.pipeline_parallel_size;
  if (args.kv_events) {
    KVEventsConfig events;
    events.enable_kv_cache_events = true;
    events.publisher = "zmq";
    vllm_config.kv_events_config = events;
  }

  FullAttentionSpec::Args spec;
  spec.block_size = args.block_size;
  spec.num_kv_heads = 1;
  spec.head_size = 1;
  spec.dtype = "float32";
  KVCacheConfig kv_cache_config;
  kv_cache_config.num_blocks = args.num_blocks;
  if (args.kv_groups.empty()) {
    kv_cache_config.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer"}, std::make_shared<FullAttentionSpec>(spec)});
  }
  for (std::size_t i = 0; i < args.kv_groups.size(); ++i) {
    const auto& g = args.kv_groups[i];
    const std::string layer = i == 0 ? "layer" : "layer" + std::to_string(i);
    std::shared_ptr<KVCacheSpec> group_spec;
    if (g.kind == "full") {
      group_spec = std::make_shared<FullAttentionSpec>(spec);
    } else if (g.kind == "sliding_window") {
      SlidingWindowSpec::Args sw;
      sw.block_size = args.block_size;
      sw.num_kv_heads = 1;
      sw.head_size = 1;
      sw.dtype = "float32";
      sw.sliding_window = g.param;
      group_spec = std::make_shared<SlidingWindowSpec>(sw);
    } else if (g.kind == "chunked_local") {
      ChunkedLocalAttentionSpec::Args cl;
      cl.block_size = args.block_size;
      cl.num_kv_heads = 1;
      cl.head_size = 1;
      cl.dtype = "float32";
      cl.attention_chunk_size = g.param;
      group_spec = std::make_shared<ChunkedLocalAttentionSpec>(cl);
    } else {
      throw std::invalid_argument("create_scheduler: kv group kind '" + g.kind + "'");
    }
    kv_cache_config.kv_cache_groups.push_back(KVCacheGroupSpec{{layer}, group_spec});
  }
  cc.num_gpu_blocks = args.num_blocks;

  std::unique_ptr<Scheduler> scheduler;
  if (args.async_scheduling) {
    scheduler = std::make_unique<AsyncScheduler>(vllm_config, kv_cache_config, args.block_size, args.block_size,
                                                 /*log_stats=*/true);
  } else {
    scheduler = std::make_unique<Scheduler>(vllm_config, kv_cache_config, args.block_size, args.block_size,
                                            /*log_stats=*/true);
  }
  SchedulerAccess::use_v2_model_runner(*scheduler) = args.use_v2_model_runner.value_or(false);
  return scheduler;
}

std::unique_ptr<Scheduler> create_scheduler_with_priority(SchedulerArgs args) {
  args.policy = "priority";
  args.enable_chunked_prefill = true;
  args.async_scheduling = false;
  return create_scheduler(args);
}

std::vector<std::unique_ptr<Request>> create_requests(std::int64_t num_requests, const RequestArgs& args) {
  std::vector<std::unique_ptr<Request>> requests;
  if (!args.req_ids.empty() && static_cast<std::int64_t>(args.req_ids.size()) != num_requests) {
    throw std::invalid_argument("create_requests: len(req_ids) != num_requests");
  }
  for (std::int64_t i = 0; i < num_requests; ++i) {
    const std::string req_id = args.req_ids.empty() ? std::to_string(i) : args.req_ids[static_cast<std::size_t>(i)];
    const std::int32_t token = args.same_prompt ? 0 : static_cast<std::int32_t>(i);
    std::vector<std::int32_t> prompt(static_cast<std::size_t>(args.num_tokens), token);
    requests.push_back(make_request(req_id, std::move(prompt), args.max_tokens, next_arrival_time(), 0, args.ignore_eos,
                                    args.stop_token_ids, args.prompt_logprobs, args.block_size));
  }
  return requests;
}

std::unique_ptr<Request> create_request(const RequestArgs& args) {
  auto requests = create_requests(1, args);
  return std::move(requests[0]);
}

std::unique_ptr<Request> create_request_with_prompt(const std::string& req_id, std::vector<std::int32_t> prompt,
                                                    const RequestArgs& args) {
  return make_request(req_id, std::move(prompt), args.max_tokens, next_arrival_time(), 0, args.ignore_eos,
                      args.stop_token_ids, args.prompt_logprobs, args.block_size);
}

std::vector<std::unique_ptr<Request>> create_requests_with_priority(
    std::int64_t num_requests, const std::vector<std::int64_t>& priorities,
    std::optional<std::vector<double>> arrival_times, std::int64_t num_tokens, std::int64_t max_tokens,
    std::int64_t starting_idx, bool same_prompt, std::int64_t block_size, std::vector<std::string> req_ids) {
  if (static_cast<std::int64_t>(priorities.size()) != num_requests) throw std::invalid_argument("priorities");
  std::vector<double> arrivals;
  if (arrival_times) {
    arrivals = *arrival_times;
  } else {
    for (std::int64_t i = 0; i < num_requests; ++i) arrivals.push_back(static_cast<double>(i));
  }
  std::vector<std::unique_ptr<Request>> requests;
  for (std::int64_t i = 0; i < num_requests; ++i) {
    const std::string req_id =
        req_ids.empty() ? std::to_string(i + starting_idx) : req_ids[static_cast<std::size_t>(i)];
    const auto token = static_cast<std::int32_t>(same_prompt ? starting_idx : i + starting_idx);
    std::vector<std::int32_t> prompt(static_cast<std::size_t>(num_tokens), token);
    const auto k = static_cast<std::size_t>(i);
    requests.push_back(make_request(req_id, std::move(prompt), max_tokens, arrivals[k], priorities[k],
                                    /*ignore_eos=*/false, {}, std::nullopt, block_size));
  }
  return requests;
}

std::unique_ptr<Request> make_request_at(const std::string& req_id, std::vector<std::int32_t> prompt,
                                         std::int64_t max_tokens, double arrival_time, std::int64_t priority,
                                         bool ignore_eos, std::int64_t block_size,
                                         const std::vector<std::int32_t>& stop_token_ids) {
  return make_request(req_id, std::move(prompt), max_tokens, arrival_time, priority, ignore_eos, stop_token_ids,
                      std::nullopt, block_size);
}

std::vector<Request*> pointers(const std::vector<std::unique_ptr<Request>>& requests) {
  std::vector<Request*> out;
  for (const auto& r : requests) out.push_back(r.get());
  return out;
}

void add_requests(Scheduler& scheduler, std::vector<std::unique_ptr<Request>>& requests) {
  for (auto& r : requests) scheduler.add_request(std::move(r));
}

ModelRunnerOutput model_runner_output(const std::vector<std::string>& req_ids,
                                      const std::vector<std::vector<std::int32_t>>& sampled_token_ids) {
  ModelRunnerOutput out;
  out.req_ids = req_ids;
  for (std::size_t i = 0; i < req_ids.size(); ++i) out.req_id_to_index[req_ids[i]] = i;
  out.sampled_token_ids = sampled_token_ids;
  return out;
}

UpdateResult update_from_output(Scheduler& scheduler, const SchedulerOutput& scheduler_output,
                                const ModelRunnerOutput& model_runner_output) {
  UpdateResult r;
  r.outputs = scheduler.update_from_output(scheduler_output, model_runner_output);
  r.stats = scheduler.make_stats();
  return r;
}

ModelRunnerOutput make_output(const Scheduler& scheduler) {
  std::vector<std::string> ids;
  std::vector<std::vector<std::int32_t>> sampled;
  for (const Request* r : scheduler.running()) {
    ids.push_back(r->request_id);
    sampled.push_back({1000});
  }
  return model_runner_output(ids, sampled);
}

ModelRunnerOutput make_model_runner_output(const SchedulerOutput& scheduler_output) {
  std::vector<std::string> ids;
  std::vector<std::vector<std::int32_t>> sampled;
  for (const auto& [id, n] : scheduler_output.num_scheduled_tokens) {
    sampled.push_back({static_cast<std::int32_t>(ids.size())});
    ids.push_back(id);
  }
  return model_runner_output(ids, sampled);
}

std::vector<std::string> new_req_ids(const SchedulerOutput& scheduler_output) {
  std::vector<std::string> ids;
  for (const auto& r : scheduler_output.scheduled_new_reqs) ids.push_back(r.req_id);
  return ids;
}

std::vector<std::string> ids_of(const std::vector<Request*>& requests) {
  std::vector<std::string> ids;
  for (const Request* r : requests) ids.push_back(r->request_id);
  return ids;
}

std::vector<std::string> ids_of(const RequestQueue& queue) { return ids_of(queue.in_order()); }

bool is_scheduled(const SchedulerOutput& scheduler_output, const std::string& req_id) {
  for (const auto& [id, n] : scheduler_output.num_scheduled_tokens) {
    if (id == req_id) return true;
  }
  return false;
}

Request* SchedulerAccess::install_running(Scheduler& s, std::unique_ptr<Request> request) {
  Request* r = request.get();
  requests(s)[r->request_id] = std::move(request);
  running(s).push_back(r);
  return r;
}

void RequestTracker::track(Request* request) {
  entries_[request->request_id] = Entry{request, false, true};
  snapshots_[request->request_id] = RequestSnapshot{};
}

void RequestTracker::track(const std::vector<Request*>& requests) {
  for (Request* r : requests) track(r);
}

void RequestTracker::observe(const Scheduler& scheduler) {
  for (auto& [id, e] : entries_) {
    if (!e.alive) continue;
    RequestSnapshot& s = snapshots_[id];
    s.status = e.request->status;
    s.output_token_ids = e.request->output_token_ids();
    s.num_output_tokens = e.request->num_output_tokens();
    s.num_prompt_tokens = e.request->num_prompt_tokens;
    s.num_stale_output_tokens = e.request->num_stale_output_tokens;
    if (scheduler.request(id) == e.request) {
      e.seen = true;
    } else if (e.seen) {
      e.alive = false;  // freed by the last call: alive only until the next one
    }
  }
}

void assert_scheduler_empty(Scheduler& scheduler) {
  // Scheduler metadata.
  EXPECT_EQ(SchedulerAccess::requests(scheduler).size(), 0u);
  EXPECT_EQ(scheduler.waiting().size(), 0u);
  EXPECT_EQ(scheduler.running().size(), 0u);
  EXPECT_EQ(SchedulerAccess::finished_req_ids(scheduler).size(), 0u);
  // KV cache manager.
  KVCacheManager& kv = scheduler.kv_cache_manager();
  EXPECT_EQ(kv.coordinator->single_type_managers[0]->req_to_blocks.size(), 0u);
  EXPECT_EQ(kv.coordinator->single_type_managers[0]->num_cached_block.size(), 0u);
  EXPECT_EQ(kv.block_pool->free_block_queue.num_free_blocks, kv.block_pool->num_gpu_blocks - 1);
  // Just the ref count on blocks is 0: hashes stay, since the prefix cache evicts lazily.
  for (const KVCacheBlock& block : kv.block_pool->blocks) EXPECT_EQ(block.ref_cnt, 0);
}

}  // namespace blis::vllm::testing
