// Original to BLIS: decoding a plugin's parameters as Go's encoding/json decodes them into a parameters struct
// through StrictDecoder (pkg/epp/framework/interface/plugin/registry.go@71f4f099): unknown fields refused,
// absent fields keep their defaults, JSON null leaves a field unchanged, type mismatches refused, each with
// encoding/json's error text. One difference: where several fields are wrong, the first reported is the
// first in declaration order (Field calls), where encoding/json reports the first in document order. A factory declares its struct's fields in order and then calls Finish:
//
//   fwkplugin::StrictObject obj(parameters, "loadaware.Parameters");
//   obj.Field("threshold", p.Threshold);
//   obj.Finish();
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"

namespace blis::router::fwkplugin {

// Original to BLIS: the JSON kind encoding/json names in an UnmarshalTypeError ("string", "number",
// "number 1.5", "bool", "array", "object").
inline std::string JsonKind(const nlohmann::json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  if (v.is_number()) return "number";
  return "null";
}

// Original to BLIS: one struct's fields decoded from a JSON object, with encoding/json's messages.
class StrictObject {
 public:
  // parameters may be nullptr (no parameters given): every Field is then a no-op. goType is the Go type's
  // package-qualified name as encoding/json prints it (e.g. "loadaware.Parameters").
  StrictObject(Parameters parameters, std::string goType) : v_(parameters), goType_(std::move(goType)) {
    if (v_ != nullptr && !v_->is_null() && !v_->is_object()) {
      throw PluginError("json: cannot unmarshal " + JsonKind(*v_) + " into Go value of type " + goType_);
    }
  }

  // Decodes the field named jsonName (Go's json tag; matched exactly, then case-insensitively as
  // encoding/json does) into out, when present and not null.
  template <class T>
  StrictObject& Field(const std::string& jsonName, T& out) {
    known_.insert(jsonName);
    const nlohmann::json* f = find(jsonName);
    if (f != nullptr && !f->is_null()) decode(*f, out, jsonName);
    return *this;
  }

  // Refuses any field no Field call named: `json: unknown field "<name>"`.
  void Finish() const {
    if (v_ == nullptr || !v_->is_object()) return;
    for (const auto& [key, val] : v_->items()) {
      if (!matches(key)) throw PluginError("json: unknown field \"" + key + "\"");
    }
  }

 private:
  const nlohmann::json* find(const std::string& name) const {
    if (v_ == nullptr || !v_->is_object()) return nullptr;
    auto it = v_->find(name);
    if (it != v_->end()) return &*it;
    for (auto i = v_->begin(); i != v_->end(); ++i) {
      if (lower(i.key()) == lower(name)) return &*i;
    }
    return nullptr;
  }
  bool matches(const std::string& key) const {
    if (known_.count(key)) return true;
    for (const auto& k : known_) {
      if (lower(k) == lower(key)) return true;
    }
    return false;
  }
  static std::string lower(std::string s) {
    for (char& c : s) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
  }
  [[noreturn]] void mismatch(const nlohmann::json& v, const std::string& field, const std::string& goFieldType,
                             bool numberLiteral = false) const {
    std::string kind = JsonKind(v);
    if (numberLiteral && v.is_number()) kind += " " + v.dump();
    // encoding/json names the struct without its package here ("Parameters.threshold").
    const std::string structName = goType_.substr(goType_.find_last_of('.') + 1);
    throw PluginError("json: cannot unmarshal " + kind + " into Go struct field " + structName + "." + field +
                      " of type " + goFieldType);
  }
  void decode(const nlohmann::json& v, bool& out, const std::string& f) const {
    if (!v.is_boolean()) mismatch(v, f, "bool");
    out = v.get<bool>();
  }
  void decode(const nlohmann::json& v, std::string& out, const std::string& f) const {
    if (!v.is_string()) mismatch(v, f, "string");
    out = v.get<std::string>();
  }
  void decode(const nlohmann::json& v, double& out, const std::string& f) const {
    if (!v.is_number()) mismatch(v, f, "float64");
    out = v.get<double>();
  }
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
  void decode(const nlohmann::json& v, I& out, const std::string& f) const {
    const char* goName = std::is_same_v<I, int> ? "int"
                         : std::is_same_v<I, std::int64_t> ? "int64"
                         : std::is_same_v<I, std::uint64_t> ? "uint64"
                         : std::is_same_v<I, std::uint32_t> ? "uint32"
                         : std::is_same_v<I, std::int32_t> ? "int32" : "int";
    if (!v.is_number()) mismatch(v, f, goName);
    if (v.is_number_float()) {
      double d = v.get<double>();
      if (std::floor(d) != d || d < static_cast<double>(std::numeric_limits<I>::lowest()) ||
          d > static_cast<double>(std::numeric_limits<I>::max())) {
        mismatch(v, f, goName, true);
      }
      out = static_cast<I>(d);
      return;
    }
    if (v.is_number_unsigned()) {
      auto u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<I>::max())) mismatch(v, f, goName, true);
      out = static_cast<I>(u);
      return;
    }
    auto s = v.get<std::int64_t>();
    if (s < static_cast<std::int64_t>(std::numeric_limits<I>::lowest()) ||
        (s > 0 && static_cast<std::uint64_t>(s) > static_cast<std::uint64_t>(std::numeric_limits<I>::max()))) {
      mismatch(v, f, goName, true);
    }
    out = static_cast<I>(s);
  }
  void decode(const nlohmann::json& v, std::vector<std::string>& out, const std::string& f) const {
    if (!v.is_array()) mismatch(v, f, "[]string");
    out.clear();
    for (const auto& e : v) {
      // encoding/json leaves a null element at its zero value ("").
      if (e.is_null()) {
        out.emplace_back();
        continue;
      }
      if (!e.is_string()) mismatch(e, f, "string");
      out.push_back(e.get<std::string>());
    }
  }
  void decode(const nlohmann::json& v, std::map<std::string, std::string>& out, const std::string& f) const {
    if (!v.is_object()) mismatch(v, f, "map[string]string");
    out.clear();
    for (const auto& [k, e] : v.items()) {
      if (e.is_null()) {  // encoding/json stores a null value as the zero value ("")
        out[k] = "";
        continue;
      }
      if (!e.is_string()) mismatch(e, f, "string");
      out[k] = e.get<std::string>();
    }
  }

  Parameters v_;
  std::string goType_;
  std::set<std::string> known_;
};

}  // namespace blis::router::fwkplugin
