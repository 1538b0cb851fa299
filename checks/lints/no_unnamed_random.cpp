#include "no_unnamed_random.h"

#include <clang/AST/ASTContext.h>
#include <clang/ASTMatchers/ASTMatchers.h>

namespace blis::lint {

using namespace clang::ast_matchers;

void NoUnnamedRandom::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  auto c_random = namedDecl(hasAnyName(
      "::rand", "::std::rand", "::srand", "::std::srand", "::rand_r", "::random", "::srandom", "::drand48",
      "::erand48", "::lrand48", "::nrand48", "::mrand48", "::jrand48", "::srand48", "::seed48", "::lcong48",
      "::arc4random", "::arc4random_uniform", "::arc4random_buf", "::getrandom", "::getentropy",
      "::std::random_shuffle"));
  finder.addMatcher(declRefExpr(to(c_random)).bind("ref"), this);
  finder.addMatcher(unresolvedLookupExpr(hasAnyDeclaration(c_random)).bind("ref"), this);

  // std::random_device wherever its type is written or deduced (through aliases and `auto`).
  finder.addMatcher(typeLoc(loc(qualType(hasUnqualifiedDesugaredType(recordType(
                                hasDeclaration(cxxRecordDecl(hasName("::std::random_device"))))))))
                        .bind("type"),
                    this);

  // The standard engines are instances of the std::*_engine templates (mt19937 = mersenne_twister_engine<...>,
  // minstd_rand, ranlux24 = discard_block_engine<...>, knuth_b = shuffle_order_engine<...>).
  auto engine = classTemplateSpecializationDecl(matchesName("^::std::([a-z_0-9]+::)*[a-z_0-9]+_engine$"));
  // Made from a seed or by default: everything but a copy or move of an engine that already exists.
  finder.addMatcher(cxxConstructExpr(hasDeclaration(cxxConstructorDecl(ofClass(engine),
                                                                       unless(anyOf(isCopyConstructor(), isMoveConstructor())))))
                        .bind("ref"),
                    this);
  finder.addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("seed"), ofClass(engine)))).bind("ref"), this);
}

void NoUnnamedRandom::run(const MatchFinder::MatchResult& result) {
  const auto& sm = *result.SourceManager;
  clang::SourceLocation loc;
  if (const auto* e = result.Nodes.getNodeAs<clang::Expr>("ref")) loc = e->getExprLoc();
  // A member the constructor leaves to its default seed: the construction is implicit and sits at the
  // constructor (or the class, for an implicit constructor); the member's declaration is the place to fix.
  // (Clang's parent map gives the constructor, not the initializer, as the parent.)
  if (const auto* c = result.Nodes.getNodeAs<clang::CXXConstructExpr>("ref"))
    for (const auto& parent : result.Context->getParents(*c))
      if (const auto* ctor = parent.get<clang::CXXConstructorDecl>())
        for (const clang::CXXCtorInitializer* init : ctor->inits())
          if (!init->isWritten() && init->getMember() && init->getInit()->IgnoreImplicit() == c)
            loc = init->getMember()->getLocation();
  if (const auto* tl = result.Nodes.getNodeAs<clang::TypeLoc>("type")) loc = tl->getBeginLoc();
  // One finding per line: `std::mt19937 e{std::random_device{}()};` matches three nodes.
  report_once_per_line(*ctx_, sm, loc, "randomness outside a named substream");
}

}  // namespace blis::lint

BLIS_LINT("blis-no-unnamed-random", blis::lint::NoUnnamedRandom)
