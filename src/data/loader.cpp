#include "data/loader.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <set>

#include "contracts/sha256.h"
#include "data/coefficients.h"
#include "data/content_hash.h"
#include "data/embedded.h"
#include "data/scan.h"

namespace blis::data {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kBase = 0;

std::string tree_str(Tree t) { return std::string(tree_name(t)); }

// How a tree's directory (not one of its files) is named in messages.
std::string root_location(Tree tree, Source source, const std::string& dir, std::size_t layer) {
  if (source == Source::embedded) return "embedded " + tree_str(tree);
  return tree_str(tree) + (layer == kBase ? " directory " : " overlay ") + dir;
}

std::string problem_location(Tree tree, Source source, const std::string& dir, std::size_t layer,
                             const std::string& path) {
  if (path.empty()) return root_location(tree, source, dir, layer);
  if (source == Source::embedded) return "embedded " + tree_str(tree) + " " + path;
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return d + "/" + path;
}

std::string data_directories(const PatternTable& table, Tree tree) {
  std::set<std::string> dirs;
  for (const auto& r : table.rows()) {
    if (r.tree != tree) continue;
    const auto slash = r.pattern.find('/');
    dirs.insert(slash == std::string_view::npos ? std::string(r.pattern) : std::string(r.pattern.substr(0, slash + 1)));
  }
  std::string out;
  for (const auto& d : dirs) out += (out.empty() ? "" : ", ") + d;
  return out;
}

Layer make_layer(Tree tree, Source source, const std::string& dir, std::size_t layer, Scan&& scan) {
  Layer l;
  l.source = source;
  l.directory = dir;
  std::vector<FileDigest> digests;
  for (auto& f : scan.files) {
    auto lf = std::make_shared<LoadedFile>();
    lf->tree = tree;
    lf->path = std::move(f.path);
    lf->kind = std::string(f.row->kind);
    lf->overlay = f.row->overlay;
    lf->bytes = std::move(f.bytes);
    lf->sha256 = contracts::sha256_hex(lf->bytes);
    lf->layer = layer;
    lf->source = source;
    lf->directory = dir;
    l.files.push_back(std::move(lf));
  }
  for (const auto& f : l.files) digests.push_back({f->path, f->sha256});
  l.hash = content_hash(digests);
  return l;
}

// Reads the base and the overlays of one tree into layers; reports every scan problem.
std::vector<Layer> read_layers(const PatternTable& table, Tree tree, const std::optional<std::string>& dir,
                               const std::vector<std::string>& overlays, Diagnostics& diags) {
  std::vector<Layer> layers;
  auto report = [&](const Scan& s, Source source, const std::string& d, std::size_t layer) {
    for (const auto& p : s.problems) {
      diags.error(problem_location(tree, source, d, layer, p.path), p.path, p.message);
    }
  };
  if (dir.has_value()) {
    if (dir->empty()) {
      diags.error(root_location(tree, Source::path, "", kBase), "", "an empty path names no directory");
    }
    Scan s = scan_directory(table, tree, *dir, false);
    report(s, Source::path, *dir, kBase);
    layers.push_back(make_layer(tree, Source::path, *dir, kBase, std::move(s)));
  } else {
    Scan s = scan_embedded(table, tree);
    report(s, Source::embedded, "", kBase);
    layers.push_back(make_layer(tree, Source::embedded, "", kBase, std::move(s)));
  }
  for (std::size_t i = 0; i < overlays.size(); ++i) {
    const std::size_t layer = i + 1;
    const std::string& o = overlays[i];
    if (o.empty()) diags.error(root_location(tree, Source::path, o, layer), "", "an empty path names no directory");
    Scan s = scan_directory(table, tree, o, true);
    report(s, Source::path, o, layer);
    if (s.problems.empty() && s.files.empty()) {
      diags.error(root_location(tree, Source::path, o, layer), "",
                  "holds no " + tree_str(tree) + " data file; an overlay adds or replaces files under " +
                      data_directories(table, tree) + " [§3.3]");
    }
    layers.push_back(make_layer(tree, Source::path, o, layer, std::move(s)));
  }
  return layers;
}

void run_kind_validators(const std::vector<Layer>& layers, const ValidatorTable& v, Diagnostics& diags) {
  for (const auto& layer : layers) {
    for (const auto& f : layer.files) {
      const KindValidator* kv = v.kind_validator(f->kind);
      if (kv == nullptr) {
        diags.error(*f, "no validator is registered for its kind, " + f->kind +
                            "; every loaded file is validated (src/data/standard_validators.cpp) [SUB-9]");
        continue;
      }
      try {
        (*kv)(*f, diags);
      } catch (const std::exception& e) {
        diags.error(*f, "the " + f->kind + " validator failed: " + e.what());
      }
    }
  }
}

std::string parent_dir(const std::string& path) { return path.substr(0, path.rfind('/')); }

void check_combined_case(const TreeData& t, Diagnostics& diags) {
  std::vector<std::string> paths;
  for (const auto& f : t.files) {
    if (paths.empty() || paths.back() != f->path) paths.push_back(f->path);
  }
  for (const auto& p : case_collisions(paths)) {
    diags.error(tree_str(t.tree) + " with overlays " + p.path, p.path, p.message);
  }
}

void merge_catalog(TreeData& t, std::vector<std::string>& log) {
  std::map<std::string, FileRef> active;
  for (const auto& f : t.layers[kBase].files) active[f->path] = f;
  for (std::size_t layer = 1; layer < t.layers.size(); ++layer) {
    const std::string who = "catalog overlay " + std::to_string(layer) + " (" + t.layers[layer].directory + ")";
    std::set<std::string> cleared;
    for (const auto& f : t.layers[layer].files) {
      if (f->overlay == OverlayIdentity::directory) {
        const std::string dir = parent_dir(f->path);
        if (cleared.insert(dir).second) {
          std::size_t removed = 0;
          for (auto it = active.lower_bound(dir + "/"); it != active.end() && it->first.starts_with(dir + "/");) {
            if (it->second->overlay == OverlayIdentity::directory) {
              it = active.erase(it);
              ++removed;
            } else {
              ++it;
            }
          }
          log.push_back(who + (removed > 0 ? " replaces " : " adds ") + dir + "/");
        }
      } else {
        log.push_back(who + (active.count(f->path) > 0 ? " replaces " : " adds ") + f->path);
      }
      active[f->path] = f;
    }
  }
  for (const auto& [path, f] : active) t.files.push_back(f);
}

void merge_registry(TreeData& t, const std::vector<std::vector<Coefficient>>& per_layer, DataSet& out,
                    Diagnostics& diags) {
  std::map<std::string, FileRef> whole;
  std::map<CoefficientId, Coefficient> entries;
  for (std::size_t layer = 0; layer < t.layers.size(); ++layer) {
    const std::string who = layer == kBase
                                ? std::string()
                                : "registry overlay " + std::to_string(layer) + " (" + t.layers[layer].directory + ")";
    for (const auto& f : t.layers[layer].files) {
      if (f->overlay == OverlayIdentity::coefficient) continue;
      if (layer != kBase)
        out.overlay_log.push_back(who + (whole.count(f->path) > 0 ? " replaces " : " adds ") + f->path);
      whole[f->path] = f;
    }
    std::map<CoefficientId, const Coefficient*> seen;  // within this layer
    for (const auto& c : per_layer[layer]) {
      const auto [it, fresh] = seen.emplace(c.id, &c);
      if (!fresh) {
        diags.error(c.location(), c.file->path,
                    "has the identity " + c.id.text() + " of the entry at " + it->second->location() +
                        "; set, name, scope and method name one coefficient [§3.3]");
        continue;
      }
      const auto existing = entries.find(c.id);
      if (existing == entries.end()) {
        if (layer != kBase) out.overlay_log.push_back(who + " adds " + c.id.text() + " in " + c.file->path);
        entries.emplace(c.id, c);
        continue;
      }
      if (existing->second.family != c.family) {
        diags.error(c.location(), c.file->path,
                    "has the identity " + c.id.text() + " of the entry at " + existing->second.location() +
                        " in family " + existing->second.family +
                        "; an overlay replaces a coefficient only in its own family [§3.3]");
        continue;
      }
      out.overlay_log.push_back(who + " replaces " + c.id.text() + " from " + existing->second.location());
      existing->second = c;
    }
  }
  std::set<std::pair<std::string, std::size_t>> contributing;
  for (auto& [id, c] : entries) {
    contributing.insert({c.file->path, c.file->layer});
    out.coefficients.push_back(c);
  }
  for (const auto& [path, f] : whole) t.files.push_back(f);
  for (const auto& layer : t.layers) {
    for (const auto& f : layer.files) {
      if (f->overlay == OverlayIdentity::coefficient && contributing.count({f->path, f->layer}) > 0) {
        t.files.push_back(f);
      }
    }
  }
  std::sort(t.files.begin(), t.files.end(), [](const FileRef& a, const FileRef& b) {
    return a->path != b->path ? a->path < b->path : a->layer < b->layer;
  });
}

void finish_hashes(TreeData& t) {
  std::vector<std::string> overlays;
  for (std::size_t i = 1; i < t.layers.size(); ++i) overlays.push_back(t.layers[i].hash);
  t.combined_hash = combined_hash(t.layers[kBase].hash, overlays);
}

}  // namespace

EnvLookup process_environment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

LoadOptions apply_environment(LoadOptions flags, const EnvLookup& env, Diagnostics& diags) {
  auto fill = [&](std::optional<std::string>& slot, const char* var, const char* flag) {
    if (slot.has_value()) {
      if (slot->empty())
        diags.error(flag, "", "an empty path names no directory; leave the flag out to use the embedded copy");
      return;
    }
    auto v = env(var);
    if (!v.has_value()) return;
    if (v->empty()) {
      diags.error(var, "", "is set to the empty string; unset it to use the embedded copy, or name a directory");
      return;
    }
    slot = std::move(v);
  };
  fill(flags.catalog_dir, "BLIS_CATALOG", "--catalog");
  fill(flags.registry_dir, "BLIS_REGISTRY", "--registry");
  return flags;
}

std::string embedded_hash(Tree tree) {
  std::vector<std::pair<std::string_view, std::string>> sums;
  for (const auto& f : generated::files()) {
    if (f.tree == tree) sums.emplace_back(f.path, contracts::sha256_hex(f.bytes));
  }
  std::vector<FileDigest> digests;
  for (const auto& [path, sum] : sums) digests.push_back({path, sum});
  return content_hash(digests);
}

Layer embedded_published_role_lists() {
  return make_layer(Tree::ledger, Source::embedded, "", kBase, scan_embedded(PatternTable::compiled(), Tree::ledger));
}

bool uses_embedded_content(const DataSet& data) {
  return !data.has_overlays() && data.catalog.layers.at(kBase).hash == embedded_hash(Tree::catalog) &&
         data.registry.layers.at(kBase).hash == embedded_hash(Tree::registry);
}

LoadOutcome load(const LoadOptions& options, const ValidatorTable& validators, const PatternTable& table) {
  LoadOutcome out;
  Diagnostics& diags = out.diagnostics;

  DataSet data;
  data.catalog.tree = Tree::catalog;
  data.registry.tree = Tree::registry;
  data.catalog.layers = read_layers(table, Tree::catalog, options.catalog_dir, options.catalog_overlays, diags);
  data.registry.layers = read_layers(table, Tree::registry, options.registry_dir, options.registry_overlays, diags);
  run_kind_validators(data.catalog.layers, validators, diags);
  run_kind_validators(data.registry.layers, validators, diags);
  std::vector<std::vector<Coefficient>> per_layer;
  for (const auto& layer : data.registry.layers) {
    per_layer.emplace_back();
    for (const auto& f : layer.files) {
      if (f->overlay != OverlayIdentity::coefficient) continue;
      auto cs = read_coefficients(f, diags);
      per_layer.back().insert(per_layer.back().end(), std::make_move_iterator(cs.begin()),
                              std::make_move_iterator(cs.end()));
    }
  }
  if (!diags.empty()) return out;

  merge_catalog(data.catalog, data.overlay_log);
  merge_registry(data.registry, per_layer, data, diags);
  if (data.catalog.layers.size() > 1) check_combined_case(data.catalog, diags);
  if (data.registry.layers.size() > 1) check_combined_case(data.registry, diags);
  finish_hashes(data.catalog);
  finish_hashes(data.registry);
  if (!diags.empty()) return out;

  for (const auto& [name, check] : validators.cross_checks()) {
    try {
      check(data, diags);
    } catch (const std::exception& e) {
      diags.error("the cross-check " + name + " failed: " + e.what());
    }
  }
  if (!diags.empty()) return out;
  out.data = std::move(data);
  return out;
}

}  // namespace blis::data
