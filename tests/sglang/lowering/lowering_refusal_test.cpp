// Original to BLIS: every refusal of the SGLang start-up port (engines/sglang/srt/model_executor) beside its
// accepted twin (SIM-9): the smallest input that triggers it and the closest one that does not. What the port
// does not model is refused by name ("... is not modelled by this port: ..."); SGLang's own errors keep their
// text (cited); bad input names the field, the value and the cause.
#include <gtest/gtest.h>

#include <functional>
#include <tuple>

#include "lowering_test.h"

namespace blis::sglang::model_executor::test {
namespace {

// The refusal's message, or "" when f answers.
std::string refusal(const std::function<void()>& f) {
  try {
    f();
    return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

std::function<void()> resolving(const schema::Graph& g, const LoweringConfig& c) {
  return [g, c] { (void)resolve_server_args(g, chip(c.chip), c); };
}

void refused_with_twin(const std::function<void()>& bad, const std::function<void()>& good, const std::string& needle) {
  const std::string msg = refusal(bad);
  EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg;
  EXPECT_EQ(refusal(good), "");
}

void config_pair(const LoweringConfig& bad, const LoweringConfig& good, const std::string& needle) {
  refused_with_twin(resolving(graph(bad.model), bad), resolving(graph(good.model), good), needle);
}

TEST(SglangLoweringRefusal, SpeculativeDecoding) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.speculative_algorithm = "EAGLE";
  config_pair(bad, config(kLlama8B, "H100-SXM"), "speculative_algorithm=EAGLE is not modelled by this port");
}

TEST(SglangLoweringRefusal, Disaggregation) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.disaggregation_mode = "decode";
  config_pair(bad, config(kLlama8B, "H100-SXM"), "disaggregation_mode=decode is not modelled by this port");
}

TEST(SglangLoweringRefusal, DpAttention) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.enable_dp_attention = true;
  config_pair(bad, config(kLlama8B, "H100-SXM"), "enable_dp_attention=true is not modelled by this port");
}

TEST(SglangLoweringRefusal, DataParallel) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.dp = 2;
  LoweringConfig good = bad;
  good.dp = 1;
  config_pair(bad, good, "dp_size=2 is not modelled by this port");
}

TEST(SglangLoweringRefusal, ExplicitNonDefaultBackend) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.attention_backend = "triton";
  LoweringConfig good = bad;
  good.attention_backend = "fa3";
  config_pair(bad, good, "attention_backend=triton is not modelled by this port");
}

TEST(SglangLoweringRefusal, KvCacheDtype) {
  LoweringConfig bad = config(kLlama8B, "B200");
  bad.kv_cache_dtype = "fp4_mx_block16";
  LoweringConfig good = bad;
  good.kv_cache_dtype = "fp8_e4m3";
  config_pair(bad, good, "kv_cache_dtype=fp4_mx_block16 is not modelled by this port");
}

// The layout refusals, each by the smallest change of Llama-3.1-8B's graph that triggers it.
schema::Graph mutated(const std::function<void(schema::GraphAttention&)>& f) {
  schema::Graph g = graph(kLlama8B);
  for (auto& [_, k] : g.layer_kinds) f(*k.mixer.attention);
  return g;
}

TEST(SglangLoweringRefusal, Mla) {
  const schema::Graph bad = mutated([](schema::GraphAttention& a) { a.kind = "MLA"; });
  refused_with_twin(resolving(bad, config(kLlama8B, "H100-SXM")), resolving(graph(kLlama8B), config(kLlama8B, "H100-SXM")),
                    ".kind=MLA is not modelled by this port");
  // The catalog's DeepSeek-V3 is refused at the same place.
  EXPECT_NE(refusal([] {
              (void)resolve_attention_backend(graph("deepseek-ai/DeepSeek-V3"), chip("H100-SXM"),
                                              config("deepseek-ai/DeepSeek-V3", "H100-SXM", 8));
            }).find("kind=MLA is not modelled by this port"),
            std::string::npos);
}

TEST(SglangLoweringRefusal, AttentionSinks) {
  const schema::Graph bad = mutated([](schema::GraphAttention& a) { a.sinks = true; });
  refused_with_twin(resolving(bad, config(kLlama8B, "A100-SXM-80GB")),
                    resolving(graph(kLlama8B), config(kLlama8B, "A100-SXM-80GB")), ".sinks=true is not modelled by this port");
}

TEST(SglangLoweringRefusal, SlidingWindow) {
  const schema::Graph bad = mutated([](schema::GraphAttention& a) {
    a.window.kind = "sliding";
    a.window.size = units::Tokens{4096};
  });
  refused_with_twin(resolving(bad, config(kLlama8B, "H100-SXM")), resolving(graph(kLlama8B), config(kLlama8B, "H100-SXM")),
                    ".window.kind=sliding is not modelled by this port");
}

TEST(SglangLoweringRefusal, MixedKvLayouts) {
  schema::Graph bad = graph(kLlama8B);
  schema::GraphLayerKind other = bad.layer_kinds.begin()->second;
  other.mixer.attention->kv_heads = units::Count{4};
  bad.layer_kinds["other"] = other;
  bad.layers.back() = "other";
  schema::Graph good = graph(kLlama8B);
  good.layer_kinds["other"] = good.layer_kinds.begin()->second;  // the same layout under another name
  good.layers.back() = "other";
  refused_with_twin(resolving(bad, config(kLlama8B, "H100-SXM")), resolving(good, config(kLlama8B, "H100-SXM")),
                    "layers with different KV layouts");
}

// Below compute capability 8.0 nothing is lowered (7.5 refused, 8.0 accepted); without a capability the
// configuration is incomplete.
TEST(SglangLoweringRefusal, ComputeCapability) {
  LoweringConfig bad = config(kLlama8B, "A100-SXM-80GB");
  bad.capability = DeviceCapability{7, 5};
  config_pair(bad, config(kLlama8B, "A100-SXM-80GB"), "capability 7.5 (chip A100-SXM-80GB) is not modelled by this port");
  LoweringConfig absent = config(kLlama8B, "A100-SXM-80GB");
  absent.capability.reset();
  config_pair(absent, config(kLlama8B, "A100-SXM-80GB"), "capability: absent; chip A100-SXM-80GB states no compute capability");
}

// kv_cache_dtype=auto on a quantised checkpoint: its FP8 KV algorithm is not in the graph; naming fp8_e4m3
// explicitly is accepted.
TEST(SglangLoweringRefusal, AutoKvDtypeOnQuantisedCheckpoint) {
  const auto& g = graph("Qwen/Qwen3-32B-FP8");
  refused_with_twin([&] { (void)kv_cache_element_size(g, "auto"); }, [&] { (void)kv_cache_element_size(g, "fp8_e4m3"); },
                    "kv_cache_dtype=auto for model Qwen/Qwen3-32B-FP8 is not modelled by this port");
}

// server_args.py@71de97b2 _handle_other_validations: "chunked_prefill_size must be divisible by page_size". On B200
// the page is 64: 100 is refused, 128 accepted.
TEST(SglangLoweringRefusal, ChunkNotDivisibleByPage) {
  LoweringConfig bad = config(kLlama8B, "B200");
  bad.chunked_prefill_size = 100;
  LoweringConfig good = bad;
  good.chunked_prefill_size = 128;
  config_pair(bad, good, "chunked_prefill_size=100: chunked_prefill_size must be divisible by page_size (64)");
}

// Bad input: the field, the value and the cause.
TEST(SglangLoweringRefusal, BadNumbers) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.mem_fraction_static = 1.0;
  LoweringConfig good = bad;
  good.mem_fraction_static = 0.99;
  config_pair(bad, good, "mem_fraction_static=1.0: expected a fraction in (0, 1)");
  LoweringConfig tp0 = config(kLlama8B, "H100-SXM", 0);
  config_pair(tp0, config(kLlama8B, "H100-SXM", 1), "tp_size=0: expected at least 1");
  LoweringConfig page0 = config(kLlama8B, "H100-SXM");
  page0.page_size = 0;
  LoweringConfig page1 = page0;
  page1.page_size = 1;
  config_pair(page0, page1, "page_size=0: a page holds at least one token");
  LoweringConfig bs0 = config(kLlama8B, "H100-SXM");
  bs0.cuda_graph_bs = std::vector<std::int64_t>{0, 8};
  LoweringConfig bs1 = bs0;
  bs1.cuda_graph_bs = std::vector<std::int64_t>{1, 8};
  config_pair(bs0, bs1, "cuda_graph_bs: 0 is not a positive batch size");
}

// kv_cache_configurator.py@71de97b2 _profile_available_bytes: when the weights leave nothing under the static
// fraction. pre = 64 GiB; with mem_fraction_static 0.5 the slack is 32 GiB, so 32 GiB free after loading leaves
// exactly 0 (refused: rest <= 0) and 32 GiB + 1 B leaves one byte. Upstream's message: minimum = 1 - 32/64 = 0.5.
TEST(SglangLoweringRefusal, WeightsLeaveNoKv) {
  const std::int64_t gib = std::int64_t{1} << 30;
  refused_with_twin([&] { (void)profile_available_bytes(64 * gib, 32 * gib, 0.5, false); },
                    [&] { (void)profile_available_bytes(64 * gib, 32 * gib + 1, 0.5, false); },
                    "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.5. Raise "
                    "--mem-fraction-static above 0.500 (minimum viable = 1 - available/pre = 0.5000).");
  EXPECT_EQ(profile_available_bytes(64 * gib, 32 * gib + 1, 0.5, false), 1);
}

// pool_configurator.py@71de97b2 MemoryPoolConfig.__post_init__: a budget below one page of tokens. Cell 131072 B,
// page 64: 64 * 131072 - 1 B gives 63 tokens -> 0 after alignment (refused); 64 * 131072 B gives one page.
TEST(SglangLoweringRefusal, BudgetBelowOnePage) {
  refused_with_twin([] { (void)memory_pool(64 * 131072 - 1, 131072, 64, 131072, std::nullopt, std::nullopt); },
                    [] { (void)memory_pool(64 * 131072, 131072, 64, 131072, std::nullopt, std::nullopt); },
                    "Not enough memory. Please try to increase --mem-fraction-static.");
}

// managers/tp_worker.py@71de97b2: "max_running_request is zero" when one token fits (1 // 2 = 0); two tokens give
// one request.
TEST(SglangLoweringRefusal, NoRequestSlot) {
  refused_with_twin([] { (void)memory_pool(131072, 131072, 1, 131072, std::nullopt, std::nullopt); },
                    [] { (void)memory_pool(2 * 131072, 131072, 1, 131072, std::nullopt, std::nullopt); },
                    "max_running_request is zero");
}

// A breakdown stating the weights per node cannot be read as per-rank memory.
TEST(SglangLoweringRefusal, BreakdownBasis) {
  const LoweringConfig c = config(kLlama8B, "H100-SXM");
  const ResolvedServerArgs r = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), c);
  engine::MemoryBreakdown bad, good;
  engine::StageMemory s;
  s.weights.bytes = units::BytesPerRank{16'000'000'000};
  good.stages.push_back(s);
  s.weights.bytes = units::BytesPerNode{16'000'000'000};
  bad.stages.push_back(s);
  refused_with_twin([&] { (void)kv_budget(bad, chip("H100-SXM"), r, c, {131072}); },
                    [&] { (void)kv_budget(good, chip("H100-SXM"), r, c, {131072}); },
                    "kv_budget: the weights term is stated per node");
}

// The plan's pipeline split is not ported: pp_size 2 is refused by lower_policies, pp_size 1 accepted.
TEST(SglangLoweringRefusal, PipelineStagesInPlan) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.pp = 2;
  const LoweringConfig good = config(kLlama8B, "H100-SXM");
  refused_with_twin(
      [&] {
        const ResolvedServerArgs r = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), bad);
        (void)lower_policies(graph(kLlama8B), chip("H100-SXM"), bad, r, 2048);
      },
      [&] {
        const ResolvedServerArgs r = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), good);
        (void)lower_policies(graph(kLlama8B), chip("H100-SXM"), good, r, 2048);
      },
      "pp_size=2 is not modelled by this port");
}

// The remaining input checks, each with its closest accepted input.
TEST(SglangLoweringRefusal, InputChecks) {
  // A layer without an attention mixer (a recurrent or empty mixer).
  schema::Graph no_attn = graph(kLlama8B);
  for (auto& [_, k] : no_attn.layer_kinds) {
    k.mixer.attention.reset();
    k.mixer.none = true;
  }
  refused_with_twin(resolving(no_attn, config(kLlama8B, "H100-SXM")), resolving(graph(kLlama8B), config(kLlama8B, "H100-SXM")),
                    "(no attention mixer) is not modelled by this port");
  // A graph that leaves part of the checkpoint out.
  schema::Graph omitted = graph(kLlama8B);
  omitted.omitted.emplace_back();
  omitted.omitted.back().component = "vision tower";
  refused_with_twin(resolving(omitted, config(kLlama8B, "H100-SXM")), resolving(graph(kLlama8B), config(kLlama8B, "H100-SXM")),
                    "(omitted: vision tower) is not modelled by this port");
  // The configuration names another model than the graph given.
  refused_with_twin(resolving(graph(kLlama8B), config(kLlama70B, "H100-SXM")),
                    resolving(graph(kLlama70B), config(kLlama70B, "H100-SXM")),
                    "model=meta-llama/Meta-Llama-3.1-70B: the graph given is meta-llama/Meta-Llama-3.1-8B");
  LoweringConfig mbs0 = config(kLlama8B, "H100-SXM");
  mbs0.cuda_graph_max_bs = 0;
  LoweringConfig mbs1 = mbs0;
  mbs1.cuda_graph_max_bs = 1;
  config_pair(mbs0, mbs1, "cuda_graph_max_bs=0: expected at least 1");
  LoweringConfig ctx0 = config(kLlama8B, "H100-SXM");
  ctx0.context_length = 0;
  LoweringConfig ctx1 = ctx0;
  ctx1.context_length = 1;
  config_pair(ctx0, ctx1, "context_length=0: expected at least 1");
  refused_with_twin([] { (void)memory_pool(1 << 30, 0, 1, 131072, std::nullopt, std::nullopt); },
                    [] { (void)memory_pool(1 << 30, 1, 1, 131072, std::nullopt, std::nullopt); },
                    "cell_size=0 is not modelled by this port");
  refused_with_twin([] { (void)padded_decode_batch_size({1, 2, 4}, 0); },
                    [] { (void)padded_decode_batch_size({1, 2, 4}, 1); }, "batch_size=0: a decode batch holds at least one request");
  const MemoryDefaults m = resolve_memory_defaults(76293.0, config(kLlama8B, "H100-SXM"), false);
  refused_with_twin([&] { (void)decode_capture_batch_sizes(m, 0); }, [&] { (void)decode_capture_batch_sizes(m, 1); },
                    "req_to_token_pool_size=0: the request pool holds at least one request");
  const LoweringConfig c = config(kLlama8B, "H100-SXM");
  const ResolvedServerArgs r = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), c);
  engine::MemoryBreakdown one;
  one.stages.emplace_back();
  one.stages.back().weights.bytes = units::BytesPerRank{16'000'000'000};
  refused_with_twin([&] { (void)kv_budget(one, chip("H100-SXM"), r, c, {131072, 131072}); },
                    [&] { (void)kv_budget(one, chip("H100-SXM"), r, c, {131072}); }, "kv_budget: 2 cell sizes for 1 stages");
}

}  // namespace
}  // namespace blis::sglang::model_executor::test
