// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: see config_json.h (producer.go@71f4f099 PluginConfig decoding; Go's time.ParseDuration).
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/config_json.h"

#include <initializer_list>
#include <limits>
#include <memory>
#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/kvcache/kvblock/in_memory.h"

namespace blis::router::preciseprefixcache {
namespace {

using nlohmann::json;

// Original to BLIS: a helper of the port's own.
std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Original to BLIS: a helper of the port's own.
// encoding/json's field match: exact name first, then ASCII case-insensitive.
const json* member(const json& obj, const std::string& name) {
  auto it = obj.find(name);
  if (it != obj.end()) return &*it;
  for (auto i = obj.begin(); i != obj.end(); ++i) {
    if (lower(i.key()) == lower(name)) return &*i;
  }
  return nullptr;
}

// Original to BLIS: a helper of the port's own.
// DisallowUnknownFields: `json: unknown field "<k>"`.
void refuseUnknown(const json& obj, std::initializer_list<const char*> known) {
  for (const auto& [key, val] : obj.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || lower(key) == lower(k);
    if (!ok) throw fwkplugin::PluginError("json: unknown field \"" + key + "\"");
  }
}

// Original to BLIS: a helper of the port's own.
// A mismatch on a struct-typed field: "json: cannot unmarshal <kind> into Go struct field <S>.<path> of type <T>".
[[noreturn]] void mismatch(const json& v, const std::string& structName, const std::string& path, const std::string& goType) {
  throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) + " into Go struct field " + structName +
                               "." + path + " of type " + goType);
}

// Original to BLIS: a helper of the port's own.
// Decodes the scalar fields of a nested struct with StrictObject (goType "pkg.Struct"), rewriting its error
// "Go struct field Struct.f" to encoding/json's "Go struct field Struct.<path>.f".
template <class Fn>
void scalars(const json& obj, const std::string& goType, const std::string& path, Fn&& fn) {
  const std::string structName = goType.substr(goType.find_last_of('.') + 1);
  try {
    fwkplugin::StrictObject o(&obj, goType);
    fn(o);
  } catch (const fwkplugin::PluginError& e) {
    std::string msg = e.what();
    if (!path.empty()) {
      const std::string from = "Go struct field " + structName + ".";
      if (auto pos = msg.find(from); pos != std::string::npos) msg.insert(pos + from.size(), path + ".");
    }
    throw fwkplugin::PluginError(msg);
  }
}

// Original to BLIS: a helper of the port's own.
void decodeTokenProcessorConfig(const json& v, kvblock::TokenProcessorConfig& c, const std::string& path) {
  refuseUnknown(v, {"blockSize", "blockSizeTokens", "hashSeed"});
  scalars(v, "kvblock.TokenProcessorConfig", path, [&](fwkplugin::StrictObject& o) {
    o.Field("blockSize", c.BlockSize);
    o.Field("blockSizeTokens", c.BlockSizeTokens);
    o.Field("hashSeed", c.HashSeed);
  });
}

// Original to BLIS: a helper of the port's own.
void decodeIndexConfig(const json& v, kvblock::IndexConfig& c, const std::string& path) {
  refuseUnknown(v, {"inMemoryConfig", "redisConfig", "costAwareMemoryConfig", "enableMetrics", "metricsLoggingInterval"});
  if (const json* m = member(v, "inMemoryConfig"); m != nullptr) {
    if (m->is_null()) {
      c.InMemoryConfig = nullptr;
    } else {
      if (!m->is_object()) mismatch(*m, "IndexConfig", path + ".inMemoryConfig", "kvblock.InMemoryIndexConfig");
      auto mem = c.InMemoryConfig ? std::make_shared<kvblock::InMemoryIndexConfig>(*c.InMemoryConfig)
                                  : std::make_shared<kvblock::InMemoryIndexConfig>();
      refuseUnknown(*m, {"size", "podCacheSize"});
      scalars(*m, "kvblock.InMemoryIndexConfig", path + ".inMemoryConfig", [&](fwkplugin::StrictObject& o) {
        o.Field("size", mem->Size);
        o.Field("podCacheSize", mem->PodCacheSize);
      });
      c.InMemoryConfig = mem;
    }
  }
  if (const json* r = member(v, "redisConfig"); r != nullptr) c.RedisConfig = !r->is_null();
  if (const json* a = member(v, "costAwareMemoryConfig"); a != nullptr) c.CostAwareMemoryConfig = !a->is_null();
  scalars(v, "kvblock.IndexConfig", path, [&](fwkplugin::StrictObject& o) {
    o.Field("enableMetrics", c.EnableMetrics);
    o.Field("metricsLoggingInterval", c.MetricsLoggingInterval);
  });
}

// Original to BLIS: a helper of the port's own.
void decodeIndexerConfig(const json& v, kvcache::Config& c, const std::string& path) {
  refuseUnknown(v, {"kvBlockIndexConfig", "kvCacheBackendConfigs", "tokenizersPoolConfig"});
  if (const json* k = member(v, "kvBlockIndexConfig"); k != nullptr) {
    if (k->is_null()) {
      c.KVBlockIndexConfig = kvblock::DefaultIndexConfig();  // Go: nil, which NewIndex reads as the defaults
    } else {
      if (!k->is_object()) mismatch(*k, "Config", path + ".kvBlockIndexConfig", "kvblock.IndexConfig");
      decodeIndexConfig(*k, c.KVBlockIndexConfig, path + ".kvBlockIndexConfig");
    }
  }
  if (const json* b = member(v, "kvCacheBackendConfigs"); b != nullptr && !b->is_null()) {
    const std::string bpath = path + ".kvCacheBackendConfigs";
    if (!b->is_array()) mismatch(*b, "Config", bpath, "[]*kvcache.KVCacheBackendConfig");
    std::vector<kvcache::KVCacheBackendConfig> out;
    for (const auto& e : *b) {
      if (e.is_null()) {
        throw std::invalid_argument("a null entry of indexerConfig.kvCacheBackendConfigs is not modelled by this port: "
                                    "upstream stores a nil *KVCacheBackendConfig and dereferences it");
      }
      if (!e.is_object()) mismatch(e, "Config", bpath, "kvcache.KVCacheBackendConfig");
      kvcache::KVCacheBackendConfig bc;
      refuseUnknown(e, {"name", "weight"});
      scalars(e, "kvcache.KVCacheBackendConfig", bpath, [&](fwkplugin::StrictObject& o) {
        o.Field("name", bc.Name);
        o.Field("weight", bc.Weight);
      });
      out.push_back(bc);
    }
    c.BackendConfigs = std::move(out);
  } else if (b != nullptr) {
    c.BackendConfigs.clear();  // Go: null sets the slice to nil
  }
  if (const json* t = member(v, "tokenizersPoolConfig"); t != nullptr) c.TokenizersPoolConfig = !t->is_null();
}

// Original to BLIS: a helper of the port's own.
void decodeKVEventsConfig(const json& v, kvevents::Config& c, const std::string& path) {
  refuseUnknown(v, {"zmqEndpoint", "topicFilter", "concurrency", "engineType", "discoverPods", "podDiscoveryConfig"});
  if (const json* p = member(v, "podDiscoveryConfig"); p != nullptr) {
    if (p->is_null()) {
      c.PodDiscoveryConfig.reset();
    } else {
      if (!p->is_object()) mismatch(*p, "Config", path + ".podDiscoveryConfig", "kvevents.PodDiscoveryConfig");
      kvevents::PodDiscoveryConfig pd = c.PodDiscoveryConfig.value_or(kvevents::PodDiscoveryConfig{});
      refuseUnknown(*p, {"podLabelSelector", "podNamespace", "socketPort", "replaySocketPort"});
      scalars(*p, "kvevents.PodDiscoveryConfig", path + ".podDiscoveryConfig", [&](fwkplugin::StrictObject& o) {
        o.Field("podLabelSelector", pd.PodLabelSelector);
        o.Field("podNamespace", pd.PodNamespace);
        o.Field("socketPort", pd.SocketPort);
        o.Field("replaySocketPort", pd.ReplaySocketPort);
      });
      c.PodDiscoveryConfig = pd;
    }
  }
  scalars(v, "kvevents.Config", path, [&](fwkplugin::StrictObject& o) {
    o.Field("zmqEndpoint", c.ZMQEndpoint);
    o.Field("topicFilter", c.TopicFilter);
    o.Field("concurrency", c.Concurrency);
    o.Field("engineType", c.EngineType);
    o.Field("discoverPods", c.DiscoverPods);
  });
}

}  // namespace

// Original to BLIS: a helper of the port's own.
void DecodePluginConfig(fwkplugin::Parameters parameters, PluginConfig& cfg, const std::string& goType) {
  if (parameters == nullptr || parameters->is_null()) return;
  if (!parameters->is_object()) {
    throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(*parameters) + " into Go value of type " + goType);
  }
  const json& v = *parameters;
  const std::string structName = goType.substr(goType.find_last_of('.') + 1);
  refuseUnknown(v, {"tokenProcessorConfig", "indexerConfig", "kvEventsConfig", "speculativeIndexing", "speculativeTTL"});
  if (const json* t = member(v, "tokenProcessorConfig"); t != nullptr) {
    if (t->is_null()) {
      cfg.TokenProcessorConfig.reset();
    } else {
      if (!t->is_object()) mismatch(*t, structName, "tokenProcessorConfig", "kvblock.TokenProcessorConfig");
      kvblock::TokenProcessorConfig tpc = cfg.TokenProcessorConfig.value_or(kvblock::TokenProcessorConfig{});
      decodeTokenProcessorConfig(*t, tpc, "tokenProcessorConfig");
      cfg.TokenProcessorConfig = tpc;
    }
  }
  if (const json* i = member(v, "indexerConfig"); i != nullptr) {
    if (i->is_null()) {
      cfg.IndexerConfig.reset();
    } else {
      if (!i->is_object()) mismatch(*i, structName, "indexerConfig", "kvcache.Config");
      kvcache::Config ic = cfg.IndexerConfig.value_or(kvcache::Config{});
      decodeIndexerConfig(*i, ic, "indexerConfig");
      cfg.IndexerConfig = ic;
    }
  }
  if (const json* k = member(v, "kvEventsConfig"); k != nullptr) {
    if (k->is_null()) {
      cfg.KVEventsConfig.reset();
    } else {
      if (!k->is_object()) mismatch(*k, structName, "kvEventsConfig", "kvevents.Config");
      kvevents::Config kc = cfg.KVEventsConfig.value_or(kvevents::Config{});
      decodeKVEventsConfig(*k, kc, "kvEventsConfig");
      cfg.KVEventsConfig = kc;
    }
  }
  scalars(v, goType, "", [&](fwkplugin::StrictObject& o) {
    o.Field("speculativeIndexing", cfg.SpeculativeIndexing);
    o.Field("speculativeTTL", cfg.SpeculativeTTL);
  });
}

// Original to BLIS: Go's time.ParseDuration (the standard library's, not an llm-d file), with its error texts.
// time/format.go ParseDuration (Go's standard library), ported: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+.
std::optional<std::int64_t> ParseGoDuration(const std::string& orig, std::string& err) {
  const std::string quoted = "\"" + orig + "\"";
  auto invalid = [&]() { err = "time: invalid duration " + quoted; return std::nullopt; };
  std::string s = orig;
  std::uint64_t d = 0;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s = s.substr(1);
  }
  if (s == "0") return 0;
  if (s.empty()) return invalid();
  while (!s.empty()) {
    std::uint64_t v = 0, f = 0;
    double scale = 1;
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9'))) return invalid();
    std::size_t i = 0;
    bool overflow = false;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (v > (std::uint64_t{1} << 63) / 10) overflow = true;
      v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
      if (v > (std::uint64_t{1} << 63)) overflow = true;
    }
    if (overflow) return invalid();
    const bool pre = i != 0;
    s = s.substr(i);
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s = s.substr(1);
      std::size_t j = 0;
      bool of = false;
      for (; j < s.size() && s[j] >= '0' && s[j] <= '9'; ++j) {
        if (of) continue;
        if (f > (std::uint64_t{1} << 63) / 10) { of = true; continue; }
        std::uint64_t y = f * 10 + static_cast<std::uint64_t>(s[j] - '0');
        if (y > (std::uint64_t{1} << 63)) { of = true; continue; }
        f = y;
        scale *= 10;
      }
      post = j != 0;
      s = s.substr(j);
    }
    if (!pre && !post) return invalid();
    std::size_t u = 0;
    for (; u < s.size() && s[u] != '.' && !(s[u] >= '0' && s[u] <= '9'); ++u) {}
    if (u == 0) {
      err = "time: missing unit in duration " + quoted;
      return std::nullopt;
    }
    const std::string unitName = s.substr(0, u);
    s = s.substr(u);
    std::uint64_t unit = 0;
    if (unitName == "ns") unit = 1;
    else if (unitName == "us" || unitName == "\xc2\xb5s" || unitName == "\xce\xbcs") unit = 1000;
    else if (unitName == "ms") unit = 1000000;
    else if (unitName == "s") unit = 1000000000;
    else if (unitName == "m") unit = 60ULL * 1000000000;
    else if (unitName == "h") unit = 3600ULL * 1000000000;
    else {
      err = "time: unknown unit \"" + unitName + "\" in duration " + quoted;
      return std::nullopt;
    }
    if (v > (std::uint64_t{1} << 63) / unit) return invalid();
    v *= unit;
    if (f > 0) {
      v += static_cast<std::uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > (std::uint64_t{1} << 63)) return invalid();
    }
    d += v;
    if (d > (std::uint64_t{1} << 63)) return invalid();
  }
  if (neg) return d == (std::uint64_t{1} << 63) ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(d);
  if (d > (std::uint64_t{1} << 63) - 1) return invalid();
  return static_cast<std::int64_t>(d);
}

}  // namespace blis::router::preciseprefixcache
