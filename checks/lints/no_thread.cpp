#include "no_thread.h"

#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <cstring>
#include <regex>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kStarts = "simulated code starts a thread";
constexpr const char* kBlocks = "simulated code blocks on a thread or sleeps";

// `#pragma omp ...` (and `_Pragma("omp ...")`): OpenMP starts a team of threads. The compile commands do not
// enable OpenMP, so the pragma leaves no trace in the AST; the preprocessor still sees it.
class OmpPragmas : public clang::PPCallbacks {
 public:
  OmpPragmas(NoThread& lint, const clang::SourceManager& sm) : lint_(lint), sm_(sm) {}
  void PragmaDirective(clang::SourceLocation loc, clang::PragmaIntroducerKind) override {
    static const std::regex omp(R"(^\s*(#\s*pragma|_Pragma\s*\(\s*")\s*omp\b)");
    bool invalid = false;
    const char* text = sm_.getCharacterData(loc, &invalid);
    if (invalid) return;
    std::string line(text, std::strcspn(text, "\n"));
    if (std::regex_search(line, omp)) lint_.found(sm_, loc, kStarts);
  }

 private:
  NoThread& lint_;
  const clang::SourceManager& sm_;
};

}  // namespace

void NoThread::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  // A type is matched wherever it is written or deduced (variables, members, template arguments, aliases,
  // `auto`): hasUnqualifiedDesugaredType sees through typedefs, `using` and libstdc++'s inline namespaces.
  auto type_named = [](auto... names) {
    return typeLoc(loc(qualType(hasUnqualifiedDesugaredType(
        recordType(hasDeclaration(cxxRecordDecl(hasAnyName(names...))))))));
  };
  finder.addMatcher(type_named("::std::thread", "::std::jthread").bind("start"), this);
  finder.addMatcher(type_named("::std::condition_variable", "::std::condition_variable_any", "::std::latch",
                               "::std::barrier", "::std::counting_semaphore")
                        .bind("block"),
                    this);
  // Functions: a call or any other reference (a pointer taken, a `using` brought in), and the same names in
  // templates not yet instantiated (an unresolved call).
  // The parallel execution policies live in libstdc++'s __pstl and are brought into std::execution by `using`.
  auto starts = namedDecl(hasAnyName("::std::async", "::pthread_create", "::thrd_create", "::std::execution::par",
                                     "::std::execution::par_unseq", "::__pstl::execution::par",
                                     "::__pstl::execution::par_unseq"));
  auto blocks = namedDecl(hasAnyName("::std::this_thread::sleep_for", "::std::this_thread::sleep_until",
                                     "::std::this_thread::yield", "::sleep", "::usleep", "::nanosleep",
                                     "::clock_nanosleep", "::thrd_sleep", "::pthread_cond_wait",
                                     "::pthread_cond_timedwait"));
  finder.addMatcher(declRefExpr(to(starts)).bind("start"), this);
  finder.addMatcher(declRefExpr(to(blocks)).bind("block"), this);
  finder.addMatcher(unresolvedLookupExpr(hasAnyDeclaration(starts)).bind("start"), this);
  finder.addMatcher(unresolvedLookupExpr(hasAnyDeclaration(blocks)).bind("block"), this);
}

void NoThread::begin_unit(clang::CompilerInstance& ci, Context& ctx) {
  ctx_ = &ctx;
  ci.getPreprocessor().addPPCallbacks(std::make_unique<OmpPragmas>(*this, ci.getSourceManager()));
}

void NoThread::run(const MatchFinder::MatchResult& result) {
  const auto& sm = *result.SourceManager;
  for (const auto& [key, msg] : {std::pair{"start", kStarts}, std::pair{"block", kBlocks}}) {
    if (const auto* tl = result.Nodes.getNodeAs<clang::TypeLoc>(key)) found(sm, tl->getBeginLoc(), msg);
    if (const auto* e = result.Nodes.getNodeAs<clang::Expr>(key)) found(sm, e->getBeginLoc(), msg);
  }
}

// One finding per line and message: a line like `std::thread t(f);` matches several nodes (the written
// type, its qualifier, the construction).
void NoThread::found(const clang::SourceManager& sm, clang::SourceLocation loc, const char* message) {
  report_once_per_line(*ctx_, sm, loc, message);
}

}  // namespace blis::lint

BLIS_LINT("blis-no-thread", blis::lint::NoThread)
