// Original to BLIS: sglang-surface-gen, the generator of engines/sglang/surface.json (SGL-4, SGL-6, X9, §7.5)
// and of engines/sglang/fidelity/upstream_tests.json (the upstream test functions the transcription report,
// tests/fidelity/report.py --engine sglang, accounts for one by one).
//
//   sglang-surface-gen surface --checkout DIR --root ROOT [-o FILE]
//       reads the selectable features of the pinned checkout DIR (scan.h), gives each the status
//       ROOT/engines/sglang/surface/statuses.yaml states, and writes the list (stdout without -o).
//   sglang-surface-gen tests --checkout DIR --root ROOT [-o FILE]
//       lists the test functions of the upstream test files the port transcribes.
//
// The release and commit come from ROOT/engines/sglang/upstream.yaml. Exit 1 when the checkout holds
// something the reader cannot account for or statuses.yaml does not match the items; 2 on bad usage.
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "surface/scan.h"

namespace fs = std::filesystem;
using blis::sglang::surface::Item;
using nlohmann::ordered_json;

namespace {

constexpr const char* kGenerator = "engines/sglang/surface/gen_surface.cpp";
// The pinned test files the port transcribes (engines/sglang/upstream.yaml lists their blobs).
constexpr const char* kTestFiles[] = {
    "test/registered/unit/mem_cache/test_radix_cache_unit.py",
    "test/registered/unit/mem_cache/test_evict_policy.py",
    "test/registered/unit/managers/test_prefill_adder.py",
    "test/manual/test_schedule_policy.py",
    "test/registered/unit/managers/test_retraction_order.py",
    "test/registered/scheduler/test_priority_scheduling.py",
};
constexpr const char* kStatuses[] = {"modelled", "refused", "out_of_scope"};

ordered_json to_json(const YAML::Node& n) {
  if (n.IsMap()) {
    ordered_json o = ordered_json::object();
    for (const auto& kv : n) o[kv.first.as<std::string>()] = to_json(kv.second);
    return o;
  }
  if (n.IsSequence()) {
    ordered_json a = ordered_json::array();
    for (const auto& e : n) a.push_back(to_json(e));
    return a;
  }
  return n.as<std::string>();
}

// statuses.yaml: `defaults` gives a category's status, `items` one item's (overriding its category's).
// Every item must end with a status, and every entry must name an item the release can select.
std::vector<ordered_json> merge_statuses(const fs::path& file, const std::vector<Item>& items,
                                         const std::string& commit8, std::vector<std::string>& errors) {
  YAML::Node doc = YAML::LoadFile(file.string());
  std::map<std::string, YAML::Node> defaults;
  std::map<std::pair<std::string, std::string>, YAML::Node> own;
  for (const auto& kv : doc["defaults"]) defaults[kv.first.as<std::string>()] = kv.second;
  for (const auto& e : doc["items"]) {
    auto key = std::make_pair(e["category"].as<std::string>(), e["name"].as<std::string>());
    YAML::Node status;
    for (const char* s : kStatuses)
      if (e[s]) status[s] = e[s];
    if (own.contains(key)) errors.push_back("statuses.yaml: " + key.first + " " + key.second + " is listed twice");
    own[key] = status;
  }
  std::set<std::pair<std::string, std::string>> seen;
  std::set<std::string> categories;
  for (const auto& it : items) {
    seen.insert({it.category, it.name});
    categories.insert(it.category);
  }
  for (const auto& [key, _] : own)
    if (!seen.contains(key))
      errors.push_back("statuses.yaml: " + key.first + " " + key.second + " is not selectable in the release");
  for (const auto& [cat, _] : defaults)
    if (!categories.contains(cat)) errors.push_back("statuses.yaml: default for unknown category " + cat);
  std::vector<ordered_json> out;
  for (const auto& it : items) {
    auto o = own.find({it.category, it.name});
    YAML::Node status = o != own.end() ? o->second : (defaults.contains(it.category) ? defaults[it.category] : YAML::Node());
    if (!status || status.size() == 0) {
      errors.push_back("statuses.yaml: no status for " + it.category + " " + it.name);
      continue;
    }
    ordered_json j;
    j["category"] = it.category;
    j["name"] = it.name;
    j["registered_at"] = it.path + "@" + commit8 + ":" + std::to_string(it.line);
    if (!it.part.empty()) j["part"] = it.part;
    if (it.framework) j["framework"] = true;
    j["status"] = to_json(status);
    out.push_back(std::move(j));
  }
  return out;
}

int write(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::cout << text;
    return 0;
  }
  std::ofstream f(path, std::ios::binary);
  f << text;
  return f ? 0 : 2;
}

int usage() {
  std::cerr << "usage: sglang-surface-gen surface|tests --checkout DIR --root ROOT [-o FILE]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string mode = argv[1], checkout, root, output;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    if (a == "--checkout") checkout = argv[++i];
    else if (a == "--root") root = argv[++i];
    else if (a == "-o") output = argv[++i];
    else return usage();
  }
  if (checkout.empty() || root.empty() || (mode != "surface" && mode != "tests")) return usage();
  std::string release, commit;
  try {
    YAML::Node up = YAML::LoadFile((fs::path(root) / "engines/sglang/upstream.yaml").string());
    release = up["release"].as<std::string>();
    commit = up["commit"].as<std::string>();
  } catch (const std::exception& e) {
    std::cerr << "sglang-surface-gen: engines/sglang/upstream.yaml: " << e.what() << "\n";
    return 2;
  }
  const std::string commit8 = commit.substr(0, 8);
  if (mode == "tests") {
    ordered_json doc;
    doc["note"] = "Generated by sglang-surface-gen tests from the pinned checkout; do not edit.";
    doc["generator"] = kGenerator;
    doc["files"] = ordered_json::array();
    int rc = 0;
    for (const char* f : kTestFiles) {
      std::string error;
      auto fns = blis::sglang::surface::test_functions(fs::path(checkout) / f, error);
      if (!error.empty()) {
        std::cerr << "sglang-surface-gen: " << error << "\n";
        rc = 1;
        continue;
      }
      ordered_json file;
      file["source"] = std::string(f) + "@" + commit8;
      file["functions"] = ordered_json::array();
      for (const auto& fn : fns) file["functions"].push_back({{"name", fn.name}, {"line", fn.line}});
      doc["files"].push_back(std::move(file));
    }
    if (rc) return rc;
    return write(doc.dump(2) + "\n", output);
  }
  auto scan = blis::sglang::surface::scan_upstream(checkout);
  std::vector<std::string> errors = scan.errors;
  std::vector<ordered_json> items;
  try {
    items = merge_statuses(fs::path(root) / "engines/sglang/surface/statuses.yaml", scan.items, commit8, errors);
  } catch (const std::exception& e) {
    errors.push_back(std::string("engines/sglang/surface/statuses.yaml: ") + e.what());
  }
  if (!errors.empty()) {
    for (const auto& e : errors) std::cerr << "sglang-surface-gen: " << e << "\n";
    std::cerr << "sglang-surface-gen: " << errors.size() << " problem(s); no list written\n";
    return 1;
  }
  ordered_json doc;
  doc["note"] = "Generated by sglang-surface-gen from the pinned release's selection code and "
                "engines/sglang/surface/statuses.yaml; do not edit.";
  doc["upstream"] = {{"name", "sglang"}, {"release", release}, {"commit", commit}};
  doc["generator"] = kGenerator;
  doc["items"] = items;
  return write(doc.dump(2) + "\n", output);
}
