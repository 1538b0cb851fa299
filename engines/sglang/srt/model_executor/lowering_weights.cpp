// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/layers/linear.py@71de97b2 (ColumnParallelLinear,
// MergedColumnParallelLinear, QKVParallelLinear and RowParallelLinear: the per-rank parameters their
// weight_loaders fill), python/sglang/srt/layers/vocab_parallel_embedding.py@71de97b2 (VocabParallelEmbedding,
// ParallelLMHead: the padded vocabulary shard), python/sglang/srt/layers/moe/fused_moe_triton/layer.py@71de97b2
// (FusedMoE's w13_weight and w2_weight, TP-sharded intermediate), python/sglang/srt/models/llama.py@71de97b2
// (the tied LM head), python/sglang/srt/models/qwen3.py@71de97b2 (Qwen3Attention's q_norm and k_norm),
// python/sglang/srt/mem_cache/memory_pool.py@71de97b2 (ReqToTokenPool) and
// python/sglang/srt/mem_cache/kv_cache_configurator.py@71de97b2 (its size and row length); the resident weights
// and engine buffers of a plan, and the assembly of lower(). Weight post-processing other than the fusions
// (CPU AMX packing, AITER shuffles) does not run on CUDA and is not ported; the CUDA-graph runners' static input
// buffers are not stated (their pool is sized with the graphs).
#include <algorithm>
#include <map>
#include <stdexcept>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

using internal::not_modelled;

namespace internal {

namespace {

Tensor tensor(const std::string& name, std::optional<std::int64_t> layer, std::vector<std::int64_t> shape,
              const Quant& format, bool sharded) {
  Tensor t;
  t.name = name;
  t.layer = layer;
  t.stage = 0;
  std::vector<units::Count> dims;
  for (const std::int64_t d : shape) dims.emplace_back(d);
  t.shape = dims;
  t.format = format;
  t.sharding = sharded ? std::vector<std::string>{"tp"} : std::vector<std::string>{};
  t.location = "device";
  return t;
}

std::string at_layer(const std::string& name, std::int64_t layer) {
  std::string out = name;
  const std::string key = "{layer}";
  const auto pos = out.find(key);
  if (pos != std::string::npos) out.replace(pos, key.size(), std::to_string(layer));
  return out;
}

std::int64_t dim(const schema::GraphTensor& t, std::size_t i, const std::string& where) {
  if (t.shape.size() <= i)
    throw std::invalid_argument(where + "[" + t.name + "].shape: expected at least " + std::to_string(i + 1) +
                                " dimensions");
  return t.shape[i].value();
}

}  // namespace

// Per decoder layer, the parameters SGLang allocates on one rank: the norms replicated; q_proj, k_proj and v_proj
// loaded into QKVParallelLinear's qkv_proj (query rows split over tp; KV rows split, or one head replicated once
// tp >= the KV heads); gate_proj and up_proj into MergedColumnParallelLinear's gate_up_proj (rows split); o_proj and
// down_proj in RowParallelLinear (columns split); the router's gate replicated (ReplicatedLinear); the experts
// stacked into FusedMoE's w13_weight [E, 2 x I/tp, H] and w2_weight [E, H, I/tp]. Model level: embed_tokens and
// lm_head padded to a multiple of 64 rows and split over tp; lm_head is embed_tokens when the embeddings are tied
// (LlamaForCausalLM.__init__), and the graph then states no lm_head tensor.
std::vector<Tensor> lower_weights(const Walk& w) {
  const schema::Graph& g = *w.graph;
  const std::int64_t tp = w.cfg.tp;
  const Quant f = w.act();
  std::vector<Tensor> out;
  for (const auto& t : g.model_tensors) {
    const std::string where = "model_tensors";
    if (t.role == "norm") {
      out.push_back(tensor(t.name, std::nullopt, {dim(t, 0, where)}, f, false));
    } else {
      const std::int64_t rows = divide((dim(t, 0, where) + 63) / 64 * 64, tp);
      out.push_back(tensor(t.name, std::nullopt, {rows, dim(t, 1, where)}, f, tp > 1));
    }
  }
  for (std::size_t li = 0; li < g.layers.size(); ++li) {
    const std::int64_t i = static_cast<std::int64_t>(li);
    const std::string& kind_name = g.layers[li];
    const schema::GraphLayerKind& kind = g.layer_kinds.at(kind_name);
    const std::string where = "layer_kinds." + kind_name + ".tensors";
    const HeadSplit s = head_split(*kind.mixer.attention, tp);
    // The fused parameters, keyed by their SGLang name: rows per rank, then the rest of the shape.
    std::map<std::string, std::vector<std::int64_t>> fused;
    std::vector<std::string> order;
    const auto add_rows = [&](const std::string& name, std::int64_t rows, std::vector<std::int64_t> rest) {
      if (!fused.contains(name)) {
        order.push_back(name);
        rest.insert(rest.begin(), 0);
        fused[name] = rest;
      }
      fused[name][0] += rows;
    };
    const std::string prefix = "model.layers." + std::to_string(i) + ".";
    for (const auto& t : kind.tensors) {
      const bool bias = t.part == "bias";
      const std::string suffix = bias ? ".bias" : ".weight";
      const auto cols = [&] {
        return bias ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{dim(t, 1, where)};
      };
      if (t.role == "norm") {
        out.push_back(tensor(at_layer(t.name, i), i, {dim(t, 0, where)}, f, false));
      } else if (t.role == "q_norm" || t.role == "k_norm") {
        // qwen3.py@71de97b2 Qwen3Attention: q_norm and k_norm are RMSNorm(head_dim), replicated on every rank.
        out.push_back(tensor(prefix + "self_attn." + t.role + ".weight", i, {dim(t, 0, where)}, f, false));
      } else if (t.role == "attn_q") {
        add_rows(prefix + "self_attn.qkv_proj" + suffix, divide(dim(t, 0, where), tp), cols());
      } else if (t.role == "attn_k" || t.role == "attn_v") {
        // QKVParallelLinear: each rank holds kv_per_rank heads of head_dim rows (a replicated head past tp >= kv).
        (void)divide(dim(t, 0, where), s.kv_heads);
        add_rows(prefix + "self_attn.qkv_proj" + suffix, dim(t, 0, where) / s.kv_heads * s.kv_per_rank, cols());
      } else if (t.role == "attn_o") {
        out.push_back(
            tensor(prefix + "self_attn.o_proj.weight", i, {dim(t, 0, where), divide(dim(t, 1, where), tp)}, f, tp > 1));
      } else if (t.role == "mlp_gate" || t.role == "mlp_up") {
        add_rows(prefix + "mlp.gate_up_proj.weight", divide(dim(t, 0, where), tp), cols());
      } else if (t.role == "mlp_down") {
        out.push_back(
            tensor(prefix + "mlp.down_proj.weight", i, {dim(t, 0, where), divide(dim(t, 1, where), tp)}, f, tp > 1));
      } else if (t.role == "router") {
        out.push_back(tensor(prefix + "mlp.gate.weight", i, {dim(t, 0, where), dim(t, 1, where)}, f, false));
      } else if (t.role == "expert_gate" || t.role == "expert_up") {
        const std::int64_t e = t.experts ? t.experts->value() : 1;
        add_rows(prefix + "mlp.experts.w13_weight", divide(dim(t, 0, where), tp), {e, dim(t, 1, where)});
      } else if (t.role == "expert_down") {
        const std::int64_t e = t.experts ? t.experts->value() : 1;
        out.push_back(tensor(prefix + "mlp.experts.w2_weight", i, {e, dim(t, 0, where), divide(dim(t, 1, where), tp)},
                             f, tp > 1));
      } else {
        not_modelled(where + "[" + t.name + "].role=" + t.role, "a tensor of this role is not lowered");
      }
    }
    for (const std::string& name : order) {
      std::vector<std::int64_t> shape = fused[name];
      if (name.ends_with("w13_weight")) std::swap(shape[0], shape[1]);  // [E, 2 x I/tp, H]
      out.push_back(tensor(name, i, shape, f, tp > 1));
    }
  }
  return out;
}

// kv_cache_configurator.py@71de97b2: ReqToTokenPool(size=max_num_reqs, max_context_len=context_len + 4) (no
// speculative draft tokens); memory_pool.py@71de97b2 ReqToTokenPool.__init__: req_to_token int32
// [size + 1, max_context_len] on the device (row 0 is the padding row CUDA-graph batches point at) and
// req_generation int64 [size + 1] on the host.
std::vector<schema::PoolPlanBuffer> lower_buffers(const Walk& w) {
  const std::int64_t rows = w.max_running_requests + 1;
  const std::int64_t max_context_len = w.args.context_len + 4;
  schema::PoolPlanBuffer dev;
  dev.name = "request-to-token table (ReqToTokenPool.req_to_token)";
  dev.bytes = units::BytesPerRank{rows * max_context_len * 4};
  dev.basis = "rank";
  dev.location = "device";
  schema::PoolPlanBuffer host;
  host.name = "request generation counters (ReqToTokenPool.req_generation)";
  host.bytes = units::BytesPerRank{rows * 8};
  host.basis = "rank";
  host.location = "host";
  return {dev, host};
}

}  // namespace internal

// The assembly of the phase-1 plan: lower_policies (lowering_plan.cpp), then the model walk.
engine::plan::PoolPlan lower(const schema::Graph& graph, const schema::Chip& chip, const LoweringConfig& cfg,
                             const ResolvedServerArgs& args, std::int64_t max_running_requests) {
  if (cfg.model != graph.model)
    throw std::invalid_argument("model=" + cfg.model + ": the graph given is " + graph.model);
  if (cfg.chip != chip.name) throw std::invalid_argument("chip=" + cfg.chip + ": the chip given is " + chip.name);
  if (!cfg.capability)
    throw std::invalid_argument("capability: absent; chip " + chip.name +
                                " states no compute capability in the catalog, so the configuration gives it");
  if (max_running_requests < 1)
    throw std::invalid_argument("max_running_requests=" + std::to_string(max_running_requests) +
                                ": expected at least 1");
  internal::check_supported(cfg);
  engine::plan::PoolPlan plan = lower_policies(graph, chip, cfg, args, max_running_requests);

  internal::Walk w;
  w.graph = &graph;
  w.chip = &chip;
  w.cfg = cfg;
  w.args = args;
  w.cc = *cfg.capability;
  w.max_running_requests = max_running_requests;
  internal::check_walk(w);
  // ModelConfig dtype "auto": the checkpoint's 16-bit type (check_walk admits BF16 or F16 only, one of them).
  for (const auto& t : graph.model_tensors)
    if (t.dtype == "F16") w.dtype = "fp16";
  w.dtype_bytes = 2;
  w.kv = plan.kv->front().format.value();
  const std::vector<std::int64_t> bs = decode_capture_batch_sizes(args.memory, max_running_requests);
  w.decode_rows = bs.empty() ? max_running_requests : bs.back();

  plan.layers = internal::lower_layers(w);
  plan.weights = internal::lower_weights(w);
  plan.buffers = internal::lower_buffers(w);
  {
    // The tokenizer manager tokenizes prompts and the detokenizer manager turns tokens back into text; a request's
    // messages pass the tokenizer manager, the scheduler and the detokenizer manager (three processes); the
    // scheduler streams every token (stream_interval 1). Prefix reuse walks the radix tree: no block hashing.
    schema::PoolPlanHostPlan host;
    host.tokenize_prompts = true;
    host.detokenize = true;
    host.tokens_per_message = units::Tokens{1};
    host.processes = units::Count{3};
    plan.host = host;
  }
  schema::PoolPlanLayout lo = plan.layout.value();
  lo.nodes = units::Count{1};
  lo.ranks_per_node = units::CountPerNode{cfg.tp};
  plan.layout = lo;
  plan.profiling_step = internal::profiling_step(w);
  return plan;
}

}  // namespace blis::sglang::model_executor
