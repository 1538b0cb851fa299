// Original to BLIS: vllm-surface-gen, the generator of engines/vllm/surface.json (VLM-4, X9, §7.5) and of
// engines/vllm/fidelity/upstream_tests.json (the upstream test functions the transcription report reads).
//
//   vllm-surface-gen surface --checkout DIR --root ROOT [-o FILE]
//       reads the registration tables of the pinned checkout DIR (scan.h), gives each item the status
//       ROOT/engines/vllm/surface/statuses.yaml states, and writes the list (stdout without -o).
//   vllm-surface-gen tests --checkout DIR --root ROOT [-o FILE]
//       lists the module-level test functions of the upstream test files the port transcribes.
//
// The release and commit come from ROOT/engines/vllm/upstream.yaml. Exit 1 when the checkout holds
// something the generator cannot account for or statuses.yaml does not match the items; 2 on bad usage.
#include "surface/scan.h"

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <set>

namespace fs = std::filesystem;
using nlohmann::ordered_json;
using blis::vllm::surface::Item;

namespace {

constexpr const char* kGenerator = "engines/vllm/surface/gen_surface.cpp";
constexpr const char* kTestFiles[] = {
    "tests/v1/core/test_scheduler.py",
    "tests/v1/core/test_prefix_caching.py",
    "tests/v1/core/test_kv_cache_utils.py",
    "tests/v1/core/test_single_type_kv_cache_manager.py",
    "tests/v1/core/test_async_scheduler.py",
    "tests/distributed/test_events.py",
};

struct Upstream {
  std::string release, commit;
};

Upstream read_upstream(const fs::path& root) {
  YAML::Node n = YAML::LoadFile((root / "engines/vllm/upstream.yaml").string());
  return {n["release"].as<std::string>(), n["commit"].as<std::string>()};
}

// A YAML node as JSON: strings stay strings (statuses hold no numbers or booleans).
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
// Every item must end with a status, and every entry must name an item the release registers.
bool merge_statuses(const fs::path& file, const std::vector<Item>& items, std::vector<ordered_json>& out,
                    std::vector<std::string>& errors) {
  YAML::Node doc = YAML::LoadFile(file.string());
  std::map<std::string, YAML::Node> defaults;
  std::map<std::pair<std::string, std::string>, YAML::Node> own;
  for (const auto& kv : doc["defaults"]) defaults[kv.first.as<std::string>()] = kv.second;
  for (const auto& e : doc["items"]) {
    auto key = std::make_pair(e["category"].as<std::string>(), e["name"].as<std::string>());
    YAML::Node status;
    for (const char* s : {"modelled", "refused", "out_of_scope"})
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
      errors.push_back("statuses.yaml: " + key.first + " " + key.second + " is not registered by the release");
  for (const auto& [cat, _] : defaults)
    if (!categories.contains(cat)) errors.push_back("statuses.yaml: default for unknown category " + cat);
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
    if (!it.aliases.empty()) j["aliases"] = it.aliases;
    if (!it.maps_to.empty()) j["maps_to"] = it.maps_to;
    j["registered_at"] = it.path + "@" + "COMMIT8" + ":" + std::to_string(it.line);
    if (!it.part.empty()) j["part"] = it.part;
    if (!it.touches.empty()) j["touches"] = it.touches;
    if (it.framework) j["framework"] = true;
    j["status"] = to_json(status);
    out.push_back(std::move(j));
  }
  return errors.empty();
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
  std::cerr << "usage: vllm-surface-gen surface|tests --checkout DIR --root ROOT [-o FILE]\n";
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
  Upstream up;
  try {
    up = read_upstream(root);
  } catch (const std::exception& e) {
    std::cerr << "vllm-surface-gen: engines/vllm/upstream.yaml: " << e.what() << "\n";
    return 2;
  }
  const std::string commit8 = up.commit.substr(0, 8);
  if (mode == "tests") {
    ordered_json doc;
    doc["note"] = "Generated by vllm-surface-gen tests from the pinned checkout; do not edit.";
    doc["generator"] = kGenerator;
    doc["files"] = ordered_json::array();
    int rc = 0;
    for (const char* f : kTestFiles) {
      std::string error;
      auto fns = blis::vllm::surface::top_level_tests(fs::path(checkout) / f, error);
      if (!error.empty()) {
        std::cerr << "vllm-surface-gen: " << error << "\n";
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
  auto scan = blis::vllm::surface::scan_upstream(checkout);
  std::vector<ordered_json> items;
  std::vector<std::string> errors = scan.errors;
  try {
    merge_statuses(fs::path(root) / "engines/vllm/surface/statuses.yaml", scan.items, items, errors);
  } catch (const std::exception& e) {
    errors.push_back(std::string("engines/vllm/surface/statuses.yaml: ") + e.what());
  }
  if (!errors.empty()) {
    for (const auto& e : errors) std::cerr << "vllm-surface-gen: " << e << "\n";
    std::cerr << "vllm-surface-gen: " << errors.size() << " problem(s); no list written\n";
    return 1;
  }
  for (auto& j : items) {
    std::string at = j["registered_at"];
    at.replace(at.find("COMMIT8"), 7, commit8);
    j["registered_at"] = at;
  }
  ordered_json doc;
  doc["note"] = "Generated by vllm-surface-gen from the pinned release's registration tables and "
                "engines/vllm/surface/statuses.yaml; do not edit.";
  doc["upstream"] = {{"name", "vllm"}, {"release", up.release}, {"commit", up.commit}};
  doc["generator"] = kGenerator;
  doc["items"] = items;
  return write(doc.dump(2) + "\n", output);
}
