#include "sampled_length.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/TypeLoc.h>
#include <clang/ASTMatchers/ASTMatchers.h>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kRead = "sampled output length read outside its declared sites";
constexpr const char* kWrite = "sampled output length written outside its declared sites";

// The compiler's own copies and moves of a whole object: implicit special members, and those written
// `= default`. They touch every member without naming any.
bool copies_whole_object(const clang::FunctionDecl* f) {
  if (f->isImplicit()) return true;
  if (!f->isDefaulted()) return false;
  if (const auto* c = llvm::dyn_cast<clang::CXXConstructorDecl>(f)) return c->isCopyOrMoveConstructor();
  if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(f))
    return m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator();
  return false;
}

enum class Use { kNone, kRead, kWrite };

// How the expression `e` (a member access) is used: written (assigned, incremented), read, or not at all
// (an unevaluated operand, or inside the compiler's copy of the whole object).
Use use_of(const clang::Expr* e, clang::ASTContext& ac) {
  Use use = Use::kRead;
  bool direct = true;  // still the operand itself, through parentheses and implicit casts only
  clang::DynTypedNode node = clang::DynTypedNode::create(*e);
  const void* child = e;
  while (true) {
    auto parents = ac.getParents(node);
    if (parents.empty()) return use;
    node = parents[0];
    if (const auto* p = node.get<clang::Expr>()) {
      if (llvm::isa<clang::UnaryExprOrTypeTraitExpr, clang::CXXNoexceptExpr>(p)) return Use::kNone;
      if (const auto* t = llvm::dyn_cast<clang::CXXTypeidExpr>(p); t && !t->isPotentiallyEvaluated()) return Use::kNone;
      if (direct) {
        if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(p)) {
          if (b->isAssignmentOp() && b->getLHS() == child) use = Use::kWrite;
          direct = false;
        } else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(p)) {
          if (u->isIncrementDecrementOp()) use = Use::kWrite;
          direct = false;
        } else if (const auto* oc = llvm::dyn_cast<clang::CXXOperatorCallExpr>(p)) {
          if (oc->isAssignmentOp() && oc->getNumArgs() > 0 && oc->getArg(0) == child) use = Use::kWrite;
          direct = false;
        } else if (!llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr>(p)) {
          direct = false;
        }
      }
      child = p;
      continue;
    }
    if (const auto* tl = node.get<clang::TypeLoc>(); tl && tl->getTypePtr()->getAs<clang::DecltypeType>())
      return Use::kNone;
    if (const auto* f = node.get<clang::FunctionDecl>()) return copies_whole_object(f) ? Use::kNone : use;
    child = nullptr;
    direct = false;
  }
}

}  // namespace

void SampledLength::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  auto field = fieldDecl(hasName(kSampledOutputLen));
  // `r.sampled_output_len`, `p->sampled_output_len`, a structured binding's hidden access, and the
  // dependent form `t.sampled_output_len` in a template not yet instantiated.
  finder.addMatcher(memberExpr(member(field)).bind("use"), this);
  finder.addMatcher(cxxDependentScopeMemberExpr(hasMemberName(kSampledOutputLen)).bind("use"), this);
  // `&Request::sampled_output_len`: a pointer to the member reads it wherever it is applied.
  finder.addMatcher(declRefExpr(to(field)).bind("use"), this);
  // Writes that name no member expression: a constructor's written member initializer, and an aggregate
  // initialisation (positional or designated) that gives the member a value.
  finder.addMatcher(cxxConstructorDecl(unless(isImplicit()),
                                       forEachConstructorInitializer(cxxCtorInitializer(forField(field)).bind("init")))
                        .bind("ctor"),
                    this);
  finder.addMatcher(
      initListExpr(hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(recordDecl(has(field)))))))
          .bind("list"),
      this);
}

void SampledLength::run(const MatchFinder::MatchResult& result) {
  const clang::SourceManager& sm = *result.SourceManager;
  if (const auto* e = result.Nodes.getNodeAs<clang::Expr>("use")) {
    Use u = use_of(e, *result.Context);
    if (u == Use::kNone) return;
    clang::SourceLocation at = e->getExprLoc();
    if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(e)) at = m->getMemberLoc();
    if (const auto* m = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(e)) at = m->getMemberLoc();
    report(*ctx_, sm, at, u == Use::kWrite ? kWrite : kRead);
    return;
  }
  if (const auto* init = result.Nodes.getNodeAs<clang::CXXCtorInitializer>("init")) {
    const auto* ctor = result.Nodes.getNodeAs<clang::CXXConstructorDecl>("ctor");
    // A default member initializer is copied into every constructor unwritten: it is the declaration's.
    if (!init->isWritten() || copies_whole_object(ctor)) return;
    report(*ctx_, sm, init->getSourceLocation(), kWrite);
    return;
  }
  if (const auto* list = result.Nodes.getNodeAs<clang::InitListExpr>("list")) {
    if (!list->isSemanticForm() || list->getType()->isDependentType()) return;
    const auto* rd = list->getType()->getAsCXXRecordDecl();
    if (!rd || rd->isUnion()) return;
    unsigned index = rd->getNumBases();
    for (const clang::FieldDecl* f : rd->fields()) {
      if (f->isUnnamedBitfield()) continue;
      if (f->getName() == kSampledOutputLen) break;
      ++index;
    }
    if (index >= list->getNumInits()) return;
    const clang::Expr* v = list->getInit(index);
    if (!v || llvm::isa<clang::ImplicitValueInitExpr, clang::CXXDefaultInitExpr>(v)) return;
    report(*ctx_, sm, v->getBeginLoc(), kWrite);
  }
}

}  // namespace blis::lint

BLIS_LINT("blis-sampled-length", blis::lint::SampledLength)
