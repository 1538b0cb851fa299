#include "data/record.h"

#include <filesystem>

namespace blis::data {
namespace {

std::string absolute(const std::string& dir) {
  if (dir.empty()) return dir;
  std::error_code ec;
  const auto p = std::filesystem::absolute(dir, ec);
  return ec ? dir : p.lexically_normal().generic_string();
}

TreeRecord tree_record(const TreeData& t) {
  TreeRecord r;
  const Layer& base = t.layers.at(0);
  r.source = base.source;
  r.directory = base.source == Source::path ? absolute(base.directory) : std::string();
  r.base_hash = base.hash;
  for (std::size_t i = 1; i < t.layers.size(); ++i)
    r.overlays.push_back({absolute(t.layers[i].directory), t.layers[i].hash});
  r.combined_hash = t.combined_hash;
  return r;
}

nlohmann::json tree_json(const TreeRecord& r, bool with_source) {
  nlohmann::json j;
  j["base_hash"] = r.base_hash;
  j["combined_hash"] = r.combined_hash;
  j["overlays"] = nlohmann::json::array();
  for (const auto& o : r.overlays) {
    nlohmann::json oj;
    oj["hash"] = o.hash;
    if (with_source) oj["directory"] = o.directory;
    j["overlays"].push_back(oj);
  }
  if (with_source) {
    j["source"] = std::string(source_name(r.source));
    j["directory"] = r.source == Source::path ? nlohmann::json(r.directory) : nlohmann::json(nullptr);
  }
  return j;
}

nlohmann::json record_json(const LoadRecord& r, bool with_source) {
  nlohmann::json j;
  j["catalog"] = tree_json(r.catalog, with_source);
  j["registry"] = tree_json(r.registry, with_source);
  j["registry_entries_selected"] = nlohmann::json::array();
  for (const auto& e : r.selected) {
    nlohmann::json scope = nlohmann::json::object();
    for (const auto& s : e.id.scope) scope[s.key] = s.value;
    j["registry_entries_selected"].push_back({{"set", e.id.set},
                                              {"family", e.family},
                                              {"name", e.id.name},
                                              {"scope", scope},
                                              {"method", e.id.method},
                                              {"path", e.path},
                                              {"layer", e.layer}});
  }
  j["registry_files_never_loaded"] = nlohmann::json::array();
  for (const auto& f : r.never_loaded) {
    j["registry_files_never_loaded"].push_back({{"path", f.path}, {"layer", f.layer}, {"kind", f.kind}});
  }
  return j;
}

}  // namespace

void UsageLog::selected(const Coefficient& c) {
  const std::lock_guard<std::mutex> lock(m_);
  selected_.insert(c.id);
  if (c.file) used_.insert({c.file->layer, c.file->path});
}

void UsageLog::used(const LoadedFile& f) {
  const std::lock_guard<std::mutex> lock(m_);
  used_.insert({f.layer, f.path});
}

std::set<CoefficientId> UsageLog::selected_ids() const {
  const std::lock_guard<std::mutex> lock(m_);
  return selected_;
}

std::set<std::pair<std::size_t, std::string>> UsageLog::used_files() const {
  const std::lock_guard<std::mutex> lock(m_);
  return used_;
}

nlohmann::json LoadRecord::to_json() const { return record_json(*this, true); }
nlohmann::json LoadRecord::to_json_compared() const { return record_json(*this, false); }

LoadRecord make_record(const DataSet& data, const UsageLog* usage) {
  LoadRecord r;
  r.catalog = tree_record(data.catalog);
  r.registry = tree_record(data.registry);
  const auto selected = usage ? usage->selected_ids() : std::set<CoefficientId>{};
  const auto used = usage ? usage->used_files() : std::set<std::pair<std::size_t, std::string>>{};
  for (const auto& c : data.coefficients) {  // sorted by identity
    if (selected.count(c.id) > 0) r.selected.push_back({c.id, c.family, c.file->path, c.file->layer});
  }
  for (const auto& f : data.registry.files) {  // sorted by path, then layer
    if (used.count({f->layer, f->path}) == 0) r.never_loaded.push_back({f->path, f->layer, f->kind});
  }
  return r;
}

}  // namespace blis::data
