// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of the configuration fields the port reads, from vllm/config/scheduler.py,
// vllm/config/cache.py, vllm/config/model.py, vllm/config/parallel.py, vllm/config/kv_events.py and vllm/config/vllm.py@6e448d0e
// (SchedulerConfig, CacheConfig, ModelConfig, ParallelConfig, VllmConfig): their defaults, their
// validators and the VllmConfig properties the scheduler reads. Fields the port does not model are not
// here: engine/arg_utils.cpp refuses them by their upstream names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace blis::vllm {

// scheduler.py@6e448d0e SchedulerConfig.
struct SchedulerConfig {
  static constexpr std::int64_t DEFAULT_MAX_NUM_BATCHED_TOKENS = 2048;
  static constexpr std::int64_t DEFAULT_MAX_NUM_SEQS = 128;
  std::string runner_type = "generate";
  std::int64_t max_num_batched_tokens = DEFAULT_MAX_NUM_BATCHED_TOKENS;
  std::optional<std::int64_t> max_num_scheduled_tokens;
  std::int64_t max_num_seqs = DEFAULT_MAX_NUM_SEQS;
  std::int64_t long_prefill_token_threshold = 0;
  bool enable_chunked_prefill = true;
  std::string policy = "fcfs";
  bool scheduler_reserve_full_isl = true;
  double watermark = 0.0;
  std::optional<bool> async_scheduling;
  std::int64_t stream_interval = 1;

  // scheduler.py@6e448d0e SchedulerConfig.verify_max_model_len: throws std::invalid_argument with
  // upstream's ValueError text.
  void verify_max_model_len(std::int64_t max_model_len) const;
};

// cache.py@6e448d0e CacheConfig.
struct CacheConfig {
  static constexpr std::int64_t DEFAULT_BLOCK_SIZE = 16;
  std::int64_t block_size = DEFAULT_BLOCK_SIZE;  // _apply_block_size_default resolved
  bool user_specified_block_size = false;
  double gpu_memory_utilization = 0.92;
  std::string cache_dtype = "auto";
  std::optional<std::int64_t> num_gpu_blocks_override;
  bool enable_prefix_caching = true;
  std::string prefix_caching_hash_algo = "sha256";
  std::optional<std::int64_t> num_gpu_blocks;  // set at start-up from the KV cache config
};

// model.py@6e448d0e ModelConfig (the fields the port reads).
struct ModelConfig {
  std::string model;
  std::string dtype = "auto";
  std::int64_t max_model_len = 0;  // resolved by _get_and_verify_max_len
  std::int64_t seed = 0;
  bool enforce_eager = false;
  bool is_moe = false;
  std::string runner_type = "generate";
};

// parallel.py@6e448d0e ParallelConfig (the fields the port reads).
struct ParallelConfig {
  std::int64_t tensor_parallel_size = 1;
  std::int64_t pipeline_parallel_size = 1;
  std::int64_t data_parallel_size = 1;
  std::int64_t decode_context_parallel_size = 1;
  std::int64_t prefill_context_parallel_size = 1;
  std::int64_t world_size() const { return tensor_parallel_size * pipeline_parallel_size; }
};

// vllm/config/kv_events.py@6e448d0e KVEventsConfig, after __post_init__ (publisher defaults to "zmq" when
// events are enabled, else "null").
struct KVEventsConfig {
  bool enable_kv_cache_events = false;
  std::string publisher;
  std::string endpoint = "tcp://*:5557";
  std::optional<std::string> replay_endpoint;
  std::int64_t buffer_steps = 10'000;
  std::int64_t hwm = 100'000;
  std::int64_t max_queue_size = 100'000;
  std::string topic;
};

// vllm.py@6e448d0e VllmConfig, with the environment variables the port reads.
struct VllmConfig {
  ModelConfig model_config;
  CacheConfig cache_config;
  ParallelConfig parallel_config;
  SchedulerConfig scheduler_config;
  std::optional<std::vector<std::int64_t>> cudagraph_capture_sizes;
  std::optional<std::int64_t> max_cudagraph_capture_size;
  std::optional<std::string> python_hash_seed;  // PYTHONHASHSEED, as kv_cache_utils.py init_none_hash reads it
  std::optional<KVEventsConfig> kv_events_config;  // --kv-events-config

  // vllm.py@6e448d0e VllmConfig.use_v2_model_runner (CUDA, Triton present, no override): a dense
  // model runs the V2 runner; a MoE model the V1 runner unless its architecture is on the pin's default
  // list, which this port cannot consult (SUB-20 forbids branching on architecture names): MoE is V1.
  bool use_v2_model_runner() const { return !model_config.is_moe; }
  // vllm.py@6e448d0e VllmConfig.max_concurrent_batches.
  std::int64_t max_concurrent_batches() const;
  // vllm.py@6e448d0e VllmConfig.max_in_flight_tokens.
  std::int64_t max_in_flight_tokens() const { return max_concurrent_batches() * scheduler_config.max_num_batched_tokens; }
};

}  // namespace blis::vllm
