// Original to BLIS: tests of the SGLang model walk (engines/sglang/srt/model_executor/lowering.h lower and
// padded_launch) on the embedded catalog: the plan validates against the pool-plan schema and passes build_engine's
// phase-1 checks, the weights are the graph's tensors sharded over tp as SGLang's parallel layers shard them, the
// kernels follow the resolved attention backend as the pinned backends choose them, the cost model sizes and
// prices the plan, the launched shape of a step follows the pinned runners, and every refusal the walk
// adds is shown beside its closest accepted twin.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "contracts/doc/diagnostics.h"
#include "contracts/engine/quant_format.h"
#include "cost/memory.h"
#include "cost/step.h"
#include "lowering_test.h"
#include "sim/wiring/cost_data.h"

namespace blis::sglang::model_executor::test {
namespace {

using engine::plan::PoolPlan;
using Layer = schema::PoolPlanLoweredLayer;

const char* kMixtral = "mistralai/Mixtral-8x7B-v0.1";
const char* kQwen3_32B = "Qwen/Qwen3-32B";

const data::DataSet& embedded() {
  static const data::DataSet d = [] {
    data::LoadOutcome out = data::load({}, data::standard_validators());
    if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
    return std::move(*out.data);
  }();
  return d;
}

// The cost model over the embedded registry, wired as the simulator's build site wires it (sim/wiring/cost_data.h).
struct Cost {
  cost::Coefficients coefficients;
  cost::MemoryCatalog memory;
  engine::MemoryBreakdown size(const PoolPlan& p) const { return cost::memory_breakdown(coefficients, memory, p); }
  engine::StepEstimate price(const PoolPlan& p, const engine::plan::StepShape& s) const {
    return cost::price_step(coefficients, p, s);
  }
};

const Cost& cost_model() {
  static const Cost c{sim::coefficients(embedded()), cost::MemoryCatalog{}};
  return c;
}

struct Lowered {
  LoweringConfig cfg;
  ResolvedServerArgs args;
  PoolPlan plan;
};

Lowered lower_of(const schema::Graph& g, const std::string& chip_name, std::int64_t tp = 1, std::int64_t mrr = 256,
                 const std::function<void(LoweringConfig&)>& tweak = {}) {
  Lowered l;
  l.cfg = config(g.model, chip_name, tp);
  if (tweak) tweak(l.cfg);
  l.args = resolve_server_args(g, chip(chip_name), l.cfg);
  l.plan = lower(g, chip(chip_name), l.cfg, l.args, mrr);
  return l;
}

bool validates(const PoolPlan& p, std::string* why = nullptr) {
  doc::Diagnostics d{"plan"};
  schema::validate(p, "", d);
  if (why) *why = d.str();
  return d.ok();
}

std::vector<const Layer*> layers_of(const PoolPlan& p, std::optional<std::int64_t> layer) {
  std::vector<const Layer*> out;
  for (const auto& l : *p.layers)
    if (l.layer == layer) out.push_back(&l);
  return out;
}

const Layer& named(const PoolPlan& p, std::optional<std::int64_t> layer, const std::string& name) {
  for (const auto& l : *p.layers)
    if (l.layer == layer && l.name == name) return l;
  throw std::runtime_error("no layer " + name);
}

std::int64_t bytes_of(const std::vector<units::Count>& shape, const std::string& dtype) {
  std::int64_t e = dtype == "F32" ? 4 : 2;
  for (const auto& d : shape) e *= d.value();
  return e;
}

std::int64_t plan_weight_bytes(const PoolPlan& p) {
  std::int64_t sum = 0;
  for (const auto& t : *p.weights) sum += engine::stored_bytes(*t.format, *t.shape).value();
  return sum;
}

// The bytes one rank stores, computed from the graph's tensors: norms and routers replicated; KV rows per rank =
// rows / kv_heads x max(1, kv_heads / tp) (QKVParallelLinear replicates a head once tp >= kv_heads); the embedding
// and LM head padded to a multiple of 64 rows, then split; every other linear weight split over tp.
std::int64_t expected_rank_bytes(const schema::Graph& g, std::int64_t tp) {
  std::map<std::string, std::int64_t> count;
  for (const auto& k : g.layers) ++count[k];
  std::int64_t sum = 0;
  for (const auto& [name, kind] : g.layer_kinds) {
    const std::int64_t kv = kind.mixer.attention->kv_heads.value();
    for (const auto& t : kind.tensors) {
      std::int64_t b = bytes_of(t.shape, t.dtype) * (t.experts ? t.experts->value() : 1);
      if (t.role == "norm" || t.role == "q_norm" || t.role == "k_norm" || t.role == "router") {
      } else if (t.role == "attn_k" || t.role == "attn_v") {
        b = b / kv * std::max<std::int64_t>(1, kv / tp);
      } else {
        b /= tp;
      }
      sum += b * count[name];
    }
  }
  for (const auto& t : g.model_tensors) {
    if (t.role == "norm") {
      sum += bytes_of(t.shape, t.dtype);
    } else {
      const std::int64_t rows = (t.shape[0].value() + 63) / 64 * 64;
      sum += rows * t.shape[1].value() * 2 / tp;
    }
  }
  return sum;
}

// Llama-3.1-8B at tp=1 on H100-SXM: the plan validates, passes build_engine's phase-1 checks (profiling_step
// present, kv_budget absent), and each decoder layer lowers to LlamaDecoderLayer's ops in order.
TEST(SglangLowerWalk, Llama8BPlanIsCompleteAndOrdered) {
  const Lowered l = lower_of(graph(kLlama8B), "H100-SXM");
  const PoolPlan& p = l.plan;
  std::string why;
  EXPECT_TRUE(validates(p, &why)) << why;
  EXPECT_FALSE(p.kv_budget.has_value());
  ASSERT_TRUE(p.profiling_step.has_value());
  ASSERT_TRUE(p.layers && p.weights && p.buffers && p.host && p.kv && p.graphs && p.layout);
  const std::vector<std::string> expected = {"elementwise.norm",
                                             "gemm",
                                             "elementwise.rotary",
                                             "kv_cache.write",
                                             "attention.prefill",
                                             "attention.decode",
                                             "gemm",
                                             "elementwise.norm",
                                             "gemm",
                                             "elementwise.activation",
                                             "gemm"};
  for (std::int64_t i = 0; i < 32; ++i) {
    std::vector<std::string> got;
    for (const Layer* x : layers_of(p, i)) got.push_back(x->primitive);
    EXPECT_EQ(got, expected) << "layer " << i;
  }
  std::vector<std::string> model_level;
  for (const Layer* x : layers_of(p, std::nullopt)) model_level.push_back(x->primitive);
  EXPECT_EQ(model_level, (std::vector<std::string>{"embedding", "elementwise.norm", "gemm", "sampling"}));
  // QKVParallelLinear n = (32 + 2 x 8) x 128; the MLP 2 x 14336; the LM head the 128256-token vocabulary.
  EXPECT_EQ(named(p, 3, "fused query-key-value projection").shape->n->value(), 6144);
  EXPECT_EQ(named(p, 3, "gate and up projection").shape->n->value(), 28672);
  EXPECT_EQ(named(p, 3, "down projection").shape->k->value(), 14336);
  EXPECT_EQ(named(p, std::nullopt, "language-model head").shape->n->value(), 128256);
  EXPECT_FALSE(named(p, 0, "input norm").shape->fused_residual.value());
  EXPECT_EQ(named(p, 0, "input norm").kernel->variant, "rmsnorm");
  EXPECT_EQ(named(p, 1, "input norm").kernel->variant, "fused_add_rmsnorm");
  // ReqToTokenPool: (256 + 1) rows of (131072 + 4) int32.
  EXPECT_EQ(p.buffers->at(0).bytes->value(), 257LL * 131076 * 4);
  EXPECT_EQ(p.host->processes->value(), 3);
  // The profiling shape: one 8192-token chunk (H100 tp1 chunked_prefill_size) over min(8192, 256) requests of 32.
  EXPECT_EQ(l.args.memory.chunked_prefill_size, 8192);
  EXPECT_EQ(p.profiling_step->padded->at(0).tokens->value(), 8192);
  EXPECT_EQ(p.profiling_step->ranks->at(0).requests->at(0).new_tokens->value(), 32);
  EXPECT_EQ(p.profiling_step->ranks->at(0).requests->size(), 256u);
  EXPECT_EQ(*p.profiling_step->mode, "extend_only");
}

// Qwen3-32B (qwen3.py@71de97b2 Qwen3Attention) at tp 4: Llama's layer with the QK norm between the fused projection
// and the rotary embedding, as apply_qk_norm's fused_inplace_qknorm over the rank's 16 query and 2 key heads of
// 128 (models/utils.py@71de97b2, kernels/ops/layernorm/norm.py@71de97b2 can_use_fused_inplace_qknorm(128)); its
// weights replicated on every rank.
TEST(SglangLowerWalk, Qwen3QueryKeyNormPerHead) {
  const Lowered l = lower_of(graph(kQwen3_32B), "H100-SXM", 4);
  const PoolPlan& p = l.plan;
  std::string why;
  EXPECT_TRUE(validates(p, &why)) << why;
  std::vector<std::string> names;
  for (const Layer* x : layers_of(p, 5)) names.push_back(*x->name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(names[1], "fused query-key-value projection");
  EXPECT_EQ(names[2], "query-key norm per head");
  EXPECT_EQ(names[3], "rotary embedding");
  const Layer& qk = named(p, 5, "query-key norm per head");
  EXPECT_EQ(qk.primitive, "elementwise.norm");
  EXPECT_EQ(qk.kernel->library, "sglang-kernel");
  EXPECT_EQ(qk.kernel->variant, "fused_inplace_qknorm");
  EXPECT_EQ(qk.shape->hidden->value(), (16 + 2) * 128);
  EXPECT_FALSE(qk.shape->fused_residual.value());
  int norms = 0;
  for (const auto& t : *p.weights)
    if (t.name->find("self_attn.q_norm.weight") != std::string::npos || t.name->find("self_attn.k_norm.weight") != std::string::npos) {
      ++norms;
      EXPECT_EQ(t.shape->size(), 1u);
      EXPECT_EQ(t.shape->at(0).value(), 128);
      EXPECT_TRUE(t.sharding->empty()) << *t.name;
    }
  EXPECT_EQ(norms, 2 * 64);
}

// The resident weights are the graph's tensors as SGLang shards them, for a dense and an MoE model at tp 1..8:
// at tp 1 they are exactly the checkpoint's stored bytes.
TEST(SglangLowerWalk, WeightsAreTheGraphShardedByTp) {
  for (const char* m : {kLlama8B, kMixtral, kQwen3_32B}) {
    const schema::Graph& g = graph(m);
    for (const std::int64_t tp : {1, 2, 4, 8}) {
      SCOPED_TRACE(std::string(m) + " tp " + std::to_string(tp));
      const Lowered l = lower_of(g, "H100-SXM", tp);
      EXPECT_EQ(plan_weight_bytes(l.plan), expected_rank_bytes(g, tp));
      if (tp == 1) {
        EXPECT_EQ(plan_weight_bytes(l.plan), g.totals.stored_bytes->value());
      }
      for (const auto& t : *l.plan.weights) {
        const std::string& name = *t.name;
        const bool replicated = name.find("norm") != std::string::npos || name.ends_with("mlp.gate.weight");
        EXPECT_EQ(t.sharding->empty(), replicated || tp == 1) << name;
      }
    }
  }
  // Llama-3.1-8B at tp 8: one KV head per rank, so qkv_proj holds (4 + 2) x 128 rows.
  const Lowered l8 = lower_of(graph(kLlama8B), "H100-SXM", 8);
  for (const auto& t : *l8.plan.weights)
    if (t.name == "model.layers.0.self_attn.qkv_proj.weight") {
      EXPECT_EQ(t.shape->at(0).value(), 768);
    }
}

// The attention kernels follow the resolved backend as upstream's backends run them; the rest of the layer does not.
TEST(SglangLowerWalk, KernelsFollowTheAttentionBackend) {
  struct Case {
    const char* chip;
    std::string kv_cache_dtype;
    std::string backend, prefill, decode;
  };
  const std::vector<Case> cases = {
      {"H100-SXM", "auto", "fa3", "flash_attn_with_kvcache", "flash_attn_with_kvcache"},
      {"A100-SXM-80GB", "auto", "flashinfer", "BatchPrefillWithRaggedKVCacheWrapper",
       "BatchDecodeWithPagedKVCacheWrapper"},
      {"B200", "auto", "trtllm_mha", "trtllm_batch_context_with_kv_cache", "trtllm_batch_decode_with_kv_cache"},
      {"H100-SXM", "fp8_e5m2", "triton", "extend_attention_fwd", "decode_attention_fwd"}};
  std::set<std::string> seen;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.chip) + " " + c.kv_cache_dtype);
    const Lowered l =
        lower_of(graph(kLlama8B), c.chip, 1, 256, [&](LoweringConfig& cfg) { cfg.kv_cache_dtype = c.kv_cache_dtype; });
    EXPECT_EQ(l.args.attention.attention_backend, c.backend);
    EXPECT_EQ(named(l.plan, 5, "attention, prompt requests").kernel->variant, c.prefill);
    EXPECT_EQ(named(l.plan, 5, "attention, decode requests").kernel->variant, c.decode);
    EXPECT_EQ(named(l.plan, 5, "SiluAndMul").kernel->variant, "silu_and_mul");
    EXPECT_EQ(named(l.plan, 5, "rotary embedding").kernel->variant, "apply_rope_with_cos_sin_cache_inplace");
    EXPECT_EQ(named(l.plan, 5, "KV cache write").kernel->variant, "store_cache");
    std::string why;
    EXPECT_TRUE(validates(l.plan, &why)) << why;
    seen.insert(named(l.plan, 5, "attention, decode requests").kernel->variant);
  }
  EXPECT_EQ(seen.size(), 4u);
  // fp8 KV: the cache's stored format is one byte.
  const Lowered f =
      lower_of(graph(kLlama8B), "H100-SXM", 1, 256, [](LoweringConfig& cfg) { cfg.kv_cache_dtype = "fp8_e5m2"; });
  EXPECT_EQ(named(f.plan, 0, "attention, decode requests").shape->dtypes->kv->payload_bits->value(), 8);
}

// The BF16 GEMM on SM100 runs the cutedsl TGV kernel where use_cutedsl_bf16_gemm holds at the largest captured decode
// batch: o_proj (n = k = 4096) takes it for m <= 64 only; on SM90 every GEMM is F.linear.
TEST(SglangLowerWalk, Sm100Bf16GemmBackend) {
  const Lowered small = lower_of(graph(kLlama8B), "B200", 1, 48);
  EXPECT_EQ(named(small.plan, 0, "output projection").kernel->variant, "cutedsl_bf16_gemm");
  // n = 28672 > 12288: never TGV.
  EXPECT_EQ(named(small.plan, 0, "gate and up projection").kernel->variant, "torch.nn.functional.linear");
  const Lowered large = lower_of(graph(kLlama8B), "B200", 1, 2048);
  EXPECT_EQ(named(large.plan, 0, "output projection").kernel->variant, "torch.nn.functional.linear");
  const Lowered h100 = lower_of(graph(kLlama8B), "H100-SXM", 1, 48);
  for (const auto& x : *h100.plan.layers)
    if (x.primitive == "gemm") {
      EXPECT_EQ(x.kernel->variant, "torch.nn.functional.linear") << *x.name;
    }
  // Llama-2-7b is F16: F.linear on SM100 too, and every format is fp16.
  const Lowered f16 = lower_of(graph(kLlama2), "B200", 1, 48);
  EXPECT_EQ(named(f16.plan, 0, "output projection").kernel->variant, "torch.nn.functional.linear");
  EXPECT_EQ(*f16.plan.weights->front().format->dtype, "fp16");
}

// TP: every row-parallel output is all-reduced (custom all-reduce for the 2-byte x 4096 x largest-decode message,
// at most 8 MiB, on NVLink), the logits are all-gathered, and the MoE block lowers to the Triton runner.
TEST(SglangLowerWalk, TensorParallelCollectivesAndMoe) {
  const Lowered l = lower_of(graph(kMixtral), "H100-SXM", 2);
  std::vector<std::string> got;
  for (const Layer* x : layers_of(l.plan, 4)) got.push_back(x->primitive);
  EXPECT_EQ(got, (std::vector<std::string>{"elementwise.norm", "gemm", "elementwise.rotary", "kv_cache.write",
                                           "attention.prefill", "attention.decode", "gemm", "collective.all_reduce",
                                           "elementwise.norm", "gemm", "moe.permute", "moe.grouped_gemm",
                                           "elementwise.activation", "moe.grouped_gemm", "collective.all_reduce"}));
  EXPECT_EQ(named(l.plan, 4, "experts gate and up projection").kernel->variant, "fused_moe_kernel");
  EXPECT_EQ(named(l.plan, 4, "experts gate and up projection").shape->n->value(), 14336);  // 2 x 14336 / 2
  EXPECT_EQ(named(l.plan, 4, "experts SiluAndMul").shape->width->value(), 2 * 7168);
  EXPECT_EQ(named(l.plan, 4, "attention output all-reduce").kernel->variant, "custom_all_reduce");
  EXPECT_EQ(named(l.plan, std::nullopt, "logits all-gather").collective->bytes_per_token->value(), 16000 * 2);
  std::string why;
  EXPECT_TRUE(validates(l.plan, &why)) << why;
}

engine::plan::StepShape step_of(const PoolPlan& p, const std::string& mode, std::int64_t reqs, std::int64_t new_tokens,
                                std::int64_t cached) {
  engine::plan::StepShape s;
  s.mode = mode == "decode" ? "decode_only" : "extend_only";
  schema::StepShapeRankStep rank;
  rank.rank = 0;
  std::vector<schema::StepShapeRequestStep> rs;
  for (std::int64_t i = 0; i < reqs; ++i) {
    schema::StepShapeRequestStep q;
    q.new_tokens = units::Tokens{new_tokens};
    q.cached_tokens = units::Tokens{cached};
    q.query_tokens = units::Tokens{new_tokens};
    q.sampled_tokens = units::Tokens{1};
    if (mode != "decode") q.prompt_tokens = units::Tokens{new_tokens};
    rs.push_back(q);
  }
  rank.requests = rs;
  s.ranks = std::vector<schema::StepShapeRankStep>{rank};
  s.padded = std::vector<schema::StepShapePaddedShape>{padded_launch(p, reqs * new_tokens, reqs, new_tokens, mode)};
  s.stage = 0;
  return s;
}

// The cost model (src/cost, as the Environment calls it) sizes the plan's memory (SGLang's budget rule then
// leaves room for KV) and prices a
// decode step, an extend step and the profiling step, for a dense and an MoE model.
TEST(SglangLowerWalk, CostModelSizesAndPricesThePlan) {
  const Cost& env = cost_model();
  struct Case {
    const char* model;
    std::int64_t tp;
  };
  for (const Case c : {Case{kLlama8B, 1}, Case{kMixtral, 2}, Case{kQwen3_32B, 4}}) {
    SCOPED_TRACE(c.model);
    const schema::Graph& g = graph(c.model);
    Lowered l = lower_of(g, "H100-SXM", c.tp, 256);
    const engine::MemoryBreakdown m = env.size(l.plan);
    ASSERT_EQ(m.stages.size(), 1u);
    EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].weights.bytes).value(), plan_weight_bytes(l.plan));
    const std::int64_t cell = kv_cell_size(g, c.tp, static_cast<std::int64_t>(g.layers.size()), 2);
    const auto pools = kv_budget(m, chip("H100-SXM"), l.args, l.cfg, {cell});
    ASSERT_EQ(pools.size(), 1u);
    EXPECT_GT(pools[0].max_total_num_tokens, 0);
    PoolPlan full = l.plan;
    full.kv_budget = std::vector<units::BytesPerRank>{units::BytesPerRank{pools[0].max_total_num_tokens * cell}};
    std::string why;
    EXPECT_TRUE(validates(full, &why)) << why;

    const engine::plan::StepShape decode = step_of(full, "decode", 32, 1, 1024);
    EXPECT_EQ(*decode.padded->at(0).launch, "full_graph");
    const engine::StepEstimate de = env.price(full, decode);
    ASSERT_EQ(de.stages.size(), 1u);
    const engine::plan::StepShape extend = step_of(full, "extend", 1, 2048, 0);
    EXPECT_EQ(*extend.padded->at(0).launch, "piecewise");
    const engine::StepEstimate pe = env.price(full, extend);
    ASSERT_EQ(pe.stages.size(), 1u);
    const double ds = de.stages[0].seconds.value(), ps = pe.stages[0].seconds.value();
    // A decode step reads every weight of the rank once: at least the weights over the HBM bandwidth.
    EXPECT_GT(ds, static_cast<double>(plan_weight_bytes(full)) / 3.35e12);
    EXPECT_LT(ds, 0.1);
    EXPECT_GT(ps, ds);
    EXPECT_LT(ps, 2.0);
    EXPECT_EQ(env.price(full, *full.profiling_step).stages.size(), 1u);
  }
}

// padded_launch follows the runners: decode replays the next captured batch size or runs eagerly above the largest;
// extend and mixed replay the next token bucket piecewise (attention eager) unless above the largest bucket or
// padded past twice the tokens; disabled graphs run eagerly.
TEST(SglangLowerWalk, PaddedLaunch) {
  const Lowered l = lower_of(graph(kLlama8B), "H100-SXM", 1, 256);
  const PoolPlan& p = l.plan;
  const std::vector<std::int64_t> dbs = decode_capture_batch_sizes(l.args.memory, 256);
  ASSERT_EQ(dbs.back(), 256);
  auto d = padded_launch(p, 3, 3, 1, "decode");
  EXPECT_EQ(*d.launch, "full_graph");
  EXPECT_EQ(d.requests->value(), 4);  // [1, 2, 4, ...]: bisect_left(3) -> 4
  EXPECT_EQ(d.tokens->value(), 4);
  EXPECT_EQ(padded_launch(p, 17, 17, 1, "decode").requests->value(), 24);
  EXPECT_EQ(*padded_launch(p, 256, 256, 1, "decode").launch, "full_graph");
  const auto big = padded_launch(p, 257, 257, 1, "decode");
  EXPECT_EQ(*big.launch, "eager");
  EXPECT_EQ(big.requests->value(), 257);

  std::vector<std::int64_t> buckets = l.args.memory.prefill_bs;
  std::sort(buckets.begin(), buckets.end());
  ASSERT_FALSE(buckets.empty());
  const std::int64_t n = buckets.back() - 1;  // just below the largest bucket: pads to it
  const auto e = padded_launch(p, n, 2, n - 1, "extend");
  EXPECT_EQ(*e.launch, "piecewise");
  EXPECT_EQ(e.tokens->value(), *std::lower_bound(buckets.begin(), buckets.end(), n));
  EXPECT_EQ(e.requests->value(), 2);
  EXPECT_EQ(e.eager_layers->size(), 32u);
  const auto mx = padded_launch(p, n, 2, n - 1, "mixed");
  EXPECT_EQ(*mx.launch, "piecewise");
  EXPECT_EQ(mx.tokens->value(), e.tokens->value());
  EXPECT_EQ(*padded_launch(p, buckets.back() + 1, 1, buckets.back() + 1, "extend").launch, "eager");
  // The H100 tp1 token buckets are 4, 8, ..., 32, 48, 64, ..., 8192 (generate_prefill_cuda_graph_batch_sizes):
  // one token pads to 4 > 2 x 1 and runs eagerly; two pad to 4; 33 pad to 48; 8192 is the largest; 8193 is eager.
  EXPECT_EQ(buckets.front(), 4);
  EXPECT_EQ(buckets.back(), 8192);
  EXPECT_EQ(*padded_launch(p, 1, 1, 1, "extend").launch, "eager");
  EXPECT_EQ(padded_launch(p, 2, 1, 2, "extend").tokens->value(), 4);
  EXPECT_EQ(*padded_launch(p, 2, 1, 2, "extend").launch, "piecewise");
  EXPECT_EQ(padded_launch(p, 33, 3, 20, "mixed").tokens->value(), 48);
  EXPECT_EQ(*padded_launch(p, 8192, 4, 2048, "extend").launch, "piecewise");
  EXPECT_EQ(*padded_launch(p, 8193, 4, 2049, "extend").launch, "eager");
  const Lowered off =
      lower_of(graph(kLlama8B), "H100-SXM", 1, 256, [](LoweringConfig& c) { c.disable_prefill_cuda_graph = true; });
  EXPECT_EQ(*padded_launch(off.plan, n, 2, n - 1, "extend").launch, "eager");
  EXPECT_EQ(*padded_launch(off.plan, 3, 3, 1, "decode").launch, "full_graph");
  const Lowered none =
      lower_of(graph(kLlama8B), "H100-SXM", 1, 256, [](LoweringConfig& c) { c.disable_cuda_graph = true; });
  EXPECT_EQ(*padded_launch(none.plan, 3, 3, 1, "decode").launch, "eager");
  EXPECT_THROW(padded_launch(p, 3, 3, 1, "prefill"), std::invalid_argument);
  EXPECT_THROW(padded_launch(p, 4, 3, 2, "decode"), std::invalid_argument);
  EXPECT_THROW(padded_launch(p, 0, 0, 0, "extend"), std::invalid_argument);
}

// --- Refusals: each refused input beside its closest accepted twin ---

void expect_refused(const std::function<void()>& f, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "accepted; expected a refusal naming " << what;
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("is not modelled by this port"), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

// Lowers a copy of `base` changed by `edit`, on chip_name.
void lower_edited(const char* base, const std::function<void(schema::Graph&)>& edit,
                  const std::string& chip_name = "H100-SXM", std::int64_t tp = 1) {
  schema::Graph g = graph(base);
  edit(g);
  (void)lower_of(g, chip_name, tp);
}

schema::GraphLayerKind& kind0(schema::Graph& g) { return g.layer_kinds.begin()->second; }

TEST(SglangLowerWalkRefusals, AttentionFeatures) {
  const auto twin = [](schema::Graph&) {};
  EXPECT_NO_THROW(lower_edited(kLlama8B, twin));
  // QK norms: per head on a dense layer is lowered (apply_qk_norm's fused kernel); across heads, per head on an MoE
  // layer (qwen3_moe.py's own path) and per head at a head size the fused kernel refuses are not.
  EXPECT_NO_THROW(lower_edited(kLlama8B, [](schema::Graph& g) { kind0(g).mixer.attention->qk_norm = "per_head"; }));
  expect_refused(
      [&] { lower_edited(kLlama8B, [](schema::Graph& g) { kind0(g).mixer.attention->qk_norm = "across_heads"; }); },
      "qk_norm=across_heads");
  EXPECT_NO_THROW(lower_edited(kMixtral, twin));
  expect_refused(
      [&] { lower_edited(kMixtral, [](schema::Graph& g) { kind0(g).mixer.attention->qk_norm = "per_head"; }); },
      "qk_norm=per_head with ffn.moe");
  expect_refused(
      [&] {
        lower_edited(kLlama8B, [](schema::Graph& g) {
          kind0(g).mixer.attention->qk_norm = "per_head";
          kind0(g).mixer.attention->head_dim = units::Count{96};
          kind0(g).mixer.attention->v_head_dim = units::Count{96};
        });
      },
      "head_dim=96 with qk_norm=per_head");
  expect_refused(
      [&] { lower_edited(kLlama8B, [](schema::Graph& g) { kind0(g).mixer.attention->output_gate = true; }); },
      "output_gate=true");
  expect_refused(
      [&] {
        lower_edited(kLlama8B, [](schema::Graph& g) { kind0(g).mixer.attention->v_head_dim = units::Count{64}; });
      },
      "v_head_dim=64");
  // The backend the walk does not lower (fa4, which SGLang resolves for asymmetric heads on SM100), beside fa3.
  {
    LoweringConfig c = config(kLlama8B, "H100-SXM");
    ResolvedServerArgs a = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), c);
    EXPECT_NO_THROW(lower(graph(kLlama8B), chip("H100-SXM"), c, a, 256));
    a.attention.attention_backend = "fa4";
    expect_refused([&] { (void)lower(graph(kLlama8B), chip("H100-SXM"), c, a, 256); }, "attention_backend=fa4");
  }
  // A TP group beyond one node: 16 ranks refused, 8 accepted.
  EXPECT_NO_THROW(lower_edited(kLlama8B, twin, "H100-SXM", 8));
  expect_refused([&] { lower_edited(kLlama8B, twin, "H100-SXM", 16); }, "tp_size=16");
}

TEST(SglangLowerWalkRefusals, FeedForwardFeatures) {
  expect_refused(
      [&] {
        lower_edited(kLlama8B, [](schema::Graph& g) {
          kind0(g).ffn.dense.reset();
          kind0(g).ffn.none = true;
        });
      },
      "ffn.none");
  expect_refused([&] { lower_edited(kLlama8B, [](schema::Graph& g) { kind0(g).ffn.dense->activation = "gelu"; }); },
                 "ffn.dense.activation=gelu");
  const auto moe = [](schema::Graph& g) -> schema::GraphMoe& { return *kind0(g).ffn.moe; };
  EXPECT_NO_THROW(lower_edited(kMixtral, [](schema::Graph&) {}));
  expect_refused([&] { lower_edited(kMixtral, [&](schema::Graph& g) { moe(g).experts[0].role = "shared"; }); },
                 "experts[role=shared]");
  expect_refused(
      [&] { lower_edited(kMixtral, [&](schema::Graph& g) { moe(g).experts.push_back(moe(g).experts[0]); }); },
      "ffn.moe.experts");
  expect_refused([&] { lower_edited(kMixtral, [&](schema::Graph& g) { moe(g).activation = "gelu"; }); },
                 "ffn.moe.activation=gelu");
  expect_refused([&] { lower_edited(kMixtral, [&](schema::Graph& g) { moe(g).router.scoring = "sigmoid"; }); },
                 "router.scoring=sigmoid");
  expect_refused([&] { lower_edited(kMixtral, [&](schema::Graph& g) { moe(g).router.correction_bias = true; }); },
                 "correction_bias=true");
  expect_refused([&] { lower_edited(kMixtral, [&](schema::Graph& g) { moe(g).router.groups = units::Count{2}; }); },
                 "router.groups");
  // The MoE block on SM100 (a model-specific override picks its runner), beside the same model on SM90.
  expect_refused(
      [&] {
        lower_edited(
            kMixtral, [](schema::Graph&) {}, "B200");
      },
      "ffn.moe on B200");
}

TEST(SglangLowerWalkRefusals, TensorFeatures) {
  const auto tensor = [](schema::Graph& g, const std::string& role) -> schema::GraphTensor& {
    for (auto& t : kind0(g).tensors)
      if (t.role == role && t.part == "weight") return t;
    throw std::runtime_error("no tensor " + role);
  };
  // A QKV bias is lowered (QKVParallelLinear bias=True); an output projection bias is refused.
  const auto with_bias = [&](const std::string& role) {
    return [&, role](schema::Graph& g) {
      schema::GraphTensor b = tensor(g, role);
      b.part = "bias";
      b.shape = {b.shape[0]};
      kind0(g).tensors.push_back(b);
    };
  };
  EXPECT_NO_THROW(lower_edited(kLlama8B, with_bias("attn_q")));
  expect_refused([&] { lower_edited(kLlama8B, with_bias("attn_o")); }, "part=bias");
  expect_refused([&] { lower_edited(kLlama8B, [&](schema::Graph& g) { tensor(g, "attn_o").part = "scale"; }); },
                 "part=scale");
  expect_refused([&] { lower_edited(kLlama8B, [&](schema::Graph& g) { tensor(g, "attn_o").role = "shared_down"; }); },
                 "role=shared_down");
  expect_refused([&] { lower_edited(kLlama8B, [&](schema::Graph& g) { tensor(g, "attn_o").dtype = "F8_E4M3"; }); },
                 "dtype=F8_E4M3");
  // One tensor F16 among BF16 ones is refused; Llama-2-7b, all F16, is accepted.
  EXPECT_NO_THROW(lower_edited(kLlama2, [](schema::Graph&) {}));
  expect_refused([&] { lower_edited(kLlama8B, [&](schema::Graph& g) { tensor(g, "attn_o").dtype = "F16"; }); },
                 "dtype=F16");
  expect_refused([&] { lower_edited(kLlama8B, [](schema::Graph& g) { g.model_tensors[0].role = "router"; }); },
                 "role=router");
  expect_refused([&] { lower_edited(kLlama8B, [](schema::Graph& g) { g.model_tensors[0].part = "bias"; }); },
                 "part=bias");
  // Model-level tensors stored unlike the layers (all F16 beside BF16 layers; Llama-2-7b, all F16, is the twin).
  expect_refused(
      [&] {
        lower_edited(kLlama8B, [](schema::Graph& g) {
          for (auto& t : g.model_tensors) t.dtype = "F16";
        });
      },
      "].dtype=F16");
}

// Argument errors (not refusals): the capability and the request pool are required.
TEST(SglangLowerWalkRefusals, Arguments) {
  LoweringConfig c = config(kLlama8B, "H100-SXM");
  const ResolvedServerArgs a = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), c);
  EXPECT_NO_THROW(lower(graph(kLlama8B), chip("H100-SXM"), c, a, 1));
  EXPECT_THROW(lower(graph(kLlama8B), chip("H100-SXM"), c, a, 0), std::invalid_argument);
  c.capability.reset();
  EXPECT_THROW(lower(graph(kLlama8B), chip("H100-SXM"), c, a, 1), std::invalid_argument);
}

}  // namespace
}  // namespace blis::sglang::model_executor::test
