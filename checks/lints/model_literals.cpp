#include "model_literals.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/ASTMatchers/ASTMatchers.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace blis::lint {

using namespace clang::ast_matchers;
namespace fs = std::filesystem;

namespace {

constexpr const char* kModels = "catalog/models";

bool is_sep(char c) { return c == '-' || c == '_' || c == '.' || c == '/' || c == ' '; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// A word starts at i, or ends before j, unless a letter runs on across it in the same case run: `xLlama`
// and `Llama4` are boundaries, `gptq` and `codellama` are not.
bool starts_word(std::string_view s, size_t i) {
  return i == 0 || !is_alpha(s[i - 1]) || !is_alpha(s[i]) || (is_upper(s[i]) && is_lower(s[i - 1]));
}
bool ends_word(std::string_view s, size_t j) {
  return j == s.size() || !is_alpha(s[j]) || !is_alpha(s[j - 1]) || (is_upper(s[j]) && is_lower(s[j - 1]));
}

bool same_at(std::string_view s, size_t i, std::string_view term) {
  for (size_t k = 0; k < term.size(); ++k) {
    char a = s[i + k], b = term[k];
    if (is_sep(a) && is_sep(b)) continue;
    if (lower(a) != lower(b)) return false;
  }
  return true;
}

// The value of a top-level `key: value` line of a small YAML file ("" if absent), quotes removed.
std::string top_level(const fs::path& file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with(key + ":")) continue;
    std::string v = line.substr(key.size() + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    v.erase(v.find_last_not_of(" \t\r") + 1);
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
      v = v.substr(1, v.size() - 2);
    return v;
  }
  return "";
}

}  // namespace

void ModelLiterals::load_catalog(Context& ctx) {
  ctx_ = &ctx;
  const fs::path dir = ctx.root() / kModels;
  std::set<std::string> names, families;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_directory() || !fs::exists(e.path() / "model.yaml")) continue;
    const std::string id = top_level(e.path() / "model.yaml", "id");
    if (id.empty()) continue;
    names.insert(id);
    names.insert(e.path().filename().string());
    const std::string name = id.substr(id.find('/') + 1);
    names.insert(name);
    std::string lead;
    for (char c : name) {
      if (!is_alpha(c)) break;
      lead += lower(c);
    }
    std::string arch = top_level(e.path() / "graph.yaml", "architecture");
    std::transform(arch.begin(), arch.end(), arch.begin(), lower);
    if (lead.size() >= 3 && (arch.empty() || arch.starts_with(lead))) families.insert(lead);
  }
  for (const auto& n : names) terms_.push_back({n, false});
  for (const auto& f : families) terms_.push_back({f, true});
  std::stable_sort(terms_.begin(), terms_.end(),
                   [](const Term& a, const Term& b) { return a.text.size() > b.text.size(); });
  if (names.empty()) {
    // Without the catalog the lint would pass everything: no verdict rather than a false one.
    std::cerr << "blis-lint: blis-model-literals found no model under " << dir.string()
              << " (catalog/models/<dir>/model.yaml with an id)\n";
    std::exit(2);
  }
}

const ModelLiterals::Term* ModelLiterals::term_in(std::string_view text) const {
  for (const Term& t : terms_)
    for (size_t i = 0; i + t.text.size() <= text.size(); ++i)
      if (same_at(text, i, t.text) && starts_word(text, i) && ends_word(text, i + t.text.size())) return &t;
  return nullptr;
}

void ModelLiterals::add_matchers(MatchFinder& finder, Context& ctx) {
  load_catalog(ctx);
  finder.addMatcher(stringLiteral().bind("str"), this);
  finder.addMatcher(namedDecl(unless(isImplicit())).bind("decl"), this);
}

namespace {
std::string what(const auto& term) {
  return std::string(term.family ? "hard-coded model family '" : "hard-coded model name '") + term.text + "'";
}
}  // namespace

void ModelLiterals::run(const MatchFinder::MatchResult& result) {
  const clang::SourceManager& sm = *result.SourceManager;
  if (const auto* s = result.Nodes.getNodeAs<clang::StringLiteral>("str")) {
    if (s->getCharByteWidth() != 1) return;
    if (const Term* t = term_in(s->getString())) report(*ctx_, sm, s->getBeginLoc(), what(*t) + " in a string literal");
    return;
  }
  if (const auto* d = result.Nodes.getNodeAs<clang::NamedDecl>("decl")) {
    const clang::IdentifierInfo* id = d->getIdentifier();  // constructors, operators: no name of their own
    if (!id || d->getLocation().isInvalid()) return;
    if (const Term* t = term_in(id->getName())) report(*ctx_, sm, d->getLocation(), what(*t) + " in an identifier");
  }
}

}  // namespace blis::lint

BLIS_LINT("blis-model-literals", blis::lint::ModelLiterals)
