// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/model_executor/models/llama.py (LlamaModel, LlamaForCausalLM: the
// embedding, the decoder layers of this pipeline stage, the final norm, the LM head),
// vllm/model_executor/layers/vocab_parallel_embedding.py (pad_vocab_size, VocabParallelEmbedding,
// ParallelLMHead), vllm/model_executor/layers/logits_processor.py (the logits all-gather and the pruning to
// the vocabulary), vllm/v1/sample/sampler.py (float32 logits), vllm/v1/worker/gpu_model_runner.py
// (IntermediateTensors between stages) and vllm/v1/core/kv_cache_utils.py (one KV cache group per
// uniform attention layout)@6e448d0e; the model-level lowering and the assembly of the partial plan.
#include <algorithm>
#include <stdexcept>

#include "model_executor/lowering_internal.h"

namespace blis::vllm {

namespace {

using namespace lowering;

constexpr std::int64_t DEFAULT_VOCAB_PADDING_SIZE = 64;

// vocab_parallel_embedding.py@6e448d0e pad_vocab_size.
std::int64_t pad_vocab_size(std::int64_t vocab_size, std::int64_t pad_to) {
  return (vocab_size + pad_to - 1) / pad_to * pad_to;
}

void check_config(const schema::Graph& graph, const schema::Chip& chip, const LoweringConfig& cfg) {
  if (cfg.model != graph.model)
    throw std::invalid_argument("model=" + cfg.model + ": the graph given is " + graph.model);
  if (cfg.chip != chip.name) throw std::invalid_argument("chip=" + cfg.chip + ": the chip given is " + chip.name);
  for (const auto& [name, v] : {std::pair<const char*, std::int64_t>{"tensor_parallel_size", cfg.tp},
                                {"pipeline_parallel_size", cfg.pp}, {"data_parallel_size", cfg.dp},
                                {"nodes", cfg.nodes}, {"gpus_per_node", cfg.gpus_per_node},
                                {"block_size", cfg.block_size}, {"max_num_batched_tokens", cfg.max_num_batched_tokens},
                                {"max_num_seqs", cfg.max_num_seqs}})
    if (v < 1) throw std::invalid_argument(std::string(name) + "=" + std::to_string(v) + ": expected at least 1");
  if (!graph.omitted.empty())
    not_modelled("model " + graph.model + " (omitted: " + graph.omitted[0].component + ")",
                 "the graph leaves out part of the checkpoint, so the resident weights cannot be sized");
  const std::int64_t world = cfg.tp * cfg.pp * cfg.dp;
  if (world > cfg.nodes * cfg.gpus_per_node)
    throw std::invalid_argument("tensor_parallel_size x pipeline_parallel_size x data_parallel_size = " +
                                std::to_string(world) + " ranks exceed the " + std::to_string(cfg.nodes * cfg.gpus_per_node) +
                                " GPUs of " + std::to_string(cfg.nodes) + " node(s)");
  if (cfg.tp > cfg.gpus_per_node)
    not_modelled("tensor_parallel_size=" + std::to_string(cfg.tp) + " across nodes",
                 "a TP group spanning nodes (custom all-reduce over MNNVL, NCCL across the fabric) is not lowered");
  if (cfg.dp > 1)
    not_modelled("data_parallel_size=" + std::to_string(cfg.dp),
                 "data-parallel engines (their lockstep padding, coordinate_batch_across_dp) are not lowered");
}

Layer collective_layer(const Context& c, std::optional<std::int64_t> layer, std::int64_t stage,
                       const std::string& primitive, const std::string& name, const std::string& group,
                       std::int64_t group_size, const std::string& span, std::int64_t bytes_per_token,
                       const std::string& rows) {
  Layer l = layer_of(layer, stage, primitive, name);
  schema::PoolPlanPrimitiveShape sh;
  sh.rows = rows;
  schema::PoolPlanDtypes d;
  d.activation = c.dtype.format();
  sh.dtypes = d;
  l.shape = sh;
  schema::PoolPlanCollective co;
  co.group = group;
  co.group_size = units::Count{group_size};
  co.span = span;
  co.bytes_per_token = units::BytesPerRank{bytes_per_token};
  l.collective = co;
  Kernel k;
  k.library = "nccl";
  k.variant = primitive == "p2p.send_recv" ? "send_recv" : "all_gather";
  l.kernel = k;
  return l;
}

}  // namespace

engine::plan::PoolPlan lower(const schema::Graph& graph, const schema::Chip& chip, const LoweringConfig& cfg) {
  check_config(graph, chip, cfg);
  Context c;
  c.graph = &graph;
  c.chip = &chip;
  c.cfg = cfg;
  c.cc = device_capability(chip);
  c.compilation = resolve_compilation(cfg, graph, chip);
  c.dtype = resolve_model_dtype(graph, cfg);
  c.kv = resolve_kv_dtype(c.dtype, cfg);
  c.span = "node";  // check_config refuses a TP group across nodes
  c.ranks_per_node = std::min(cfg.tp * cfg.pp * cfg.dp, cfg.gpus_per_node);
  const std::int64_t num_layers = static_cast<std::int64_t>(graph.layers.size());
  if (cfg.pp > num_layers)
    throw std::invalid_argument("pipeline_parallel_size=" + std::to_string(cfg.pp) + " exceeds the model's " +
                                std::to_string(num_layers) + " layers");
  c.stage_of_layer = stages_of_layers(num_layers, cfg.pp);
  const std::int64_t last = cfg.pp - 1;
  const std::string pp_span = cfg.tp * cfg.pp <= cfg.gpus_per_node ? "node" : (chip.rack ? "rack" : "fabric");

  engine::plan::PoolPlan plan;
  plan.chip = chip.name;
  if (cfg.fabric) plan.fabric = cfg.fabric;
  plan.model = graph.model;
  schema::PoolPlanLayout lo;
  lo.tp = units::Count{cfg.tp};
  lo.pp = units::Count{cfg.pp};
  lo.dp = units::Count{cfg.dp};
  lo.ep = units::Count{1};
  lo.cp = units::Count{1};
  const std::int64_t ranks = cfg.tp * cfg.pp * cfg.dp;
  lo.nodes = units::Count{(ranks + cfg.gpus_per_node - 1) / cfg.gpus_per_node};
  lo.ranks_per_node = units::CountPerNode{c.ranks_per_node};
  plan.layout = lo;
  plan.layers = std::vector<Layer>{};
  plan.weights = std::vector<Tensor>{};

  const std::int64_t h = graph.dims.hidden_size.value();
  const std::int64_t vocab = graph.dims.vocab_size.value();
  const std::int64_t vocab_r = divide(pad_vocab_size(vocab, DEFAULT_VOCAB_PADDING_SIZE), cfg.tp);
  const std::vector<std::string> tp_shard = cfg.tp > 1 ? std::vector<std::string>{"tp"} : std::vector<std::string>{};
  for (const auto& t : graph.model_tensors)
    if ((t.role == "embed" || t.role == "lm_head") && (t.quant || (t.dtype != "BF16" && t.dtype != "F16")))
      not_modelled("model_tensors[" + t.name + "].dtype=" + t.dtype, "a quantised embedding or LM head is not lowered");

  // llama.py@6e448d0e LlamaModel.forward on the first stage: embed_tokens (VocabParallelEmbedding: a masked
  // lookup of this rank's vocabulary shard, then tensor_model_parallel_all_reduce).
  {
    Layer e = layer_of(std::nullopt, 0, "embedding", "token embedding");
    Kernel k;
    k.library = "torch";
    k.variant = "torch.nn.functional.embedding";
    e.kernel = k;
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "tokens";
    sh.hidden = units::Count{h};
    schema::PoolPlanDtypes d;
    d.weight = c.dtype.format();
    d.output = c.dtype.format();
    sh.dtypes = d;
    e.shape = sh;
    plan.layers->push_back(e);
    if (cfg.tp > 1) plan.layers->push_back(tp_all_reduce(c, std::nullopt, 0, "embedding all-reduce", h));
    plan.weights->push_back(tensor("embed_tokens.weight", std::nullopt, 0, {vocab_r, h}, c.dtype.format(), tp_shard));
  }

  std::int64_t head_dim = 0;
  for (std::int64_t i = 0; i < num_layers; ++i) {
    const std::string& kind_name = graph.layers[static_cast<std::size_t>(i)];
    const auto it = graph.layer_kinds.find(kind_name);
    if (it == graph.layer_kinds.end())
      throw std::invalid_argument("layers[" + std::to_string(i) + "]=" + kind_name + ": not a key of layer_kinds");
    const schema::GraphLayerKind& kind = it->second;
    check_layer_kind(c, kind, kind_name);
    if (head_dim == 0) head_dim = kind.mixer.attention->head_dim.value();
    if (kind.mixer.attention->head_dim.value() != head_dim)
      not_modelled("layer_kinds." + kind_name + ".mixer.attention.head_dim",
                   "layers with different head sizes (one attention backend per KV layout) are not lowered");
    lower_attention_block(c, i, kind, kind_name, plan);
    if (kind.ffn.dense) lower_dense_ffn(c, i, kind, kind_name, plan);
    else lower_moe_ffn(c, i, kind, kind_name, plan);
    // gpu_model_runner.py@6e448d0e: a stage other than the last hands IntermediateTensors
    // {hidden_states, residual} to the next stage.
    const std::int64_t s = c.stage_of_layer[static_cast<std::size_t>(i)];
    const bool stage_end = i + 1 == num_layers || c.stage_of_layer[static_cast<std::size_t>(i + 1)] != s;
    if (stage_end && s < last)
      plan.layers->push_back(collective_layer(c, i, s, "p2p.send_recv", "hidden states and residual to the next stage",
                                              "pp", cfg.pp, pp_span, 2 * h * c.dtype.bytes, "tokens"));
  }

  // The last stage: the final norm (with the residual), the LM head over the sampled positions
  // (LogitsProcessor), the logits all-gather (use_all_gather on CUDA) and the sampler's float32 logits
  // pruned to the vocabulary.
  plan.layers->push_back(rms_norm(c, std::nullopt, last, "final norm", h, true));
  plan.weights->push_back(tensor("norm.weight", std::nullopt, last, {h}, c.dtype.format(), {}));
  {
    LinearScheme head;
    head.kernel.library = "torch";
    head.kernel.variant = "torch.nn.functional.linear";
    plan.layers->push_back(gemm(c, head, std::nullopt, last, "language-model head", vocab_r, h, "sampled"));
    if (cfg.tp > 1)
      plan.layers->push_back(collective_layer(c, std::nullopt, last, "collective.all_gather", "logits all-gather", "tp",
                                              cfg.tp, c.span, vocab_r * c.dtype.bytes, "sampled"));
    Layer smp = layer_of(std::nullopt, last, "sampling", "sampler");
    schema::PoolPlanPrimitiveShape sh;
    sh.rows = "sampled";
    sh.vocab = units::Count{vocab};
    schema::PoolPlanDtypes d;
    d.activation = plain("", 32);
    d.activation->dtype.reset();  // float32: no tensor-core data type
    sh.dtypes = d;
    smp.shape = sh;
    plan.layers->push_back(smp);
    // ParallelLMHead: tied embeddings reuse embed_tokens (only when both sit on one stage).
    if (!graph.tied_embeddings || last != 0)
      plan.weights->push_back(tensor("lm_head.weight", std::nullopt, last, {vocab_r, h}, c.dtype.format(), tp_shard));
  }

  // KV cache groups: kv_cache_utils.py@6e448d0e get_kv_cache_groups puts the layers of one uniform
  // full-attention layout into one group; per rank a stage holds its own layers' pages.
  {
    std::vector<schema::PoolPlanKVGroup> groups;
    const std::vector<LayerKVSpec> specs = layer_kv_specs(graph, cfg);
    for (std::int64_t s = 0; s < cfg.pp; ++s) {
      schema::PoolPlanKVGroup g;
      std::vector<std::int64_t> ls;
      std::int64_t bytes = 0;
      for (const auto& k : specs)
        if (k.stage == s) {
          ls.push_back(k.layer);
          bytes += k.page_size_bytes;
        }
      if (ls.empty()) continue;
      g.layers = ls;
      g.bytes_per_page = units::BytesPerRank{bytes};
      g.tokens_per_page = units::Tokens{cfg.block_size};
      g.attention = "full";
      g.format = c.kv.format();
      groups.push_back(g);
    }
    plan.kv = groups;
  }

  plan.graphs = graph_policy(c.compilation, cfg, cfg.pp);
  schema::PoolPlanHostPlan host;
  host.tokenize_prompts = true;                          // the API server's input processor
  host.hash_block_tokens = units::Tokens{cfg.block_size};  // prefix caching (enable_prefix_caching default)
  host.detokenize = true;                                // the API server's output processor
  host.tokens_per_message = units::Tokens{1};            // stream_interval=1
  host.processes = units::Count{2};                      // the API server and the engine core
  plan.host = host;
  plan.buffers = runner_buffers(c);
  plan.in_flight = units::Count{cfg.async_scheduling ? 2 : 1};
  plan.profiling_step = profiling_step(cfg);
  return plan;
}

}  // namespace blis::vllm
