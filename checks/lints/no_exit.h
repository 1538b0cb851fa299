// blis-no-exit (SIM-2): library code reports failure to its caller and never ends the process; only the
// `blis` command's main (src/cli/main.cpp, the record's allowance) decides to exit.
//
// Flagged, through `using` declarations and references taken to call later:
//   - ending the process: a call of or reference to exit, _Exit, quick_exit, abort (std:: or C spelling),
//     std::terminate, and __assert_fail (what a failing assert calls).
//   - the assert macro itself, wherever it is expanded: a failing assert aborts, and whether it is compiled
//     in depends on NDEBUG, so the same input would end one build's process and pass silently in another.
//     A port translates upstream's `assert` into a thrown error (Python's AssertionError propagates).
// Not flagged: throwing (the project's errors propagate to main), static_assert, a member or a project
// function that merely shares one of these names (a request's `abort`, a session's `exit`).
// Not covered: a throw escaping a noexcept function or a destructor (std::terminate reached implicitly).
#pragma once

#include <string>

#include "lint.h"

namespace blis::lint {

class NoExit : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void begin_unit(clang::CompilerInstance& ci, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  // Reports once per line and message (the preprocessor callback reports through it too).
  void found(const clang::SourceManager& sm, clang::SourceLocation loc, const char* message);

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
