// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/server_args.py@71de97b2 prepare_server_args and the
// environ.py@71de97b2 reads of the scheduler; see server_args_cli.h.
#include "srt/entrypoints/server_args_cli.h"

#include "contracts/doc/parse.h"
#include "schema/fields-list.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>
#include <string_view>

namespace blis::sglang {

extern const char* const kSglangFieldsJson;  // engines/sglang/fields.json, embedded at build time

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("sglang: " + what); }

std::string scalar_of(const std::string& flag, const doc::Node& v) {
  if (!v.is_scalar()) refuse("argument " + flag + ": expected one argument, not a " + doc::kind_name(v));
  return v.scalar;
}

std::int64_t as_int(const std::string& flag, const doc::Node& v) {
  const std::string s = scalar_of(flag, v);
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc{} || end != s.data() + s.size()) refuse("argument " + flag + ": invalid int value: '" + s + "'");
  return n;
}

double as_float(const std::string& flag, const doc::Node& v) {
  const std::string s = scalar_of(flag, v);
  double d = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(d)) {
    refuse("argument " + flag + ": invalid float value: '" + s + "'");
  }
  return d;
}

// A store_true flag written as `name: true` (given) or `name: false` (not given).
bool as_flag(const std::string& flag, const doc::Node& v) {
  const std::string s = scalar_of(flag, v);
  if (s == "true" || s == "True") return true;
  if (s == "false" || s == "False") return false;
  refuse("argument " + flag + ": a flag takes true (given) or false (not given), not '" + s + "'");
}

std::string choice(const std::string& flag, const doc::Node& v, std::initializer_list<std::string_view> allowed) {
  const std::string s = scalar_of(flag, v);
  if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return s;
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string("'") + std::string(a) + "'";
  refuse("argument " + flag + ": invalid choice: '" + s + "' (choose from " + list + ")");
}

std::vector<std::int64_t> int_list(const std::string& flag, const doc::Node& v) {
  std::vector<std::int64_t> out;
  if (v.is_sequence()) {
    for (const auto& item : v.items) out.push_back(as_int(flag, item));
  } else {
    out.push_back(as_int(flag, v));
  }
  return out;
}

// The pinned release's field list: name -> (kind, the not-modelled reason).
struct FieldStatus {
  std::string kind;
  std::string why;
};
const std::map<std::string, FieldStatus>& fields() {
  static const std::map<std::string, FieldStatus> table = [] {
    std::map<std::string, FieldStatus> t;
    doc::Diagnostics d("engines/sglang/fields.json");
    const auto list = schema::load_fields_list(kSglangFieldsJson, "engines/sglang/fields.json", d);
    if (!list) throw std::logic_error("sglang: the embedded fields.json does not load:\n" + d.str());
    for (const auto& f : list->fields) {
      FieldStatus s{f.kind, ""};
      if (f.status.not_modelled) s.why = f.status.not_modelled->why;
      t.emplace(f.name, s);
    }
    return t;
  }();
  return table;
}

// --kv-events-config's value: a JSON object (KVEventsConfig.from_cli, pydantic's model_validate_json), read
// with the strict JSON parser; a field KVEventsConfig lacks is refused as pydantic refuses it (extra="forbid").
void read_kv_events_config(ParsedServerArgs& p, const std::string& flag, const std::string& text) {
  doc::Diagnostics d(flag);
  const doc::Parsed parsed = doc::parse(text, doc::Syntax::Json, d);
  if (!d.ok() || parsed.documents.size() != 1 || !parsed.documents.front().is_map()) {
    refuse("argument " + flag + ": not a JSON object: '" + text + "'");
  }
  static const std::set<std::string> known{"publisher", "endpoint", "replay_endpoint", "buffer_steps",
                                           "hwm", "max_queue_size", "topic"};
  for (const doc::Entry& e : parsed.documents.front().entries) {
    const std::string& k = e.first.scalar;
    if (!known.contains(k)) refuse("argument " + flag + ": KVEventsConfig has no field '" + k + "'");
    if (k == "publisher" || k == "topic") {
      if (!e.second.is_scalar() || e.second.style != doc::Style::Quoted) {
        refuse("argument " + flag + ": " + k + " must be a string");
      }
      (k == "publisher" ? p.kv_events_publisher : p.kv_events_topic) = e.second.scalar;
    }
  }
  if (p.kv_events_publisher != "null" && p.kv_events_publisher != "zmq") {
    refuse("argument " + flag + ": unknown event publisher '" + p.kv_events_publisher + "'");
  }
  // "Publishing will be enabled if this flag is used": the cache records events whenever the config is given.
  p.scheduler.enable_kv_cache_events = true;
}

using ArgSetter = std::function<void(ParsedServerArgs&, const std::string& flag, const doc::Node&)>;

// server_args.py@71de97b2: the modelled arguments, by canonical name, with their aliases below.
const std::map<std::string, ArgSetter>& modelled_args() {
  using P = ParsedServerArgs;
  using N = doc::Node;
  static const std::map<std::string, ArgSetter> table = {
      {"model-path", [](P& p, const std::string& f, const N& v) { p.lowering.model = scalar_of(f, v); }},
      {"served-model-name", [](P& p, const std::string& f, const N& v) { p.served_model_name = scalar_of(f, v); }},
      {"tp-size", [](P& p, const std::string& f, const N& v) { p.lowering.tp = as_int(f, v); }},
      {"pp-size", [](P& p, const std::string& f, const N& v) { p.lowering.pp = as_int(f, v); }},
      {"dp-size", [](P& p, const std::string& f, const N& v) { p.lowering.dp = as_int(f, v); }},
      {"context-length", [](P& p, const std::string& f, const N& v) { p.lowering.context_length = as_int(f, v); }},
      {"chunked-prefill-size", [](P& p, const std::string& f, const N& v) { p.lowering.chunked_prefill_size = as_int(f, v); }},
      {"max-prefill-tokens", [](P& p, const std::string& f, const N& v) { p.lowering.max_prefill_tokens = as_int(f, v); }},
      {"max-running-requests", [](P& p, const std::string& f, const N& v) { p.lowering.max_running_requests = as_int(f, v); }},
      {"max-total-tokens", [](P& p, const std::string& f, const N& v) { p.lowering.max_total_tokens = as_int(f, v); }},
      {"max-queued-requests", [](P& p, const std::string& f, const N& v) { p.scheduler.max_queued_requests = as_int(f, v); }},
      {"prefill-max-requests", [](P& p, const std::string& f, const N& v) { p.scheduler.prefill_max_requests = as_int(f, v); }},
      {"mem-fraction-static", [](P& p, const std::string& f, const N& v) { p.lowering.mem_fraction_static = as_float(f, v); }},
      {"page-size", [](P& p, const std::string& f, const N& v) { p.lowering.page_size = as_int(f, v); }},
      {"attention-backend", [](P& p, const std::string& f, const N& v) { p.lowering.attention_backend = scalar_of(f, v); }},
      {"kv-cache-dtype", [](P& p, const std::string& f, const N& v) {
         // server_args.py@71de97b2:692-702: every choice upstream accepts; what a dtype selects is refused where it is
         // selected (kv_cache_selection.cpp, the lowering).
         p.lowering.kv_cache_dtype = choice(
             f, v, {"auto", "fp8_e5m2", "fp8_e4m3", "mxfp8", "bf16", "bfloat16", "nvfp4", "fp4_mx_block16", "fp4_e2m1"});
       }},
      {"cuda-graph-max-bs-decode", [](P& p, const std::string& f, const N& v) { p.lowering.cuda_graph_max_bs = as_int(f, v); }},
      {"cuda-graph-bs-decode", [](P& p, const std::string& f, const N& v) { p.lowering.cuda_graph_bs = int_list(f, v); }},
      {"disable-cuda-graph", [](P& p, const std::string& f, const N& v) { p.lowering.disable_cuda_graph = as_flag(f, v); }},
      {"disable-prefill-cuda-graph", [](P& p, const std::string& f, const N& v) { p.lowering.disable_prefill_cuda_graph = as_flag(f, v); }},
      {"disable-cuda-graph-padding", [](P& p, const std::string& f, const N& v) { p.lowering.disable_cuda_graph_padding = as_flag(f, v); }},
      {"disable-overlap-schedule", [](P& p, const std::string& f, const N& v) {
         p.lowering.disable_overlap_schedule = as_flag(f, v);
       }},
      {"enable-mixed-chunk", [](P& p, const std::string& f, const N& v) { p.scheduler.enable_mixed_chunk = as_flag(f, v); }},
      {"schedule-policy", [](P& p, const std::string& f, const N& v) {
         p.scheduler.schedule_policy = choice(f, v, {"lpm", "random", "fcfs", "dfs-weight", "lof", "priority", "routing-key"});
       }},
      {"schedule-conservativeness", [](P& p, const std::string& f, const N& v) { p.scheduler.schedule_conservativeness = as_float(f, v); }},
      {"disable-radix-cache", [](P& p, const std::string& f, const N& v) {
         // mem_cache/registry.py@71de97b2:91-102: a disabled radix cache is ChunkCache, SWAChunkCache or
         // PureSWAChunkCache by the model; select_kv_cache_types refuses each by name once the model is known.
         p.scheduler.disable_radix_cache = as_flag(f, v);
       }},
      {"radix-eviction-policy", [](P& p, const std::string& f, const N& v) {
         p.scheduler.radix_eviction_policy = choice(f, v, {"lru", "lfu", "slru", "priority"});
       }},
      {"enable-priority-scheduling", [](P& p, const std::string& f, const N& v) { p.scheduler.enable_priority_scheduling = as_flag(f, v); }},
      {"disable-priority-preemption", [](P& p, const std::string& f, const N& v) { p.scheduler.disable_priority_preemption = as_flag(f, v); }},
      {"abort-on-priority-when-disabled", [](P& p, const std::string& f, const N& v) { p.scheduler.abort_on_priority_when_disabled = as_flag(f, v); }},
      {"schedule-low-priority-values-first", [](P& p, const std::string& f, const N& v) {
         p.scheduler.server_args.schedule_low_priority_values_first = as_flag(f, v);
       }},
      {"priority-scheduling-preemption-threshold", [](P& p, const std::string& f, const N& v) {
         p.scheduler.priority_scheduling_preemption_threshold = as_int(f, v);
       }},
      {"retraction-policy", [](P& p, const std::string& f, const N& v) {
         p.scheduler.server_args.retraction_policy = choice(f, v, {"length", "priority"});
       }},
      {"allow-auto-truncate", [](P& p, const std::string& f, const N& v) { p.scheduler.allow_auto_truncate = as_flag(f, v); }},
      {"kv-events-config", [](P& p, const std::string& f, const N& v) { read_kv_events_config(p, f, scalar_of(f, v)); }},
      {"enable-metrics", [](P& p, const std::string& f, const N& v) { p.enable_metrics = as_flag(f, v); }},
      {"decode-log-interval", [](P& p, const std::string& f, const N& v) { p.decode_log_interval = as_int(f, v); }},
  };
  return table;
}

// server_args.py@71de97b2 Arg(aliases=[...]) of the modelled arguments.
const std::map<std::string, std::string>& aliases() {
  static const std::map<std::string, std::string> table = {
      {"model", "model-path"},
      {"tensor-parallel-size", "tp-size"},
      {"pipeline-parallel-size", "pp-size"},
      {"data-parallel-size", "dp-size"},
  };
  return table;
}

// SGL-6: the arguments and environment variables that select a tree cache, tree core, allocator or memory pool
// whatever the model. None is modelled; the refusal of one names the type it selects and where upstream selects it
// (the model-dependent selections are refused by select_kv_cache_types, srt/entrypoints/kv_cache_selection.cpp).
const std::map<std::string, std::string>& selected_types() {
  static const std::map<std::string, std::string> table = {
      {"enable-hierarchical-cache",
       "HiRadixCache (mem_cache/registry.py@71de97b2:124-136; UnifiedRadixCache for a hybrid or DSA model)"},
      {"enable-lmcache", "LMCRadixCache (mem_cache/registry.py@71de97b2:138-149)"},
      {"enable-flexkv", "FlexKVRadixCache (mem_cache/registry.py@71de97b2:151-163)"},
      {"radix-cache-backend",
       "FlexKVRadixCache, the tree cache of flexkv, the one registered backend (mem_cache/registry.py@71de97b2:223-238, "
       "mem_cache/storage/flexkv/__init__.py@71de97b2:82)"},
      {"enable-streaming-session", "StreamingSession around the tree cache (mem_cache/registry.py@71de97b2:252-259)"},
      {"disaggregation-decode-retraction-backup",
       "with host_pool, UnifiedRadixCache and the tree core python (mem_cache/registry.py@71de97b2:85-89)"},
      {"enable-hisparse",
       "HiSparseTokenToKVPoolAllocator (mem_cache/kv_cache_configurator.py@71de97b2:1687-1701) and, for a DSA model, "
       "HiSparseDSATokenToKVPool (mem_cache/kv_cache_configurator.py@71de97b2:1315-1321); for DeepSeek V4, "
       "DeepSeekV4HiSparseTokenToKVPoolAllocator (mem_cache/kv_cache_configurator.py@71de97b2:1723-1727)"},
      {"enable-dsa-cache-layer-split",
       "LayerSplitDSATokenToKVPool for a DSA model (mem_cache/kv_cache_configurator.py@71de97b2:1322-1330)"},
      {"enable-page-major-kv-layout", "PageMajorMHATokenToKVPool (mem_cache/kv_cache_configurator.py@71de97b2:956-967)"},
      {"prefill-only-disable-kv-cache", "NoOpMHATokenToKVPool (mem_cache/kv_cache_configurator.py@71de97b2:1575-1580)"},
      {"enable-unified-memory",
       "the unified pools (mem_cache/kv_cache_configurator.py@71de97b2:389-430): for a hybrid Mamba model "
       "UnifiedHybridLinearKVPool over UnifiedMHATokenToKVPool or UnifiedMLATokenToKVPool with "
       "UnifiedMambaTokenToKVPoolAllocator (mem_cache/unified_memory_pool.py@71de97b2:1194-1228), for a hybrid "
       "sliding-window model UnifiedSWAKVPool with UnifiedSWATokenToKVPoolAllocator "
       "(mem_cache/unified_memory_pool.py@71de97b2:1636-1645), each allocator over MultiEndedAllocator sub-allocators "
       "(mem_cache/multi_ended_allocator.py@71de97b2:1768-1780, 2113-2124)"},
      {"SGLANG_EXPERIMENTAL_CPP_RADIX_TREE", "RadixCacheCpp (mem_cache/registry.py@71de97b2:104-109)"},
      {"SGLANG_ENABLE_UNIFIED_RADIX_TREE",
       "UnifiedRadixCache (mem_cache/registry.py@71de97b2:111-112) and the tree core python "
       "(mem_cache/unified_cache/tree_core_registry.py@71de97b2:57)"},
      {"SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND",
       "the tree core of UnifiedRadixCache, of which the tree core python is the one registered "
       "(mem_cache/unified_cache/tree_core_registry.py@71de97b2:57-75)"},
  };
  return table;
}

// "argument --x is not modelled by this port: [it selects <type>; ]<why>".
std::string not_modelled(const std::string& what, const std::string& name, const std::string& why) {
  std::string msg = what + " is not modelled by this port: ";
  if (auto s = selected_types().find(name); s != selected_types().end()) msg += "it selects " + s->second + "; ";
  return msg + (why.empty() ? std::string("engines/sglang/fields.json") : why);
}

using EnvSetter = std::function<void(ParsedServerArgs&, const std::string& name, const doc::Node&)>;

// environ.py@71de97b2: the variables the ported scheduler reads.
const std::map<std::string, EnvSetter>& modelled_env() {
  using P = ParsedServerArgs;
  using N = doc::Node;
  static const std::map<std::string, EnvSetter> table = {
      {"SGLANG_INIT_NEW_TOKEN_RATIO", [](P& p, const std::string& n, const N& v) { p.scheduler.init_new_token_ratio = as_float(n, v); }},
      {"SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR", [](P& p, const std::string& n, const N& v) {
         p.scheduler.min_new_token_ratio_factor = as_float(n, v);
       }},
      {"SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS", [](P& p, const std::string& n, const N& v) {
         p.scheduler.new_token_ratio_decay_steps = as_int(n, v);
       }},
      {"SGLANG_RETRACT_DECODE_STEPS", [](P& p, const std::string& n, const N& v) { p.scheduler.retract_decode_steps = as_int(n, v); }},
      {"SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION", [](P& p, const std::string& n, const N& v) {
         p.scheduler.policy_env.clip_max_new_tokens = as_int(n, v);
       }},
  };
  return table;
}

}  // namespace

// server_args.py@71de97b2 prepare_server_args (argparse over the modelled arguments) and ServerArgs.__post_init__'s
// checks that concern them (check_server_args: --retraction-policy priority requires --enable-priority-scheduling).
ParsedServerArgs parse_server_args(const doc::Node* args, const std::map<std::string, doc::Node>* env) {
  ParsedServerArgs p;
  std::set<std::string> seen;
  if (args != nullptr && !args->is_null()) {
    if (!args->is_map()) refuse("the engine args must be a mapping of argument names to values");
    for (const doc::Entry& e : args->entries) {
      std::string name = e.first.scalar;
      if (auto a = aliases().find(name); a != aliases().end()) name = a->second;
      const std::string flag = "--" + name;
      if (!seen.insert(name).second) refuse("argument " + flag + " is given twice (as --" + e.first.scalar + ")");
      if (auto m = modelled_args().find(name); m != modelled_args().end()) {
        m->second(p, flag, e.second);
        continue;
      }
      const auto f = fields().find(name);
      if (f != fields().end() && f->second.kind == "argument") {
        refuse(not_modelled("argument " + flag, name, f->second.why));
      }
      refuse("error: unrecognized arguments: " + flag);
    }
  }
  if (env != nullptr) {
    for (const auto& [name, value] : *env) {
      if (auto m = modelled_env().find(name); m != modelled_env().end()) {
        m->second(p, name, value);
        continue;
      }
      const auto f = fields().find(name);
      if (f != fields().end() && f->second.kind == "environment_variable") {
        refuse(not_modelled("environment variable " + name, name, f->second.why));
      }
      // A variable the release never reads has no effect upstream: refused so a user never believes it did.
      refuse("environment variable " + name + " is not read by the pinned SGLang release");
    }
  }
  if (p.lowering.model.empty()) refuse("the engine args name no model (--model-path)");
  if (p.scheduler.server_args.retraction_policy == "priority" && !p.scheduler.enable_priority_scheduling) {
    refuse("--retraction-policy priority requires --enable-priority-scheduling");
  }
  p.scheduler.disable_overlap_schedule = p.lowering.disable_overlap_schedule;
  return p;
}

}  // namespace blis::sglang
