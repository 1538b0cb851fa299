// VLM-3's checks of engines/vllm/fields.json (vllm-fields-complete, vllm-fields-estimation-rule,
// vllm-fields-code-names):
//
//   vllm-fields-check complete   --root SRC DIR
//   vllm-fields-check estimation --root SRC DIR
//   vllm-fields-check code-names --root SRC DIR
//
// DIR holds fields.json (the real run: engines/vllm; a known-bad run: tests/known_bad/VLM-3/<check>).
// Every mode first loads the list with the reader and validator blis-gen generates from
// schemas/engine/fields-list.yaml, and fails on any refusal. Exit 0: the check holds; 1: it fails (each
// failure printed); 2: usage.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "schema/fields-list.h"

namespace fs = std::filesystem;
using blis::schema::FieldsList;
using blis::schema::FieldsListField;

namespace {

int statuses_of(const FieldsListField& f) {
  const auto& s = f.status;
  return int(s.modelled.has_value()) + int(s.proven_inert.has_value()) + int(s.not_modelled.has_value()) +
         int(s.inert_unproven.has_value());
}

// VLM-3 completeness: exactly one status, each with the evidence it needs; sorted and unique names.
void complete(const FieldsList& list, const fs::path& root, std::vector<std::string>& bad) {
  std::set<std::pair<std::string, std::string>> seen;
  std::pair<std::string, std::string> last;
  for (const auto& f : list.fields) {
    const std::string who = "field '" + f.name + "'";
    const std::pair<std::string, std::string> key{f.kind, f.name};
    if (!seen.insert(key).second) bad.push_back(who + " is listed twice");
    if (key < last) bad.push_back(who + " is out of order (the list is sorted by kind, then name)");
    last = key;
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
  static const std::map<std::string, std::string> m = {
      {"CUDA_MODULE_LOADING", "a CUDA driver loading mode (LAZY or EAGER), not a module path"},
  };
  return m;
}

// VLM-3: a field whose name or type suggests it can name code must be marked names_code.
void code_names(const FieldsList& list, std::vector<std::string>& bad) {
  static const std::set<std::string> words = {"cls", "class", "plugin", "plugins", "module"};
  for (const auto& f : list.fields) {
    if (exempt().count(f.name)) continue;
    const std::string n = lower(f.name);
    std::string why;
    std::stringstream ss(n);
    std::string tok;
    std::string norm = n;
    for (auto& c : norm)
      if (c == '-' || c == '.') c = '_';
    while (std::getline(ss, tok, '_')) {
      std::stringstream s2(tok);
      std::string t2;
      while (std::getline(s2, t2, '-')) {
        std::stringstream s3(t2);
        std::string t3;
        while (std::getline(s3, t3, '.'))
          if (words.count(t3)) why = "its name has '" + t3 + "'";
      }
    }
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
    std::cerr << "usage: vllm-fields-check (complete|estimation|code-names) --root SRC DIR\n";
    return 2;
  }
  const std::string mode = argv[1];
  const fs::path root = argv[3];
  const fs::path file = fs::path(argv[4]) / "fields.json";
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << file << "\n";
    return 1;
  }
  std::ostringstream text;
  text << in.rdbuf();
  blis::doc::Diagnostics d(file.string());
  auto list = blis::schema::load_fields_list(text.str(), file.string(), d);
  if (list) blis::schema::validate(*list, "", d);
  if (!list || !d.ok()) {
    std::cerr << d.str() << file.string() << " breaks schemas/engine/fields-list.yaml\n";
    return 1;
  }
  std::vector<std::string> bad;
  if (mode == "complete") complete(*list, root, bad);
  else if (mode == "estimation") estimation(*list, bad);
  else if (mode == "code-names") code_names(*list, bad);
  else {
    std::cerr << "unknown mode '" << mode << "'\n";
    return 2;
  }
  for (const auto& b : bad) std::cerr << b << "\n";
  std::cout << mode << ": " << list->fields.size() << " fields, " << bad.size() << " failures\n";
  return bad.empty() ? 0 : 1;
}
