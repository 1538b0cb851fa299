// engines/vllm's configuration resolution (VLM-3, X1, SIM-9): defaults resolved as the pinned vLLM release resolves
// them (arg_utils.py@6e448d0e get_batch_defaults and _set_default_max_num_seqs_and_batched_tokens_args,
// cache.py@6e448d0e CacheConfig defaults, model.py@6e448d0e _get_and_verify_max_len), and every refusal
// beside the closest input it accepts.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/arg_utils.h"

namespace blis::vllm {
namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

doc::Node scalar(std::string s) {
  doc::Node n;
  n.kind = doc::Kind::Scalar;
  n.scalar = std::move(s);
  return n;
}

doc::Node args(std::vector<std::pair<std::string, std::string>> kv) {
  doc::Node m;
  m.kind = doc::Kind::Map;
  for (auto& [k, v] : kv) m.entries.push_back(doc::Entry{scalar(k), scalar(v)});
  return m;
}

const ModelFacts kLlama8B{"meta-llama/Meta-Llama-3.1-8B", 131072, 32, false};
const DeviceFacts kH100{80 * kGiB, "NVIDIA H100 80GB HBM3"};
const DeviceFacts kA100{80 * kGiB, "NVIDIA A100-SXM4-80GB"};
const DeviceFacts kL40S{48 * kGiB, "NVIDIA L40S"};

VllmConfig resolve(std::vector<std::pair<std::string, std::string>> kv, const DeviceFacts& device = kH100,
                   const ModelFacts& model = kLlama8B, std::map<std::string, doc::Node> env = {}) {
  const doc::Node a = args(std::move(kv));
  return create_engine_config(parse_engine_args(&a, &env), model, device);
}

std::string refusal(std::vector<std::pair<std::string, std::string>> kv, const DeviceFacts& device = kH100,
                    const ModelFacts& model = kLlama8B, std::map<std::string, doc::Node> env = {}) {
  try {
    resolve(std::move(kv), device, model, std::move(env));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(VllmResolution, BatchDefaultsFollowDeviceMemoryAndName) {
  // arg_utils.py@6e448d0e get_batch_defaults: >= 70 GiB and not an A100 -> 8192 tokens / 1024 seqs for
  // the API server; otherwise 2048 / 256.
  const VllmConfig h100 = resolve({});
  EXPECT_EQ(h100.scheduler_config.max_num_batched_tokens, 8192);
  EXPECT_EQ(h100.scheduler_config.max_num_seqs, 1024);
  const VllmConfig a100 = resolve({}, kA100);
  EXPECT_EQ(a100.scheduler_config.max_num_batched_tokens, 2048);
  EXPECT_EQ(a100.scheduler_config.max_num_seqs, 256);
  const VllmConfig l40s = resolve({}, kL40S);
  EXPECT_EQ(l40s.scheduler_config.max_num_batched_tokens, 2048);
  EXPECT_EQ(l40s.scheduler_config.max_num_seqs, 256);
}

TEST(VllmResolution, CacheAndSchedulerDefaults) {
  const VllmConfig c = resolve({});
  EXPECT_EQ(c.cache_config.block_size, 16);
  EXPECT_FALSE(c.cache_config.user_specified_block_size);
  EXPECT_DOUBLE_EQ(c.cache_config.gpu_memory_utilization, 0.92);
  EXPECT_TRUE(c.cache_config.enable_prefix_caching);
  EXPECT_EQ(c.cache_config.prefix_caching_hash_algo, "sha256");
  EXPECT_TRUE(c.scheduler_config.enable_chunked_prefill);
  EXPECT_EQ(c.scheduler_config.policy, "fcfs");
  EXPECT_EQ(c.scheduler_config.long_prefill_token_threshold, 0);
  EXPECT_TRUE(c.scheduler_config.async_scheduling.value());
  EXPECT_EQ(c.model_config.max_model_len, 131072);
  // vllm.py@6e448d0e max_concurrent_batches: async scheduling on the V2 runner, pp 1 -> 2 batches.
  EXPECT_EQ(c.max_concurrent_batches(), 2);
  EXPECT_EQ(c.max_in_flight_tokens(), 2 * 8192);
}

TEST(VllmResolution, SetValuesAreKeptAndSpellingsAgree) {
  const VllmConfig c = resolve({{"max-num-seqs", "64"}, {"max_num_batched_tokens", "4096"}, {"block-size", "32"},
                                {"enable-prefix-caching", "false"}, {"no-async-scheduling", "true"},
                                {"scheduling-policy", "priority"}, {"long-prefill-token-threshold", "512"},
                                {"gpu-memory-utilization", "0.8"}, {"prefix-caching-hash-algo", "sha256_cbor"}});
  EXPECT_EQ(c.scheduler_config.max_num_seqs, 64);
  EXPECT_EQ(c.scheduler_config.max_num_batched_tokens, 4096);
  EXPECT_EQ(c.cache_config.block_size, 32);
  EXPECT_TRUE(c.cache_config.user_specified_block_size);
  EXPECT_FALSE(c.cache_config.enable_prefix_caching);
  EXPECT_FALSE(c.scheduler_config.async_scheduling.value());
  EXPECT_EQ(c.max_concurrent_batches(), 1);
  EXPECT_EQ(c.scheduler_config.policy, "priority");
  EXPECT_EQ(c.scheduler_config.long_prefill_token_threshold, 512);
  EXPECT_DOUBLE_EQ(c.cache_config.gpu_memory_utilization, 0.8);
  EXPECT_EQ(c.cache_config.prefix_caching_hash_algo, "sha256_cbor");
}

TEST(VllmResolution, DefaultBatchedTokensCappedBySeqsTimesModelLen) {
  // arg_utils.py@6e448d0e: min(max_num_seqs * max_model_len, default) when the user set no budget.
  const VllmConfig c = resolve({{"max-num-seqs", "2"}, {"max-model-len", "1024"}});
  EXPECT_EQ(c.scheduler_config.max_num_batched_tokens, 2048);
  const VllmConfig d = resolve({{"max-num-seqs", "16"}, {"max-model-len", "1024"}});
  EXPECT_EQ(d.scheduler_config.max_num_batched_tokens, 8192);
}

TEST(VllmResolution, ChunkedPrefillOffRaisesDefaultBudgetToModelLen) {
  const VllmConfig c = resolve({{"enable-chunked-prefill", "false"}, {"max-model-len", "16384"}});
  EXPECT_EQ(c.scheduler_config.max_num_batched_tokens, 16384);
  const VllmConfig d = resolve({{"enable-chunked-prefill", "false"}, {"max-model-len", "4096"}});
  EXPECT_EQ(d.scheduler_config.max_num_batched_tokens, 8192);
}

TEST(VllmResolution, ThroughputModeDoublesUnsetDefaults) {
  const VllmConfig c = resolve({{"performance-mode", "throughput"}});
  EXPECT_EQ(c.scheduler_config.max_num_batched_tokens, 16384);
  EXPECT_EQ(c.scheduler_config.max_num_seqs, 2048);
  const VllmConfig d = resolve({{"performance-mode", "throughput"}, {"max-num-seqs", "100"}});
  EXPECT_EQ(d.scheduler_config.max_num_seqs, 100);
}

TEST(VllmResolutionRefusal, MaxModelLenAboveDerived) {
  EXPECT_NE(refusal({{"max-model-len", "131073"}}).find("User-specified max_model_len (131073) is greater than the derived max_model_len (max_position_embeddings=131072"), std::string::npos);
  EXPECT_EQ(refusal({{"max-model-len", "131072"}}), "");
  std::map<std::string, doc::Node> env{{"VLLM_ALLOW_LONG_MAX_MODEL_LEN", scalar("1")}};
  EXPECT_EQ(refusal({{"max-model-len", "131073"}}, kH100, kLlama8B, env), "");
}

TEST(VllmResolutionRefusal, BatchedTokensBelowSeqs) {
  EXPECT_NE(refusal({{"max-num-batched-tokens", "63"}, {"max-num-seqs", "64"}}).find("max_num_batched_tokens (63) must be greater than or equal to max_num_seqs (64)."), std::string::npos);
  EXPECT_EQ(refusal({{"max-num-batched-tokens", "64"}, {"max-num-seqs", "64"}}), "");
}

TEST(VllmResolutionRefusal, NoChunkingWithBudgetBelowModelLen) {
  EXPECT_NE(refusal({{"enable-chunked-prefill", "false"}, {"max-num-batched-tokens", "4095"}, {"max-model-len", "4096"}}).find("max_num_batched_tokens (4095) is smaller than max_model_len (4096)"), std::string::npos);
  EXPECT_EQ(refusal({{"enable-chunked-prefill", "false"}, {"max-num-batched-tokens", "4096"}, {"max-model-len", "4096"}}), "");
  EXPECT_EQ(refusal({{"enable-chunked-prefill", "true"}, {"max-num-batched-tokens", "4095"}, {"max-model-len", "4096"}}), "");
}

TEST(VllmResolutionRefusal, LongPrefillThresholdAboveModelLen) {
  EXPECT_NE(refusal({{"long-prefill-token-threshold", "4097"}, {"max-model-len", "4096"}}).find("long_prefill_token_threshold (4097) cannot be greater than the max_model_len (4096)."), std::string::npos);
  EXPECT_EQ(refusal({{"long-prefill-token-threshold", "4096"}, {"max-model-len", "4096"}}), "");
}

TEST(VllmResolutionRefusal, UnknownAndNotModelledArgumentsByName) {
  EXPECT_NE(refusal({{"max-num-seq", "4"}}).find("unrecognized arguments: --max-num-seq"), std::string::npos);
  EXPECT_NE(refusal({{"speculative-config", "{}"}}).find("argument --speculative-config is not modelled"), std::string::npos);
  EXPECT_EQ(refusal({{"max-num-seqs", "4"}}), "");
  std::map<std::string, doc::Node> env{{"VLLM_ATTENTION_BACKEND", scalar("FLASHINFER")}};
  EXPECT_NE(refusal({}, kH100, kLlama8B, env).find("environment variable VLLM_ATTENTION_BACKEND is not modelled"), std::string::npos);
  std::map<std::string, doc::Node> seed{{"PYTHONHASHSEED", scalar("0")}};
  EXPECT_EQ(resolve({}, kH100, kLlama8B, seed).python_hash_seed, "0");
}

TEST(VllmResolutionRefusal, ValuesOfTheWrongTypeOrRange) {
  EXPECT_NE(refusal({{"max-num-seqs", "many"}}).find("argument --max-num-seqs: invalid int value: 'many'"), std::string::npos);
  EXPECT_NE(refusal({{"max-num-seqs", "0"}}).find("max-num-seqs = 0: Input should be greater than or equal to 1"), std::string::npos);
  EXPECT_EQ(refusal({{"max-num-seqs", "1"}}), "");
  EXPECT_NE(refusal({{"gpu-memory-utilization", "1.01"}}).find("gpu-memory-utilization = 1.01"), std::string::npos);
  EXPECT_EQ(refusal({{"gpu-memory-utilization", "1"}}), "");
  EXPECT_NE(refusal({{"scheduling-policy", "lifo"}}).find("invalid choice: 'lifo'"), std::string::npos);
  EXPECT_NE(refusal({{"enable-prefix-caching", "yes"}}).find("expected true or false"), std::string::npos);
}

TEST(VllmResolutionRefusal, NotModelledValues) {
  EXPECT_NE(refusal({{"prefix-caching-hash-algo", "xxhash"}}).find("prefix-caching-hash-algo xxhash is not modelled"), std::string::npos);
  EXPECT_EQ(refusal({{"prefix-caching-hash-algo", "sha256_cbor"}}), "");
  EXPECT_NE(refusal({{"kv-cache-dtype", "fp8_e5m2"}}).find("kv-cache-dtype fp8_e5m2 is not modelled"), std::string::npos);
  EXPECT_EQ(refusal({{"kv-cache-dtype", "fp8_e4m3"}}), "");
  EXPECT_NE(refusal({{"pipeline-parallel-size", "2"}}).find("pipeline-parallel-size 2 is not modelled"), std::string::npos);
  EXPECT_EQ(refusal({{"pipeline-parallel-size", "1"}}), "");
}

// vllm/config/kv_events.py@6e448d0e KVEventsConfig as --kv-events-config reads it (a JSON object): the publisher
// resolves as __post_init__ resolves it; unknown fields and publishers are refused beside their accepted twins, and
// the transport settings are refused away from their defaults.
TEST(VllmResolution, KvEventsConfig) {
  EXPECT_FALSE(resolve({}).kv_events_config);
  const VllmConfig on = resolve({{"kv-events-config", R"({"enable_kv_cache_events": true, "topic": "kv@p@"})"}});
  ASSERT_TRUE(on.kv_events_config);
  EXPECT_TRUE(on.kv_events_config->enable_kv_cache_events);
  EXPECT_EQ(on.kv_events_config->publisher, "zmq");
  EXPECT_EQ(on.kv_events_config->topic, "kv@p@");
  EXPECT_EQ(resolve({{"kv-events-config", R"({"enable_kv_cache_events": false})"}}).kv_events_config->publisher, "null");
  EXPECT_EQ(resolve({{"kv-events-config", R"({"enable_kv_cache_events": true, "publisher": "null"})"}}).kv_events_config->publisher,
            "null");
  EXPECT_EQ(resolve({{"kv-events-config", R"({"enable_kv_cache_events": true, "endpoint": "tcp://*:5557", "hwm": 100000})"}})
                .kv_events_config->endpoint,
            "tcp://*:5557");
}

TEST(VllmResolutionRefusal, KvEventsConfig) {
  EXPECT_NE(refusal({{"kv-events-config", R"({"enable_kv_cache_event": true})"}})
                .find("kv-events-config.enable_kv_cache_event: Unexpected keyword argument"),
            std::string::npos);
  EXPECT_NE(refusal({{"kv-events-config", R"({"enable_kv_cache_events": true, "publisher": "kafka"})"}}).find("invalid choice: 'kafka'"),
            std::string::npos);
  EXPECT_EQ(refusal({{"kv-events-config", R"({"enable_kv_cache_events": true, "publisher": "zmq"})"}}), "");
  EXPECT_NE(refusal({{"kv-events-config", R"({"enable_kv_cache_events": true, "endpoint": "tcp://epp:5557"})"}})
                .find("kv-events-config.endpoint = 'tcp://epp:5557' is not modelled by this port"),
            std::string::npos);
  EXPECT_NE(refusal({{"kv-events-config", R"({"hwm": 10})"}}).find("kv-events-config.hwm = 10 is not modelled"), std::string::npos);
  EXPECT_NE(refusal({{"kv-events-config", "enable_kv_cache_events=true"}}).find("is not a JSON object"), std::string::npos);
  EXPECT_NE(refusal({{"kv-events-config", "[1]"}}).find("takes a JSON object, not a"), std::string::npos);
}

TEST(VllmResolutionRefusal, HeadsNotDivisibleByTensorParallel) {
  const ModelFacts heads40{"m", 4096, 40, false};
  EXPECT_NE(refusal({{"tensor-parallel-size", "3"}}, kH100, heads40).find("Total number of attention heads (40) must be divisible by tensor parallel size (3)."), std::string::npos);
  EXPECT_EQ(refusal({{"tensor-parallel-size", "4"}}, kH100, heads40), "");
}

}  // namespace
}  // namespace blis::vllm
