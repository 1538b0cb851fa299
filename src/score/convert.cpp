#include "score/convert.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace blis::score {
namespace {

// aiconfigurator's system names and the catalog chips they name (the same packaging: an 8-GPU SXM
// board, or GB200's NVL72 rack of 4-GPU trays), with the GPUs one node of each holds.
struct SystemEntry {
  const char* system;
  const char* chip;
  std::int64_t gpus_per_node;
};
constexpr SystemEntry kSystems[] = {
    {"h100_sxm", "H100-SXM", 8}, {"h200_sxm", "H200-SXM", 8}, {"b200_sxm", "B200", 8},
    {"b300_sxm", "B300", 8},     {"gb200", "GB200-NVL72", 4},
};

// Names under which the same checkpoint is published: Meta renamed its Llama 3.1 repositories from
// Meta-Llama-3.1-* to Llama-3.1-*; the catalog holds them under the first names.
constexpr std::pair<const char*, const char*> kAliases[] = {
    {"meta-llama/Llama-3.1-8B", "meta-llama/Meta-Llama-3.1-8B"},
    {"meta-llama/Llama-3.1-70B", "meta-llama/Meta-Llama-3.1-70B"},
    {"meta-llama/Llama-3.1-405B", "meta-llama/Meta-Llama-3.1-405B"},
};

// The precision of a catalog checkpoint's own weights, where it is not BF16: the checkpoint's
// quantization_config or its model card (nvidia/Llama-3.1-70B-Instruct-FP8 states FP8 outside config.json;
// see its model.yaml). tests/score checks each against the catalog graph where the graph states a format.
struct OwnPrecision {
  const char* model;
  const char* precision;  // the points file's precision label: fp8, fp4, or another word
  const char* format;     // the weight format
};
constexpr OwnPrecision kOwnPrecision[] = {
    {"MiniMaxAI/MiniMax-M2.5", "fp8", "fp8_e4m3"},
    {"Qwen/Qwen3-235B-A22B-FP8", "fp8", "fp8_e4m3"},
    {"Qwen/Qwen3-30B-A3B-FP8", "fp8", "fp8_e4m3"},
    {"Qwen/Qwen3-32B-FP8", "fp8", "fp8_e4m3"},
    {"deepseek-ai/DeepSeek-R1", "fp8", "fp8_e4m3"},
    {"deepseek-ai/DeepSeek-V3", "fp8", "fp8_e4m3"},
    {"zai-org/GLM-5-FP8", "fp8", "fp8_e4m3"},
    {"nvidia/Llama-3.1-70B-Instruct-FP8", "fp8", "fp8"},
    {"RedHatAI/Llama-4-Scout-17B-16E-Instruct-FP8-dynamic", "fp8", "fp8"},
    {"openai/gpt-oss-120b", "fp4", "mxfp4"},
    {"openai/gpt-oss-20b", "fp4", "mxfp4"},
    {"moonshotai/Kimi-K2.5", "int4", "int4"},
};

// A checkpoint of the same model at another precision, in the catalog: (model, precision) -> checkpoint.
struct Variant {
  const char* model;
  const char* precision;
  const char* checkpoint;
  const char* why;
};
constexpr Variant kVariants[] = {
    {"Qwen/Qwen3-32B", "fp8", "Qwen/Qwen3-32B-FP8", "Qwen's own FP8 checkpoint of the same model"},
    {"Qwen/Qwen3-30B-A3B", "fp8", "Qwen/Qwen3-30B-A3B-FP8", "Qwen's own FP8 checkpoint of the same model"},
    {"Qwen/Qwen3-235B-A22B", "fp8", "Qwen/Qwen3-235B-A22B-FP8", "Qwen's own FP8 checkpoint of the same model"},
    {"zai-org/GLM-5", "fp8", "zai-org/GLM-5-FP8", "Z.ai's own FP8 checkpoint of the same model"},
    {"meta-llama/Meta-Llama-3.1-70B", "fp8", "nvidia/Llama-3.1-70B-Instruct-FP8",
     "NVIDIA's FP8 checkpoint of Llama 3.1 70B (the Instruct fine-tune: the same architecture and shapes)"},
};

std::string own_precision(const std::string& model) {
  for (const auto& o : kOwnPrecision) {
    if (model == o.model) return o.precision;
  }
  return "bf16";
}

std::string own_format(const std::string& model) {
  for (const auto& o : kOwnPrecision) {
    if (model == o.model) return o.format;
  }
  return "bf16";
}

std::string num(std::int64_t v) { return std::to_string(v); }

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

// Resolves the model; returns the checkpoint, or adds the reason it cannot.
std::optional<std::string> resolve_model(const Point& p, const Backend& b, const CatalogNames& cat, std::vector<NotScored>& why,
                                         std::vector<std::string>& estimates) {
  std::string id = p.model_path;
  for (const auto& [from, to] : kAliases) {
    if (id == from) {
      id = to;
      estimates.push_back("model: " + p.model_path + " is the catalog's " + to +
                          " (the same checkpoint, published under both names)");
    }
  }
  if (cat.models_no_graph.contains(id)) {
    why.push_back({Reason::not_in_catalog, "model " + id + ": the catalog has its entry but no graph yet"});
    return std::nullopt;
  }
  if (!cat.models.contains(id)) {
    why.push_back({Reason::not_in_catalog, "model " + p.model_path + ": no catalog entry"});
    return std::nullopt;
  }
  const std::string own = own_precision(id);
  if (p.precision.empty()) {
    estimates.push_back("precision: not recorded; the checkpoint's own " + own_format(id) + " weights");
    return id;
  }
  if (p.precision == own) {
    if (!p.gemm_quant_mode.empty() && p.gemm_quant_mode != p.precision && p.gemm_quant_mode != own_format(id)) {
      estimates.push_back("precision: gemm_quant_mode " + p.gemm_quant_mode + " is recorded, but the recorded checkpoint " +
                          id + " ships " + own_format(id) + " weights, which the simulation loads");
    }
    return id;
  }
  for (const auto& v : kVariants) {
    if (id == v.model && p.precision == v.precision && cat.models.contains(v.checkpoint)) {
      estimates.push_back("checkpoint: " + p.model_path + " at " + p.precision + " is simulated as " + v.checkpoint + ", " +
                          v.why + "; how the run reached " + p.precision + " (a quantised checkpoint or " + b.display +
                          "'s quantization argument) is not recorded");
      return std::string(v.checkpoint);
    }
  }
  why.push_back({Reason::field_not_modelled,
                 "quantization: the run ran " + p.model_path + " at " + p.precision +
                     (p.gemm_quant_mode.empty() ? "" : " (gemm " + p.gemm_quant_mode + ")") + "; the catalog checkpoint " +
                     id + " is " + own_format(id) + " and no catalog checkpoint of it is " + p.precision +
                     ", and " + b.display + "'s quantization argument is not modelled (fields.json: not_modelled, no estimation rule)"});
  return std::nullopt;
}

}  // namespace

std::string Lane::text() const { return engine + " " + release + " | " + chip + " | " + model + " | " + layout; }

const Backend* backend_of(const std::string& backend) {
  for (const auto& b : kBackends) {
    if (backend == b.backend) return &b;
  }
  return nullptr;
}

std::optional<std::string> chip_of_system(const std::string& system) {
  for (const auto& s : kSystems) {
    if (system == s.system) return std::string(s.chip);
  }
  return std::nullopt;
}

Conversion convert(const Point& p, const CatalogNames& cat) {
  const Backend* backend = backend_of(p.backend);
  if (backend == nullptr) {
    throw std::invalid_argument("convert: point " + p.id + " is a " + p.backend + " point; this build ports vllm and sglang");
  }
  const Backend& b = *backend;
  Conversion c;
  auto& why = c.not_scored;

  // Topology: one colocated pool of one engine on one node is all this harness writes.
  if (p.mode == "disagg") {
    std::string layout;
    for (const char* k : {"prefill_num_workers", "prefill_tp_size", "decode_num_workers", "decode_tp_size"}) {
      if (const auto v = p.get(k)) layout += std::string(layout.empty() ? "" : ", ") + k + "=" + num(*v);
    }
    why.push_back({Reason::topology_unsupported, "a prefill/decode split (mode disagg" + (layout.empty() ? "" : ": " + layout) +
                                                     "): several engines, where this harness writes one colocated pool"});
  }
  const std::optional<std::string> chip = chip_of_system(p.system);
  std::int64_t per_node = 0;
  for (const auto& s : kSystems) {
    if (p.system == s.system) per_node = s.gpus_per_node;
  }
  const auto tp = p.get("tp_size"), pp = p.get("pp_size"), dp = p.get("attention_dp_size");
  const auto ep = p.get("moe_ep_size"), moe_tp = p.get("moe_tp_size");
  if (p.mode == "agg" && per_node > 0) {
    const std::int64_t gpus = tp.value_or(1) * pp.value_or(1) * dp.value_or(1);
    if (gpus > per_node) {
      why.push_back({Reason::topology_unsupported, "tp_size x pp_size x attention_dp_size = " + num(gpus) + " GPUs, more than one " +
                                                       *chip + " node holds (" + num(per_node) + "): a run across nodes"});
    }
  }

  // The client's concurrency: two records of it must agree.
  const auto sc_it = p.source_fields.find("silicon_concurrency");
  std::optional<std::int64_t> sc;
  if (sc_it != p.source_fields.end()) sc = std::stoll(sc_it->second);  // the reader checked it
  const auto bs = p.get("batch_size");
  if (sc && bs && *sc != *bs) {
    why.push_back({Reason::value_conflict, "client concurrency: silicon_data_source states silicon_concurrency=" + num(*sc) +
                                               " and batch_size is " + num(*bs)});
  } else if (sc) {
    c.concurrency = *sc;
  } else if (bs && *bs >= 1) {
    c.concurrency = *bs;
    c.estimates.push_back("concurrency: silicon_data_source states no silicon_concurrency; batch_size " + num(*bs) +
                          " read as the client's concurrency");
  } else if (p.mode == "agg") {
    why.push_back({Reason::value_not_recorded,
                   "client concurrency: silicon_data_source states no silicon_concurrency and batch_size is " +
                       std::string(bs ? "0" : "empty")});
  }

  // Chip and model.
  if (!chip) {
    why.push_back({Reason::not_in_catalog, "system " + p.system + ": not in the system table (no catalog chip named for it)"});
  } else if (!cat.chips.contains(*chip)) {
    why.push_back({Reason::not_in_catalog, "chip " + *chip + " (system " + p.system + "): no catalog entry"});
  }
  std::vector<std::string> model_estimates;
  const std::optional<std::string> model = resolve_model(p, b, cat, why, model_estimates);

  // Parallel layouts the ports do not model (fields.json: not_modelled, no estimation rule).
  const std::string dp_arg = b.dp_arg;
  if (pp && *pp > 1) {
    why.push_back({Reason::field_not_modelled, std::string(b.pp_arg) + "=" + num(*pp) + " (pp_size): not modelled, no estimation rule"});
  }
  if (dp && *dp > 1) {
    why.push_back({Reason::field_not_modelled, dp_arg + "=" + num(*dp) + " (attention_dp_size): not modelled, no estimation rule"});
  }
  if (ep && *ep > 1) {
    why.push_back({Reason::field_not_modelled, std::string(b.ep_arg) + " (moe_ep_size=" + num(*ep) + "): not modelled, no estimation rule"});
  } else if (moe_tp && tp && *moe_tp > *tp && !(dp && *dp > 1)) {
    why.push_back({Reason::field_not_modelled, dp_arg + ": moe_tp_size=" + num(*moe_tp) + " exceeds tp_size=" + num(*tp) +
                                                   ", so the MoE layers span GPUs beyond the tensor-parallel group, which " +
                                                   b.display + " does only with data parallelism: not modelled, no estimation rule"});
  }
  if (tp && *tp < 1) {
    why.push_back({Reason::value_not_recorded, "tensor-parallel-size: tp_size is 0"});
  }
  if (!why.empty()) return c;

  c.model = *model;
  c.chip = *chip;
  c.tensor_parallel = tp.value_or(1);
  c.requests = std::max(kRequestsPerUser * c.concurrency, kMinRequests);
  c.lane = Lane{b.backend, p.backend_version.empty() ? "unrecorded" : p.backend_version, c.chip, c.model,
                "tp" + num(c.tensor_parallel)};
  for (auto& e : model_estimates) c.estimates.push_back(std::move(e));
  if (!tp) c.estimates.push_back(std::string(b.tp_arg) + ": not recorded; left unset (" + b.display + "'s default)");
  c.estimates.push_back("client: not recorded; a closed loop of " + num(c.concurrency) +
                        " users, each sending its next request when its previous one ends, " + num(c.requests) +
                        " requests (" + num(kRequestsPerUser) + " per user, at least " + num(kMinRequests) +
                        "), prompts of exactly " + num(p.isl) + " fresh random token IDs, outputs forced to exactly " +
                        num(p.osl) + " tokens (max_tokens " + num(p.osl) + ")");
  c.estimates.push_back("warm-up: not recorded; none simulated (a warm-up of fresh random prompts leaves no shared prefix)");
  c.estimates.push_back(std::string("engine settings not recorded (") + b.unset_settings + " and every other): left unset, " +
                        "so the ported " + b.display + " release's defaults apply (fields.json: leave_unset)");
  c.estimates.push_back("measured statistic: silicon_ttft_ms and silicon_tpot_ms compared with the simulated means "
                        "(the source does not say which statistic it records)");

  std::string s;
  s += "# blis score: point " + p.id + " (line " + num(p.line) + " of the points file)\n";
  s += "kind: Deployment\nname: point\npools:\n  - name: serve\n    replicas: 1\n    engine:\n";
  s += "      kind: " + std::string(b.backend) + "\n      version: \"" + b.release + "\"\n      args:\n";
  s += "        " + std::string(b.model_arg) + ": " + quoted(c.model) + "\n";
  if (tp) s += "        " + std::string(b.tp_arg) + ": " + num(*tp) + "\n";
  s += "router: {}\n---\nkind: Scenario\nname: point\ndeployment: point\nseed: 1\n";
  s += "cluster: {chip: " + c.chip + ", nodes: 1, gpus_per_node: " + num(per_node) + "}\n";
  s += "workload:\n  clients:\n    - name: bench\n";
  s += "      arrival: {process: closed_loop, concurrency: " + num(c.concurrency) + ", source: " +
       quoted("the point's client concurrency") + "}\n";
  s += "      prompt_tokens: {family: constant, value: " + num(p.isl) + ", source: " + quoted("the point's ISL") + "}\n";
  s += "      output_tokens: {family: constant, value: " + num(p.osl) + ", source: " + quoted("the point's OSL") + "}\n";
  s += "      max_tokens: " + num(p.osl) + "\n";
  s += "frame:\n  stop: {requests: " + num(c.requests) + "}\n  warmup: none\n";
  s += "  replications: {min: 5, max: 5, relative_half_width: 0.5}\n  metrics:\n";
  for (const char* m : {"ttft.mean", "tpot.mean", "ttft.p50", "tpot.p50"}) {
    s += "    - {metric: " + std::string(m) + ", scope: {level: cluster}}\n";
  }
  c.scenario = std::move(s);
  return c;
}

std::string_view reason_name(Reason r) {
  switch (r) {
    case Reason::code_not_visible: return "code_not_visible";
    case Reason::router_unsupported: return "router_unsupported";
    case Reason::value_not_recorded: return "value_not_recorded";
    case Reason::field_not_modelled: return "field_not_modelled";
    case Reason::field_unclassified: return "field_unclassified";
    case Reason::engine_unsupported: return "engine_unsupported";
    case Reason::topology_unsupported: return "topology_unsupported";
    case Reason::not_in_catalog: return "not_in_catalog";
    case Reason::field_not_in_release: return "field_not_in_release";
    case Reason::value_conflict: return "value_conflict";
    case Reason::build_unparseable: return "build_unparseable";
  }
  return "?";
}

}  // namespace blis::score
