// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: the strict JSON decoding of the parameters struct of
// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 and
// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099 (their Factory's
// rawParameters.Decode); see params_json.h.
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/params_json.h"

#include <set>
#include <vector>

#include "router/epp/framework/interface/plugin/decode.h"

namespace blis::router::sessionutil {
namespace {

// Go's printed name of the util package's types (package sessionaffinity).
constexpr const char* kUtilPkg = "sessionaffinity.";

// Original to BLIS: ASCII lower-casing for encoding/json's case-insensitive field match (as decode.h).
std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// One JSON object decoded into one Go struct: goStruct is the struct's name without its package (what
// encoding/json prints before the field path), path the JSON field names from the root to this struct.
class structDecoder {
 public:
  structDecoder(const nlohmann::json& obj, std::string goStruct, std::vector<std::string> path)
      : obj_(obj), goStruct_(std::move(goStruct)), path_(std::move(path)) {}

  // The value of the field (marked known), nullptr when absent (JSON null included).
  const nlohmann::json* lookup(const std::string& name) {
    known_.insert(name);
    auto it = obj_.find(name);
    if (it == obj_.end()) {
      for (auto i = obj_.begin(); i != obj_.end(); ++i) {
        if (lower(i.key()) == lower(name)) {
          it = i;
          break;
        }
      }
    }
    return it == obj_.end() ? nullptr : &*it;
  }
  // The value of the field (marked known), nullptr when absent or null.
  const nlohmann::json* field(const std::string& name) {
    const nlohmann::json* v = lookup(name);
    return v == nullptr || v->is_null() ? nullptr : v;
  }
  std::vector<std::string> pathTo(const std::string& name) const {
    auto p = path_;
    p.push_back(name);
    return p;
  }
  const std::string& goStruct() const { return goStruct_; }

  void string(const std::string& name, std::string& out) {
    if (const nlohmann::json* v = field(name)) {
      if (!v->is_string()) mismatch(*v, pathTo(name), "string");
      out = v->get<std::string>();
    }
  }
  void float64(const std::string& name, double& out) {
    if (const nlohmann::json* v = field(name)) {
      if (!v->is_number()) mismatch(*v, pathTo(name), "float64");
      out = v->get<double>();
    }
  }
  // `json: cannot unmarshal <kind> into Go struct field <struct>.<path> of type <goType>`
  [[noreturn]] void mismatch(const nlohmann::json& v, const std::vector<std::string>& path,
                             const std::string& goType) const {
    std::string joined;
    for (const auto& p : path) joined += (joined.empty() ? "" : ".") + p;
    throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) + " into Go struct field " +
                                 goStruct_ + "." + joined + " of type " + goType);
  }
  // `json: unknown field "<name>"` for the first field no call named.
  void finish() const {
    for (auto i = obj_.begin(); i != obj_.end(); ++i) {
      bool ok = known_.count(i.key()) > 0;
      for (const auto& k : known_) ok = ok || lower(k) == lower(i.key());
      if (!ok) throw fwkplugin::PluginError("json: unknown field \"" + i.key() + "\"");
    }
  }

 private:
  const nlohmann::json& obj_;
  std::string goStruct_;
  std::vector<std::string> path_;
  std::set<std::string> known_;
};

// Original to BLIS: encoding/json's decoding of a util EncodedEndpointHeaderConfig object.
void decodeEncodedEndpointHeaderConfig(const nlohmann::json& v, const std::vector<std::string>& path,
                                       EncodedEndpointHeaderConfig& out) {
  structDecoder d(v, "EncodedEndpointHeaderConfig", path);
  d.string("header", out.Header);
  d.finish();
}

// Original to BLIS: encoding/json's decoding of a util SessionIDSource object.
void decodeSessionIDSource(const nlohmann::json& v, const std::vector<std::string>& path, SessionIDSource& out) {
  structDecoder d(v, "SessionIDSource", path);
  d.string("header", out.Header);
  d.string("attribute", out.Attribute);
  d.finish();
}

// Original to BLIS: encoding/json's decoding of a util SessionIDConfig object.
void decodeSessionIDConfig(const nlohmann::json& v, const std::vector<std::string>& path, SessionIDConfig& out) {
  structDecoder d(v, "SessionIDConfig", path);
  if (const nlohmann::json* s = d.lookup("sources"); s != nullptr && s->is_null()) {
    out.Sources.clear();  // null sets Go's slice to nil
  } else if (s != nullptr) {
    const auto sourcesPath = d.pathTo("sources");
    if (!s->is_array()) d.mismatch(*s, sourcesPath, std::string("[]") + kUtilPkg + "SessionIDSource");
    std::vector<SessionIDSource> sources;
    for (const auto& e : *s) {
      SessionIDSource src;  // a null element stays the zero value
      if (!e.is_null()) {
        if (!e.is_object()) d.mismatch(e, sourcesPath, std::string(kUtilPkg) + "SessionIDSource");
        decodeSessionIDSource(e, sourcesPath, src);
      }
      sources.push_back(src);
    }
    out.Sources = std::move(sources);
  }
  d.float64("evictionTtlSeconds", out.EvictionTTLSeconds);
  d.float64("evictionSweepSeconds", out.EvictionSweepSeconds);
  d.finish();
}

}  // namespace

// Original to BLIS: encoding/json's strict decoding of the filter's/scorer's parameters (see params_json.h).
void DecodeStrategyParameters(fwkplugin::Parameters parameters, const std::string& goType,
                              const StrategyParameterFields& out) {
  if (parameters == nullptr || parameters->is_null()) return;
  if (!parameters->is_object()) {
    throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(*parameters) +
                                 " into Go value of type " + goType);
  }
  structDecoder d(*parameters, goType.substr(goType.find_last_of('.') + 1), {});
  d.string("strategy", *out.Strategy);
  if (const nlohmann::json* e = d.field("encodedEndpointHeaderConfig")) {
    if (!e->is_object()) {
      d.mismatch(*e, d.pathTo("encodedEndpointHeaderConfig"), std::string(kUtilPkg) + "EncodedEndpointHeaderConfig");
    }
    decodeEncodedEndpointHeaderConfig(*e, d.pathTo("encodedEndpointHeaderConfig"), *out.EncodedEndpointHeaderConfig);
  }
  if (const nlohmann::json* s = d.field("sessionIdConfig")) {
    if (!s->is_object()) d.mismatch(*s, d.pathTo("sessionIdConfig"), std::string(kUtilPkg) + "SessionIDConfig");
    decodeSessionIDConfig(*s, d.pathTo("sessionIdConfig"), *out.SessionIDConfig);
  }
  d.string("profileName", *out.ProfileName);
  d.finish();
}

}  // namespace blis::router::sessionutil
