#include "plan_checks.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <type_traits>

#include "contracts/doc/kinds.h"
#include "json_path.h"
#include "schema/field_walk.h"
#include "schema/pool-plan.h"
#include "schema/step-shape.h"
#include "schema/transfer-move.h"
#include "word_list.h"

namespace blis::plan_checks {

using nlohmann::json;

namespace {

constexpr std::string_view kDefs = "#/$defs/";

// Follows $ref and the nullable anyOf wrapper to the spec a node stands for; *def names the last $defs
// entry followed ("" when none).
const json& deref(const json& root, const json& node, std::string* def) {
  const json* n = &node;
  for (int guard = 0; guard < 64; ++guard) {
    if (n->is_object() && n->contains("$ref")) {
      const std::string ref = n->at("$ref").get<std::string>();
      const std::string name = ref.starts_with(kDefs) ? ref.substr(kDefs.size()) : ref;
      if (def) *def = name;
      n = &root.at("$defs").at(name);
      continue;
    }
    if (n->is_object() && n->contains("anyOf")) {
      for (const json& alt : n->at("anyOf"))
        if (!(alt.is_object() && alt.value("type", "") == "null")) {
          n = &alt;
          break;
        }
      continue;
    }
    break;
  }
  return *n;
}

bool is_map_spec(const json& n) {
  return n.is_object() && !n.contains("properties") && n.contains("additionalProperties") &&
         n.at("additionalProperties").is_object();
}

void innermost(const json& root, const json& spec, Field& f) {
  const json* n = &deref(root, spec, nullptr);
  for (int guard = 0; guard < 64; ++guard) {
    if (n->value("type", "") == "array" && n->contains("items")) {
      n = &deref(root, n->at("items"), nullptr);
    } else if (is_map_spec(*n)) {
      n = &deref(root, n->at("additionalProperties"), nullptr);
    } else {
      break;
    }
  }
  if (n->contains("enum")) {
    f.type = "enum";
    for (const json& v : n->at("enum")) f.values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  } else if (n->contains("properties")) {
    f.type = "object";
  } else {
    f.type = n->value("type", "");
  }
  f.unit = n->value("x-unit", "");
  f.leaf = f.type != "object";
}

void visit(const json& root, const json& node, const std::string& path, const std::string& owner, std::vector<Field>& out,
           int depth) {
  if (depth > 64) return;
  std::string def;
  const json& n = deref(root, node, &def);
  const std::string own = def.empty() ? owner : def;
  if (n.value("type", "") == "array" && n.contains("items")) {
    visit(root, n.at("items"), path + "[]", own, out, depth + 1);
    return;
  }
  if (n.contains("properties")) {
    const bool one_of = n.value("minProperties", 0) == 1 && n.value("maxProperties", 0) == 1;
    std::set<std::string> required;
    if (n.contains("required"))
      for (const json& r : n.at("required")) required.insert(r.get<std::string>());
    for (const auto& [name, spec] : n.at("properties").items()) {
      Field f;
      f.path = path.empty() ? name : path + "." + name;
      f.identity = own + "." + name;
      f.required = required.contains(name);
      f.one_of = one_of;
      innermost(root, spec, f);
      out.push_back(f);
      visit(root, spec, f.path, f.identity, out, depth + 1);
    }
    return;
  }
  if (is_map_spec(n)) visit(root, n.at("additionalProperties"), path + "{}", own, out, depth + 1);
}

void collect_names(const json& n, std::vector<std::string>& out) {
  if (n.is_array()) {
    for (const json& x : n) collect_names(x, out);
    return;
  }
  if (!n.is_object()) return;
  for (const auto& [key, value] : n.items()) {
    if ((key == "properties" || key == "$defs") && value.is_object())
      for (const auto& [name, spec] : value.items()) out.push_back(name);
    if (key == "enum" && value.is_array())
      for (const json& v : value)
        if (v.is_string()) out.push_back(v.get<std::string>());
    collect_names(value, out);
  }
}

}  // namespace

std::string normalize(const std::string& path) {
  static const std::regex index(R"(\[[0-9]+\])");
  std::string out = std::regex_replace(path, index, "[]");
  for (std::size_t at; (at = out.find(".{}")) != std::string::npos;) out.replace(at, 3, "{}");
  return out;
}

namespace {

template <class F>
void with_kind_type(const std::string& kind, F&& f) {
  if (kind == "pool-plan") f(std::type_identity<schema::PoolPlan>{});
  if (kind == "step-shape") f(std::type_identity<schema::StepShape>{});
  if (kind == "transfer-move") f(std::type_identity<schema::TransferMove>{});
}

std::string read_text(const std::filesystem::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

json canonical(const nlohmann::ordered_json& j) { return json::parse(j.dump()); }

// One removal: the document without the leaf at `path` (present in `base`), and what loading it must give.
template <class T>
void check_removal(const std::string& example, const std::string& kind, const nlohmann::ordered_json& base,
                   const std::string& path, const Field& f, Findings& out) {
  nlohmann::ordered_json without = base;
  if (!erase_at(without, path)) {
    out.push_back(kind + ": cannot remove '" + path + "' from " + example);
    return;
  }
  const std::string where = kind + ": " + example + " without '" + path + "' (" + f.identity + ")";
  doc::Diagnostics d{"absent.json"};
  auto loaded = doc::load_as<T>(kind, without.dump(1), "absent.json", d);
  const std::string leaf = path.substr(path.find_last_of('.') == std::string::npos ? 0 : path.find_last_of('.') + 1);
  if (f.required || f.one_of) {
    const std::string want = f.required ? "missing required key '" + leaf + "'" : "exactly one of";
    if (loaded) out.push_back(where + ": the document loads, but the field is " + (f.required ? "required" : "a one_of alternative"));
    else if (d.str().find(want) == std::string::npos)
      out.push_back(where + ": refused, but without naming '" + want + "':\n" + d.str());
    return;
  }
  if (!loaded) {
    out.push_back(where + ": the document is refused, but an absent field must mean 'not stated' [SUB-1]:\n" + d.str());
    return;
  }
  bool reached = false, absent = false;
  schema::walk_fields(*loaded, [&](const std::string& p, const auto& member) {
    if (p != path) return;
    reached = true;
    if constexpr (schema::is_optional_v<std::remove_cvref_t<decltype(member)>>) absent = !member.has_value();
  });
  if (!reached) out.push_back(where + ": the loaded value has no field at that path");
  else if (!absent) out.push_back(where + ": the field does not read as absent after loading [SUB-1]");
  if (canonical(schema::to_json(*loaded)) != canonical(without))
    out.push_back(where + ": the loaded value, written back, differs from the document beyond the removed field");
}

template <class T>
void check_kind_absent(const std::string& kind, const std::filesystem::path& examples, Findings& out) {
  std::map<std::string, Field> by_path;
  std::set<std::string> leaves;
  for (const Field& f : fields_of(compiled_schema(kind))) {
    by_path.emplace(f.path, f);
    if (f.leaf) leaves.insert(f.identity);
  }
  // Each leaf is removed once, where the first example that sets it (full.yaml first) sets it first.
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(examples / kind, ec))
    if (entry.path().extension() == ".yaml" || entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return std::make_pair(a.filename() != "full.yaml", a.filename().string()) <
           std::make_pair(b.filename() != "full.yaml", b.filename().string());
  });
  if (files.empty()) out.push_back((examples / kind).string() + ": no example of " + kind + " to remove fields from");
  std::set<std::string> tested;
  for (const std::filesystem::path& file : files) {
    bool ok = false;
    const std::string text = read_text(file, ok);
    doc::Diagnostics d{file.string()};
    auto value = ok ? doc::load_as<T>(kind, text, file.string(), d) : std::nullopt;
    if (!value) {
      out.push_back(file.string() + ": the example does not load:\n" + d.str());
      continue;
    }
    const nlohmann::ordered_json base = schema::to_json(*value);
    schema::walk_fields(*value, [&](const std::string& path, const auto& member) {
      using M = std::remove_cvref_t<decltype(member)>;
      if constexpr (!schema::is_leaf_field_v<M>) {
        return;
      } else {
        if constexpr (schema::is_optional_v<M>)
          if (!member.has_value()) return;
        auto it = by_path.find(normalize(path));
        if (it == by_path.end()) {
          out.push_back(kind + ": the walk reaches '" + path + "', which the compiled JSON Schema does not list");
          return;
        }
        if (!tested.insert(it->second.identity).second) return;
        check_removal<T>(file.filename().string(), kind, base, path, it->second, out);
      }
    });
  }
  for (const std::string& id : leaves)
    if (!tested.contains(id))
      out.push_back((examples / kind).string() + ": no example sets " + id +
                    ", so its absence is not tested: set it in an example of " + kind);

  // A default-constructed value states nothing: it writes {}, reads back as itself and validates.
  const T empty{};
  if (canonical(schema::to_json(empty)) != json::object())
    out.push_back(kind + ": a default-constructed value writes " + schema::to_json(empty).dump() + ", not {}");
  doc::Diagnostics dv{kind};
  schema::validate(empty, "", dv);
  if (!dv.ok()) out.push_back(kind + ": a default-constructed value does not validate:\n" + dv.str());
  doc::Diagnostics dl{"empty.json"};
  auto reread = doc::load_as<T>(kind, "{}", "empty.json", dl);
  if (!reread) out.push_back(kind + ": the empty document {} is refused:\n" + dl.str());
  else if (canonical(schema::to_json(*reread)) != json::object())
    out.push_back(kind + ": the empty document reads back as " + schema::to_json(*reread).dump());
}

}  // namespace

const std::vector<std::string>& plan_kinds() {
  static const std::vector<std::string> kinds = {"pool-plan", "step-shape", "transfer-move"};
  return kinds;
}

const std::map<std::string, std::string>& essential_fields() {
  static const std::map<std::string, std::string> m = {
      {"LoweredLayer.primitive", "a lowered layer is priced by its family; without one it names nothing to price"},
      {"KernelImpl.library", "the registry looks a kernel up by library and variant (design §6.2)"},
      {"KernelImpl.variant", "the registry looks a kernel up by library and variant (design §6.2)"},
      {"KVTier.device", "a tier is a catalog device; its bandwidth and capacity come from there"},
  };
  return m;
}

const std::map<std::string, std::string>& index_fields() {
  static const std::string rank = "an index: which data-parallel rank, counted from 0, not a quantity";
  static const std::string stage = "an index: which pipeline stage, counted from 0, not a quantity";
  static const std::string layer = "an index into the model graph's layers, not a quantity";
  static const std::string place = "an index: which node or rack of the cluster, counted from 0, not a quantity";
  static const std::map<std::string, std::string> m = {
      {"RankStep.rank", rank},
      {"PaddedShape.rank", rank},
      {"step-shape.stage", stage},
      {"LoweredLayer.stage", stage},
      {"GraphBucket.stage", stage},
      {"ResidentTensor.stage", stage},
      {"Buffer.stage", stage},
      {"PaddedShape.eager_layers", layer},
      {"LoweredLayer.layer", layer},
      {"KVGroup.layers", layer},
      {"ResidentTensor.layer", layer},
      {"Layout.node_racks", place},
      {"Endpoint.node", place},
      {"Endpoint.rack", place},
      {"transfer-move.kv_group", "an index into the plan's kv list, not a quantity"},
  };
  return m;
}

std::vector<Field> fields_of(const json& schema) {
  std::vector<Field> out;
  visit(schema, schema, "", schema.value("title", "root"), out, 0);
  return out;
}

std::vector<std::string> names_of(const json& schema) {
  std::vector<std::string> out;
  if (schema.contains("title") && schema.at("title").is_string()) out.push_back(schema.at("title").get<std::string>());
  collect_names(schema, out);
  return out;
}

std::map<std::string, json> read_schema_dir(const std::filesystem::path& dir, Findings& findings) {
  std::map<std::string, json> out;
  for (const std::string& kind : plan_kinds()) {
    const std::filesystem::path file = dir / (kind + ".json");
    bool ok = false;
    const std::string text = read_text(file, ok);
    if (!ok) {
      findings.push_back(file.string() + ": missing: the JSON Schema of " + kind);
      continue;
    }
    try {
      out.emplace(kind, json::parse(text));
    } catch (const json::exception& e) {
      findings.push_back(file.string() + ": not JSON: " + e.what());
    }
  }
  return out;
}

json compiled_schema(const std::string& kind) {
  const doc::KindInfo* info = doc::find_kind(kind);
  return info == nullptr ? json::object() : json::parse(info->json_schema);
}

Findings check_required(const std::map<std::string, json>& schemas) {
  Findings out;
  std::set<std::string> required;
  for (const auto& [kind, schema] : schemas)
    for (const Field& f : fields_of(schema)) {
      if (!f.required) continue;
      required.insert(f.identity);
      if (!essential_fields().contains(f.identity))
        out.push_back(kind + ": field '" + f.path + "' (" + f.identity +
                      ") is required, but a plan field must be optional, its absence meaning 'not stated', unless the "
                      "design makes it essential (the essential list of tests/contracts/plan_checks.cpp) "
                      "[contracts-zero-values; SUB-1]");
    }
  for (const auto& [id, why] : essential_fields())
    if (!required.contains(id))
      out.push_back("essential list: " + id + " is not a required field of any plan schema: remove the entry");
  return out;
}

Findings check_units(const std::map<std::string, json>& schemas) {
  Findings out;
  std::set<std::string> unitless;
  for (const auto& [kind, schema] : schemas)
    for (const Field& f : fields_of(schema)) {
      if ((f.type != "integer" && f.type != "number") || !f.unit.empty()) continue;
      unitless.insert(f.identity);
      if (!index_fields().contains(f.identity))
        out.push_back(kind + ": numeric field '" + f.path + "' (" + f.identity +
                      ") states no unit: give it one (schemas/README.md) or, if it is an index, list it with the "
                      "reason in tests/contracts/plan_checks.cpp [plan-units; SUB-16]");
    }
  for (const auto& [id, why] : index_fields())
    if (!unitless.contains(id))
      out.push_back("index list: " + id + " is not a unitless number of any plan schema: remove the entry");
  return out;
}

Findings check_words(const std::map<std::string, json>& schemas, const std::filesystem::path& root) {
  Findings out;
  std::vector<std::string> errors;
  const lint::EngineWords words = lint::EngineWords::load_with_pins(root / "invariants" / "engine-words.txt",
                                                                    root / "versions.yaml", errors);
  for (const std::string& e : errors) out.push_back("engine-word list: " + e);
  if (words.words().empty()) out.push_back("engine-word list: no words read from " + (root / "invariants").string());
  for (const auto& [kind, schema] : schemas)
    for (const std::string& name : names_of(schema))
      for (const lint::WordMatch& m : words.find(name))
        out.push_back(kind + ": engine word '" + m.word + "' in the name '" + name + "' [plan-fields-neutral; X2]");
  return out;
}

Findings check_walk(const std::map<std::string, json>& schemas) {
  Findings out;
  for (const auto& [kind, schema] : schemas) {
    std::set<std::string> listed;
    for (const Field& f : fields_of(schema)) listed.insert(f.path);
    std::set<std::string> walked;
    bool known = false;
    with_kind_type(kind, [&](auto tag) {
      using T = typename decltype(tag)::type;
      known = true;
      T value{};
      schema::fill_all(value, "{}");
      schema::walk_fields(value, [&](const std::string& path, auto&) { walked.insert(normalize(path)); });
    });
    if (!known) {
      out.push_back(kind + ": no generated type to walk");
      continue;
    }
    for (const std::string& p : listed)
      if (!walked.contains(p))
        out.push_back(kind + ": the field walk does not reach field '" + p + "' of the JSON Schema [plan-field-walk]");
    for (const std::string& p : walked)
      if (!listed.contains(p))
        out.push_back(kind + ": the field walk reaches '" + p + "', which the JSON Schema does not list [plan-field-walk]");
  }
  return out;
}

Findings check_absent_fields(const std::filesystem::path& examples) {
  Findings out;
  for (const std::string& kind : plan_kinds())
    with_kind_type(kind, [&](auto tag) { check_kind_absent<typename decltype(tag)::type>(kind, examples, out); });
  return out;
}

}  // namespace blis::plan_checks
