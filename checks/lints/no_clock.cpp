#include "no_clock.h"

#include <clang/ASTMatchers/ASTMatchers.h>

namespace blis::lint {

using namespace clang::ast_matchers;

void NoClock::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  // Any clock of <chrono> (system, steady, high_resolution, file, and aliases of them: the matcher sees
  // through libstdc++'s inline namespaces and typedefs), and the C library's clock reads. A reference
  // counts, not only a call: taking &steady_clock::now to call later reads the clock all the same.
  auto chrono_now = cxxMethodDecl(hasName("now"), ofClass(cxxRecordDecl(matchesName("^::std::chrono::"))));
  auto c_clock = functionDecl(hasAnyName("::time", "::std::time", "::clock", "::std::clock", "::clock_gettime",
                                         "::gettimeofday", "::timespec_get", "::std::timespec_get", "::ftime"));
  finder.addMatcher(declRefExpr(to(functionDecl(anyOf(chrono_now, c_clock)))).bind("ref"), this);
}

void NoClock::run(const MatchFinder::MatchResult& result) {
  const auto* ref = result.Nodes.getNodeAs<clang::DeclRefExpr>("ref");
  report(*ctx_, *result.SourceManager, ref->getBeginLoc(), "simulated code reads the wall clock");
}

}  // namespace blis::lint

BLIS_LINT("blis-no-clock", blis::lint::NoClock)
