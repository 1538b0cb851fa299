#include "data/provenance.h"

#include <map>
#include <set>
#include <string>

#include "contracts/doc/parse.h"

namespace blis::data {
namespace {

// Every cite.source under n, with where it was written.
void collect(const doc::Node& n, std::vector<std::pair<std::string, doc::Mark>>& out) {
  if (n.is_sequence()) {
    for (const auto& x : n.items) collect(x, out);
    return;
  }
  if (!n.is_map()) return;
  for (const auto& [k, v] : n.entries) {
    if (k.scalar == "cite" && v.is_map())
      if (const doc::Node* s = v.find("source"); s != nullptr && s->is_scalar()) out.emplace_back(s->scalar, s->mark);
    collect(v, out);
  }
}

}  // namespace

void check_citations(const DataSet& data, Diagnostics& diags) {
  for (const auto& f : data.catalog.files) {
    doc::Diagnostics ignored{f->path};
    const doc::Parsed p = doc::parse(f->bytes, doc::syntax_of(f->path), ignored);
    if (!ignored.ok() || p.documents.size() != 1 || !p.documents.front().is_map()) continue;  // the kind's finding
    const doc::Node& root = p.documents.front();
    const doc::Node* sources = root.find("sources");
    if (sources == nullptr || !sources->is_map()) continue;
    std::map<std::string, doc::Mark> listed;
    for (const auto& [k, v] : sources->entries) listed.emplace(k.scalar, k.mark);
    std::vector<std::pair<std::string, doc::Mark>> cites;
    collect(root, cites);
    std::set<std::string> used;
    for (const auto& [name, at] : cites) {
      used.insert(name);
      if (!listed.count(name))
        diags.error(*f, at.line, at.col,
                    "cites source '" + name + "', which the file's sources do not list [catalog-provenance; SUB-18]");
    }
    // Hardware facts are all figures, so every source they list must back one; a model's sources also
    // back its structural blocks (config, licence), which cite by position, not by key.
    const bool figures_only = f->kind == "chip" || f->kind == "network" || f->kind == "device";
    for (const auto& [name, at] : listed)
      if (figures_only && !used.count(name))
        diags.error(*f, at.line, at.col,
                    "lists source '" + name + "', which no figure cites [catalog-provenance; SUB-18]");
  }
}

}  // namespace blis::data
