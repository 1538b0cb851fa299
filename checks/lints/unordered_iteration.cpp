#include "unordered_iteration.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/ASTMatchers/ASTMatchers.h>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kNames[] = {"::std::unordered_map", "::std::unordered_set", "::std::unordered_multimap",
                                  "::std::unordered_multiset"};

// The std::unordered_* class a type is, or derives from (nullptr if none).
const clang::CXXRecordDecl* unordered_class(clang::QualType t) {
  if (t.isNull()) return nullptr;
  if (const auto* ptr = t->getAs<clang::PointerType>()) t = ptr->getPointeeType();
  const auto* rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition()) return nullptr;
  std::string q = rd->getQualifiedNameAsString();
  if (q.starts_with("std::unordered_")) return rd;
  for (const auto& base : rd->bases())
    if (const auto* b = unordered_class(base.getType())) return b;
  return nullptr;
}

std::string qualified(const clang::NamedDecl* d) { return d ? d->getQualifiedNameAsString() : ""; }

// Whether a begin() call is the first iterator of a std::map/std::set built or filled from a container with
// unique keys: `std::map<K, V> sorted(m.begin(), m.end())`, `sorted.insert(m.begin(), m.end())`.
bool copied_into_ordered(const clang::Expr* begin_call, const clang::CXXRecordDecl* source, clang::ASTContext& ac) {
  std::string src = source->getName().str();
  if (src != "unordered_map" && src != "unordered_set") return false;
  auto ordered = [](const clang::CXXRecordDecl* rd) {
    std::string q = qualified(rd);
    return q == "std::map" || q == "std::set";
  };
  clang::DynTypedNode node = clang::DynTypedNode::create(*begin_call);
  while (true) {
    auto parents = ac.getParents(node);
    if (parents.size() != 1) return false;
    node = parents[0];
    const auto* e = node.get<clang::Expr>();
    if (!e) return false;
    if (llvm::isa<clang::ImplicitCastExpr, clang::MaterializeTemporaryExpr, clang::CXXBindTemporaryExpr,
                  clang::ParenExpr>(e))
      continue;
    if (const auto* ce = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
      const clang::CXXRecordDecl* cls = ce->getConstructor()->getParent();
      if (qualified(cls).starts_with("std::__detail::")) continue;  // the iterator itself, copied or converted
      return ordered(cls) && ce->getNumArgs() >= 2;  // (first, last[, compare])
    }
    if (const auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(e))
      return mc->getMethodDecl()->getName() == "insert" && mc->getNumArgs() == 2 && ordered(mc->getRecordDecl());
    return false;
  }
}

}  // namespace

void UnorderedIteration::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  auto names = namedDecl(hasAnyName(kNames[0], kNames[1], kNames[2], kNames[3]));
  // Through aliases and std::pmr (desugared), const and references (expression types carry neither), derived
  // classes, and the dependent form in a template not yet instantiated.
  auto unordered = qualType(hasUnqualifiedDesugaredType(
      anyOf(recordType(hasDeclaration(cxxRecordDecl(isSameOrDerivedFrom(names)))),
            templateSpecializationType(hasDeclaration(classTemplateDecl(names))))));
  auto container = expr(hasType(unordered));

  finder.addMatcher(cxxForRangeStmt(hasRangeInit(container.bind("at"))), this);
  finder.addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("begin", "cbegin"))), thisPointerType(unordered)).bind("begin"),
      this);
  finder.addMatcher(cxxDependentScopeMemberExpr(anyOf(hasMemberName("begin"), hasMemberName("cbegin")),
                                                hasObjectExpression(container))
                        .bind("at"),
                    this);
  // Free functions taking the container: std::begin/std::cbegin, and everything of std::ranges.
  finder.addMatcher(
      callExpr(hasAnyArgument(ignoringParenImpCasts(container.bind("arg"))), callee(functionDecl().bind("fn")))
          .bind("call"),
      this);
  // Walking on with one of its iterators (libstdc++'s hash-table iterators).
  auto node_iterator = expr(hasType(qualType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(
      cxxRecordDecl(matchesName("^::std::__detail::_(Node|Local)(_const)?_iterator$"))))))));
  finder.addMatcher(
      cxxOperatorCallExpr(hasAnyOverloadedOperatorName("++", "--"), hasArgument(0, node_iterator)).bind("at"), this);
  finder.addMatcher(callExpr(callee(functionDecl(hasAnyName("::std::next", "::std::prev", "::std::advance"))),
                             hasArgument(0, node_iterator))
                        .bind("at"),
                    this);
}

void UnorderedIteration::run(const MatchFinder::MatchResult& result) {
  const auto& sm = *result.SourceManager;
  if (const auto* e = result.Nodes.getNodeAs<clang::Expr>("at")) return found(sm, e->getExprLoc());
  if (const auto* call = result.Nodes.getNodeAs<clang::CXXMemberCallExpr>("begin")) {
    const clang::CXXRecordDecl* source = unordered_class(call->getImplicitObjectArgument()->getType());
    if (source && copied_into_ordered(call, source, *result.Context)) return;
    return found(sm, call->getExprLoc());
  }
  const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
  const auto* arg = result.Nodes.getNodeAs<clang::Expr>("arg");
  if (!call || !fn || !arg) return;
  std::string name = qualified(fn);
  if (name == "std::begin" || name == "std::cbegin") {
    const clang::CXXRecordDecl* source = unordered_class(arg->getType());
    if (source && copied_into_ordered(call, source, *result.Context)) return;
    return found(sm, call->getExprLoc());
  }
  // std::ranges: a function, or a function object's operator() (ranges::for_each, views::keys, `m | ...`).
  // The object's own name says which: ranges::size, ssize and empty read the size only; swap moves it whole.
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
      op && op->getOperator() == clang::OO_Call && op->getNumArgs() > 0)
    if (const auto* obj = llvm::dyn_cast<clang::DeclRefExpr>(op->getArg(0)->IgnoreParenImpCasts())) {
      std::string var = obj->getDecl()->getName().str();
      if (var == "size" || var == "ssize" || var == "empty" || var == "swap") return;
    }
  if (name.starts_with("std::ranges::")) found(sm, call->getExprLoc());
}

void UnorderedIteration::found(const clang::SourceManager& sm, clang::SourceLocation loc) {
  // One finding per line: `for (auto it = m.begin(); it != m.end(); ++it)` matches twice.
  report_once_per_line(*ctx_, sm, loc, "iteration over an unordered container follows hash order");
}

}  // namespace blis::lint

BLIS_LINT("blis-unordered-iteration", blis::lint::UnorderedIteration)
