// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/engine/arg_utils.py@6e448d0e and vllm/config/model.py@6e448d0e
// _get_and_verify_max_len; see arg_utils.h.
#include "engine/arg_utils.h"

#include "contracts/doc/parse.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string_view>

namespace blis::vllm {

namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("vllm: " + what); }

std::string scalar_of(const std::string& key, const doc::Node& v) {
  if (!v.is_scalar()) refuse("argument --" + key + " takes one value, not a " + doc::kind_name(v));
  return v.scalar;
}

std::int64_t as_int(const std::string& key, const doc::Node& v) {
  const std::string s = scalar_of(key, v);
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc{} || end != s.data() + s.size()) refuse("argument --" + key + ": invalid int value: '" + s + "'");
  return n;
}

double as_float(const std::string& key, const doc::Node& v) {
  const std::string s = scalar_of(key, v);
  double d = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(d)) {
    refuse("argument --" + key + ": invalid float value: '" + s + "'");
  }
  return d;
}

bool as_bool(const std::string& key, const doc::Node& v) {
  const std::string s = scalar_of(key, v);
  if (s == "true" || s == "True") return true;
  if (s == "false" || s == "False") return false;
  refuse("argument --" + key + ": expected true or false, not '" + s + "'");
}

std::string one_of(const std::string& key, const doc::Node& v, std::initializer_list<std::string_view> allowed) {
  const std::string s = scalar_of(key, v);
  if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return s;
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string("'") + std::string(a) + "'";
  refuse("argument --" + key + ": invalid choice: '" + s + "' (choose from " + list + ")");
}

std::int64_t at_least(const std::string& key, std::int64_t n, std::int64_t low) {
  if (n < low) refuse(key + " = " + std::to_string(n) + ": Input should be greater than or equal to " + std::to_string(low));
  return n;
}

std::vector<std::int64_t> int_list(const std::string& key, const doc::Node& v) {
  std::vector<std::int64_t> out;
  if (v.is_sequence()) {
    for (const auto& item : v.items) out.push_back(at_least(key, as_int(key, item), 1));
  } else {
    out.push_back(at_least(key, as_int(key, v), 1));
  }
  return out;
}

// Arguments the pinned vLLM release takes that change what a run decides but that this port does not model: refused
// by name so a user never believes they took effect (X1). engines/vllm/fields.json lists every field with
// its status; these are its not-modelled arguments users most often set.
constexpr std::string_view kNotModelled[] = {
    "speculative-config", "kv-transfer-config", "enable-lora", "max-loras",
    "quantization", "cpu-offload-gb", "kv-offloading-size", "kv-offloading-backend", "enable-expert-parallel",
    "decode-context-parallel-size", "prefill-context-parallel-size", "kv-cache-memory-bytes",
    "scheduler-cls", "disable-hybrid-kv-cache-manager", "mamba-cache-mode", "prefix-match-unit",
    "compilation-config", "stream-interval", "prefill-schedule-interval", "enable-dbo",
    "distributed-executor-backend", "max-num-partial-prefills", "max-long-partial-prefills",
};

// vllm/config/kv_events.py@6e448d0e KVEventsConfig as `--kv-events-config` reads it: a JSON object (the CLI's
// string) or, in a deployment file, the same object as a mapping; unknown fields are refused as the config
// dataclass refuses them, and __post_init__ resolves the publisher. The transport settings (endpoint,
// replay_endpoint, buffer_steps, hwm, max_queue_size) change nothing the simulator models -- the simulator is
// the socket and never drops a batch -- and are refused away from their defaults (engines/vllm/fields.json).
KVEventsConfig kv_events_config(const doc::Node& v) {
  const std::string key = "kv-events-config";
  const doc::Node* obj = &v;
  doc::Parsed parsed;
  if (v.is_scalar()) {
    doc::Diagnostics d(key);
    parsed = doc::parse(v.scalar, doc::Syntax::Json, d);
    if (!d.ok() || parsed.documents.size() != 1) refuse("argument --" + key + ": '" + v.scalar + "' is not a JSON object: " + d.str());
    obj = &parsed.documents.front();
  }
  if (!obj->is_map()) refuse("argument --" + key + " takes a JSON object, not a " + doc::kind_name(*obj));
  KVEventsConfig c;
  std::optional<std::string> publisher;
  for (const auto& e : obj->entries) {
    const std::string& f = e.first.scalar;
    const std::string name = key + "." + f;
    const doc::Node& x = e.second;
    if (f == "enable_kv_cache_events") c.enable_kv_cache_events = as_bool(name, x);
    else if (f == "publisher") publisher = one_of(name, x, {"null", "zmq"});
    else if (f == "topic") c.topic = scalar_of(name, x);
    else if (f == "endpoint") c.endpoint = scalar_of(name, x);
    else if (f == "replay_endpoint") c.replay_endpoint = x.is_null() ? std::nullopt : std::optional(scalar_of(name, x));
    else if (f == "buffer_steps") c.buffer_steps = as_int(name, x);
    else if (f == "hwm") c.hwm = as_int(name, x);
    else if (f == "max_queue_size") c.max_queue_size = as_int(name, x);
    else refuse(name + ": Unexpected keyword argument (KVEventsConfig takes enable_kv_cache_events, publisher, endpoint, "
                "replay_endpoint, buffer_steps, hwm, max_queue_size, topic)");
  }
  const KVEventsConfig defaults;
  auto transport = [&](const std::string& f, bool is_default, const std::string& value, const std::string& dflt) {
    if (!is_default) {
      refuse(key + "." + f + " = " + value + " is not modelled by this port (engines/vllm/fields.json lists its status): "
             "the simulator delivers every KV-event batch to the router itself; leave it at its default " + dflt + " to simulate");
    }
  };
  transport("endpoint", c.endpoint == defaults.endpoint, "'" + c.endpoint + "'", "'" + defaults.endpoint + "'");
  transport("replay_endpoint", !c.replay_endpoint, "'" + c.replay_endpoint.value_or("") + "'", "null");
  transport("buffer_steps", c.buffer_steps == defaults.buffer_steps, std::to_string(c.buffer_steps), std::to_string(defaults.buffer_steps));
  transport("hwm", c.hwm == defaults.hwm, std::to_string(c.hwm), std::to_string(defaults.hwm));
  transport("max_queue_size", c.max_queue_size == defaults.max_queue_size, std::to_string(c.max_queue_size),
            std::to_string(defaults.max_queue_size));
  // kv_events.py@6e448d0e KVEventsConfig.__post_init__
  c.publisher = publisher.value_or(c.enable_kv_cache_events ? "zmq" : "null");
  return c;
}

}  // namespace

EngineArgs parse_engine_args(const doc::Node* args, const std::map<std::string, doc::Node>* env) {
  EngineArgs a;
  if (args && !args->is_null()) {
    if (!args->is_map()) refuse("engine args must be a mapping of vLLM argument names to values, not a " + std::string(doc::kind_name(*args)));
    for (const auto& e : args->entries) {
      std::string key = e.first.scalar;
      if (key.starts_with("--")) key = key.substr(2);
      std::replace(key.begin(), key.end(), '_', '-');  // FlexibleArgumentParser: underscores read as dashes
      const doc::Node& v = e.second;
      if (key == "model") a.model = scalar_of(key, v);
      else if (key == "max-model-len") a.max_model_len = as_int(key, v);
      else if (key == "max-num-seqs") a.max_num_seqs = at_least(key, as_int(key, v), 1);
      else if (key == "max-num-batched-tokens") a.max_num_batched_tokens = at_least(key, as_int(key, v), 1);
      else if (key == "max-num-scheduled-tokens") a.max_num_scheduled_tokens = at_least(key, as_int(key, v), 0);
      else if (key == "block-size") a.block_size = at_least(key, as_int(key, v), 1);
      else if (key == "gpu-memory-utilization") {
        const double u = as_float(key, v);
        if (!(u > 0 && u <= 1)) refuse("gpu-memory-utilization = " + v.scalar + ": Input should be greater than 0 and less than or equal to 1");
        a.gpu_memory_utilization = u;
      } else if (key == "enable-prefix-caching") a.enable_prefix_caching = as_bool(key, v);
      else if (key == "no-enable-prefix-caching") a.enable_prefix_caching = !as_bool(key, v);
      else if (key == "enable-chunked-prefill") a.enable_chunked_prefill = as_bool(key, v);
      else if (key == "no-enable-chunked-prefill") a.enable_chunked_prefill = !as_bool(key, v);
      else if (key == "async-scheduling") a.async_scheduling = as_bool(key, v);
      else if (key == "no-async-scheduling") a.async_scheduling = !as_bool(key, v);
      else if (key == "long-prefill-token-threshold") a.long_prefill_token_threshold = at_least(key, as_int(key, v), 0);
      else if (key == "scheduling-policy") a.scheduling_policy = one_of(key, v, {"fcfs", "priority"});
      else if (key == "tensor-parallel-size" || key == "tp") a.tensor_parallel_size = at_least(key, as_int(key, v), 1);
      else if (key == "pipeline-parallel-size" || key == "pp") a.pipeline_parallel_size = at_least(key, as_int(key, v), 1);
      else if (key == "data-parallel-size" || key == "dp") a.data_parallel_size = at_least(key, as_int(key, v), 1);
      else if (key == "num-gpu-blocks-override") a.num_gpu_blocks_override = at_least(key, as_int(key, v), 1);
      else if (key == "prefix-caching-hash-algo") a.prefix_caching_hash_algo = one_of(key, v, {"sha256", "sha256_cbor", "xxhash", "xxhash_cbor"});
      else if (key == "kv-cache-dtype") a.kv_cache_dtype = one_of(key, v, {"auto", "bfloat16", "fp8", "fp8_ds_mla", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_per_token_head", "int8_per_token_head", "nvfp4", "turboquant_3bit_nc", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_k8v4"});
      else if (key == "dtype") a.dtype = one_of(key, v, {"auto", "bfloat16", "float", "float16", "float32", "half"});
      else if (key == "enforce-eager") a.enforce_eager = as_bool(key, v);
      else if (key == "seed") a.seed = as_int(key, v);
      else if (key == "scheduler-reserve-full-isl") a.scheduler_reserve_full_isl = as_bool(key, v);
      else if (key == "no-scheduler-reserve-full-isl") a.scheduler_reserve_full_isl = !as_bool(key, v);
      else if (key == "watermark") {
        const double w = as_float(key, v);
        if (!(w >= 0 && w < 1)) refuse("watermark = " + v.scalar + ": Input should be greater than or equal to 0 and less than 1");
        a.watermark = w;
      } else if (key == "cudagraph-capture-sizes") a.cudagraph_capture_sizes = int_list(key, v);
      else if (key == "max-cudagraph-capture-size") a.max_cudagraph_capture_size = at_least(key, as_int(key, v), 1);
      else if (key == "performance-mode") a.performance_mode = one_of(key, v, {"balanced", "interactivity", "throughput"});
      else if (key == "kv-events-config") a.kv_events_config = kv_events_config(v);
      else if (std::find(std::begin(kNotModelled), std::end(kNotModelled), key) != std::end(kNotModelled)) {
        refuse("argument --" + key + " is not modelled by this port (engines/vllm/fields.json lists its status); remove it to simulate");
      } else {
        refuse("unrecognized arguments: --" + key);
      }
    }
  }
  if (env) {
    for (const auto& [name, v] : *env) {
      if (name == "PYTHONHASHSEED") a.python_hash_seed = scalar_of(name, v);
      else if (name == "VLLM_ALLOW_LONG_MAX_MODEL_LEN") {
        const std::string s = scalar_of(name, v);
        a.allow_long_max_model_len = s == "1" || s == "true" || s == "True";
      } else {
        refuse("environment variable " + name + " is not modelled by this port (engines/vllm/fields.json lists its status); remove it to simulate");
      }
    }
  }
  return a;
}

// arg_utils.py@6e448d0e EngineArgs.get_batch_defaults (CUDA; usage context OPENAI_API_SERVER)
std::pair<std::int64_t, std::int64_t> get_batch_defaults(const DeviceFacts& device) {
  std::string name = device.device_name;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (device.total_memory_bytes >= 70 * kGiB && name.find("a100") == std::string::npos) return {8192, 1024};
  return {2048, 256};
}

namespace {

// model.py@6e448d0e _get_and_verify_max_len, for a config whose only length key is
// max_position_embeddings and whose RoPE scaling leaves it unchanged (the catalog's graph records no
// rope_parameters: a gap for yarn/longrope models, which scale it).
std::int64_t get_and_verify_max_len(const ModelFacts& model, std::optional<std::int64_t> max_model_len, bool allow_long) {
  const std::int64_t derived = model.max_position_embeddings;
  if (!max_model_len || *max_model_len == -1) return derived;
  if (*max_model_len > derived && !allow_long) {
    throw std::invalid_argument(
        "User-specified max_model_len (" + std::to_string(*max_model_len) +
        ") is greater than the derived max_model_len (max_position_embeddings=" + std::to_string(derived) +
        " or model_max_length=None in model's config.json). To allow overriding this maximum, set the env var "
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution. If the "
        "model uses relative position encoding (RoPE), positions exceeding derived_max_model_len lead to nan. If "
        "the model uses absolute position encoding, positions exceeding derived_max_model_len will cause a CUDA "
        "array out-of-bounds error.");
  }
  return *max_model_len;
}

}  // namespace

// arg_utils.py@6e448d0e EngineArgs.create_engine_config (the modelled part, in upstream's order)
VllmConfig create_engine_config(const EngineArgs& a, const ModelFacts& model, const DeviceFacts& device) {
  VllmConfig c;
  c.model_config.model = a.model.value_or(model.name);
  c.model_config.dtype = a.dtype.value_or("auto");
  c.model_config.seed = a.seed.value_or(0);
  c.model_config.enforce_eager = a.enforce_eager.value_or(false);
  c.model_config.is_moe = model.is_moe;
  if (a.max_model_len && *a.max_model_len == -1) refuse("max-model-len -1 (auto-fit to memory) is not modelled by this port");
  c.model_config.max_model_len = get_and_verify_max_len(model, a.max_model_len, a.allow_long_max_model_len);

  c.parallel_config.tensor_parallel_size = a.tensor_parallel_size.value_or(1);
  c.parallel_config.pipeline_parallel_size = a.pipeline_parallel_size.value_or(1);
  c.parallel_config.data_parallel_size = a.data_parallel_size.value_or(1);
  if (c.parallel_config.pipeline_parallel_size > 1) refuse("pipeline-parallel-size " + std::to_string(c.parallel_config.pipeline_parallel_size) + " is not modelled by this port yet (issue #7): use 1");
  if (c.parallel_config.data_parallel_size > 1) refuse("data-parallel-size " + std::to_string(c.parallel_config.data_parallel_size) + " is not modelled by this port yet (issue #7): run data-parallel replicas as pool replicas");
  // model.py@6e448d0e ModelConfig.verify_with_parallel_config
  if (model.num_attention_heads > 0 && model.num_attention_heads % c.parallel_config.tensor_parallel_size != 0) {
    throw std::invalid_argument("Total number of attention heads (" + std::to_string(model.num_attention_heads) +
                                ") must be divisible by tensor parallel size (" +
                                std::to_string(c.parallel_config.tensor_parallel_size) + ").");
  }

  CacheConfig& cache = c.cache_config;
  if (a.block_size) {
    cache.block_size = *a.block_size;
    cache.user_specified_block_size = true;
  }
  cache.gpu_memory_utilization = a.gpu_memory_utilization.value_or(0.92);
  cache.cache_dtype = a.kv_cache_dtype.value_or("auto");
  if (cache.cache_dtype != "auto" && cache.cache_dtype != "bfloat16" && cache.cache_dtype != "fp8" && cache.cache_dtype != "fp8_e4m3") {
    refuse("kv-cache-dtype " + cache.cache_dtype + " is not modelled by this port (modelled: auto, bfloat16, fp8, fp8_e4m3)");
  }
  cache.num_gpu_blocks_override = a.num_gpu_blocks_override;
  cache.prefix_caching_hash_algo = a.prefix_caching_hash_algo.value_or("sha256");
  if (cache.prefix_caching_hash_algo == "xxhash" || cache.prefix_caching_hash_algo == "xxhash_cbor") {
    refuse("prefix-caching-hash-algo " + cache.prefix_caching_hash_algo + " is not modelled by this port (it needs the xxhash package's xxh3_128; modelled: sha256, sha256_cbor)");
  }

  // arg_utils.py@6e448d0e _set_default_chunked_prefill_and_prefix_caching_args (a decoder-only model
  // supports both; hybrid models keep prefix caching opt-in, and this port runs no hybrid model).
  SchedulerConfig& sched = c.scheduler_config;
  const bool enable_chunked_prefill = a.enable_chunked_prefill.value_or(true);
  cache.enable_prefix_caching = a.enable_prefix_caching.value_or(true);

  // arg_utils.py@6e448d0e _set_default_max_num_seqs_and_batched_tokens_args
  const auto [default_tokens, default_seqs] = get_batch_defaults(device);
  std::int64_t max_num_batched_tokens = a.max_num_batched_tokens.value_or(default_tokens);
  std::int64_t max_num_seqs = a.max_num_seqs.value_or(default_seqs);
  if (a.performance_mode == "throughput") {
    if (!a.max_num_batched_tokens) max_num_batched_tokens *= 2;
    if (!a.max_num_seqs) max_num_seqs *= 2;
  }
  if (!a.max_num_batched_tokens) {
    if (!enable_chunked_prefill) max_num_batched_tokens = std::max(c.model_config.max_model_len, max_num_batched_tokens);
    max_num_batched_tokens = std::min(max_num_seqs * c.model_config.max_model_len, max_num_batched_tokens);
  }
  sched.max_num_batched_tokens = max_num_batched_tokens;
  sched.max_num_seqs = max_num_seqs;
  sched.max_num_scheduled_tokens = a.max_num_scheduled_tokens;
  sched.enable_chunked_prefill = enable_chunked_prefill;
  sched.long_prefill_token_threshold = a.long_prefill_token_threshold.value_or(0);
  sched.policy = a.scheduling_policy.value_or("fcfs");
  sched.scheduler_reserve_full_isl = a.scheduler_reserve_full_isl.value_or(true);
  sched.watermark = a.watermark.value_or(0.0);
  // vllm.py@6e448d0e VllmConfig.__post_init__: async scheduling defaults on for a generate model without
  // speculative decoding on an executor that supports it (uni and mp both do).
  sched.async_scheduling = a.async_scheduling.value_or(true);
  // scheduler.py@6e448d0e SchedulerConfig.__post_init__ -> verify_max_model_len
  sched.verify_max_model_len(c.model_config.max_model_len);

  c.cudagraph_capture_sizes = a.cudagraph_capture_sizes;
  c.max_cudagraph_capture_size = a.max_cudagraph_capture_size;
  c.python_hash_seed = a.python_hash_seed;
  c.kv_events_config = a.kv_events_config;
  return c;
}

}  // namespace blis::vllm
