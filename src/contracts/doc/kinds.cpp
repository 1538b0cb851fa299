#include "contracts/doc/kinds.h"

namespace blis::doc {

const KindInfo* find_kind(std::string_view name) {
  for (const auto& k : kinds())
    if (k.name == name) return &k;
  return nullptr;
}

std::optional<Parsed> parse_as(const KindInfo& kind, std::string_view text, std::string_view path, Diagnostics& d,
                               bool multi) {
  if (d.file().empty()) d.set_file(std::string(path));
  const std::size_t before = d.list().size();
  Parsed p = parse(text, syntax_of(path), d);
  if (d.list().size() != before) return std::nullopt;
  if (p.documents.empty() || (!multi && p.documents.size() != 1)) {
    d.add(Mark{1, 1}, "", "expected exactly one " + std::string(kind.name) + " document, found " +
                              std::to_string(p.documents.size()));
    return std::nullopt;
  }
  if (!aliases_allowed_here(kind, p, d)) return std::nullopt;
  return p;
}

bool aliases_allowed_here(const KindInfo& kind, const Parsed& parsed, Diagnostics& d) {
  if (kind.aliases_allowed || parsed.aliases.empty()) return true;
  d.add(parsed.aliases.front(), "", "YAML aliases are refused in " + std::string(kind.name) +
                                        " documents (write the value out)");
  return false;
}

bool check_text(const KindInfo& kind, std::string_view text, std::string_view path, Diagnostics& d, bool multi) {
  auto parsed = parse_as(kind, text, path, d, multi);
  if (!parsed) return false;
  bool ok = true;
  for (const auto& doc : parsed->documents) ok = kind.check(doc, d) && ok;
  return ok;
}

}  // namespace blis::doc
