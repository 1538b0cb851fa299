// Original to BLIS: SGL-6's check refused-type-startup (invariants/SGL-6.yaml, test sglang-refused-types). For
// every tree cache, tree core, allocator and memory pool engines/sglang/surface.json does not call modelled, the
// table below gives either the smallest configuration that selects it at the pinned commit (SGLang server
// arguments, environment variables, a catalog model or a graph feature, a chip), each row citing the upstream
// selection code, or why no configuration of a modelled chip and model reaches it. Each configuration goes through
// the port's real start-up path (engine::build_engine over the registry, as `blis run` builds a pool's engine:
// parse_server_args, the KV-cache type selection, the resolution and lowering, the KV budget) and must be refused
// with a message naming the type; its closest accepted twin must build, and the types that twin runs must be
// modelled in the list (SIM-9's refusal pairs). A non-modelled type without a row, a row for a type the list does
// not hold or calls modelled, and a modelled type no accepted twin runs are findings.
//
// usage: sglang-refused-types-test <surface.json>
// Prints each finding and exits 1; exits 0 with the table's counts; 2 on a usage error or an unreadable list.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "contracts/doc/diagnostics.h"
#include "contracts/engine/engine.h"
#include "schema/surface-list.h"
#include "srt/entrypoints/engine_core.h"
#include "tests/sim/embedded_environment.h"

namespace blis::sglang::refused_types {
namespace {

constexpr const char* kLlama8B = "meta-llama/Meta-Llama-3.1-8B";
constexpr const char* kDeepSeekV3 = "deepseek-ai/DeepSeek-V3";  // MLA
constexpr const char* kGlm5 = "zai-org/GLM-5";                    // MLA with a sparse indexer (DSA)
constexpr const char* kGptOss20B = "openai/gpt-oss-20b";          // sliding-window and full layers (hybrid SWA)
// Graph features no catalog model has, as copies of a catalog graph with one feature changed (graph_feature()).
constexpr const char* kAllSliding = "blis-test/Llama-3.1-8B-every-layer-sliding";   // no full-attention layer
constexpr const char* kHybridMamba = "blis-test/Llama-3.1-8B-one-mamba2-layer";     // a recurrent layer (mambaish)
constexpr const char* kHybridMambaMla = "blis-test/DeepSeek-V3-one-mamba2-layer";   // recurrent + MLA

// One engine configuration: the model (--model-path), the chip of the pool and the other arguments in order.
struct Config {
  std::string model = kLlama8B;
  std::string chip = "H100-SXM";
  std::vector<std::pair<std::string, std::string>> args;
  std::map<std::string, std::string> env;
  std::string text() const {
    std::string s = "model-path " + model + " on " + chip;
    for (const auto& [k, v] : args) s += ", --" + k + " " + v;
    for (const auto& [k, v] : env) s += ", " + k + "=" + v;
    return s;
  }
};

struct Row {
  std::string category;
  std::string type;
  std::string upstream;           // the selection code at the pinned commit, path@71de97b2:lines
  std::optional<Config> selects;  // the smallest configuration that selects the type
  std::optional<Config> twin;     // its closest accepted twin
  std::string reason;             // else: why no configuration of a modelled chip and model reaches it
  std::string names;              // what the refusal must name (the type, unless set)
};

Config cfg(std::vector<std::pair<std::string, std::string>> args = {}, std::string model = kLlama8B,
           std::string chip = "H100-SXM", std::map<std::string, std::string> env = {}) {
  return Config{std::move(model), std::move(chip), std::move(args), std::move(env)};
}
Config env(std::string name) { return cfg({}, kLlama8B, "H100-SXM", {{std::move(name), "1"}}); }

Row selected(std::string category, std::string type, std::string upstream, Config selects, Config twin = cfg(),
             std::string names = "") {
  return Row{std::move(category), std::move(type), std::move(upstream), std::move(selects), std::move(twin), "",
             std::move(names)};
}
Row unreachable(std::string category, std::string type, std::string upstream, std::string reason) {
  return Row{std::move(category), std::move(type), std::move(upstream), std::nullopt, std::nullopt, std::move(reason), ""};
}

const std::string kNpu =
    "hardware_not_simulated: selected only on Ascend NPUs (_is_npu with the ascend attention backend, a DeepSeek V4 "
    "or a hybrid GDN model); BLIS simulates no NPU";
const std::string kDsv4 =
    "selected only for a DeepSeek V4 architecture (is_deepseek_v4, configs/model_config.py@71de97b2:137-142), whose "
    "compressed (c4/c128) attention the catalog's graph schema cannot state, so no catalog model or graph feature "
    "reaches it";
const std::string kMiniMaxSparse =
    "selected only for the MiniMaxM3Sparse architectures (is_minimax_sparse, configs/model_config.py@71de97b2:150-155), "
    "which the catalog graph does not name and no catalog model has; a sparse-indexer layer on an MHA model is "
    "refused by the lowering (srt/model_executor/attention_backend.cpp)";

// The selection table: every tree cache, tree core, allocator and memory pool of the pinned release that the port
// does not model. Paths are under python/sglang/srt/ at the pinned commit.
std::vector<Row> table() {
  const std::string reg = "mem_cache/registry.py@71de97b2:";
  const std::string conf = "mem_cache/kv_cache_configurator.py@71de97b2:";
  const std::string unified = "mem_cache/unified_memory_pool.py@71de97b2:";
  const std::vector<std::pair<std::string, std::string>> unified_memory{{"enable-unified-memory", "true"}};
  const std::vector<std::pair<std::string, std::string>> hisparse{{"enable-hisparse", "true"},
                                                                  {"disable-radix-cache", "true"}};
  return {
      // --- tree_cache: create_tree_cache / default_radix_cache_factory (mem_cache/registry.py) ---
      unreachable("tree_cache", "BasePrefixCache", reg + "80-167",
                  "the abstract base of every tree cache (a framework): create_tree_cache returns one of its "
                  "subclasses, never it"),
      selected("tree_cache", "ChunkCache", reg + "91-95", cfg({{"disable-radix-cache", "true"}})),
      selected("tree_cache", "FlexKVRadixCache", reg + "151-163", cfg({{"enable-flexkv", "true"}})),
      selected("tree_cache", "HiRadixCache", reg + "124-136", cfg({{"enable-hierarchical-cache", "true"}})),
      selected("tree_cache", "LMCRadixCache", reg + "138-149", cfg({{"enable-lmcache", "true"}})),
      unreachable("tree_cache", "MambaRadixCache", reg + "121-122",
                  "no selection branch constructs it: default_radix_cache_factory gives a hybrid Mamba model "
                  "UnifiedRadixCache, and only upstream's tests build MambaRadixCache"),
      selected("tree_cache", "PureSWAChunkCache", reg + "96-99", cfg({{"disable-radix-cache", "true"}}, kAllSliding)),
      selected("tree_cache", "PureSWARadixCache", reg + "114-118", cfg({}, kAllSliding)),
      selected("tree_cache", "RadixCacheCpp", reg + "104-109", env("SGLANG_EXPERIMENTAL_CPP_RADIX_TREE")),
      selected("tree_cache", "SWAChunkCache", reg + "100-102", cfg({{"disable-radix-cache", "true"}}, kGptOss20B)),
      unreachable("tree_cache", "SWARadixCache", reg + "114-119",
                  "no selection branch constructs it: default_radix_cache_factory gives a hybrid sliding-window "
                  "model with full-attention layers UnifiedRadixCache, and only upstream's tests build SWARadixCache"),
      selected("tree_cache", "StreamingSession", reg + "252-259", cfg({{"enable-streaming-session", "true"}})),
      selected("tree_cache", "UnifiedRadixCache", reg + "111-112", env("SGLANG_ENABLE_UNIFIED_RADIX_TREE")),
      // --- tree_core: the UnifiedRadixCache's core (unified_radix_cache.py:185, SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND
      // defaults to python) ---
      selected("tree_core", "python", "mem_cache/unified_cache/tree_core_registry.py@71de97b2:57-75",
               env("SGLANG_ENABLE_UNIFIED_RADIX_TREE"), cfg(), "the tree core python"),
      // --- allocator: KVCacheConfigurator._build_token_to_kv_pool_allocator ---
      unreachable("allocator", "BaseTokenToKVPoolAllocator", conf + "1606-1727",
                  "the abstract base of every allocator (a framework): the configurator constructs one of its "
                  "subclasses, never it"),
      unreachable("allocator", "DSV4NPUTokenToKVPoolAllocator", conf + "1628-1652", kNpu),
      unreachable("allocator", "DeepSeekV4HiSparseTokenToKVPoolAllocator", conf + "1723-1727",
                  "with --enable-hisparse, " + kDsv4),
      selected("allocator", "HiSparseTokenToKVPoolAllocator", conf + "1687-1701", cfg(hisparse, kGlm5)),
      selected("allocator", "MultiEndedAllocator", "mem_cache/multi_ended_allocator.py@71de97b2:2113-2124",
               cfg(unified_memory, kGptOss20B)),
      unreachable("allocator", "NPUPagedTokenToKVPoolAllocator", conf + "1653-1665", kNpu),
      selected("allocator", "PureSWATokenToKVPoolAllocator", conf + "1667-1675", cfg({}, kAllSliding)),
      selected("allocator", "SWATokenToKVPoolAllocator", conf + "1676-1685", cfg({}, kGptOss20B)),
      selected("allocator", "UnifiedMambaTokenToKVPoolAllocator", unified + "1228",
               cfg(unified_memory, kHybridMamba)),
      selected("allocator", "UnifiedSWATokenToKVPoolAllocator", unified + "1645", cfg(unified_memory, kGptOss20B)),
      // --- memory_pool: KVCacheConfigurator._build_token_to_kv_pool and the pools built inside others ---
      unreachable("memory_pool", "BaseSWAKVPool", "mem_cache/base_swa_memory_pool.py@71de97b2:9",
                  "the abstract base of SWAKVPool and UnifiedSWAKVPool: no selection constructs it"),
      selected("memory_pool", "DSATokenToKVPool", conf + "1016-1019", cfg({}, kGlm5)),
      unreachable("memory_pool", "DSV4NPUTokenToKVPool", conf + "1099-1100", kNpu),
      unreachable("memory_pool", "DeepSeekV4IndexerPool", "mem_cache/deepseek_v4_memory_pool.py@71de97b2:463",
                  "a sub-pool of DeepSeekV4TokenToKVPool; " + kDsv4),
      unreachable("memory_pool", "DeepSeekV4SingleKVPool", "mem_cache/deepseek_v4_memory_pool.py@71de97b2:463",
                  "a sub-pool of DeepSeekV4TokenToKVPool; " + kDsv4),
      unreachable("memory_pool", "DeepSeekV4TokenToKVPool", conf + "969-980", kDsv4),
      unreachable("memory_pool", "HiSparseC4DevicePool", "mem_cache/deepseek_v4_memory_pool.py@71de97b2:463",
                  "a HiSparse sub-pool of DeepSeekV4TokenToKVPool; " + kDsv4),
      selected("memory_pool", "HiSparseDSATokenToKVPool", conf + "1315-1321", cfg(hisparse, kGlm5)),
      selected("memory_pool", "HybridLinearKVPool", conf + "1041-1046", cfg({}, kHybridMamba)),
      unreachable("memory_pool", "KVCache", conf + "948-1061",
                  "the abstract base of every memory pool (a framework): the configurator constructs one of its "
                  "subclasses, never it"),
      // server_args.py@71de97b2:5394-5431: layer split only on a PD prefill worker with prefill CP (interleave), the
      // mooncake transfer backend and attn_cp_size > 1 (layers/cp/utils.py@71de97b2:56-84).
      selected("memory_pool", "LayerSplitDSATokenToKVPool", conf + "1322-1330",
               cfg({{"enable-dsa-cache-layer-split", "true"},
                    {"disaggregation-mode", "prefill"},
                    {"disaggregation-transfer-backend", "mooncake"},
                    {"enable-prefill-cp", "true"},
                    {"cp-strategy", "interleave"},
                    {"attn-cp-size", "2"},
                    {"tp-size", "2"}},
                   kGlm5)),
      unreachable("memory_pool", "MHATokenToKOnlyPool", "mem_cache/memory_pool.py@71de97b2:4685-4700",
                  "the index-K sub-pool of MiniMaxSparseKVPool, built only with it; " + kMiniMaxSparse),
      unreachable("memory_pool", "MHATokenToKVPoolFP4", conf + "1550-1568",
                  "no selection branch constructs it: its builder _build_mha_fp4_kv_pool is never called; an FP4 KV "
                  "cache on an MHA model builds MHATokenToKVPool with an FP4 quant_method (" + conf + "1047-1061)"),
      // server_args.py@71de97b2:6056-6064: mxfp8 needs SM100+.
      selected("memory_pool", "MHATokenToKVPoolMXFP8", conf + "1573-1574",
               cfg({{"kv-cache-dtype", "mxfp8"}}, kLlama8B, "B200"), cfg({}, kLlama8B, "B200")),
      selected("memory_pool", "MLATokenToKVPool", conf + "1020-1029", cfg({}, kDeepSeekV3)),
      // server_args.py@71de97b2:6066-6083: nvfp4 needs SM100 or SM120 (the default MLA backend there, trtllm_mla, is
      // one KV4 accepts).
      selected("memory_pool", "MLATokenToKVPoolFP4", conf + "1020-1025",
               cfg({{"kv-cache-dtype", "nvfp4"}}, kDeepSeekV3, "B200"), cfg({}, kLlama8B, "B200")),
      unreachable("memory_pool", "MiniMaxSparseKVPool", conf + "1037-1040", kMiniMaxSparse),
      unreachable("memory_pool", "NPUDeepSeekV4IndexerPool",
                  "hardware_backend/npu/dsv4/dsv4_memory_pool.py@71de97b2:148", kNpu),
      unreachable("memory_pool", "NPUDeepSeekV4SingleKVPool",
                  "hardware_backend/npu/dsv4/dsv4_memory_pool.py@71de97b2:33", kNpu),
      unreachable("memory_pool", "NPUMHATokenToKOnlyPool", "hardware_backend/npu/memory_pool_npu.py@71de97b2:506",
                  kNpu),
      unreachable("memory_pool", "NPUMHATokenToKVPool", conf + "1286-1305", kNpu),
      unreachable("memory_pool", "NPUMLATokenToKVPool", conf + "1264-1284", kNpu),
      unreachable("memory_pool", "NPUMiniMaxSparseKVPool", conf + "1233-1262", kNpu),
      // server_args.py@71de97b2:7265-7313: the no-op pool needs an embedding model run in one chunk without a radix
      // cache (FA prefill backend: fa3 on Hopper).
      selected("memory_pool", "NoOpMHATokenToKVPool", conf + "1575-1580",
               cfg({{"prefill-only-disable-kv-cache", "true"},
                    {"is-embedding", "true"},
                    {"chunked-prefill-size", "-1"},
                    {"disable-radix-cache", "true"}})),
      selected("memory_pool", "PageMajorMHATokenToKVPool", conf + "956-967",
               cfg({{"enable-page-major-kv-layout", "true"}})),
      selected("memory_pool", "SWAKVPool", conf + "1031-1036", cfg({}, kGptOss20B)),
      selected("memory_pool", "UnifiedHybridLinearKVPool", unified + "1214", cfg(unified_memory, kHybridMamba)),
      selected("memory_pool", "UnifiedMHATokenToKVPool", unified + "1204-1210", cfg(unified_memory, kHybridMamba)),
      selected("memory_pool", "UnifiedMLATokenToKVPool", unified + "1194-1202", cfg(unified_memory, kHybridMambaMla)),
      selected("memory_pool", "UnifiedSWAKVPool", unified + "1636", cfg(unified_memory, kGptOss20B)),
      unreachable("memory_pool", "_DummyKVCache", "hardware_backend/mlx/model_runner_stub.py@71de97b2:289",
                  "hardware_not_simulated: the MLX backend's stand-in pool, on Apple silicon only; BLIS simulates no "
                  "Apple GPU"),
  };
}

// --- The environment: the production one on the embedded data, one H100 or B200 node, plus graph features ---

const sim::SubstrateEnvironment& substrate(const std::string& chip) {
  static std::map<std::string, std::unique_ptr<sim::SubstrateEnvironment>> envs;
  auto& e = envs[chip];
  if (!e) {
    schema::ScenarioCluster c;
    c.chip = chip;
    c.nodes = units::Count{1};
    c.gpus_per_node = units::Count{8};
    e = std::make_unique<sim::SubstrateEnvironment>(test_support::embedded(),
                                                    sim::cluster_topology(c, test_support::embedded()));
  }
  return *e;
}

// A catalog graph with one feature changed (the refused configurations stop before anything is sized or priced).
schema::Graph graph_feature(const std::string& name) {
  const auto recurrent = [] {
    schema::GraphRecurrent r;
    r.kind = "mamba2";
    r.heads = units::Count{128};
    r.head_dim = units::Count{64};
    r.state_size = units::Count{128};
    r.groups = units::Count{8};
    r.conv_kernel = units::Count{4};
    r.conv_channels = units::Count{10240};
    return r;
  };
  const auto one_mamba_layer = [&](schema::Graph g) {
    schema::GraphLayerKind mamba = g.layer_kinds.at(g.layers.front());
    mamba.mixer.attention.reset();
    mamba.mixer.recurrent = recurrent();
    g.layer_kinds["mamba2"] = mamba;
    g.layers.front() = "mamba2";
    return g;
  };
  const engine::Environment& base = substrate("H100-SXM");
  schema::Graph g;
  if (name == kAllSliding) {
    g = base.graph(kLlama8B);
    for (auto& [_, kind] : g.layer_kinds)
      if (kind.mixer.attention) {
        kind.mixer.attention->window.kind = "sliding";
        kind.mixer.attention->window.size = units::Tokens{4096};
      }
  } else if (name == kHybridMamba) {
    g = one_mamba_layer(base.graph(kLlama8B));
  } else if (name == kHybridMambaMla) {
    g = one_mamba_layer(base.graph(kDeepSeekV3));
  } else {
    throw std::logic_error("no graph feature " + name);
  }
  g.model = name;
  return g;
}

class Environment final : public engine::Environment {
 public:
  explicit Environment(const std::string& chip) : base_(substrate(chip)) {}
  const schema::Graph& graph(std::string_view model) const override {
    static std::map<std::string, schema::Graph, std::less<>> features;
    if (model.starts_with("blis-test/")) {
      auto it = features.find(model);
      if (it == features.end()) it = features.emplace(std::string(model), graph_feature(std::string(model))).first;
      return it->second;
    }
    return base_.graph(model);
  }
  const schema::Chip& chip(std::string_view name) const override { return base_.chip(name); }
  engine::MemoryBreakdown memory(const engine::plan::PoolPlan& partial) const override { return base_.memory(partial); }
  engine::StepEstimate price(const engine::plan::PoolPlan& plan, const engine::plan::StepShape& step) const override {
    return base_.price(plan, step);
  }
  engine::TransferDemand transfer_demand(const engine::plan::PoolPlan& plan,
                                         const engine::plan::Transfer& move) const override {
    return base_.transfer_demand(plan, move);
  }
  schema::AcceptanceProfileProfile acceptance(std::string_view model, std::string_view drafter,
                                              std::string_view workload) const override {
    return base_.acceptance(model, drafter, workload);
  }

 private:
  const engine::Environment& base_;
};

// What building the configuration's engine gave: the refusal, or the KV-cache types the engine runs.
struct Outcome {
  std::optional<std::string> refusal;
  KVCacheTypes types;
};

Outcome build(const Config& c, const std::string& release) {
  static std::map<std::string, Outcome> seen;
  const std::string key = c.text();
  if (auto it = seen.find(key); it != seen.end()) return it->second;
  std::vector<std::pair<std::string, std::string>> args{{"model-path", c.model}};
  args.insert(args.end(), c.args.begin(), c.args.end());
  engine::Spec spec = test_support::engine_spec("sglang", release, args, c.env);
  spec.chip = c.chip;
  engine::EngineRegistry registry;
  register_sglang_engine(registry);
  const Environment env(c.chip);
  Outcome out;
  try {
    std::unique_ptr<engine::Engine> e = engine::build_engine(registry, spec, env);
    out.types = static_cast<const EngineCore&>(*e).kv_cache_types();
  } catch (const std::exception& ex) {
    out.refusal = ex.what();
  }
  seen.emplace(key, out);
  return out;
}

int run(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "sglang-refused-types: cannot read " << path << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  doc::Diagnostics d(path);
  const std::optional<schema::SurfaceList> surface = schema::load_surface_list(text.str(), path, d);
  if (!surface) {
    std::cerr << "sglang-refused-types: " << path << " is not a surface list:\n" << d.str();
    return 2;
  }
  const std::set<std::string> categories{"tree_cache", "tree_core", "allocator", "memory_pool"};
  std::map<std::pair<std::string, std::string>, const schema::SurfaceListItem*> items;
  std::set<std::string> modelled;
  for (const auto& it : surface->items) {
    if (!categories.contains(it.category)) continue;
    items[{it.category, it.name}] = &it;
    if (it.status.modelled) modelled.insert(it.name);
  }
  const std::vector<Row> rows = table();
  std::map<std::pair<std::string, std::string>, const Row*> by_type;
  std::vector<std::string> findings;
  for (const Row& r : rows) {
    if (!by_type.emplace(std::make_pair(r.category, r.type), &r).second)
      findings.push_back(r.category + " " + r.type + ": two rows of the table name it");
  }
  // Every type the list does not call modelled has its row; every row names a type the list refuses.
  for (const auto& [key, item] : items) {
    if (item->status.modelled) continue;
    if (!by_type.contains(key))
      findings.push_back(key.first + " " + key.second + ": " + (item->status.refused ? "refused" : "out of scope") +
                         " (" + item->registered_at +
                         "), but the refused-types table has no row for it: no configuration that selects it, and no "
                         "reason why none does [SGL-6]");
  }
  for (const Row& r : rows) {
    const auto it = items.find({r.category, r.type});
    if (it == items.end())
      findings.push_back(r.category + " " + r.type + ": the table has a row for it, but " + path +
                         " lists no such item (a stale row) [SGL-6]");
    else if (it->second->status.modelled)
      findings.push_back(r.category + " " + r.type + ": the table says a configuration selecting it is refused, but " +
                         path + " calls it modelled [SGL-6; X9]");
  }
  // Each configuration is refused naming the type; its twin builds and runs only modelled types.
  std::set<std::string> run_by_twins;
  std::vector<std::string> shown;  // each row's outcome, printed when the check passes
  int with_config = 0, with_reason = 0;
  for (const Row& r : rows) {
    const std::string who = r.category + " " + r.type;
    if (!r.selects) {
      ++with_reason;
      if (r.reason.empty()) findings.push_back(who + ": the row has neither a configuration nor a reason [SGL-6]");
      shown.push_back(who + " (" + r.upstream + "): unreachable: " + r.reason);
      continue;
    }
    ++with_config;
    if (!r.twin) {
      findings.push_back(who + ": the row has no accepted twin [SIM-9]");
      continue;
    }
    const std::string needle = r.names.empty() ? r.type : r.names;
    const Outcome bad = build(*r.selects, surface->upstream.release);
    if (!bad.refusal)
      findings.push_back(who + ": " + r.selects->text() + " selects it (" + r.upstream +
                         ") but the port accepted it, running " + bad.types.memory_pool + ", " + bad.types.allocator +
                         " and " + bad.types.tree_cache + " [SGL-6]");
    else if (bad.refusal->find(needle) == std::string::npos)
      findings.push_back(who + ": " + r.selects->text() + " is refused, but the message does not name '" + needle +
                         "': " + *bad.refusal + " [SGL-6]");
    else
      shown.push_back(who + " (" + r.upstream + "): " + r.selects->text() + " is refused: " + *bad.refusal);
    const Outcome good = build(*r.twin, surface->upstream.release);
    if (good.refusal) {
      findings.push_back(who + ": the accepted twin " + r.twin->text() + " is refused: " + *good.refusal + " [SIM-9]");
      continue;
    }
    for (const std::string& t : {good.types.memory_pool, good.types.allocator, good.types.tree_cache}) {
      run_by_twins.insert(t);
      if (!modelled.contains(t))
        findings.push_back(who + ": the accepted twin " + r.twin->text() + " runs " + t + ", which " + path +
                           " does not call modelled [SGL-6; X9]");
    }
    if (!good.types.tree_core.empty())
      findings.push_back(who + ": the accepted twin " + r.twin->text() + " runs the tree core " + good.types.tree_core +
                         ", which " + path + " does not call modelled [SGL-6; X9]");
  }
  for (const std::string& m : modelled)
    if (!run_by_twins.contains(m))
      findings.push_back(m + ": modelled in " + path + ", but no accepted configuration of the table runs it [X9]");
  for (const std::string& f : findings) std::cout << f << "\n";
  if (!findings.empty()) {
    std::cout << "sglang-refused-types: " << findings.size() << " finding(s)\n";
    return 1;
  }
  for (const std::string& line : shown) std::cout << "  " << line << "\n";
  std::cout << "sglang-refused-types: " << rows.size() << " non-modelled tree caches, tree cores, allocators and pools: "
            << with_config << " selected by a configuration the port refuses by name beside its accepted twin, "
            << with_reason << " no modelled chip and model reaches\n";
  return 0;
}

}  // namespace
}  // namespace blis::sglang::refused_types

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: sglang-refused-types-test <surface.json>\n";
    return 2;
  }
  try {
    return blis::sglang::refused_types::run(argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "sglang-refused-types: " << e.what() << "\n";
    return 2;
  }
}
