// Original to BLIS: the resolution tests engines/sglang/fields.json cites as the evidence of its modelled fields
// (SGL-3 under VLM-3's rules). Each test sets a modelled ServerArgs argument or environment variable the way a
// user does, through parse_server_args (the `args:` and `env:` of a deployment), and checks the value the port
// resolves from it and its effect on the plan, the pool or a scheduling decision: on the engine core built through
// the registry on the production Environment (Llama-3.1-8B on one H100-SXM unless a test says otherwise), or, for
// the settings that act on per-request priorities (which the engine contract does not carry), on the ported
// Scheduler configured from the parsed arguments. The last tests check that fields.json and parse_server_args
// cannot drift apart: every field fields.json marks modelled is taken at each of its value classes, and every
// argument or variable parse_server_args takes is modelled, or is one of the few listed here with why.
//
// Expected values are worked out by hand from the pinned upstream, as each test's comment spells out:
// python/sglang/srt/server_args.py@71de97b2 (ServerArgs._handle_gpu_memory_settings, reserve_for_graph_mb,
// _generate_decode_cuda_graph_batch_sizes, _generate_prefill_cuda_graph_batch_sizes, _parse_cuda_graph_config,
// _get_default_attn_backend, check_server_args), python/sglang/srt/arg_groups/overrides.py@71de97b2
// (_attention_backend_fa3_fp8_fallback, _mla_backend_page_constraints), python/sglang/srt/configs/model_config.py@71de97b2
// (_derive_context_length), python/sglang/srt/model_executor/pool_configurator.py@71de97b2 (_compute_cell_size),
// python/sglang/srt/mem_cache/kv_cache_configurator.py@71de97b2 (resolve_max_num_reqs, the allocator choice),
// python/sglang/srt/managers/tp_worker.py@71de97b2 (get_worker_info), python/sglang/srt/managers/scheduler.py@71de97b2
// (_abort_on_queued_limit, _set_or_validate_priority, get_new_batch_prefill), python/sglang/srt/managers/
// schedule_policy.py@71de97b2 (PrefillAdder, SchedulePolicy), python/sglang/srt/managers/schedule_batch.py@71de97b2
// (retract_decode), python/sglang/srt/managers/scheduler_components/new_token_ratio_tracker.py@71de97b2,
// python/sglang/srt/managers/scheduler_components/metrics_reporter.py@71de97b2,
// python/sglang/srt/managers/tokenizer_manager.py@71de97b2 (_validate_one_request),
// python/sglang/srt/managers/utils.py@71de97b2 (validate_input_length) and
// python/sglang/srt/observability/metrics_collector.py@71de97b2 (the model_name label).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "schema/fields-list.h"
#include "srt/entrypoints/engine_core.h"
#include "srt/entrypoints/server_args_cli.h"
#include "srt/managers/scheduler.h"
#include "tests/sglang/engine/engine_harness.h"
#include "tests/sim/embedded_environment.h"

namespace blis::sglang {
extern const char* const kSglangFieldsJson;  // engines/sglang/fields.json, embedded at build time
}  // namespace blis::sglang

namespace blis::sglang::test {
namespace {


constexpr const char* kLlama8B = "meta-llama/Meta-Llama-3.1-8B";
constexpr const char* kQwen8B = "Qwen/Qwen3-8B";
constexpr const char* kVersion = "0.5.18";  // the release engines/sglang ports (versions.yaml)

using V = std::vector<std::int64_t>;

doc::Node scalar(const std::string& s) { return test_support::scalar(s); }

doc::Node int_list(const V& v) {
  doc::Node n;
  n.kind = doc::Kind::Sequence;
  for (const std::int64_t x : v) n.items.push_back(scalar(std::to_string(x)));
  return n;
}

// An `args:` mapping: the model first (unless the arguments name it), then the arguments in order.
doc::Node args_node(const std::vector<std::pair<std::string, doc::Node>>& args, const std::string& model = kLlama8B) {
  doc::Node a;
  a.kind = doc::Kind::Map;
  const bool names_model =
      std::any_of(args.begin(), args.end(), [](const auto& e) { return e.first == "model-path" || e.first == "model"; });
  if (!names_model) a.entries.push_back(doc::Entry{scalar("model-path"), scalar(model)});
  for (const auto& [k, v] : args) a.entries.push_back(doc::Entry{scalar(k), v});
  return a;
}

std::map<std::string, doc::Node> env_node(const std::map<std::string, std::string>& env) {
  std::map<std::string, doc::Node> out;
  for (const auto& [k, v] : env) out[k] = scalar(v);
  return out;
}

using Args = std::vector<std::pair<std::string, doc::Node>>;

Args strs(const std::vector<std::pair<std::string, std::string>>& a) {
  Args out;
  for (const auto& [k, v] : a) out.emplace_back(k, scalar(v));
  return out;
}

// The engine core for the arguments on one instance of `chip` (8 GPUs a node), built through the registry (both
// construction phases) on the production Environment.
std::unique_ptr<EngineCore> engine(const Args& args, const std::map<std::string, std::string>& env = {},
                                   const std::string& chip = "H100-SXM") {
  engine::Spec spec = test_support::engine_spec("sglang", kVersion, {}, env);
  spec.engine.args = args_node(args);
  spec.chip = chip;
  return build_core(spec);
}

std::unique_ptr<EngineCore> engine(const std::vector<std::pair<std::string, std::string>>& args,
                                   const std::map<std::string, std::string>& env = {}, const std::string& chip = "H100-SXM") {
  return engine(strs(args), env, chip);
}


ParsedServerArgs parse(const std::vector<std::pair<std::string, std::string>>& args,
                       const std::map<std::string, std::string>& env = {}) {
  const doc::Node a = args_node(strs(args));
  const std::map<std::string, doc::Node> e = env_node(env);
  return parse_server_args(&a, &e);
}

// --- The model, parallelism and serving settings -----------------------------------------------------------

// --model-path picks the catalog graph: model_config.py@71de97b2 _derive_context_length takes its
// max_position_embeddings (Llama-3.1-8B 131072, Qwen3-8B 40960), and pool_configurator.py@71de97b2
// _compute_cell_size sizes a token's KV from its layers: 8 KV heads x (128 + 128) x layers x 2 bytes, 32 layers
// (131072 B) and 36 layers (147456 B).
TEST(SglServerArgsResolution, ModelPathPicksTheGraph) {
  const auto llama = engine(Args{});
  EXPECT_EQ(llama->server_args().lowering.model, kLlama8B);
  EXPECT_EQ(llama->resolved().context_len, 131072);
  EXPECT_EQ(llama->memory_pool().cell_size, 131072);
  const auto qwen = engine({{"model-path", kQwen8B}});
  EXPECT_EQ(qwen->server_args().lowering.model, kQwen8B);
  EXPECT_EQ(qwen->resolved().context_len, 40960);
  EXPECT_EQ(qwen->memory_pool().cell_size, 147456);
  // The alias --model (server_args.py@71de97b2 Arg(aliases=["--model"])).
  EXPECT_EQ(engine({{"model", kQwen8B}})->resolved().context_len, 40960);
}

// --served-model-name is the model_name label of every gauge (metrics_collector.py@71de97b2:1097); unset, it is
// the model path (server_args.py@71de97b2:4259-4260).
TEST(SglServerArgsResolution, ServedModelNameLabelsTheGauges) {
  const auto named = engine({{"enable-metrics", "true"}, {"served-model-name", "llama-chat"}});
  ASSERT_FALSE(named->published().samples.empty());
  for (const auto& s : named->published().samples)
    EXPECT_EQ(s.labels.front(), (std::pair<std::string, std::string>{"model_name", "llama-chat"}));
  const auto unnamed = engine({{"enable-metrics", "true"}});
  for (const auto& s : unnamed->published().samples)
    EXPECT_EQ(s.labels.front(), (std::pair<std::string, std::string>{"model_name", kLlama8B}));
}

// --tp-size on an 80 GB H100 (76293 MiB; 60*1024 <= g < 90*1024 in _handle_gpu_memory_settings): the decode
// CUDA-graph max_bs is 256 below tp 4 and 512 from it (server_args.py@71de97b2:4863), and the reserve's parallel
// term is tp * 1 / 8 * 1024. tp 2: reserved = 512 + 8192*1.5 (12288) + 256 + (256*2 + 58 prefill buckets * 8 =
// 976) = 14032 -> round((76293 - 14032) / 76293, 3) = 0.816; tp 4: 512 + 12288 + 512 + (512*2 + 464 = 1488) =
// 14800 -> round(0.806011, 3) = 0.806; tp 8: 512 + 12288 + 1024 + 1488 = 15312 -> round(0.799300, 3) = 0.799.
// A rank holds max(1, 8 // tp) KV heads: 4 heads x 256 x 32 x 2 = 65536 B at tp 2, 32768 at tp 4, 16384 at tp 8.
TEST(SglServerArgsResolution, TpSizeSetsTheGraphCapAndTheShard) {
  const auto tp2 = engine({{"tp-size", "2"}});
  EXPECT_EQ(tp2->server_args().lowering.tp, 2);
  EXPECT_EQ(tp2->resolved().memory.decode_max_bs, 256);
  EXPECT_EQ(*tp2->resolved().memory.reserved_mem_mib, 14032.0);
  EXPECT_EQ(tp2->resolved().memory.mem_fraction_static, 0.816);
  EXPECT_EQ(tp2->memory_pool().cell_size, 65536);
  const auto tp4 = engine({{"tp-size", "4"}});
  EXPECT_EQ(tp4->resolved().memory.decode_max_bs, 512);
  EXPECT_EQ(*tp4->resolved().memory.reserved_mem_mib, 14800.0);
  EXPECT_EQ(tp4->resolved().memory.mem_fraction_static, 0.806);
  EXPECT_EQ(tp4->memory_pool().cell_size, 32768);
  const auto tp8 = engine({{"tensor-parallel-size", "8"}});
  EXPECT_EQ(tp8->resolved().memory.decode_max_bs, 512);
  EXPECT_EQ(tp8->resolved().memory.mem_fraction_static, 0.799);
  EXPECT_EQ(tp8->memory_pool().cell_size, 16384);
}

// --pp-size and --dp-size are read but not modelled: the engine builds at their default 1 and refuses any other
// value by name (fields.json marks both not modelled, with no estimation rule).
TEST(SglServerArgsResolution, PpSizeAndDpSizeAreRefusedAwayFromOne) {
  EXPECT_EQ(error_of([] { engine({{"pp-size", "1"}, {"dp-size", "1"}}); }), "");
  const std::string pp = error_of([] { engine({{"pp-size", "2"}}); });
  EXPECT_NE(pp.find("pp_size=2 is not modelled by this port"), std::string::npos) << pp;
  const std::string dp = error_of([] { engine({{"dp-size", "2"}}); });
  EXPECT_NE(dp.find("--dp-size 2 is not modelled by this port"), std::string::npos) << dp;
}

// --random-seed is read nowhere by the port (upstream it seeds the sampler and the random policy, which the port
// refuses), so fields.json marks it not modelled and setting it is refused with that reason (X1); the twin without
// it parses.
TEST(SglServerArgsResolution, RandomSeedIsRefused) {
  EXPECT_EQ(error_of([] { (void)parse({{"model-path", kLlama8B}}); }), "");
  const std::string e = error_of([] { (void)parse({{"model-path", kLlama8B}, {"random-seed", "7"}}); });
  EXPECT_NE(e.find("argument --random-seed is not modelled by this port"), std::string::npos) << e;
}

// --context-length 4096 (no more than the derived 131072, model_config.py@71de97b2 _derive_context_length) is the
// context the scheduler sizes requests by: max_req_len = min(4096 - 1, pool - 1) = 4095 and max_req_input_len =
// 4095 - 5 (tp_worker.py@71de97b2 get_worker_info).
TEST(SglServerArgsResolution, ContextLengthBoundsRequests) {
  const auto e = engine({{"context-length", "4096"}});
  EXPECT_EQ(e->resolved().context_len, 4096);
  EXPECT_EQ(e->scheduler().config().context_len, 4096);
  EXPECT_EQ(e->scheduler().max_req_len(), 4095);
  EXPECT_EQ(e->scheduler().max_req_input_len(), 4090);
}

// --allow-auto-truncate: tokenizer_manager.py@71de97b2 _validate_one_request refuses an input of context_len
// tokens without it and truncates it to context_len with it; the scheduler's validate_input_length
// (managers/utils.py@71de97b2) then truncates it to max_req_input_len (4090 at context 4096), so the prompt runs as
// one extend of 4090 new tokens.
TEST(SglServerArgsResolution, AllowAutoTruncateTruncatesAnOverlongInput) {
  const auto strict = engine({{"context-length", "4096"}});
  EXPECT_TRUE(strict->add_request(request("x", 4096, 1)).has_value());
  const auto lax = engine({{"context-length", "4096"}, {"allow-auto-truncate", "true"}, {"disable-overlap-schedule", "true"}});
  EXPECT_TRUE(lax->server_args().scheduler.allow_auto_truncate);
  ASSERT_FALSE(lax->add_request(request("x", 4096, 1)).has_value());
  const Record r = drain(*lax);
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(r.steps[0].shape.ranks->at(0).requests->at(0).new_tokens->value(), 4090);
}

// --served-model-name aside, the serving settings --enable-metrics and --decode-log-interval decide what llm-d
// scrapes. metrics_reporter.py@71de97b2:751: a decode batch reports the gauges only when forward_ct_decode %
// decode_log_interval == 0 (a prefill batch always does). "a" (prompt 100, 3 tokens) and "b" (100, 30) prefill
// together (running 2 reported); "a" finishes after two decodes; "b" decodes 27 more steps alone. With interval 1
// the last decode report counts b alone (1); with the default 40 no decode step reaches a report, so the gauge
// still holds the prefill's 2. Without --enable-metrics nothing is published.
TEST(SglServerArgsResolution, EnableMetricsAndDecodeLogIntervalSetWhatIsPublished) {
  const auto off = engine({{"disable-overlap-schedule", "true"}});
  EXPECT_FALSE(off->server_args().enable_metrics);
  off->add_request(request("a", 100, 3));
  drain(*off);
  EXPECT_TRUE(off->published().samples.empty());
  for (const auto& [interval, running] : std::vector<std::pair<std::string, double>>{{"1", 1.0}, {"40", 2.0}}) {
    const auto e = engine({{"enable-metrics", "true"}, {"decode-log-interval", interval}, {"disable-overlap-schedule", "true"}});
    EXPECT_EQ(e->server_args().decode_log_interval, std::stoll(interval));
    e->add_request(request("a", 100, 3));
    e->add_request(request("b", 100, 30, std::nullopt, 5000));
    const Record r = drain(*e);
    EXPECT_EQ(r.emitted.at("b"), 30);
    double got = -1;
    for (const auto& s : e->published().samples)
      if (s.name == "sglang:num_running_reqs") got = s.value;
    EXPECT_EQ(got, running) << "decode-log-interval " << interval;
  }
}

// --kv-events-config (disaggregation/kv_events.py@71de97b2 KVEventsConfig): the cache records events whenever the
// config is given; the zmq publisher publishes them on the configured topic, the null one (the default) does not.
TEST(SglServerArgsResolution, KvEventsConfigSelectsThePublisher) {
  const auto zmq = engine({{"kv-events-config", R"({"publisher": "zmq", "topic": "kv@pod-0@meta-llama/Meta-Llama-3.1-8B"})"}});
  EXPECT_EQ(zmq->server_args().kv_events_publisher, "zmq");
  EXPECT_EQ(zmq->server_args().kv_events_topic, "kv@pod-0@meta-llama/Meta-Llama-3.1-8B");
  EXPECT_TRUE(zmq->server_args().scheduler.enable_kv_cache_events);
  zmq->add_request(request("a", 100, 2));
  const Record r = drain(*zmq);
  ASSERT_FALSE(r.kv_events.empty());
  EXPECT_EQ(r.kv_events.front().topic, "kv@pod-0@meta-llama/Meta-Llama-3.1-8B");
  const auto null = engine({{"kv-events-config", R"({"topic": "kv@pod-0@m"})"}});
  EXPECT_EQ(null->server_args().kv_events_publisher, "null");
  null->add_request(request("a", 100, 2));
  EXPECT_TRUE(drain(*null).kv_events.empty());
  EXPECT_FALSE(engine(Args{})->server_args().scheduler.enable_kv_cache_events);
}

// --- Memory, attention and CUDA graphs ----------------------------------------------------------------------

// --mem-fraction-static given is kept and no reserve is computed (_handle_gpu_memory_settings); a smaller
// fraction leaves fewer KV bytes (kv_cache_configurator.py@71de97b2 _profile_available_bytes: rest = free -
// total * (1 - fraction)).
TEST(SglServerArgsResolution, MemFractionStaticSizesTheKvBudget) {
  const auto half = engine({{"mem-fraction-static", "0.5"}});
  EXPECT_EQ(half->resolved().memory.mem_fraction_static, 0.5);
  EXPECT_FALSE(half->resolved().memory.reserved_mem_mib.has_value());
  const auto dflt = engine(Args{});
  EXPECT_EQ(dflt->resolved().memory.mem_fraction_static, 0.818);
  EXPECT_LT(half->memory_pool().available_bytes, dflt->memory_pool().available_bytes);
  EXPECT_LT(half->memory_pool().max_total_num_tokens, dflt->memory_pool().max_total_num_tokens);
}

// --max-total-tokens 100000 caps the pool (page 1: 100000 // 1 * 1); the request slots stay
// max(min(int(100000 / 131072 * 512) = 390, 4096), 2048) = 2048, within 100000 // 2 (resolve_max_num_reqs).
TEST(SglServerArgsResolution, MaxTotalTokensCapsThePool) {
  const auto e = engine({{"max-total-tokens", "100000"}});
  EXPECT_EQ(e->memory_pool().max_total_num_tokens, 100000);
  EXPECT_EQ(e->scheduler().config().max_total_num_tokens, 100000);
  EXPECT_EQ(e->memory_pool().max_running_requests, 2048);
}

// --max-running-requests 3: resolve_max_num_reqs takes min(3, pool // 2) = 3 slots, and get_num_allocatable_reqs
// stops the first prefill after three of five waiting requests.
TEST(SglServerArgsResolution, MaxRunningRequestsCapsTheBatch) {
  const auto e = engine({{"max-running-requests", "3"}, {"disable-overlap-schedule", "true"}});
  EXPECT_EQ(e->memory_pool().max_running_requests, 3);
  EXPECT_EQ(e->scheduler().config().max_running_requests, 3);
  for (const char* id : {"a", "b", "c", "d", "e"}) e->add_request(request(id, 50, 2, std::nullopt, 1000 + 100 * (id[0] - 'a')));
  const auto step = e->schedule();
  ASSERT_TRUE(step.has_value());
  EXPECT_EQ(step->first_scheduled, (std::vector<std::string>{"a", "b", "c"}));
}

// --page-size 16 with fa3 on H100 (kept: only trtllm_mha and fa4 move it, overrides.py@71de97b2): the scheduler's
// page, a KV page of 16 tokens x 131072 B, a pool aligned to 16 tokens, and PagedTokenToKVPoolAllocator
// (kv_cache_configurator.py@71de97b2:1703: TokenToKVPoolAllocator only at page 1).
TEST(SglServerArgsResolution, PageSizeSetsThePageAndTheAllocator) {
  const auto e = engine({{"page-size", "16"}});
  EXPECT_EQ(e->resolved().attention.page_size, 16);
  EXPECT_EQ(e->scheduler().config().page_size, 16);
  EXPECT_EQ(e->plan().kv->front().tokens_per_page->value(), 16);
  EXPECT_EQ(e->plan().kv->front().bytes_per_page->value(), 16 * 131072);
  EXPECT_EQ(e->memory_pool().max_total_num_tokens % 16, 0);
  EXPECT_EQ(e->kv_cache_types().allocator, "PagedTokenToKVPoolAllocator");
  const auto one = engine({{"page-size", "1"}});
  EXPECT_EQ(one->scheduler().config().page_size, 1);
  EXPECT_EQ(one->kv_cache_types().allocator, "TokenToKVPoolAllocator");
}

// --attention-backend at the backend _get_default_attn_backend picks for the chip (server_args.py@71de97b2): fa3
// on Hopper, flashinfer on Ampere, trtllm_mha on Blackwell (whose unset page becomes 64,
// _mla_backend_page_constraints). Another backend is refused by name.
TEST(SglServerArgsResolution, AttentionBackendAtTheChipsDefault) {
  const auto h100 = engine({{"attention-backend", "fa3"}});
  EXPECT_EQ(h100->resolved().attention.attention_backend, "fa3");
  const auto a100 = engine({{"attention-backend", "flashinfer"}}, {}, "A100-SXM-80GB");
  EXPECT_EQ(a100->resolved().attention.attention_backend, "flashinfer");
  const auto b200 = engine({{"attention-backend", "trtllm_mha"}}, {}, "B200");
  EXPECT_EQ(b200->resolved().attention.attention_backend, "trtllm_mha");
  EXPECT_EQ(b200->resolved().attention.page_size, 64);
  const std::string triton = error_of([] { engine({{"attention-backend", "triton"}}); });
  EXPECT_NE(triton.find("attention_backend=triton is not modelled by this port"), std::string::npos) << triton;
}

// --kv-cache-dtype: auto keeps the checkpoint's BF16 (2 bytes), bf16 and bfloat16 are 2 bytes, fp8_e4m3 and
// fp8_e5m2 one (kv_cache_dtype.py@71de97b2 configure_kv_cache_dtype): a token's KV is 131072 or 65536 B. fa3 with
// fp8_e5m2 falls back to triton (overrides.py@71de97b2 _attention_backend_fa3_fp8_fallback).
TEST(SglServerArgsResolution, KvCacheDtypeSetsTheCellAndTheBackend) {
  for (const auto& [dtype, cell, backend] : std::vector<std::tuple<std::string, std::int64_t, std::string>>{
           {"auto", 131072, "fa3"},
           {"bf16", 131072, "fa3"},
           {"bfloat16", 131072, "fa3"},
           {"fp8_e4m3", 65536, "fa3"},
           {"fp8_e5m2", 65536, "triton"}}) {
    const auto e = engine({{"kv-cache-dtype", dtype}});
    EXPECT_EQ(e->server_args().lowering.kv_cache_dtype, dtype);
    EXPECT_EQ(e->memory_pool().cell_size, cell) << dtype;
    EXPECT_EQ(e->resolved().attention.attention_backend, backend) << dtype;
  }
}

// --chunked-prefill-size 64 (above the threshold 0, server_args.py@71de97b2:4964): the scheduler's chunk, the
// prefill graphs' max_bs (64: range(4,33,4) and 48, 64, 10 buckets) and the activation reserve: reserved = 512 +
// max(64, 2048)*1.5 (3072) + 128 + (256*2 + 10*8 = 592) = 4304, raised to the 10240 floor (g > 60*1024):
// round((76293 - 10240) / 76293, 3) = round(0.865781, 3) = 0.866.
TEST(SglServerArgsResolution, ChunkedPrefillSizeSetsTheChunkAndTheReserve) {
  const auto e = engine({{"chunked-prefill-size", "64"}});
  EXPECT_EQ(e->resolved().memory.chunked_prefill_size, 64);
  EXPECT_EQ(e->scheduler().config().chunked_prefill_size, 64);
  EXPECT_EQ(e->resolved().memory.prefill_max_bs, 64);
  EXPECT_EQ(e->resolved().memory.prefill_bs.size(), 10u);
  EXPECT_EQ(*e->resolved().memory.reserved_mem_mib, 10240.0);
  EXPECT_EQ(e->resolved().memory.mem_fraction_static, 0.866);
}

// --max-prefill-tokens 100 (PrefillAdder's rem_input_tokens): "a" (100 tokens) uses the whole budget, so
// budget_state answers OTHER and "b" waits for the next prefill; at the default 16384 both run in the first one.
TEST(SglServerArgsResolution, MaxPrefillTokensBoundsAPrefill) {
  for (const auto& [value, want] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"100", {"a"}}, {"16384", {"a", "b"}}}) {
    const auto e = engine({{"max-prefill-tokens", value}, {"disable-overlap-schedule", "true"}});
    EXPECT_EQ(e->scheduler().config().max_prefill_tokens, std::stoll(value));
    e->add_request(request("a", 100, 2));
    e->add_request(request("b", 100, 2, std::nullopt, 5000));
    const auto step = e->schedule();
    ASSERT_TRUE(step.has_value());
    EXPECT_EQ(step->first_scheduled, want) << "max-prefill-tokens " << value;
  }
}

// --prefill-max-requests 1: add_one_req answers OTHER once can_run_list holds one request
// (schedule_policy.py@71de97b2:1210), so the first prefill runs "a" alone.
TEST(SglServerArgsResolution, PrefillMaxRequestsBoundsAPrefill) {
  const auto e = engine({{"prefill-max-requests", "1"}, {"disable-overlap-schedule", "true"}});
  EXPECT_EQ(e->scheduler().config().prefill_max_requests, 1);
  e->add_request(request("a", 100, 2));
  e->add_request(request("b", 100, 2, std::nullopt, 5000));
  const auto step = e->schedule();
  ASSERT_TRUE(step.has_value());
  EXPECT_EQ(step->first_scheduled, (std::vector<std::string>{"a"}));
}

// --max-queued-requests 1 (scheduler.py@71de97b2 _abort_on_queued_limit): "b" finds the queue full ("a" waits in
// it) and is aborted; without the limit both are served.
TEST(SglServerArgsResolution, MaxQueuedRequestsAbortsTheOverflow) {
  const auto e = engine({{"max-queued-requests", "1"}, {"disable-overlap-schedule", "true"}});
  EXPECT_EQ(e->scheduler().config().max_queued_requests, 1);
  e->add_request(request("a", 100, 2));
  e->add_request(request("b", 100, 2, std::nullopt, 5000));
  const Record r = drain(*e);
  EXPECT_EQ(r.finished.at("a"), "stop");
  EXPECT_EQ(r.finished.at("b"), "abort");
  EXPECT_FALSE(r.emitted.contains("b"));
  const auto open = engine({{"disable-overlap-schedule", "true"}});
  open->add_request(request("a", 100, 2));
  open->add_request(request("b", 100, 2, std::nullopt, 5000));
  EXPECT_EQ(drain(*open).finished.at("b"), "stop");
}

// --cuda-graph-max-bs-decode 100: _generate_decode_cuda_graph_batch_sizes keeps [1,2,4,8,12] + range(16,97,8) and
// appends 100 (17 sizes); with --disable-cuda-graph-padding it captures every size 1..5 for a max_bs of 5.
TEST(SglServerArgsResolution, CudaGraphMaxBsDecodeAndPadding) {
  const auto e = engine({{"cuda-graph-max-bs-decode", "100"}});
  EXPECT_EQ(e->resolved().memory.decode_max_bs, 100);
  EXPECT_EQ(e->resolved().memory.decode_bs.size(), 17u);
  EXPECT_EQ(e->resolved().memory.decode_bs.back(), 100);
  const auto p = engine({{"cuda-graph-max-bs-decode", "5"}, {"disable-cuda-graph-padding", "true"}});
  EXPECT_EQ(p->resolved().memory.decode_bs, (V{1, 2, 3, 4, 5}));
  EXPECT_EQ(engine({{"cuda-graph-max-bs-decode", "5"}})->resolved().memory.decode_bs, (V{1, 2, 4, 5}));
}

// --cuda-graph-bs-decode 64 8 32: the list is kept as given and its largest size is the decode max_bs.
TEST(SglServerArgsResolution, CudaGraphBsDecodeIsTheCaptureList) {
  const auto e = engine(Args{{"cuda-graph-bs-decode", int_list({64, 8, 32})}});
  EXPECT_EQ(e->resolved().memory.decode_bs, (V{64, 8, 32}));
  EXPECT_EQ(e->resolved().memory.decode_max_bs, 64);
}

// --disable-cuda-graph turns both phases off (_parse_cuda_graph_config) and drops both graph reserves: reserved =
// 512 + 12288 + 128 = 12928 -> round((76293 - 12928) / 76293, 3) = 0.831. --disable-prefill-cuda-graph turns
// only the prefill phase off: reserved = 12928 + 256*2 = 13440 -> round(0.823837, 3) = 0.824.
TEST(SglServerArgsResolution, DisableCudaGraphFlags) {
  const auto off = engine({{"disable-cuda-graph", "true"}});
  EXPECT_EQ(off->resolved().memory.decode_cuda_graph_backend, "disabled");
  EXPECT_EQ(off->resolved().memory.prefill_cuda_graph_backend, "disabled");
  EXPECT_EQ(off->resolved().memory.mem_fraction_static, 0.831);
  const auto prefill_off = engine({{"disable-prefill-cuda-graph", "true"}});
  EXPECT_EQ(prefill_off->resolved().memory.decode_cuda_graph_backend, "full");
  EXPECT_EQ(prefill_off->resolved().memory.prefill_cuda_graph_backend, "disabled");
  EXPECT_EQ(*prefill_off->resolved().memory.reserved_mem_mib, 13440.0);
  EXPECT_EQ(prefill_off->resolved().memory.mem_fraction_static, 0.824);
  const auto on = engine({{"disable-cuda-graph", "false"}, {"disable-prefill-cuda-graph", "false"}});
  EXPECT_EQ(on->resolved().memory.decode_cuda_graph_backend, "full");
  EXPECT_EQ(on->resolved().memory.prefill_cuda_graph_backend, "breakable");
}

// --disable-radix-cache false keeps RadixCache (mem_cache/registry.py@71de97b2:165-167); true selects ChunkCache,
// which is refused by name.
TEST(SglServerArgsResolution, DisableRadixCacheOnlyFalse) {
  EXPECT_EQ(engine({{"disable-radix-cache", "false"}})->kv_cache_types().tree_cache, "RadixCache");
  const std::string on = error_of([] { engine({{"disable-radix-cache", "true"}}); });
  EXPECT_NE(on.find("argument --disable-radix-cache is not modelled by this port"), std::string::npos) << on;
}

// --- Scheduling -----------------------------------------------------------------------------------------------

// --disable-overlap-schedule: one batch in flight instead of two (the plan's in_flight too).
TEST(SglServerArgsResolution, DisableOverlapScheduleKeepsOneBatchInFlight) {
  const auto off = engine({{"disable-overlap-schedule", "true"}});
  EXPECT_EQ(off->in_flight_depth(), 1);
  EXPECT_EQ(off->plan().in_flight->value(), 1);
  const auto on = engine({{"disable-overlap-schedule", "false"}});
  EXPECT_EQ(on->in_flight_depth(), 2);
  EXPECT_EQ(on->plan().in_flight->value(), 2);
}

// --enable-mixed-chunk (is_mixed_chunk needs chunked prefill, on by default): a prefill that arrives while "a"
// decodes runs in one batch with a's decode ("mixed"); without it the prefill runs alone.
TEST(SglServerArgsResolution, EnableMixedChunkMixesPrefillWithDecode) {
  for (const bool mixed : {true, false}) {
    const auto e = engine({{"enable-mixed-chunk", mixed ? "true" : "false"}, {"disable-overlap-schedule", "true"}});
    EXPECT_EQ(e->scheduler().config().enable_mixed_chunk, mixed);
    e->add_request(request("a", 100, 20));
    for (int i = 0; i < 2; ++i) {  // a's prefill, then its first decode
      const auto s = e->schedule();
      ASSERT_TRUE(s.has_value());
      e->complete(s->id);
    }
    e->add_request(request("b", 100, 2, std::nullopt, 5000));
    const auto s = e->schedule();
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->first_scheduled, (std::vector<std::string>{"b"}));
    EXPECT_EQ(s->shape.mode, mixed ? "mixed" : "extend_only");
  }
}

// --schedule-policy orders the waiting queue (schedule_policy.py@71de97b2 SchedulePolicy.calc_priority). lpm:
// after "w" (100 tokens) is cached, "b" (the same prompt: 99 cached tokens) sorts before "c" (nothing cached),
// which fcfs keeps first. lof: "b" (max_tokens 50) before "c" (max_tokens 5). dfs-weight and routing-key build and
// serve; random is refused (the engine contract gives no random substream) and priority is upstream's own
// ValueError (no CacheAwarePolicy or CacheAgnosticPolicy of that name).
TEST(SglServerArgsResolution, SchedulePolicyOrdersTheQueue) {
  const auto first_of = [](const std::string& policy, bool warm, std::optional<std::int64_t> c_max, std::optional<std::int64_t> b_max) {
    const auto e = engine({{"schedule-policy", policy}, {"disable-overlap-schedule", "true"}});
    EXPECT_EQ(e->scheduler().config().schedule_policy, policy);
    if (warm) {
      e->add_request(request("w", 100, 2));
      drain(*e);
    }
    e->add_request(request("c", 100, 2, c_max, 5000));
    e->add_request(request("b", 100, 2, b_max));
    const auto s = e->schedule();
    return s ? s->first_scheduled : std::vector<std::string>{};
  };
  EXPECT_EQ(first_of("lpm", true, std::nullopt, std::nullopt), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(first_of("fcfs", true, std::nullopt, std::nullopt), (std::vector<std::string>{"c", "b"}));
  EXPECT_EQ(first_of("lof", false, 5, 50), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(first_of("fcfs", false, 5, 50), (std::vector<std::string>{"c", "b"}));
  for (const char* policy : {"dfs-weight", "routing-key"}) {
    const auto e = engine({{"schedule-policy", policy}});
    e->add_request(request("a", 100, 3));
    EXPECT_EQ(drain(*e).finished.at("a"), "stop") << policy;
  }
  EXPECT_NE(error_of([] { engine({{"schedule-policy", "random"}}); }).find("--schedule-policy random is not modelled"),
            std::string::npos);
  EXPECT_NE(error_of([] { engine({{"schedule-policy", "priority"}}); }).find("Unknown schedule_policy: policy='priority'"),
            std::string::npos);
}

// --schedule-conservativeness and SGLANG_INIT_NEW_TOKEN_RATIO (new_token_ratio_tracker.py@71de97b2 from_config):
// init = min(0.7 x 0.5, 1.0) = 0.35; min(0.5 x 1.0, 1.0) = 0.5; min(0.7 x 2.0, 1.0) = 1.0.
TEST(SglServerArgsResolution, ScheduleConservativenessAndInitRatio) {
  EXPECT_DOUBLE_EQ(engine(Args{})->scheduler().new_token_ratio(), 0.7);
  EXPECT_DOUBLE_EQ(engine({{"schedule-conservativeness", "0.5"}})->scheduler().new_token_ratio(), 0.35);
  EXPECT_DOUBLE_EQ(engine({{"schedule-conservativeness", "2.0"}})->scheduler().new_token_ratio(), 1.0);
  EXPECT_DOUBLE_EQ(engine(Args{}, {{"SGLANG_INIT_NEW_TOKEN_RATIO", "0.5"}})->scheduler().new_token_ratio(), 0.5);
}

// SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR and SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS: min = 0.7 x factor, decay = (0.7 -
// min) / steps, applied once per decode step (NewTokenRatioTracker.decay_step: max(current - decay, min)). Factor
// 0.5, 10 steps: 0.7 - 0.035 = 0.665 after the first decode. Factor 0.5, 1 step: 0.35, the floor, after the first
// decode and the second.
TEST(SglServerArgsResolution, RatioFactorAndDecaySteps) {
  const auto ratios = [](const std::map<std::string, std::string>& env) {
    const auto e = engine({{"disable-overlap-schedule", "true"}}, env);
    e->add_request(request("a", 10, 5));
    std::vector<double> out;
    for (int i = 0; i < 3; ++i) {  // prefill, decode 1, decode 2
      const auto s = e->schedule();
      EXPECT_TRUE(s.has_value());
      if (i > 0) out.push_back(e->scheduler().new_token_ratio());
      e->complete(s->id);
    }
    return out;
  };
  const std::vector<double> ten = ratios({{"SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR", "0.5"}, {"SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS", "10"}});
  ASSERT_EQ(ten.size(), 2u);
  EXPECT_DOUBLE_EQ(ten[0], 0.7 - (0.7 - 0.35) / 10);
  EXPECT_DOUBLE_EQ(ten[1], 0.7 - 2 * ((0.7 - 0.35) / 10));
  const std::vector<double> one = ratios({{"SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR", "0.5"}, {"SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS", "1"}});
  EXPECT_EQ(one, (std::vector<double>{0.35, 0.35}));
}

// SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION (schedule_policy.py@71de97b2 CLIP_MAX_NEW_TOKENS) on a 60-token pool
// (--max-total-tokens 60). "a" (4 prompt tokens, max_tokens 50) runs; "b" (4, 40) arrives after a's prefill. The
// running "a" reserves min(50 - 1, clip) x 0.7 of the 56 free tokens; "b" needs 4 + min(40, clip) + 1 (a page).
// Clip 4096: 56 - 34.3 = 21.7 left < 45: NO_TOKEN, a decodes. Clip 10: 56 - 7 = 49 left > 15: b's prefill runs.
TEST(SglServerArgsResolution, ClipMaxNewTokensEstimationSetsTheReservation) {
  for (const auto& [clip, b_runs] : std::vector<std::pair<std::string, bool>>{{"4096", false}, {"10", true}}) {
    const auto e = engine({{"max-total-tokens", "60"}, {"disable-overlap-schedule", "true"}},
                          {{"SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION", clip}});
    EXPECT_EQ(e->server_args().scheduler.policy_env.clip_max_new_tokens, std::stoll(clip));
    ASSERT_FALSE(e->add_request(request("a", 4, 50, 50)).has_value());
    const auto prefill = e->schedule();
    ASSERT_TRUE(prefill.has_value());
    e->complete(prefill->id);
    ASSERT_FALSE(e->add_request(request("b", 4, 40, 40, 5000)).has_value());
    const auto s = e->schedule();
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->first_scheduled, b_runs ? std::vector<std::string>{"b"} : std::vector<std::string>{}) << "clip " << clip;
  }
}

// --radix-eviction-policy (server_args.py@71de97b2:317 choices): each builds the cache with that strategy
// (mem_cache/utils.py@71de97b2 get_eviction_strategy; the strategies' orders are evict_policy_test.cpp's).
TEST(SglServerArgsResolution, RadixEvictionPolicyReachesTheCache) {
  for (const char* policy : {"lru", "lfu", "slru", "priority"}) {
    const auto e = engine({{"radix-eviction-policy", policy}});
    EXPECT_EQ(e->scheduler().config().radix_eviction_policy, policy);
    e->add_request(request("a", 100, 3));
    EXPECT_EQ(drain(*e).finished.at("a"), "stop") << policy;
  }
}

// --- Priority settings, on the Scheduler (the engine contract carries no request priority) ------------------

constexpr std::int64_t kEos = -1;
constexpr std::int64_t kToken = 7;

// A Scheduler as the engine core configures it from the parsed arguments (EngineCore::fill_budget), on a pool of
// `pool` tokens with page 1, a 2048-token context and chunks of 512.
std::unique_ptr<Scheduler> scheduler(const std::vector<std::pair<std::string, std::string>>& args,
                                     const std::map<std::string, std::string>& env = {}, std::int64_t pool = 1000) {
  const ParsedServerArgs p = parse(args, env);
  SchedulerConfig c = p.scheduler;
  c.page_size = 1;
  c.max_total_num_tokens = pool;
  c.max_running_requests = p.lowering.max_running_requests.value_or(8);
  c.context_len = 2048;
  c.chunked_prefill_size = 512;
  c.max_prefill_tokens = p.lowering.max_prefill_tokens;
  return std::make_unique<Scheduler>(c);
}

std::unique_ptr<Req> req(const std::string& rid, std::int64_t prompt_len, std::int64_t max_new_tokens,
                         std::optional<std::int64_t> priority = std::nullopt, std::int64_t first_token = 1) {
  TokenIds ids(static_cast<std::size_t>(prompt_len));
  std::iota(ids.begin(), ids.end(), first_token);
  SamplingParams sp;
  sp.max_new_tokens = max_new_tokens;
  auto r = std::make_unique<Req>(rid, std::move(ids), sp, priority);
  r->eos_token_ids = {kEos};
  return r;
}

std::vector<std::string> ended(Scheduler& s) {
  std::vector<std::string> out;
  for (const auto& [rid, why] : s.take_ended_outside_batches()) out.push_back(rid + ":" + why);
  return out;
}

// --enable-priority-scheduling with --max-queued-requests 1 (scheduler.py@71de97b2 _abort_on_queued_limit): "a"
// (priority 0) waits; "b" (priority 5) finds the queue full. With priority scheduling, larger values first, the
// queued "a" ranks lower (0 x -1 > 5 x -1) and is aborted in b's place; --schedule-low-priority-values-first turns
// the comparison (0 > 5 fails), so the incoming "b" is aborted, as it is without priority scheduling.
TEST(SglServerArgsResolution, PrioritySchedulingPicksWhomTheFullQueueAborts) {
  const auto run = [](const std::vector<std::pair<std::string, std::string>>& args) {
    auto s = scheduler(args);
    s->handle_generate_request(req("a", 10, 5, 0));
    s->handle_generate_request(req("b", 10, 5, 5));
    return ended(*s);
  };
  EXPECT_EQ(run({{"max-queued-requests", "1"}, {"enable-priority-scheduling", "true"}}), (std::vector<std::string>{"a:abort"}));
  EXPECT_EQ(run({{"max-queued-requests", "1"}, {"enable-priority-scheduling", "true"}, {"schedule-low-priority-values-first", "true"}}),
            (std::vector<std::string>{"b:abort"}));
  EXPECT_EQ(run({{"max-queued-requests", "1"}, {"abort-on-priority-when-disabled", "false"}}), (std::vector<std::string>{"b:abort"}));
}

// --abort-on-priority-when-disabled (scheduler.py@71de97b2 _set_or_validate_priority): without priority
// scheduling, a request that states a priority is aborted; a request without one is queued.
TEST(SglServerArgsResolution, AbortOnPriorityWhenDisabled) {
  auto on = scheduler({{"abort-on-priority-when-disabled", "true"}});
  on->handle_generate_request(req("p", 10, 5, 3));
  on->handle_generate_request(req("n", 10, 5));
  EXPECT_EQ(ended(*on), (std::vector<std::string>{"p:abort"}));
  EXPECT_EQ(on->waiting_queue().size(), 1u);
  auto off = scheduler({{"abort-on-priority-when-disabled", "false"}});
  off->handle_generate_request(req("p", 10, 5, 3));
  EXPECT_TRUE(ended(*off).empty());
  EXPECT_EQ(off->waiting_queue().size(), 1u);
}

// Priority preemption (schedule_policy.py@71de97b2 PrefillAdder.preempt_to_schedule) with one request slot
// (--max-running-requests 1): "a" (priority 0) runs; "b" (priority 20) arrives. The difference 20 exceeds the
// default --priority-scheduling-preemption-threshold 10, so "a" is preempted back to the queue and b's prefill runs;
// at threshold 30, or with --disable-priority-preemption, "a" keeps decoding and "b" waits.
TEST(SglServerArgsResolution, PriorityPreemptionThresholdAndSwitch) {
  const auto run = [](std::vector<std::pair<std::string, std::string>> args) {
    args.insert(args.begin(), {{"enable-priority-scheduling", "true"}, {"max-running-requests", "1"}, {"disable-overlap-schedule", "true"}});
    auto s = scheduler(args);
    s->handle_generate_request(req("a", 10, 50, 0));
    for (int i = 0; i < 2; ++i) {  // a's prefill and first decode
      const LaunchedBatch* b = s->next_batch();
      EXPECT_NE(b, nullptr);
      s->process_batch_result(std::vector<std::int64_t>(b->reqs.size(), kToken));
    }
    s->handle_generate_request(req("b", 10, 5, 20, 101));
    const LaunchedBatch* b = s->next_batch();
    std::vector<std::string> rids;
    for (const Req* r : b->reqs) rids.push_back(r->rid);
    std::vector<std::string> waiting;
    for (const Req* r : s->waiting_queue()) waiting.push_back(r->rid);
    return std::make_pair(rids, waiting);
  };
  using P = std::pair<std::vector<std::string>, std::vector<std::string>>;
  EXPECT_EQ(run({}), (P{{"b"}, {"a"}}));
  EXPECT_EQ(run({{"priority-scheduling-preemption-threshold", "10"}}), (P{{"b"}, {"a"}}));
  EXPECT_EQ(run({{"priority-scheduling-preemption-threshold", "30"}}), (P{{"a"}, {"b"}}));
  EXPECT_EQ(run({{"disable-priority-preemption", "true"}}), (P{{"a"}, {"b"}}));
  EXPECT_EQ(run({{"disable-priority-preemption", "false"}}), (P{{"b"}, {"a"}}));
}

// Decode retraction on a 60-token pool (schedule_batch.py@71de97b2 retract_decode, the scheduler_test.cpp case):
// "a" (4 tokens, 50 new, priority 0) and "b" (4, 40, priority 5) both run until the pool is full. --retraction-policy
// length retracts the request with less output ("b"); priority (with --enable-priority-scheduling, larger values
// first) retracts the less important "a". SGLANG_INIT_NEW_TOKEN_RATIO 0.1 lets "b" in while "a" runs. After the
// retraction the ratio is min(1, (len(kept.output_ids) + SGLANG_RETRACT_DECODE_STEPS) / (kept max_new_tokens + 1))
// (new_token_ratio_tracker.py@71de97b2 estimate_new_token_ratio_after_retract): with 5 decode steps instead of 20.
TEST(SglServerArgsResolution, RetractionPolicyAndRetractDecodeSteps) {
  struct Outcome {
    std::vector<std::string> retracted;
    double ratio = -1;
    double want = -2;
  };
  const auto run = [](const std::vector<std::pair<std::string, std::string>>& args, const std::string& steps) {
    auto s = scheduler(args, {{"SGLANG_INIT_NEW_TOKEN_RATIO", "0.1"}, {"SGLANG_RETRACT_DECODE_STEPS", steps}}, 60);
    EXPECT_EQ(s->config().retract_decode_steps, std::stoll(steps));
    s->handle_generate_request(req("a", 4, 50, 0, 1));
    Outcome o;
    for (int i = 0; i < 400; ++i) {
      if (i == 1) s->handle_generate_request(req("b", 4, 40, 5, 101));
      const LaunchedBatch* b = s->next_batch();
      if (b == nullptr) break;
      for (const std::string& r : s->take_retracted()) {
        o.retracted.push_back(r);
        if (o.retracted.size() == 1) {
          const Req* kept = s->running_batch().reqs.at(0);
          o.ratio = s->new_token_ratio();
          o.want = std::min(1.0, static_cast<double>(kept->output_ids.size() + std::stoll(steps)) /
                                     static_cast<double>(kept->sampling_params.max_new_tokens + 1));
        }
      }
      s->process_batch_result(std::vector<std::int64_t>(b->reqs.size(), kToken));
    }
    return o;
  };
  const Outcome length = run({{"retraction-policy", "length"}, {"disable-overlap-schedule", "true"}}, "5");
  EXPECT_EQ(length.retracted, (std::vector<std::string>{"b"}));
  EXPECT_DOUBLE_EQ(length.ratio, length.want);
  const Outcome twenty = run({{"retraction-policy", "length"}, {"disable-overlap-schedule", "true"}}, "20");
  EXPECT_DOUBLE_EQ(twenty.ratio, twenty.want);
  EXPECT_LT(length.ratio, twenty.ratio);
  const Outcome priority =
      run({{"retraction-policy", "priority"}, {"enable-priority-scheduling", "true"}, {"disable-overlap-schedule", "true"}}, "5");
  EXPECT_EQ(priority.retracted, (std::vector<std::string>{"a"}));
  EXPECT_DOUBLE_EQ(priority.ratio, priority.want);
}

// --- fields.json and parse_server_args agree (SGL-3, X1) ---------------------------------------------------------

const schema::FieldsList& fields_json() {
  static const schema::FieldsList list = [] {
    doc::Diagnostics d("engines/sglang/fields.json");
    auto l = schema::load_fields_list(kSglangFieldsJson, "engines/sglang/fields.json", d);
    if (!l) throw std::runtime_error(d.str());
    return std::move(*l);
  }();
  return list;
}

// Arguments and variables parse_server_args takes that fields.json marks not modelled, each with why. Every entry
// must stay both (read and not modelled): the list only shrinks.
const std::map<std::string, std::string>& read_not_modelled() {
  static const std::map<std::string, std::string> m = {
      {"pp-size", "the engine refuses every value but 1 (pp_size > 1: the pipeline stages' layer split is not ported)"},
      {"dp-size", "the engine refuses every value but 1 (one engine instance runs one data-parallel rank)"},
  };
  return m;
}

// Arguments a value class needs beside it (server_args.py@71de97b2 check_server_args).
Args companions(const std::string& name, const doc::Node& value) {
  if (name == "retraction-policy" && value.scalar == "priority") return {{"enable-priority-scheduling", scalar("true")}};
  return {};
}

bool is_integer_type(const std::string& t) { return t.find("int") != std::string::npos || t.find("Int") != std::string::npos; }

std::string number(double v, bool integer) {
  if (integer) return std::to_string(static_cast<std::int64_t>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A value of each value class: each listed value; for a range, a value inside it.
std::vector<doc::Node> probes(const schema::FieldsListField& f) {
  std::vector<doc::Node> out;
  const bool integer = is_integer_type(f.value_type);
  for (const auto& vc : f.status.modelled->value_classes) {
    if (vc.values) {
      for (const doc::Node& v : *vc.values) out.push_back(v);
      continue;
    }
    const auto& r = *vc.range;
    double x = 1;
    const double step = integer ? 1.0 : 0.5;
    if (r.low && r.high) x = integer ? std::floor((*r.low + *r.high) / 2) : (*r.low + *r.high) / 2;
    else if (r.low) x = r.low_inclusive ? *r.low : *r.low + step;
    else if (r.high) x = r.high_inclusive ? *r.high : *r.high - step;
    out.push_back(scalar(number(x, integer)));
  }
  return out;
}

// "" when parse_server_args takes the argument or variable at the value (with its companions), else its refusal.
std::string parse_refusal(const schema::FieldsListField& f, const doc::Node& value) {
  try {
    if (f.kind == "argument") {
      Args a = companions(f.name, value);
      a.insert(a.begin(), {f.name, value});
      const doc::Node args = args_node(a);
      (void)parse_server_args(&args, nullptr);
    } else {
      const doc::Node args = args_node({});
      std::map<std::string, doc::Node> env;
      env[f.name] = value.is_scalar() ? scalar(value.scalar) : value;
      (void)parse_server_args(&args, &env);
    }
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool refused_as_not_modelled(const schema::FieldsListField& f, const std::string& refusal) {
  const std::string prefix = f.kind == "argument" ? "sglang: argument --" + f.name + " is not modelled by this port: "
                                                  : "sglang: environment variable " + f.name + " is not modelled by this port: ";
  return refusal.rfind(prefix, 0) == 0;
}

// Every field fields.json marks modelled is taken by parse_server_args at a value of each of its value classes.
TEST(SglServerArgsFields, ModelledFieldsAreTakenAtTheirValueClasses) {
  int modelled = 0;
  for (const auto& f : fields_json().fields) {
    if (!f.status.modelled) continue;
    ++modelled;
    for (const doc::Node& v : probes(f)) {
      const std::string refusal = parse_refusal(f, v);
      EXPECT_EQ(refusal, "") << f.name << " = " << (v.is_scalar() ? v.scalar : doc::kind_name(v));
    }
  }
  EXPECT_GT(modelled, 0);
}

// Every argument and variable parse_server_args takes (does not refuse as not modelled) is modelled in fields.json,
// or is listed in read_not_modelled() with why; each listed one is read and not modelled, and pp-size and dp-size
// are refused by the engine away from 1 (PpSizeAndDpSizeAreRefusedAwayFromOne).
TEST(SglServerArgsFields, EveryFieldParseServerArgsTakesIsModelled) {
  std::set<std::string> read_but_not_modelled;
  for (const auto& f : fields_json().fields) {
    const std::string refusal = parse_refusal(f, scalar("1"));
    const bool read = !refused_as_not_modelled(f, refusal);
    if (f.status.not_modelled && !read) {
      // The refusal names the field's recorded reason (X1).
      EXPECT_NE(refusal.find(std::string(f.status.not_modelled->why)), std::string::npos) << f.name << ": " << refusal;
    }
    if (f.status.modelled) {
      EXPECT_TRUE(read) << f.name << " is modelled in fields.json but refused: " << refusal;
    }
    if (read && !f.status.modelled && !f.status.proven_inert) read_but_not_modelled.insert(f.name);
  }
  std::set<std::string> listed;
  for (const auto& [name, why] : read_not_modelled()) listed.insert(name);
  EXPECT_EQ(read_but_not_modelled, listed)
      << "parse_server_args takes these fields, which fields.json does not mark modelled: model them (statuses.yaml, "
         "with their evidence) or refuse them in server_args_cli.cpp";
  const auto& fields = fields_json().fields;
  for (const auto& name : listed) {
    const auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.name == name; });
    ASSERT_NE(it, fields.end()) << name;
    EXPECT_TRUE(it->status.not_modelled.has_value()) << name;
  }
}

}  // namespace
}  // namespace blis::sglang::test
