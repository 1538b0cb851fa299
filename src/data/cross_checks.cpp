#include "data/cross_checks.h"

#include "schema/model.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <utility>

#include "data/coefficients.h"
#include "data/scope_precedence.h"

namespace blis::data {
namespace {

std::string stem(const std::string& path) {
  const std::string base = path.substr(path.rfind('/') + 1);
  return base.substr(0, base.rfind('.'));
}

std::set<std::string> stems(const TreeData& catalog, std::string_view kind) {
  std::set<std::string> out;
  for (const auto& f : catalog.of_kind(kind)) out.insert(stem(f->path));
  return out;
}

// Model ids (the id: of each model.yaml, read with its generated reader); a file without a readable id
// is the model validator's finding.
std::set<std::string> model_ids(const TreeData& catalog) {
  std::set<std::string> out;
  for (const auto& f : catalog.of_kind("model")) {
    blis::doc::Diagnostics ignored{f->path};
    if (auto m = blis::schema::load_model(f->bytes, f->path, ignored)) out.insert(m->id);
  }
  return out;
}

std::string model_dir(std::string id) {  // catalog/models/<org>--<name>/ holds model <org>/<name>
  for (auto p = id.find('/'); p != std::string::npos; p = id.find('/', p + 2)) id.replace(p, 1, "--");
  return id;
}

}  // namespace

void check_scope_names(const DataSet& data, Diagnostics& diags) {
  const std::set<std::string> chips = stems(data.catalog, "chip");
  const std::set<std::string> networks = stems(data.catalog, "network");
  const std::set<std::string> models = model_ids(data.catalog);
  const std::string source(source_name(data.catalog.layers.at(0).source));
  for (const auto& c : data.coefficients) {
    for (const auto& s : c.id.scope) {
      std::string where;
      if (s.key == "chip" && chips.count(s.value) == 0) {
        where = "hardware/" + s.value + ".yaml";
      } else if (s.key == "fabric" && networks.count(s.value) == 0) {
        where = "networks/" + s.value + ".yaml";
      } else if (s.key == "model" && models.count(s.value) == 0) {
        where = "models/" + model_dir(s.value) + "/model.yaml";
      } else {
        continue;
      }
      diags.error(c.location(), c.file->path,
                  "scope " + s.key + " '" + s.value + "' names nothing in the catalog in use (" + source +
                      (data.catalog.layers.size() > 1 ? ", with overlays" : "") + "), which would hold it at " + where +
                      " [SUB-9]");
    }
  }
}

void check_scope_precedence(const DataSet& data, Diagnostics& diags) {
  std::map<std::pair<std::string, int>, std::vector<const Coefficient*>> groups;  // may answer one lookup
  for (const auto& c : data.coefficients) groups[{c.id.name, method_rank(c.id.method)}].push_back(&c);
  for (const auto& [key, members] : groups) {
    for (std::size_t j = 1; j < members.size(); ++j) {
      for (std::size_t i = 0; i < j; ++i) {
        const Coefficient& a = *members[i];
        const Coefficient& b = *members[j];
        if (compare_scopes(a.id.scope, b.id.scope) != ScopeOrder::unordered) continue;
        diags.error(b.location(), b.file->path,
                    b.id.text() + " and " + a.id.text() + " at " + a.location() + " both answer a lookup at rank " +
                        std::to_string(key.second) +
                        " and state the same scope dimensions, so the precedence of registry/README.md does not "
                        "order them [VAL-4]");
      }
    }
  }
}

void add_builtin_cross_checks(ValidatorTable& table) {
  table.add_cross_check("scope-names", check_scope_names);
  table.add_cross_check("scope-precedence", check_scope_precedence);
}

}  // namespace blis::data
