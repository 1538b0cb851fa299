#include "cli/data_cmd.h"

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "contracts/doc/kinds.h"
#include "data/loader.h"
#include "data/registry_checks.h"
#include "schema/model.h"

namespace blis::cli {

const std::string_view kDataFlags =
    "  --root DIR               a checkout or export: DIR/catalog and DIR/registry\n"
    "  --catalog DIR            the catalog to use instead of the embedded one (or BLIS_CATALOG)\n"
    "  --registry DIR           the coefficient registry to use instead of the embedded one (or BLIS_REGISTRY)\n"
    "  --catalog-overlay DIR    add or replace catalog entries (repeatable, applied in order)\n"
    "  --registry-overlay DIR   add or replace coefficients (repeatable, applied in order)\n";

// Parses the data flags out of args; the rest is returned in `rest`. Returns false after printing a
// usage error.
bool data_flags(std::span<const std::string_view> args, data::LoadOptions& o, std::vector<std::string_view>& rest) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const bool takes = a == "--root" || a == "--catalog" || a == "--registry" || a == "--catalog-overlay" ||
                       a == "--registry-overlay";
    if (!takes) {
      rest.push_back(a);
      continue;
    }
    if (i + 1 >= args.size()) {
      std::fprintf(stderr, "blis: %.*s needs a directory\n", static_cast<int>(a.size()), a.data());
      return false;
    }
    const std::string v(args[++i]);
    if (a == "--root") {
      o.catalog_dir = v + "/catalog";
      o.registry_dir = v + "/registry";
    }
    if (a == "--catalog") o.catalog_dir = v;
    if (a == "--registry") o.registry_dir = v;
    if (a == "--catalog-overlay") o.catalog_overlays.push_back(v);
    if (a == "--registry-overlay") o.registry_overlays.push_back(v);
  }
  return true;
}

std::optional<data::DataSet> load(const data::LoadOptions& flags) {
  data::Diagnostics env_diags;
  const data::LoadOptions options = data::apply_environment(flags, data::process_environment(), env_diags);
  if (!env_diags.empty()) {
    std::fputs(env_diags.text().c_str(), stderr);
    return std::nullopt;
  }
  data::LoadOutcome out = data::load(options, data::standard_validators());
  if (!out.ok()) {
    std::fputs(out.diagnostics.text().c_str(), stderr);
    std::fprintf(stderr, "blis: the data was refused (%zu problem(s))\n", out.diagnostics.size());
    return std::nullopt;
  }
  return std::move(out.data);
}

namespace {

void print_tree(const char* name, const data::TreeData& t) {
  const data::Layer& base = t.layers.front();
  std::printf("%s: %s%s%s, %zu files, content hash %s\n", name, std::string(data::source_name(base.source)).c_str(),
              base.directory.empty() ? "" : " ", base.directory.c_str(), base.files.size(), base.hash.c_str());
  for (std::size_t i = 1; i < t.layers.size(); ++i)
    std::printf("  overlay %zu: %s, %zu files, hash %s\n", i, t.layers[i].directory.c_str(), t.layers[i].files.size(),
                t.layers[i].hash.c_str());
  if (t.layers.size() > 1) std::printf("  combined hash %s\n", t.combined_hash.c_str());
}

// The model id a model.yaml names (e.g. Qwen/Qwen3-32B), read with its generated reader.
std::optional<std::string> model_id(const data::LoadedFile& f) {
  doc::Diagnostics d{f.location()};
  auto m = schema::load_model(f.bytes, f.path, d);
  return m ? std::optional<std::string>(m->id) : std::nullopt;
}

}  // namespace

int validate_main(std::span<const std::string_view> args) {
  data::LoadOptions flags;
  std::vector<std::string_view> rest;
  if (!data_flags(args, flags, rest)) return 2;
  if (!rest.empty()) {
    std::fprintf(stderr, "usage: blis validate [flags]\n%s", kDataFlags.data());
    return 2;
  }
  auto data = load(flags);
  if (!data) return 1;
  print_tree("catalog", data->catalog);
  print_tree("registry", data->registry);
  std::map<std::string, int> kinds;
  for (const auto* t : {&data->catalog, &data->registry})
    for (const auto& f : t->files) ++kinds[f->kind];
  for (const auto& [kind, n] : kinds) std::printf("  %-20s %d valid\n", kind.c_str(), n);
  // VAL-10: entries whose interval does not determine them load, flagged (they rank with assumed).
  data::Diagnostics notices;
  data::registry_notices(*data, notices);
  for (const auto& n : notices.all()) std::printf("notice: %s\n", n.text().c_str());
  std::printf("%zu coefficients; every validator and cross-check passed\n", data->coefficients.size());
  return 0;
}

int catalog_main(std::span<const std::string_view> args) {
  data::LoadOptions flags;
  std::vector<std::string_view> rest;
  if (!data_flags(args, flags, rest)) return 2;
  const bool list = rest.size() == 1 && rest[0] == "list";
  const bool resolve = rest.size() == 2 && rest[0] == "resolve";
  if (!list && !resolve) {
    std::fprintf(stderr,
                 "usage: blis catalog list [flags]          every entry, by kind\n"
                 "       blis catalog resolve NAME [flags]  the entry a scenario's NAME resolves to, as JSON\n%s",
                 kDataFlags.data());
    return 2;
  }
  auto data = load(flags);
  if (!data) return 1;
  if (list) {
    print_tree("catalog", data->catalog);
    for (const auto& f : data->catalog.files) {
      std::string extra;
      if (f->kind == "model") extra = model_id(*f).value_or("?");
      std::printf("%-14s %-60s %s\n", f->kind.c_str(), f->path.c_str(), extra.c_str());
    }
    return 0;
  }
  // A name resolves as a scenario names it: a chip, network, device, workload or router table by file
  // name, a model by its Hugging Face id (or its directory name).
  const std::string name(rest[1]);
  std::vector<data::FileRef> hits;
  for (const auto& f : data->catalog.files) {
    const auto slash = f->path.rfind('/');
    const std::string stem = f->path.substr(slash + 1, f->path.size() - slash - 1 - 5);
    if (f->kind == "model") {
      const std::string dir = f->path.substr(7, f->path.find('/', 7) - 7);  // models/<dir>/model.yaml
      if (dir == name || model_id(*f) == name) hits.push_back(f);
    } else if (f->kind != "graph" && stem == name) {
      hits.push_back(f);
    }
  }
  if (hits.empty()) {
    std::fprintf(stderr, "blis catalog resolve: '%s' names no entry of %s (see: blis catalog list)\n", name.c_str(),
                 data->catalog.source_text().c_str());
    return 1;
  }
  if (hits.size() > 1) {
    std::fprintf(stderr, "blis catalog resolve: '%s' is ambiguous:\n", name.c_str());
    for (const auto& f : hits) std::fprintf(stderr, "  %s %s\n", f->kind.c_str(), f->path.c_str());
    return 1;
  }
  const data::FileRef f = hits.front();
  const doc::KindInfo* kind = doc::find_kind(f->kind);
  doc::Diagnostics d{f->location()};
  auto parsed = kind ? doc::parse_as(*kind, f->bytes, f->path, d) : std::nullopt;
  nlohmann::ordered_json entry;
  if (!parsed || !kind->round_trip(parsed->documents.front(), d, entry)) {
    std::fputs(d.str().c_str(), stderr);
    return 1;
  }
  nlohmann::ordered_json out;
  out["name"] = name;
  out["kind"] = f->kind;
  out["file"] = f->path;
  out["source"] = f->location();
  out["sha256"] = f->sha256;
  if (f->kind == "model") {
    const std::string dir = f->path.substr(0, f->path.rfind('/') + 1);
    const data::FileRef g = data->catalog.find(dir + "graph.yaml");
    out["graph"] = g ? nlohmann::ordered_json(g->path) : nlohmann::ordered_json(nullptr);
  }
  out["entry"] = entry;
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace blis::cli
