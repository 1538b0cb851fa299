// blis-include-graph (X3, X7): the dependency direction of MAPPING.md, read from the #include graph.
//
// Every #include between two files of the repository is an edge from the including file's layer to the
// included file's layer. Files outside the repository (the standard library, dependencies) and under
// third_party/ are not ours and are never judged; files under the build directory are the generated
// schema types, which every layer may include. The layers and what each may include:
//
//   src/contracts/          src/contracts/ only
//   src/cost/, src/data/    src/contracts/ and their own directory
//   engines/<x>/            src/contracts/ and engines/<x>/ (never another engine, src/cost/, src/sim/,
//                           router/)
//   router/                 src/contracts/ and router/
//   src/search/, src/score/ anything but src/sim/ outside its public API src/sim/api/, engines/, router/
//   src/sim/                not src/search/, src/score/, src/cli/ (they sit above it); router/ only
//                           through its entry point router/embed/; engine headers from one translation
//                           unit only: the build site (never from src/sim/api/)
//   anything else in scope  no engine header (only the build site in src/sim/ includes engines)
//
// The build site: each .cpp under src/sim/ that reaches an engine header (directly or through a src/sim/
// header) is one; the first by path is the build site and every further one is reported, in finish(), at
// the #include that brought the engine in.
#pragma once

#include <map>
#include <string>

#include "lint.h"

namespace blis::lint {

class IncludeGraph : public Lint {
 public:
  using Lint::Lint;
  void begin_unit(clang::CompilerInstance& ci, Context& ctx) override;
  void finish(Context& ctx) override;

  // The finding for an #include of `to` from `from` (repository paths, `to` already known to be ours
  // and not generated), or "" when the edge is allowed. Engine headers included from src/sim/ are
  // allowed here and counted per unit by the caller.
  static std::string judge(const std::string& from, const std::string& to);

  struct Site {
    std::string path;
    unsigned line = 0;
    unsigned col = 0;
  };
  // The src/sim/ units that include engine headers, by unit path, with their first such #include.
  std::map<std::string, Site>& sim_engine_units() { return sim_units_; }

 private:
  std::map<std::string, Site> sim_units_;
};

}  // namespace blis::lint
