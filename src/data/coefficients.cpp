#include "data/coefficients.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <map>

namespace blis::data {
namespace {

int line_of(const YAML::Node& n) { return n.Mark().is_null() ? 0 : n.Mark().line + 1; }
int col_of(const YAML::Node& n) { return n.Mark().is_null() ? 0 : n.Mark().column + 1; }

std::string canonical(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar:
      return n.Scalar();
    case YAML::NodeType::Sequence: {  // compared as a set (kernel code_hashes): sorted
      std::vector<std::string> items;
      for (std::size_t i = 0; i < n.size(); ++i) items.push_back(canonical(n[i]));
      std::sort(items.begin(), items.end());
      std::string s = "[";
      for (std::size_t i = 0; i < items.size(); ++i) s += (i > 0 ? ", " : "") + items[i];
      return s + "]";
    }
    case YAML::NodeType::Map: {
      std::map<std::string, std::string> items;
      for (const auto& kv : n) items[canonical(kv.first)] = canonical(kv.second);
      std::string s = "{";
      for (const auto& [k, v] : items) s += (s.size() > 1 ? ", " : "") + k + ": " + v;
      return s + "}";
    }
    default:
      return "null";
  }
}

ScopeItem scope_item(const std::string& key, const YAML::Node& v) {
  ScopeItem item{key, canonical(v), {}};
  if (!v.IsMap()) return item;
  std::map<std::string, std::vector<std::string>> fields;
  for (const auto& kv : v) {
    auto& items = fields[canonical(kv.first)];
    if (kv.second.IsSequence()) {
      for (const auto& x : kv.second) items.push_back(canonical(x));
    } else {
      items.push_back(canonical(kv.second));
    }
    std::sort(items.begin(), items.end());
  }
  item.fields.assign(fields.begin(), fields.end());
  return item;
}

// A mapping's entries by key; refuses non-scalar and repeated keys.
class Mapping {
 public:
  Mapping(const FileRef& file, const YAML::Node& node, Diagnostics& diags) {
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) {
        diags.error(*file, line_of(kv.first), col_of(kv.first), "mapping keys must be plain strings [SUB-12]");
        ok = false;
        continue;
      }
      const std::string key = kv.first.Scalar();
      if (!items_.emplace(key, kv.second).second) {
        diags.error(*file, line_of(kv.first), col_of(kv.first), "duplicate key '" + key + "' [SUB-12]");
        ok = false;
      }
    }
  }
  const YAML::Node* get(const std::string& key) const {
    const auto it = items_.find(key);
    return it == items_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, YAML::Node>& items() const { return items_; }
  bool ok = true;

 private:
  std::map<std::string, YAML::Node> items_;
};

// The identity field `key` of a coefficient set: a scalar equal to what the path says.
bool path_field(const FileRef& file, const Mapping& top, const YAML::Node& root, const std::string& key,
                const std::string& expected, const std::string& where, Diagnostics& diags) {
  const YAML::Node* v = top.get(key);
  if (v == nullptr || !v->IsScalar()) {
    const YAML::Node& at = v ? *v : root;
    diags.error(*file, line_of(at), col_of(at), "needs a scalar " + key + ": (a coefficient's identity) [§3.3]");
    return false;
  }
  if (v->Scalar() != expected) {
    diags.error(*file, line_of(*v), col_of(*v),
                key + ": '" + v->Scalar() + "' disagrees with the file's place, " + where + " [§3.3]");
    return false;
  }
  return true;
}

}  // namespace

int method_rank(std::string_view method) {
  static constexpr std::array<std::string_view, 7> kRanked = {"measured",    "calibrated", "transferred", "literature",
                                                              "vendor_spec", "roofline",   "assumed"};
  if (method == "not_charged") return 7;  // ranks with assumed: it rests on no data (registry/README.md)
  const auto it = std::find(kRanked.begin(), kRanked.end(), method);
  return it == kRanked.end() ? 0 : static_cast<int>(it - kRanked.begin()) + 1;
}

std::vector<Coefficient> read_coefficients(const FileRef& file, Diagnostics& diags) {
  std::vector<Coefficient> out;
  // registry/sets/<set>/<family>.yaml
  const std::string& p = file->path;
  const auto s1 = p.find('/');
  const auto s2 = p.find('/', s1 + 1);
  const std::string set_dir = p.substr(s1 + 1, s2 - s1 - 1);
  std::string family_file = p.substr(s2 + 1);
  family_file = family_file.substr(0, family_file.rfind('.'));

  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(file->bytes);
  } catch (const YAML::Exception& e) {
    diags.error(*file, e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1,
                "is not valid YAML: " + e.msg);
    return out;
  }
  if (docs.size() != 1 || !docs[0].IsMap()) {
    diags.error(*file,
                "must hold one YAML mapping (set, family, entries), not " +
                    (docs.size() == 1 ? std::string("another node") : std::to_string(docs.size()) + " documents"));
    return out;
  }
  const YAML::Node& root = docs[0];
  const Mapping top(file, root, diags);
  const bool set_ok = path_field(file, top, root, "set", set_dir, "sets/" + set_dir + "/", diags);
  const bool family_ok =
      path_field(file, top, root, "family", family_file, "sets/" + set_dir + "/" + family_file + ".yaml", diags);
  const YAML::Node* entries = top.get("entries");
  if (entries == nullptr || !entries->IsSequence()) {
    const YAML::Node& at = entries ? *entries : root;
    diags.error(*file, line_of(at), col_of(at), "needs an entries: list [§3.3]");
    return out;
  }
  if (!top.ok || !set_ok || !family_ok) return out;

  for (std::size_t i = 0; i < entries->size(); ++i) {
    const YAML::Node e = (*entries)[i];
    if (!e.IsMap()) {
      diags.error(*file, line_of(e), col_of(e), "entry " + std::to_string(i) + " is not a mapping");
      continue;
    }
    const Mapping m(file, e, diags);
    Coefficient c;
    c.id.set = set_dir;
    c.family = family_file;
    c.file = file;
    c.entry = i;
    c.line = line_of(e);
    bool ok = m.ok;
    const YAML::Node* name = m.get("name");
    if (name == nullptr || !name->IsScalar() || name->Scalar().empty()) {
      diags.error(*file, line_of(e), col_of(e), "entry " + std::to_string(i) + " needs a name [§3.3]");
      ok = false;
    } else {
      c.id.name = name->Scalar();
    }
    const YAML::Node* scope = m.get("scope");
    if (scope != nullptr && !scope->IsNull()) {
      if (!scope->IsMap()) {
        diags.error(*file, line_of(*scope), col_of(*scope), "scope must be a mapping of scope keys to values [§3.3]");
        ok = false;
      } else {
        const Mapping sm(file, *scope, diags);
        ok = ok && sm.ok;
        for (const auto& [k, v] : sm.items()) c.id.scope.push_back(scope_item(k, v));  // sorted by key: a map
      }
    }
    const YAML::Node* method = m.get("method");
    if (method == nullptr || !method->IsMap() || method->size() != 1) {
      const YAML::Node& at = method ? *method : e;
      diags.error(
          *file, line_of(at), col_of(at),
          "entry " + std::to_string(i) + " needs a method: mapping with exactly one key, the method's name [§3.3]");
      ok = false;
    } else {
      const auto kv = method->begin();
      if (!kv->first.IsScalar()) {
        diags.error(*file, line_of(*method), col_of(*method), "the method's name must be a plain string");
        ok = false;
      } else {
        c.id.method = kv->first.Scalar();
      }
    }
    if (ok) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace blis::data
