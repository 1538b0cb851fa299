// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/engine/arg_utils.py@6e448d0e (EngineArgs: parsing `vllm serve`'s
// arguments, get_batch_defaults, _set_default_max_num_seqs_and_batched_tokens_args,
// _set_default_chunked_prefill_and_prefix_caching_args, create_engine_config) and of
// vllm/config/model.py@6e448d0e _get_and_verify_max_len, for the arguments this port models. Every other
// argument vLLM takes is refused by its upstream name (X1), and so is an argument vLLM does not know.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/vllm_config.h"
#include "contracts/doc/node.h"

namespace blis::vllm {

// What `vllm serve` learns from the model's config.json and the platform, as BLIS supplies it from the
// catalog (the graph's dims and layers, the chip's memory).
struct ModelFacts {
  std::string name;                       // the catalog model
  std::int64_t max_position_embeddings = 0;  // derived_max_model_len ("max_position_embeddings")
  std::int64_t num_attention_heads = 0;
  bool is_moe = false;
};
struct DeviceFacts {
  std::int64_t total_memory_bytes = 0;   // current_platform.get_device_total_memory()
  std::string device_name;               // current_platform.get_device_name()
};

// arg_utils.py@6e448d0e EngineArgs: the arguments as set (absent: not given, upstream's default applies).
struct EngineArgs {
  std::optional<std::string> model;
  std::optional<std::int64_t> max_model_len;
  std::optional<std::int64_t> max_num_seqs;
  std::optional<std::int64_t> max_num_batched_tokens;
  std::optional<std::int64_t> max_num_scheduled_tokens;
  std::optional<std::int64_t> block_size;
  std::optional<double> gpu_memory_utilization;
  std::optional<bool> enable_prefix_caching;
  std::optional<bool> enable_chunked_prefill;
  std::optional<bool> async_scheduling;
  std::optional<std::int64_t> long_prefill_token_threshold;
  std::optional<std::string> scheduling_policy;
  std::optional<std::int64_t> tensor_parallel_size;
  std::optional<std::int64_t> pipeline_parallel_size;
  std::optional<std::int64_t> data_parallel_size;
  std::optional<std::int64_t> num_gpu_blocks_override;
  std::optional<std::string> prefix_caching_hash_algo;
  std::optional<std::string> kv_cache_dtype;
  std::optional<std::string> dtype;
  std::optional<bool> enforce_eager;
  std::optional<std::int64_t> seed;
  std::optional<bool> scheduler_reserve_full_isl;
  std::optional<double> watermark;
  std::optional<std::vector<std::int64_t>> cudagraph_capture_sizes;
  std::optional<std::int64_t> max_cudagraph_capture_size;
  std::optional<std::string> performance_mode;
  std::optional<KVEventsConfig> kv_events_config;
  // Environment variables the port reads.
  std::optional<std::string> python_hash_seed;        // PYTHONHASHSEED
  bool allow_long_max_model_len = false;               // VLLM_ALLOW_LONG_MAX_MODEL_LEN
};

// Reads the deployment's engine args and env as `vllm serve` would (names with dashes, or underscores,
// which vLLM's FlexibleArgumentParser turns into dashes). Throws std::invalid_argument naming the
// argument, its value and the cause: an unknown or not modelled argument or variable, a value of the
// wrong type, a value outside upstream's allowed set or range.
EngineArgs parse_engine_args(const doc::Node* args, const std::map<std::string, doc::Node>* env);

// arg_utils.py@6e448d0e EngineArgs.create_engine_config for the modelled arguments on CUDA. Throws
// std::invalid_argument with upstream's own ValueError text for a configuration v0.27.1 rejects.
VllmConfig create_engine_config(const EngineArgs& args, const ModelFacts& model, const DeviceFacts& device);

// arg_utils.py@6e448d0e EngineArgs.get_batch_defaults for the OPENAI_API_SERVER usage context (`vllm
// serve`): {max_num_batched_tokens, max_num_seqs}.
std::pair<std::int64_t, std::int64_t> get_batch_defaults(const DeviceFacts& device);

}  // namespace blis::vllm
