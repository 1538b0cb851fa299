#include "no_exit.h"

#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kEnds = "library code ends the process";
constexpr const char* kAsserts = "library code asserts (a failing assert aborts the process): throw an error";

// `assert(...)`: the macro is flagged where it is expanded, NDEBUG or not. Only the C library's assert
// (defined in a system header) counts; a project macro of that name would be its own business.
class AssertExpansions : public clang::PPCallbacks {
 public:
  AssertExpansions(NoExit& lint, const clang::SourceManager& sm) : lint_(lint), sm_(sm) {}
  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& def, clang::SourceRange range,
                    const clang::MacroArgs*) override {
    const clang::IdentifierInfo* id = name.getIdentifierInfo();
    if (id == nullptr || id->getName() != "assert") return;
    const clang::MacroInfo* info = def.getMacroInfo();
    if (info == nullptr || !sm_.isInSystemHeader(info->getDefinitionLoc())) return;
    lint_.found(sm_, range.getBegin(), kAsserts);
  }

 private:
  NoExit& lint_;
  const clang::SourceManager& sm_;
};

}  // namespace

void NoExit::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  // The C library's functions are declared in the global namespace and brought into std by `using`, so
  // both spellings resolve to the same declarations; std::terminate is C++'s own.
  auto ends = functionDecl(hasAnyName("::exit", "::std::exit", "::_Exit", "::std::_Exit", "::quick_exit",
                                      "::std::quick_exit", "::abort", "::std::abort", "::std::terminate",
                                      "::__assert_fail", "::__assert_perror_fail", "::__assert"));
  // A call made from inside an assert's expansion is the assert's (reported once, as the macro).
  finder.addMatcher(declRefExpr(to(ends), unless(isExpandedFromMacro("assert"))).bind("ends"), this);
  finder.addMatcher(unresolvedLookupExpr(hasAnyDeclaration(ends)).bind("ends"), this);
}

void NoExit::begin_unit(clang::CompilerInstance& ci, Context& ctx) {
  ctx_ = &ctx;
  ci.getPreprocessor().addPPCallbacks(std::make_unique<AssertExpansions>(*this, ci.getSourceManager()));
}

void NoExit::run(const MatchFinder::MatchResult& result) {
  if (const auto* e = result.Nodes.getNodeAs<clang::Expr>("ends")) {
    found(*result.SourceManager, e->getBeginLoc(), kEnds);
  }
}

void NoExit::found(const clang::SourceManager& sm, clang::SourceLocation loc, const char* message) {
  report_once_per_line(*ctx_, sm, sm.getExpansionLoc(loc), message);
}

}  // namespace blis::lint

BLIS_LINT("blis-no-exit", blis::lint::NoExit)
