// blis-cost-public-inputs (SUB-6): the cost model resolves nothing, so its public functions accept only
// plans, step shapes, transfers and catalog and coefficient-registry handles, and nothing else reaches it.
// Two rules, both read from the record's lists (invariants/SUB-6.yaml):
//
//   public-headers   Code outside src/cost/ and outside tests includes from src/cost/ only these headers;
//                    any other header there is the cost model's own (an #include of it is a finding).
//   parameter-types  Every function declared in a public header in namespace blis::cost (not in a nested
//                    `detail` namespace) that is a free function, a constructor or a static member function
//                    takes parameters only of these types. A type is compared by its qualified name at
//                    every level of its spelling (the alias as written, then what it stands for), after
//                    removing const, references, pointers, std::vector, std::span and std::optional; an
//                    entry is a pattern over that name ('*' matches any run of characters), and an entry
//                    with `names` admits the type only as a parameter (or field) of one of those names.
//                    A struct declared in a public header and not listed is judged by its data members, so
//                    a context struct cannot carry what a parameter may not. Constructors that copy or
//                    move, and non-static member functions (queries of a value already built from allowed
//                    inputs), are not entry points and are not judged.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "lint.h"

namespace blis::lint {

class CostPublicInputs : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  // Reads the record's lists; a record without them is a declaration error (exit 2, as for a lint
  // declared without code).
  explicit CostPublicInputs(const LintSpec& spec);
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void begin_unit(clang::CompilerInstance& ci, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

  // The finding for an #include of repository path `to` from `from`, or "" when allowed.
  std::string judge_include(const std::string& from, const std::string& to) const;
  bool is_public_header(const std::string& repo_path) const { return headers_.contains(repo_path); }

  struct TypeEntry {
    std::string pattern;
    std::set<std::string> names;  // empty: any name
  };

 private:
  Context* ctx_ = nullptr;
  std::set<std::string> headers_;
  std::vector<TypeEntry> types_;
};

}  // namespace blis::lint
