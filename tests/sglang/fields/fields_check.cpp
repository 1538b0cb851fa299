// Original to BLIS: SGL-3's checks of engines/sglang/fields.json (sglang-fields-complete,
// sglang-fields-estimation-rule, sglang-fields-code-names), under VLM-3's rules:
//
//   sglang-fields-check complete   --root SRC DIR
//   sglang-fields-check estimation --root SRC DIR
//   sglang-fields-check code-names --root SRC DIR
//
// DIR holds fields.json and fields/statuses.yaml (the real run: engines/sglang; a known-bad run:
// tests/known_bad/SGL-3/<check>). Every mode first loads the list with the reader and validator blis-gen
// generates from schemas/engine/fields-list.yaml, and fails on any refusal.
//
// complete: the list pins the commit engines/sglang/upstream.yaml names; each field has exactly one status
// with the evidence it needs (VLM-3), names are sorted and unique; and the list and statuses.yaml name the
// same fields with the same status, so a classification of something the pinned release lacks, a listed
// field nobody classified, or a field dropped from the list fails without the upstream checkout (the
// sglang-fields-generate check re-reads the checkout itself). The VLM-3 rules are those of
// tests/vllm/fields/fields_check.cpp. Exit 0: the check holds; 1: it fails (each failure printed); 2: usage.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "contracts/doc/parse.h"
#include "schema/fields-list.h"

namespace fs = std::filesystem;
using blis::schema::FieldsList;
using blis::schema::FieldsListField;

namespace {

std::string slurp(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int statuses_of(const FieldsListField& f) {
  const auto& s = f.status;
  return int(s.modelled.has_value()) + int(s.proven_inert.has_value()) + int(s.not_modelled.has_value()) +
         int(s.inert_unproven.has_value());
}

std::string status_name(const FieldsListField& f) {
  const auto& s = f.status;
  if (s.modelled) return "modelled";
  if (s.proven_inert) return "proven_inert";
  if (s.not_modelled) return "not_modelled";
  if (s.inert_unproven) return "inert_unproven";
  return "";
}

// The one scalar under `key` of a YAML mapping document, or "".
const blis::doc::Node* child(const blis::doc::Node& n, std::string_view key) {
  for (const auto& [k, v] : n.entries)
    if (k.scalar == key) return &v;
  return nullptr;
}

// statuses.yaml: field name -> its status key, with the line it is written at.
bool read_statuses(const fs::path& p, std::map<std::string, std::pair<std::string, unsigned>>& out,
                   std::vector<std::string>& bad) {
  bool ok = false;
  const std::string text = slurp(p, ok);
  if (!ok) return bad.push_back("cannot read " + p.string()), false;
  blis::doc::Diagnostics d(p.string());
  auto parsed = blis::doc::parse(text, blis::doc::Syntax::Yaml, d);
  if (!d.ok() || parsed.documents.size() != 1 || !parsed.documents.front().is_map())
    return bad.push_back(d.str() + p.string() + " is not one YAML mapping"), false;
  const blis::doc::Node* fields = child(parsed.documents.front(), "fields");
  if (!fields || !fields->is_map()) return bad.push_back(p.string() + " has no fields mapping"), false;
  for (const auto& [name, body] : fields->entries) {
    std::string status;
    if (const blis::doc::Node* s = child(body, "status"); s && s->is_map() && s->entries.size() == 1)
      status = s->entries.front().first.scalar;
    out[name.scalar] = {status, name.mark.line};
  }
  return true;
}

void complete(const FieldsList& list, const fs::path& root, const fs::path& dir, std::vector<std::string>& bad) {
  // The pin: engines/sglang/upstream.yaml's commit (SGL-2, LIF-5).
  bool ok = false;
  const std::string up = slurp(root / "engines/sglang/upstream.yaml", ok);
  blis::doc::Diagnostics ud("engines/sglang/upstream.yaml");
  auto upd = blis::doc::parse(up, blis::doc::Syntax::Yaml, ud);
  const blis::doc::Node* commit = ok && ud.ok() && upd.documents.size() == 1 ? child(upd.documents.front(), "commit") : nullptr;
  if (!commit) bad.push_back("cannot read the commit of engines/sglang/upstream.yaml");
  else if (list.engine.commit != commit->scalar)
    bad.push_back("the list pins " + list.engine.commit + ", not the Upstream record's commit " + commit->scalar);
  if (list.engine.kind != "sglang") bad.push_back("the list's engine kind is '" + list.engine.kind + "', not sglang");

  std::set<std::pair<std::string, std::string>> seen;
  std::pair<std::string, std::string> last;
  std::map<std::string, const FieldsListField*> by_name;
  for (const auto& f : list.fields) {
    const std::string who = "field '" + f.name + "'";
    const std::pair<std::string, std::string> key{f.kind, f.name};
    if (!seen.insert(key).second) bad.push_back(who + " is listed twice");
    if (key < last) bad.push_back(who + " is out of order (the list is sorted by kind, then name)");
    last = key;
    by_name[f.name] = &f;
    if (statuses_of(f) != 1)
      bad.push_back(who + " has " + std::to_string(statuses_of(f)) + " statuses, not exactly one");
    if (const auto& m = f.status.modelled) {
      if (m->evidence.empty()) bad.push_back(who + " is modelled but has no evidence");
      if (m->value_classes.empty()) bad.push_back(who + " is modelled but records no value classes");
      for (const auto& e : m->evidence)
        if (!fs::is_regular_file(root / e.name))
          bad.push_back(who + ": its evidence " + e.name + " does not exist in the repository");
    }
    if (const auto& p = f.status.proven_inert) {
      if (p->proof == "static" && (!p->reads || p->reads->empty() || !p->unreachable_via || p->unreachable_via->empty()))
        bad.push_back(who + " is proven inert statically but names no reads or no unreachable_via");
      if (p->proof == "dynamic" && (!p->probes || p->probes->empty() || !p->scenarios || p->scenarios->empty()))
        bad.push_back(who + " is proven inert dynamically but names no probes or scenarios");
    }
    if (const auto& n = f.status.not_modelled) {
      if (n->why.empty() || n->upstream_effect.empty()) bad.push_back(who + " is not modelled but says no why or no upstream effect");
      if (!n->milestone && !n->never) bad.push_back(who + " is not modelled but names no milestone and no reason for never");
    }
  }

  // The list and the classification name the same fields, with the same status.
  const fs::path sp = dir / "fields" / "statuses.yaml";
  std::map<std::string, std::pair<std::string, unsigned>> st;
  if (!read_statuses(sp, st, bad)) return;
  for (const auto& [name, s] : st) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      bad.push_back(sp.string() + ":" + std::to_string(s.second) + ": statuses.yaml classifies '" + name +
                    "', which fields.json does not list: the pinned release does not have it (drop the entry), or "
                    "fields.json is stale (regenerate it with sglang-gen-fields --out)");
      continue;
    }
    if (s.first != status_name(*it->second))
      bad.push_back("field '" + name + "' is " + status_name(*it->second) + " in fields.json but " + s.first +
                    " in statuses.yaml: regenerate fields.json with sglang-gen-fields --out");
  }
  for (const auto& [name, f] : by_name)
    if (!st.count(name))
      bad.push_back("field '" + name + "' of fields.json (" + f->kind +
                    ") is not classified in statuses.yaml: every field the pinned release reads needs a status");
}

// §11.2: every field states an estimation rule, or that it has none, with its reason.
void estimation(const FieldsList& list, std::vector<std::string>& bad) {
  for (const auto& f : list.fields) {
    const auto& e = f.estimation;
    const int n = int(e.leave_unset.has_value()) + int(e.stand_in.has_value()) + int(e.none.has_value());
    if (n != 1) {
      bad.push_back("field '" + f.name + "' states no estimation rule (leave_unset, stand_in or none)");
      continue;
    }
    if ((e.leave_unset && e.leave_unset->reason.empty()) || (e.stand_in && e.stand_in->reason.empty()) ||
        (e.none && e.none->empty()))
      bad.push_back("field '" + f.name + "' states an estimation rule without its reason");
  }
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Fields whose name has a code word but whose values cannot name code, each with why.
const std::map<std::string, std::string>& exempt() {
  static const std::map<std::string, std::string> m = {};
  return m;
}

// VLM-3: a field whose name or type suggests it can name code must be marked names_code.
void code_names(const FieldsList& list, std::vector<std::string>& bad) {
  static const std::set<std::string> words = {"cls", "class", "plugin", "plugins", "module"};
  for (const auto& f : list.fields) {
    if (exempt().count(f.name)) continue;
    std::string norm = lower(f.name);
    for (auto& c : norm)
      if (c == '-' || c == '.') c = '_';
    std::string why;
    std::stringstream ss(norm);
    std::string tok;
    while (std::getline(ss, tok, '_'))
      if (words.count(tok)) why = "its name has '" + tok + "'";
    if (norm.find("worker_extension") != std::string::npos) why = "its name names a worker extension";
    if (norm.find("module_path") != std::string::npos || norm.find("so_path") != std::string::npos)
      why = "its name is a module or library path";
    if (f.value_type.find("type[") != std::string::npos) why = "its type holds a class (type[...])";
    if (f.value_type.find("Callable") != std::string::npos) why = "its type holds a callable";
    if (!why.empty() && !f.names_code)
      bad.push_back("field '" + f.name + "' can name code (" + why + ") but is not marked names_code");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5 || std::string(argv[2]) != "--root") {
    std::cerr << "usage: sglang-fields-check (complete|estimation|code-names) --root SRC DIR\n";
    return 2;
  }
  const std::string mode = argv[1];
  if (mode != "complete" && mode != "estimation" && mode != "code-names") {
    std::cerr << "unknown mode '" << mode << "'\n";
    return 2;
  }
  const fs::path root = argv[3];
  const fs::path dir = argv[4];
  const fs::path file = dir / "fields.json";
  bool ok = false;
  const std::string text = slurp(file, ok);
  if (!ok) {
    std::cerr << "cannot read " << file << "\n";
    return 1;
  }
  blis::doc::Diagnostics d(file.string());
  auto list = blis::schema::load_fields_list(text, file.string(), d);
  if (list) blis::schema::validate(*list, "", d);
  if (!list || !d.ok()) {
    std::cerr << d.str() << file.string() << " breaks schemas/engine/fields-list.yaml\n";
    return 1;
  }
  std::vector<std::string> bad;
  if (mode == "complete") complete(*list, root, dir, bad);
  else if (mode == "estimation") estimation(*list, bad);
  else code_names(*list, bad);
  for (const auto& b : bad) std::cerr << b << "\n";
  std::cout << mode << ": " << list->fields.size() << " fields, " << bad.size() << " failures\n";
  return bad.empty() ? 0 : 1;
}
