// Original to BLIS: see yamljson.h (sigs.k8s.io/yaml YAMLToJSON on yaml-cpp).
#include "router/epp/config/loader/yamljson.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

namespace blis::router::loader {
namespace {

using nlohmann::json;

bool parseInt(std::string s, std::int64_t& out) {
  std::string t;
  for (char c : s) if (c != '_') t += c;
  bool neg = false;
  std::size_t i = 0;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) { neg = t[0] == '-'; i = 1; }
  if (i >= t.size()) return false;
  int base = 10;
  if (t.size() > i + 1 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X')) { base = 16; i += 2; }
  else if (t.size() > i + 1 && t[i] == '0' && (t[i + 1] == 'o' || t[i + 1] == 'O')) { base = 8; i += 2; }
  else if (t.size() > i + 1 && t[i] == '0' && (t[i + 1] == 'b' || t[i + 1] == 'B')) { base = 2; i += 2; }
  else if (t.size() > i + 1 && t[i] == '0') { base = 8; i += 1; }
  if (i >= t.size()) return false;
  std::uint64_t v = 0;
  for (; i < t.size(); ++i) {
    int dgt;
    char c = t[i];
    if (c >= '0' && c <= '9') dgt = c - '0';
    else if (c >= 'a' && c <= 'f') dgt = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') dgt = c - 'A' + 10;
    else return false;
    if (dgt >= base) return false;
    if (v > (std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(dgt)) / static_cast<std::uint64_t>(base)) return false;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(dgt);
  }
  if (neg) {
    if (v > (1ULL << 63)) return false;
    out = v == (1ULL << 63) ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(v);
  } else {
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    out = static_cast<std::int64_t>(v);
  }
  return true;
}

bool parseFloat(const std::string& s, double& out) {
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") { out = INFINITY; return true; }
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") { out = -INFINITY; return true; }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") { out = NAN; return true; }
  // go-yaml v2's float pattern: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
  std::size_t i = 0, n = s.size();
  if (i < n && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t start = i;
  bool digits = false;
  while (i < n && isdigit(static_cast<unsigned char>(s[i]))) { ++i; digits = true; }
  if (i < n && s[i] == '.') {
    ++i;
    bool frac = false;
    while (i < n && isdigit(static_cast<unsigned char>(s[i]))) { ++i; frac = true; }
    if (!digits && !frac) return false;
  } else if (!digits) {
    return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '-' || s[i] == '+')) ++i;
    bool exp = false;
    while (i < n && isdigit(static_cast<unsigned char>(s[i]))) { ++i; exp = true; }
    if (!exp) return false;
  }
  if (i != n || start == n) return false;
  try {
    out = std::stod(s);
  } catch (const std::out_of_range&) {
    return false;
  }
  return true;
}

// go-yaml v2 resolve() of a plain scalar, then sigs.k8s.io/yaml's JSON form.
json resolvePlain(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  static const std::set<std::string> yes = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
  static const std::set<std::string> no = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
  if (yes.count(s)) return true;
  if (no.count(s)) return false;
  std::int64_t i;
  if (parseInt(s, i)) return i;
  double f;
  if (parseFloat(s, f)) {
    if (std::isfinite(f) && std::floor(f) == f && std::fabs(f) < 1e21) return static_cast<std::int64_t>(f);
    if (!std::isfinite(f)) throw std::runtime_error("error converting YAML to JSON: json: unsupported value: " + s);
    return f;
  }
  return s;
}

json convert(const YAML::Node& n, std::vector<std::string>& dups) {
  switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      if (n.Tag() == "!") return n.Scalar();  // quoted: a string
      if (n.Tag() == "tag:yaml.org,2002:str") return n.Scalar();
      return resolvePlain(n.Scalar());
    case YAML::NodeType::Sequence: {
      json a = json::array();
      for (const auto& e : n) a.push_back(convert(e, dups));
      return a;
    }
    case YAML::NodeType::Map: {
      json o = json::object();
      for (const auto& kv : n) {
        std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
        if (kv.first.IsScalar() && kv.first.Tag() != "!") {
          json k = resolvePlain(key);
          if (k.is_null()) key = "null";
        }
        if (o.contains(key)) {
          dups.push_back("line " + std::to_string(kv.first.Mark().line + 1) + ": key \"" + key + "\" already set in map");
        }
        o[key] = convert(kv.second, dups);
      }
      return o;
    }
  }
  return nullptr;
}

}  // namespace

// Original to BLIS: see the header.
json YAMLToJSON(const std::string& text, std::vector<std::string>* strictErrs) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error("error converting YAML to JSON: yaml: line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  std::vector<std::string> dups;
  json out = convert(root, dups);
  if (!dups.empty() && strictErrs != nullptr) {
    std::string msg = "error converting YAML to JSON: yaml: unmarshal errors:";
    for (const auto& d : dups) msg += "\n  " + d;
    strictErrs->push_back(msg);
  }
  return out;
}

}  // namespace blis::router::loader
