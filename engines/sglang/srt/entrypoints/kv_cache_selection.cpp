// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of the type selection of python/sglang/srt/mem_cache/kv_cache_configurator.py@71de97b2
// and python/sglang/srt/mem_cache/registry.py@71de97b2; see kv_cache_selection.h.
#include "srt/entrypoints/kv_cache_selection.h"

#include <set>
#include <stdexcept>
#include <vector>

namespace blis::sglang {

namespace {

// The types this port models (engines/sglang/surface.json's modelled tree_cache, allocator and memory_pool items;
// tests/sglang/refused_types checks the two agree).
const std::set<std::string>& modelled_types() {
  static const std::set<std::string> s{"MHATokenToKVPool", "TokenToKVPoolAllocator", "PagedTokenToKVPoolAllocator",
                                       "RadixCache"};
  return s;
}

// What the graph says in place of upstream's hf_config predicates, with the field that says it.
struct GraphFeatures {
  std::string mla;        // use_mla_backend (ModelConfig.attention_arch == MLA)
  std::string dsa;        // is_deepseek_dsa (an MLA model with index_topk)
  std::string window;     // is_hybrid_swa (for the hybrid sliding-window architectures)
  std::string recurrent;  // mambaish_config
  std::int64_t full_attention_layers = 0;
};

GraphFeatures features_of(const schema::Graph& graph) {
  GraphFeatures f;
  for (const std::string& name : graph.layers) {
    const auto it = graph.layer_kinds.find(name);
    if (it == graph.layer_kinds.end()) continue;  // resolve_server_args refuses the graph
    const schema::GraphMixer& m = it->second.mixer;
    const std::string at = "layer_kinds." + name + ".mixer";
    if (m.recurrent && f.recurrent.empty()) f.recurrent = at + ".recurrent.kind=" + m.recurrent->kind;
    if (!m.attention) continue;
    const schema::GraphAttention& a = *m.attention;
    if (a.kind == "MLA") {
      if (f.mla.empty()) f.mla = at + ".attention.kind=MLA";
      if (a.indexer && f.dsa.empty()) f.dsa = at + ".attention.kind=MLA with .attention.indexer";
    }
    if (a.window.kind != "full") {
      if (f.window.empty()) f.window = at + ".attention.window.kind=" + a.window.kind;
    } else {
      ++f.full_attention_layers;
    }
  }
  return f;
}

// One type the selection picked: where upstream picks it and what in the configuration made it.
struct Choice {
  std::string type;   // the upstream class name, as the message names it
  std::string site;   // the upstream selection site
  std::string cause;  // "argument ... is not modelled by this port" / "model ... (field=value) is not modelled ..."
  std::string note;   // appended once after the cause's types
};

[[noreturn]] void refuse(const std::vector<Choice>& refused) {
  std::string msg = "sglang: ";
  std::vector<bool> done(refused.size(), false);
  for (std::size_t i = 0; i < refused.size(); ++i) {
    if (done[i]) continue;
    std::vector<const Choice*> group;
    for (std::size_t j = i; j < refused.size(); ++j)
      if (!done[j] && refused[j].cause == refused[i].cause) {
        group.push_back(&refused[j]);
        done[j] = true;
      }
    if (msg.size() > 8) msg += "; ";
    msg += refused[i].cause + ": it selects ";
    for (std::size_t k = 0; k < group.size(); ++k) {
      if (k > 0) msg += k + 1 == group.size() ? " and " : ", ";
      msg += group[k]->type + " (" + group[k]->site + ")";
    }
    msg += group.size() == 1 ? ", which is not ported" : ", which are not ported";
    for (const Choice* c : group)
      if (!c->note.empty()) {
        msg += c->note;
        break;
      }
  }
  throw std::invalid_argument(msg);
}

}  // namespace

KVCacheTypes select_kv_cache_types(const schema::Graph& graph, const ParsedServerArgs& args,
                                   const model_executor::DeviceCapability& capability, std::int64_t page_size) {
  const std::string& kvd = args.lowering.kv_cache_dtype;
  // server_args.py@71de97b2:6056-6064 _handle_mxfp8_kv_cache_compatibility (is_blackwell_supported: SM100+).
  if (kvd == "mxfp8" && capability.major < 10)
    throw std::invalid_argument(
        "sglang: --kv-cache-dtype mxfp8 requires an SM100+ (Blackwell) GPU for the block-scaled operands used by the "
        "FA4 MXFP8 attention path.");
  // server_args.py@71de97b2:6066-6083 _handle_kv4_compatibility (is_sm100_supported or is_sm120_supported).
  if (kvd == "nvfp4" && capability.major != 10 && capability.major != 12)
    throw std::invalid_argument(
        "sglang: --kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120. Use --kv-cache-dtype=fp4_mx_block16 for the "
        "block-size-16 FP4 recipe.");
  // mem_cache/kv_cache_dtype.py@71de97b2:62-66 configure_kv_cache_dtype (at model load, before the pools).
  if (kvd == "fp4_e2m1")
    throw std::invalid_argument("sglang: --kv-cache-dtype=fp4_e2m1 is deprecated. Use --kv-cache-dtype=fp4_mx_block16.");
  const bool fp4 = kvd == "nvfp4" || kvd == "fp4_mx_block16";  // is_float4_e2m1fn_x2(kv_cache_dtype)

  const GraphFeatures f = features_of(graph);
  const bool mla = !f.mla.empty(), dsa = mla && !f.dsa.empty(), swa = !f.window.empty(), mamba = !f.recurrent.empty();
  const bool pure_swa = swa && f.full_attention_layers == 0;  // full_max_total_num_tokens == 0
  const auto by_model = [&](const std::string& field, const std::string& with = "") {
    return "model " + graph.model + " (" + field + ")" + with + " is not modelled by this port";
  };
  const std::string swa_note =
      " (SGLang's choice for the hybrid sliding-window architectures, configs/model_config.py@71de97b2:2050-2091 "
      "is_hybrid_swa_model; any other architecture keeps the full-attention pool and allocator with a windowed "
      "attention backend, which this port does not lower either)";
  constexpr const char* kConf = "mem_cache/kv_cache_configurator.py@71de97b2:";
  constexpr const char* kRegistry = "mem_cache/registry.py@71de97b2:";

  KVCacheTypes t;
  std::vector<Choice> chosen;
  // kv_cache_configurator.py@71de97b2:948-1061 _build_token_to_kv_pool (no DeepSeek V4 architecture, no
  // out-of-tree platform, no ascend backend: CUDA).
  if (mla && dsa) {
    chosen.push_back({"DSATokenToKVPool", kConf + std::string("1016-1019"), by_model(f.dsa), ""});
  } else if (mla && !mamba) {
    if (fp4)
      chosen.push_back({"MLATokenToKVPoolFP4", kConf + std::string("1020-1025"),
                        by_model(f.mla, " with --kv-cache-dtype " + kvd), ""});
    else
      chosen.push_back({"MLATokenToKVPool", kConf + std::string("1020-1029"), by_model(f.mla), ""});
  } else if (swa) {
    chosen.push_back({"SWAKVPool", kConf + std::string("1031-1036"), by_model(f.window), swa_note});
  } else if (mamba) {
    chosen.push_back({"HybridLinearKVPool", kConf + std::string("1041-1046"), by_model(f.recurrent), ""});
  } else if (kvd == "mxfp8") {
    // _build_mha_kv_pool (kv_cache_configurator.py@71de97b2:1570-1580).
    chosen.push_back({"MHATokenToKVPoolMXFP8", kConf + std::string("1573-1574"),
                      "argument --kv-cache-dtype mxfp8 is not modelled by this port", ""});
  } else {
    // nvfp4 / fp4_mx_block16 keep MHATokenToKVPool with an FP4 quant_method (kv_cache_configurator.py@71de97b2:
    // 1047-1061); the lowering refuses the dtype.
    chosen.push_back({"MHATokenToKVPool", kConf + std::string("1047-1061"), "", ""});
  }
  t.memory_pool = chosen.back().type;
  // kv_cache_configurator.py@71de97b2:1606-1721 _build_token_to_kv_pool_allocator (CUDA, no HiSparse, no DCP).
  if (pure_swa) {
    chosen.push_back({"PureSWATokenToKVPoolAllocator", kConf + std::string("1667-1675"), by_model(f.window), swa_note});
  } else if (swa) {
    chosen.push_back({"SWATokenToKVPoolAllocator", kConf + std::string("1676-1685"), by_model(f.window), swa_note});
  } else if (page_size == 1) {
    chosen.push_back({"TokenToKVPoolAllocator", kConf + std::string("1702-1711"), "", ""});
  } else {
    chosen.push_back({"PagedTokenToKVPoolAllocator", kConf + std::string("1712-1721"), "", ""});
  }
  t.allocator = chosen.back().type;
  // registry.py@71de97b2:80-167 default_radix_cache_factory (no --radix-cache-backend, no C++ or unified tree by
  // environment, no HiCache, LMCache or FlexKV: parse_server_args refuses those by name). The effective chunked
  // prefill size is never None here (that needs a multimodal model on the Transformers backend).
  const std::string disabled = "argument --disable-radix-cache is not modelled by this port";
  if (args.scheduler.disable_radix_cache) {
    // The message kept the form the ChunkCache refusal has always had (the class's file).
    if (!swa) chosen.push_back({"ChunkCache", "mem_cache/chunk_cache.py", disabled, ""});
    else if (pure_swa) chosen.push_back({"PureSWAChunkCache", "mem_cache/chunk_cache.py", disabled, ""});
    else chosen.push_back({"SWAChunkCache", "mem_cache/chunk_cache.py", disabled, ""});
  } else if (pure_swa) {
    chosen.push_back({"PureSWARadixCache", kRegistry + std::string("114-118"), by_model(f.window), swa_note});
  } else if (swa || mamba) {
    chosen.push_back({"UnifiedRadixCache", kRegistry + std::string(swa ? "114-119" : "121-122"),
                      by_model(swa ? f.window : f.recurrent), swa ? swa_note : ""});
    // unified_radix_cache.py@71de97b2:185: the tree core SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND names ("python").
    chosen.push_back({"the tree core python", "mem_cache/unified_cache/tree_core_registry.py@71de97b2:57",
                      chosen.back().cause, chosen.back().note});
    t.tree_core = "python";
  } else {
    chosen.push_back({"RadixCache", kRegistry + std::string("165-167"), "", ""});
  }
  t.tree_cache = chosen[chosen.size() - (t.tree_core.empty() ? 1 : 2)].type;

  std::vector<Choice> refused;
  for (const Choice& c : chosen)
    if (!modelled_types().contains(c.type)) refused.push_back(c);
  if (!refused.empty()) refuse(refused);
  return t;
}

}  // namespace blis::sglang
