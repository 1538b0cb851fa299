// The lowering to the PoolPlan (engines/vllm/model_executor/lowering.h) on the embedded catalog: the plan's
// structure and shapes against the graph's tensors sharded as vLLM's parallel linear layers shard them,
// the resident weights against the graph's stored bytes, the KV page size, the capture sizes and padding
// transcribed from the pin's code, the budget rule on a hand-made breakdown, and the production
// Environment pricing and sizing the lowered plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <map>
#include <numeric>

#include "contracts/engine/quant_format.h"
#include "lowering_test.h"

namespace blis::vllm::test {
namespace {

using engine::plan::PoolPlan;
using Layer = schema::PoolPlanLoweredLayer;

std::vector<const Layer*> layers_of(const PoolPlan& p, std::optional<std::int64_t> layer) {
  std::vector<const Layer*> out;
  for (const auto& l : *p.layers)
    if (l.layer == layer) out.push_back(&l);
  return out;
}

const Layer& named(const PoolPlan& p, std::int64_t layer, const std::string& name) {
  for (const auto& l : *p.layers)
    if (l.layer == layer && l.name == name) return l;
  throw std::runtime_error("no layer " + name);
}

// The stored shape of a graph tensor of one layer kind, by role.
std::vector<std::int64_t> shape_of(const schema::Graph& g, const std::string& role) {
  for (const auto& [_, kind] : g.layer_kinds)
    for (const auto& t : kind.tensors)
      if (t.role == role && t.part == "weight") {
        std::vector<std::int64_t> s;
        for (const auto& d : t.shape) s.push_back(d.value());
        return s;
      }
  throw std::runtime_error("no tensor of role " + role);
}

std::int64_t weight_bytes(const PoolPlan& p) {
  std::int64_t sum = 0;
  for (const auto& t : *p.weights) sum += engine::stored_bytes(*t.format, *t.shape).value();
  return sum;
}

std::int64_t dtype_bytes(const std::string& d) { return d == "F32" ? 4 : d == "F8_E4M3" ? 1 : 2; }

// The graph's bytes of the tensors of a role (every layer of each kind counted).
std::int64_t graph_bytes_of_role(const schema::Graph& g, const std::string& role) {
  std::map<std::string, std::int64_t> count;
  for (const auto& k : g.layers) count[k] += 1;
  std::int64_t sum = 0;
  for (const auto& [name, kind] : g.layer_kinds)
    for (const auto& t : kind.tensors)
      if (t.role == role) {
        std::int64_t e = dtype_bytes(t.dtype) * (t.experts ? t.experts->value() : 1);
        for (const auto& d : t.shape) e *= d.value();
        sum += e * count[name];
      }
  for (const auto& t : g.model_tensors)
    if (t.role == role) {
      std::int64_t e = dtype_bytes(t.dtype);
      for (const auto& d : t.shape) e *= d.value();
      sum += e;
    }
  return sum;
}

// Llama-3.1-8B at tp=1 on H100-SXM: each decoder layer lowers to vLLM's LlamaDecoderLayer ops in order
// (input norm, qkv_proj, rotary, KV cache write, attention for prompt and decode requests, o_proj,
// post-attention norm, gate_up_proj, SiluAndMul, down_proj), and the GEMM shapes are the graph's tensor
// shapes: QKVParallelLinear n = q + k + v rows, RowParallelLinear k = input columns.
TEST(VllmLowering, Llama8BTp1LayersAndGemmShapes) {
  const auto& g = environment().graph(kLlama8B);
  const PoolPlan p = lower(g, environment().chip("H100-SXM"), config(kLlama8B, "H100-SXM"));
  const std::vector<std::string> expected = {
      "elementwise.norm", "gemm", "elementwise.rotary", "kv_cache.write", "attention.prefill", "attention.decode",
      "gemm", "elementwise.norm", "gemm", "elementwise.activation", "gemm"};
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(g.layers.size()); ++i) {
    std::vector<std::string> got;
    for (const Layer* l : layers_of(p, i)) got.push_back(l->primitive);
    EXPECT_EQ(got, expected) << "layer " << i;
  }
  std::vector<std::string> model_level;
  for (const Layer* l : layers_of(p, std::nullopt)) model_level.push_back(l->primitive);
  EXPECT_EQ(model_level, (std::vector<std::string>{"embedding", "elementwise.norm", "gemm", "sampling"}));
  EXPECT_EQ(p.layers->size(), g.layers.size() * expected.size() + 4);

  const auto q = shape_of(g, "attn_q"), k = shape_of(g, "attn_k"), v = shape_of(g, "attn_v");
  const auto o = shape_of(g, "attn_o"), gate = shape_of(g, "mlp_gate"), up = shape_of(g, "mlp_up");
  const auto down = shape_of(g, "mlp_down");
  const auto nk = [&](const std::string& name) {
    const Layer& l = named(p, 5, name);
    return std::pair<std::int64_t, std::int64_t>{l.shape->n->value(), l.shape->k->value()};
  };
  EXPECT_EQ(nk("fused query-key-value projection"), std::make_pair(q[0] + k[0] + v[0], q[1]));
  EXPECT_EQ(nk("output projection"), std::make_pair(o[0], o[1]));
  EXPECT_EQ(nk("gate and up projection"), std::make_pair(gate[0] + up[0], gate[1]));
  EXPECT_EQ(nk("down projection"), std::make_pair(down[0], down[1]));
  const Layer& head = p.layers->at(p.layers->size() - 2);
  EXPECT_EQ(head.shape->n->value(), g.dims.vocab_size.value());  // 128256 is a multiple of 64: no padding
  EXPECT_EQ(*head.shape->rows, "sampled");
  EXPECT_EQ(named(p, 0, "fused query-key-value projection").kernel->variant, "torch.nn.functional.linear");
  EXPECT_EQ(named(p, 0, "attention, decode requests").kernel->variant, "flash_attn_fa3");
  EXPECT_FALSE(named(p, 0, "input norm").shape->fused_residual.value());
  EXPECT_TRUE(named(p, 1, "input norm").shape->fused_residual.value());
  EXPECT_EQ(p.in_flight->value(), 2);
}

// At tp=2 and tp=8 the column-parallel layers split n and the row-parallel ones k by tp
// (linear.py ColumnParallelLinear / RowParallelLinear); KV heads are replicated once tp >= kv_heads
// (QKVParallelLinear: one KV head per rank at tp=8 for 8 KV heads), and every row-parallel output is
// all-reduced over the TP group.
TEST(VllmLowering, Llama8BTensorParallelSharding) {
  const auto& g = environment().graph(kLlama8B);
  const auto q = shape_of(g, "attn_q"), kv = shape_of(g, "attn_k"), gate = shape_of(g, "mlp_gate");
  const auto down = shape_of(g, "mlp_down");
  for (const std::int64_t tp : {2, 4, 8}) {
    const PoolPlan p = lower(g, environment().chip("H100-SXM"), config(kLlama8B, "H100-SXM", tp));
    const Layer& qkv = named(p, 3, "fused query-key-value projection");
    EXPECT_EQ(qkv.shape->n->value(), q[0] / tp + 2 * std::max<std::int64_t>(kv[0] / tp, 128)) << tp;
    EXPECT_EQ(named(p, 3, "output projection").shape->k->value(), q[0] / tp);
    EXPECT_EQ(named(p, 3, "gate and up projection").shape->n->value(), 2 * gate[0] / tp);
    EXPECT_EQ(named(p, 3, "down projection").shape->k->value(), down[1] / tp);
    EXPECT_EQ(named(p, 3, "attention, prompt requests").shape->heads_q->value(), 32 / tp);
    const Layer& ar = named(p, 3, "MLP output all-reduce");
    EXPECT_EQ(ar.collective->group_size->value(), tp);
    EXPECT_EQ(ar.collective->bytes_per_token->value(), g.dims.hidden_size.value() * 2);
    EXPECT_EQ(*ar.collective->span, "node");
  }
}

// Resident weights per rank: at tp=1 exactly the graph's stored bytes; at tp=2 the graph's bytes halved
// except the replicated norm weights (RMSNorm weights are not sharded), which every rank holds whole.
TEST(VllmLowering, WeightsPerRankMatchTheGraph) {
  const auto& g = environment().graph(kLlama8B);
  const auto& chip = environment().chip("H100-SXM");
  const std::int64_t stored = g.totals.stored_bytes->value();
  EXPECT_EQ(weight_bytes(lower(g, chip, config(kLlama8B, "H100-SXM"))), stored);
  const std::int64_t replicated = graph_bytes_of_role(g, "norm");
  EXPECT_EQ(replicated, (2 * 32 + 1) * 4096 * 2);
  EXPECT_EQ(weight_bytes(lower(g, chip, config(kLlama8B, "H100-SXM", 2))), (stored - replicated) / 2 + replicated);
  // Qwen3-32B-FP8: block-scaled FP8 weights with their F32 scales, as the checkpoint stores them.
  const auto& f = environment().graph("Qwen/Qwen3-32B-FP8");
  EXPECT_EQ(weight_bytes(lower(f, chip, config("Qwen/Qwen3-32B-FP8", "H100-SXM"))), f.totals.stored_bytes->value());
}

// kv_cache_interface.py FullAttentionSpec.real_page_size_bytes = block_size x num_kv_heads x
// (head_size + head_size_v) x dtype size, per layer; the plan's group holds every layer of the stage.
TEST(VllmLowering, KVPageBytes) {
  const auto& g = environment().graph(kLlama8B);
  const auto& chip = environment().chip("H100-SXM");
  const PoolPlan p = lower(g, chip, config(kLlama8B, "H100-SXM"));
  ASSERT_EQ(p.kv->size(), 1u);
  EXPECT_EQ(p.kv->at(0).bytes_per_page->value(), 32 * (16 * 8 * (128 + 128) * 2));
  EXPECT_EQ(p.kv->at(0).tokens_per_page->value(), 16);
  LoweringConfig c = config(kLlama8B, "H100-SXM", 4);
  c.kv_cache_dtype = "fp8";
  const auto specs = layer_kv_specs(g, c);
  ASSERT_EQ(specs.size(), 32u);
  EXPECT_EQ(specs[0].num_kv_heads, 2);
  EXPECT_EQ(specs[0].page_size_bytes, 16 * 2 * 256 * 1);
  EXPECT_EQ(specs[0].dtype, "float8_e4m3fn");
  EXPECT_EQ(named(lower(g, chip, c), 0, "attention, decode requests").kernel->variant, "flash_attn_fa3.kv-fp8");
}

// vllm.py@6e448d0e VllmConfig._set_cudagraph_sizes: max_graph_size = min(max_num_seqs * 2, 512) capped by
// max_num_batched_tokens; [1, 2, 4] + range(8, min(max + 1, 256), 8) + range(256, max + 1, 16), plus
// max_num_batched_tokens when it fits and is off-stride.
std::vector<std::int64_t> pin_sizes(std::int64_t max_size, std::int64_t max_num_tokens) {
  std::vector<std::int64_t> s;
  for (std::int64_t i : {1, 2, 4})
    if (i <= max_size) s.push_back(i);
  for (std::int64_t i = 8; i < std::min<std::int64_t>(max_size + 1, 256); i += 8) s.push_back(i);
  for (std::int64_t i = 256; i < max_size + 1; i += 16) s.push_back(i);
  if (max_num_tokens <= max_size && std::find(s.begin(), s.end(), max_num_tokens) == s.end()) {
    s.push_back(max_num_tokens);
    std::sort(s.begin(), s.end());
  }
  return s;
}

TEST(VllmLowering, CaptureSizesFollowThePin) {
  const auto& g = environment().graph(kLlama8B);
  const auto& chip = environment().chip("H100-SXM");
  struct Case {
    std::int64_t seqs, tokens, max_size;
  };
  for (const Case k : {Case{256, 8192, 512}, Case{1024, 8192, 512}, Case{128, 8192, 256}, Case{4, 8192, 8},
                       Case{256, 100, 100}, Case{1, 8192, 2}}) {
    LoweringConfig c = config(kLlama8B, "H100-SXM");
    c.max_num_seqs = k.seqs;
    c.max_num_batched_tokens = k.tokens;
    const ResolvedCompilation r = resolve_compilation(c, g, chip);
    EXPECT_EQ(r.cudagraph_mode, "FULL_AND_PIECEWISE");
    EXPECT_EQ(r.cudagraph_capture_sizes, pin_sizes(k.max_size, k.tokens)) << k.seqs << " " << k.tokens;
    EXPECT_EQ(r.max_cudagraph_capture_size, r.cudagraph_capture_sizes.back());
  }
  // The default list at max_num_seqs=256, written out: 51 sizes, 1 .. 512.
  const auto r = resolve_compilation(config(kLlama8B, "H100-SXM"), g, chip);
  EXPECT_EQ(r.cudagraph_capture_sizes.size(), 51u);
  EXPECT_EQ(r.cudagraph_capture_sizes[3], 8);
  EXPECT_EQ(r.cudagraph_capture_sizes[33], 248);
  EXPECT_EQ(r.cudagraph_capture_sizes[34], 256);
  // max_num_batched_tokens=100 is appended off-stride (range(8, 101, 8) ends at 96).
  LoweringConfig small = config(kLlama8B, "H100-SXM");
  small.max_num_batched_tokens = 100;
  EXPECT_EQ(resolve_compilation(small, g, chip).cudagraph_capture_sizes.back(), 100);
  // User sizes are de-duplicated, filtered to max_num_batched_tokens and sorted.
  LoweringConfig user = config(kLlama8B, "H100-SXM");
  user.cudagraph_capture_sizes = std::vector<std::int64_t>{16, 4, 16, 9000};
  EXPECT_EQ(resolve_compilation(user, g, chip).cudagraph_capture_sizes, (std::vector<std::int64_t>{4, 16}));
  LoweringConfig eager = config(kLlama8B, "H100-SXM");
  eager.enforce_eager = true;
  const auto e = resolve_compilation(eager, g, chip);
  EXPECT_EQ(e.cudagraph_mode, "NONE");
  EXPECT_TRUE(e.cudagraph_capture_sizes.empty());
  // FA2 (SM80) is UNIFORM_BATCH: a FULL request drops to FULL_AND_PIECEWISE (attention in splitting_ops).
  LoweringConfig full = config(kLlama8B, "A100-SXM-80GB");
  full.cudagraph_mode = "FULL";
  EXPECT_EQ(resolve_compilation(full, g, environment().chip("A100-SXM-80GB")).cudagraph_mode, "FULL_AND_PIECEWISE");
  full.chip = "H100-SXM";
  EXPECT_EQ(resolve_compilation(full, g, chip).cudagraph_mode, "FULL");  // FA3 is ALWAYS
}

// CudagraphDispatcher.dispatch under FULL_AND_PIECEWISE: a uniform decode batch pads to the next capture
// size as a FULL graph with padded requests; a mixed batch pads its tokens to a PIECEWISE graph and keeps
// its request count; above the largest capture size a step runs eagerly, unpadded.
TEST(VllmLowering, PaddedLaunch) {
  const auto& g = environment().graph(kLlama8B);
  const LoweringConfig c = config(kLlama8B, "H100-SXM");
  const ResolvedCompilation r = resolve_compilation(c, g, environment().chip("H100-SXM"));
  const std::vector<std::int64_t> attn = {0, 1};
  auto d = padded_launch(r, c, 33, 33, 1, attn);
  EXPECT_EQ(*d.launch, "full_graph");
  EXPECT_EQ(d.tokens->value(), 40);
  EXPECT_EQ(d.requests->value(), 40);
  d = padded_launch(r, c, 32, 32, 1, attn);
  EXPECT_EQ(d.tokens->value(), 32);
  EXPECT_EQ(*d.launch, "full_graph");
  auto m = padded_launch(r, c, 100, 3, 98, attn);
  EXPECT_EQ(*m.launch, "piecewise");
  EXPECT_EQ(m.tokens->value(), 104);
  EXPECT_EQ(m.requests->value(), 3);
  EXPECT_EQ(*m.eager_layers, attn);
  auto big = padded_launch(r, c, 2048, 1, 2048, attn);
  EXPECT_EQ(*big.launch, "eager");
  EXPECT_EQ(big.tokens->value(), 2048);
  // A decode batch above max_num_seqs' decode sizes: max_num_seqs=20 captures decode FULL graphs up to 20
  // tokens, so 19 requests pad to 24 > 20 and replay the PIECEWISE graph of 24 tokens.
  LoweringConfig few = c;
  few.max_num_seqs = 20;
  const ResolvedCompilation rf = resolve_compilation(few, g, environment().chip("H100-SXM"));
  auto p = padded_launch(rf, few, 19, 19, 1, attn);
  EXPECT_EQ(*p.launch, "piecewise");
  EXPECT_EQ(p.tokens->value(), 24);
}

// Phase 1's graphs and profiling step: a PIECEWISE bucket per capture size and a FULL decode bucket per
// size up to max_num_seqs; the profile run is max_num_batched_tokens over min(tokens, max_num_seqs)
// prompts, the last taking the remainder, launched eagerly.
TEST(VllmLowering, GraphsAndProfilingStep) {
  const auto& g = environment().graph(kLlama8B);
  LoweringConfig c = config(kLlama8B, "H100-SXM");
  c.max_num_seqs = 100;
  c.max_num_batched_tokens = 1000;
  const PoolPlan p = lower(g, environment().chip("H100-SXM"), c);
  std::int64_t piecewise = 0, full = 0;
  for (const auto& b : *p.graphs->buckets) {
    if (*b.launch == "piecewise") ++piecewise;
    if (*b.launch == "full_graph") {
      ++full;
      EXPECT_LE(b.size->requests->value(), 100);
    }
  }
  EXPECT_EQ(piecewise, static_cast<std::int64_t>(pin_sizes(200, 1000).size()));
  EXPECT_EQ(full, 3 + 12);  // 1, 2, 4, 8 .. 96
  const auto& reqs = *p.profiling_step->ranks->at(0).requests;
  ASSERT_EQ(reqs.size(), 100u);
  EXPECT_EQ(reqs[0].new_tokens->value(), 10);
  EXPECT_EQ(reqs[99].new_tokens->value(), 10);
  EXPECT_EQ(*p.profiling_step->padded->at(0).launch, "eager");
  LoweringConfig odd = c;
  odd.max_num_batched_tokens = 1005;
  const PoolPlan q = lower(g, environment().chip("H100-SXM"), odd);
  EXPECT_EQ(q.profiling_step->ranks->at(0).requests->back().new_tokens->value(), 15);
}

// gpu_worker.py determine_available_memory on a hand-made breakdown: ceil(80e9 x 0.9) minus weights,
// buffers, activations and the graph pool; outside_allocator is not subtracted.
TEST(VllmLowering, BudgetRule) {
  const auto& chip = environment().chip("H100-SXM");
  engine::MemoryBreakdown m;
  engine::StageMemory s;
  s.weights.bytes = units::BytesPerRank{16000000000};
  s.engine_buffers.bytes = units::BytesPerRank{70000000};
  s.activations.bytes = units::BytesPerRank{2000000000};
  s.graph_pool.bytes = units::BytesPerRank{500000000};
  s.outside_allocator.bytes = units::BytesPerRank{600000000};
  m.stages.push_back(s);
  EXPECT_EQ(kv_budget(m, chip, 0.9), (std::vector<std::int64_t>{72000000000 - 16000000000 - 70000000 - 2000000000 - 500000000}));
  s.remainder["unexplained"].bytes = units::BytesPerRank{1000};
  m.stages[0] = s;
  EXPECT_EQ(kv_budget(m, chip, 0.9)[0], 72000000000 - 18570001000);
}

// The production Environment prices a decode and a prefill step under the lowered plan and sizes its
// memory, and the budget rule leaves room for KV: the plan is complete for the cost model.
TEST(VllmLowering, EnvironmentPricesAndSizesTheLoweredPlan) {
  const auto& env = environment();
  const auto& g = env.graph(kLlama8B);
  const LoweringConfig c = config(kLlama8B, "H100-SXM");
  const PoolPlan p = lower(g, env.chip("H100-SXM"), c);
  const engine::MemoryBreakdown m = env.memory(p);
  ASSERT_EQ(m.stages.size(), 1u);
  EXPECT_EQ(std::get<units::BytesPerRank>(m.stages[0].weights.bytes).value(), g.totals.stored_bytes->value());
  EXPECT_GT(std::get<units::BytesPerRank>(m.stages[0].activations.bytes).value(), 0);
  EXPECT_GT(std::get<units::BytesPerRank>(m.stages[0].graph_pool.bytes).value(), 0);
  const auto budget = kv_budget(m, env.chip("H100-SXM"), 0.9);
  ASSERT_EQ(budget.size(), 1u);
  EXPECT_GT(budget[0], 40000000000);
  EXPECT_LT(budget[0], 72000000000 - g.totals.stored_bytes->value());
  PoolPlan full = p;
  full.kv_budget = std::vector<units::BytesPerRank>{units::BytesPerRank{budget[0]}};
  const ResolvedCompilation r = resolve_compilation(c, g, env.chip("H100-SXM"));
  std::vector<std::int64_t> attn;
  for (std::int64_t i = 0; i < 32; ++i) attn.push_back(i);

  engine::plan::StepShape decode;
  decode.mode = "decode_only";
  schema::StepShapeRankStep rank;
  rank.rank = 0;
  std::vector<schema::StepShapeRequestStep> reqs;
  for (int i = 0; i < 32; ++i) {
    schema::StepShapeRequestStep q;
    q.new_tokens = units::Tokens{1};
    q.cached_tokens = units::Tokens{1024};
    q.query_tokens = units::Tokens{1};
    q.sampled_tokens = units::Tokens{1};
    reqs.push_back(q);
  }
  rank.requests = reqs;
  decode.ranks = std::vector<schema::StepShapeRankStep>{rank};
  decode.padded = std::vector<schema::StepShapePaddedShape>{padded_launch(r, c, 32, 32, 1, attn)};
  const engine::StepEstimate de = env.price(full, decode);
  ASSERT_EQ(de.stages.size(), 1u);

  engine::plan::StepShape prefill;
  prefill.mode = "extend_only";
  schema::StepShapeRequestStep pq;
  pq.new_tokens = units::Tokens{2048};
  pq.cached_tokens = units::Tokens{0};
  pq.query_tokens = units::Tokens{2048};
  pq.sampled_tokens = units::Tokens{1};
  pq.prompt_tokens = units::Tokens{2048};
  rank.requests = std::vector<schema::StepShapeRequestStep>{pq};
  prefill.ranks = std::vector<schema::StepShapeRankStep>{rank};
  prefill.padded = std::vector<schema::StepShapePaddedShape>{padded_launch(r, c, 2048, 1, 2048, attn)};
  const engine::StepEstimate pe = env.price(full, prefill);
  const double ds = de.stages[0].seconds.value(), ps = pe.stages[0].seconds.value();
  std::printf("Llama-3.1-8B tp1 H100-SXM: decode (32 x ctx 1024, %s) %.6f ms; prefill (2048 tokens, %s) %.6f ms; "
              "KV budget %lld bytes; activations %lld, graph pool %lld bytes\n",
              decode.padded->at(0).launch->c_str(), ds * 1e3, prefill.padded->at(0).launch->c_str(), ps * 1e3,
              static_cast<long long>(budget[0]),
              static_cast<long long>(std::get<units::BytesPerRank>(m.stages[0].activations.bytes).value()),
              static_cast<long long>(std::get<units::BytesPerRank>(m.stages[0].graph_pool.bytes).value()));
  // A decode step reads every weight once: at least the weights over the chip's bandwidth.
  const double floor = static_cast<double>(g.totals.stored_bytes->value()) / 3.35e12;
  EXPECT_GT(ds, floor);
  EXPECT_LT(ds, 0.1);
  EXPECT_GT(ps, ds);  // 2048 prompt tokens cost more than 32 decode tokens
  EXPECT_LT(ps, 2.0);
}

// The other covered models and chips lower and are priced: dense GQA in BF16 and FP8, TP 1..8, MoE.
TEST(VllmLowering, CoveredModelsLowerAndPrice) {
  const auto& env = environment();
  struct Case {
    const char* model;
    const char* chip;
    std::int64_t tp;
  };
  for (const Case k : {Case{"meta-llama/Meta-Llama-3.1-70B", "H100-SXM", 4}, Case{"meta-llama/Meta-Llama-3.1-70B", "H200-SXM", 8},
                       Case{"Qwen/Qwen3-8B", "A100-SXM-80GB", 1}, Case{"Qwen/Qwen3-14B", "B200", 2},
                       Case{"Qwen/Qwen3-32B", "H100-SXM", 2}, Case{"Qwen/Qwen2.5-7B-Instruct", "H100-SXM", 1},
                       Case{"Qwen/Qwen3-32B-FP8", "H200-SXM", 4}, Case{"Qwen/Qwen3-30B-A3B", "H100-SXM", 2},
                       Case{"Qwen/Qwen3-235B-A22B", "B200", 8}}) {
    SCOPED_TRACE(std::string(k.model) + " on " + k.chip + " tp " + std::to_string(k.tp));
    const PoolPlan p = lower(env.graph(k.model), env.chip(k.chip), config(k.model, k.chip, k.tp));
    const engine::MemoryBreakdown m = env.memory(p);
    EXPECT_EQ(m.stages.size(), 1u);
    EXPECT_EQ(env.price(p, *p.profiling_step).stages.size(), 1u);
  }
}

// Pipeline parallelism: get_pp_indices splits 32 layers 11/11/10 over three stages... (32 // 3 = 10, the
// remainder 2 goes to partitions[-2] and partitions[-3]), each stage but the last sends its hidden states.
TEST(VllmLowering, PipelineStages) {
  const auto& env = environment();
  LoweringConfig c = config(kLlama8B, "H100-SXM");
  c.pp = 3;
  const PoolPlan p = lower(env.graph(kLlama8B), env.chip("H100-SXM"), c);
  std::map<std::int64_t, std::set<std::int64_t>> stage_layers;
  std::int64_t sends = 0;
  for (const auto& l : *p.layers) {
    if (l.layer) stage_layers[*l.stage].insert(*l.layer);
    if (l.primitive == "p2p.send_recv") ++sends;
  }
  EXPECT_EQ(stage_layers[0].size(), 11u);
  EXPECT_EQ(stage_layers[1].size(), 11u);
  EXPECT_EQ(stage_layers[2].size(), 10u);
  EXPECT_EQ(sends, 2);
  EXPECT_EQ(p.kv->size(), 3u);
  EXPECT_EQ(env.memory(p).stages.size(), 3u);
}

}  // namespace
}  // namespace blis::vllm::test
