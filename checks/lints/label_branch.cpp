#include "label_branch.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/ASTMatchers/ASTMatchers.h>

#include <set>
#include <string>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kCompare = "comparison on a documentation-only label";
constexpr const char* kLookup = "a documentation-only label used as a lookup key";
constexpr const char* kSwitch = "switch on a documentation-only label";
constexpr int kDepth = 6;  // how many local variables deep a label is followed

// Whether the type, through its sugar (aliases of the alias too) and a reference, is blis::Label.
bool is_label_type(clang::QualType t, const clang::ASTContext& ac) {
  while (!t.isNull()) {
    if (const auto* ref = llvm::dyn_cast<clang::ReferenceType>(t.getTypePtr())) {
      t = ref->getPointeeTypeAsWritten();
      continue;
    }
    if (const auto* td = llvm::dyn_cast<clang::TypedefType>(t.getTypePtr()))
      if (td->getDecl()->getQualifiedNameAsString() == "blis::Label") return true;
    clang::QualType next = t.getSingleStepDesugaredType(ac);
    if (next == t) return false;
    t = next;
  }
  return false;
}

// Whether the type, as written, is a template with a label argument: std::optional<Label>,
// std::vector<Label>, std::map<std::string, Label>, ... (its elements are labels). A pointer to a label
// counts too: its pointee is one.
bool holds_labels(clang::QualType t, const clang::ASTContext& ac) {
  while (!t.isNull()) {
    const clang::Type* ty = t.getTypePtr();
    if (const auto* ref = llvm::dyn_cast<clang::ReferenceType>(ty)) {
      t = ref->getPointeeTypeAsWritten();
      continue;
    }
    if (const auto* p = llvm::dyn_cast<clang::PointerType>(ty)) return is_label_type(p->getPointeeType(), ac);
    if (const auto* ts = llvm::dyn_cast<clang::TemplateSpecializationType>(ty))
      for (const clang::TemplateArgument& a : ts->template_arguments())
        if (a.getKind() == clang::TemplateArgument::Type && is_label_type(a.getAsType(), ac)) return true;
    clang::QualType next = t.getSingleStepDesugaredType(ac);
    if (next == t) return false;
    t = next;
  }
  return false;
}

std::string method_name(const clang::CXXMemberCallExpr* c) {
  const auto* m = c->getMethodDecl();
  return m && m->getIdentifier() ? m->getName().str() : "";
}

bool real_arg(const clang::Expr* a) { return !llvm::isa<clang::CXXDefaultArgExpr>(a); }

// The range-for statement whose loop variable v is, if any.
const clang::CXXForRangeStmt* loop_of(const clang::VarDecl* v, clang::ASTContext& ac) {
  for (const auto& p : ac.getParents(*v))
    if (const auto* ds = p.get<clang::DeclStmt>())
      for (const auto& pp : ac.getParents(*ds))
        if (const auto* fr = pp.get<clang::CXXForRangeStmt>(); fr && fr->getLoopVariable() == v) return fr;
  return nullptr;
}

bool is_label(const clang::Expr* e, clang::ASTContext& ac, int depth = 0);

// Whether e is a container (optional, vector, pointer, ...) whose elements are labels.
bool holds_labels(const clang::Expr* e, clang::ASTContext& ac, int depth) {
  while (e) {
    if (holds_labels(e->getType(), ac)) return true;
    const clang::Expr* next = e->IgnoreParenImpCasts();
    if (next != e) {
      e = next;
      continue;
    }
    if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else
      break;
  }
  if (!e || depth >= kDepth) return false;
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl()); v && !llvm::isa<clang::ParmVarDecl>(v))
      return v->getInit() && holds_labels(v->getInit(), ac, depth + 1);
  return false;
}

// Whether the object of a member call is a label: `label.f()`, `ptr->f()`, `optional_label->f()`.
bool object_is_label(const clang::CXXMemberCallExpr* c, clang::ASTContext& ac, int depth) {
  const clang::Expr* obj = c->getImplicitObjectArgument();
  if (!obj) return false;
  const auto* callee = llvm::dyn_cast<clang::MemberExpr>(c->getCallee()->IgnoreParens());
  if (callee && callee->isArrow()) {
    const clang::Expr* p = obj->IgnoreParenImpCasts();
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(p); op && op->getOperator() == clang::OO_Arrow)
      return holds_labels(op->getArg(0), ac, depth + 1);
    return holds_labels(obj, ac, depth + 1);
  }
  return is_label(obj, ac, depth + 1);
}

bool is_label(const clang::Expr* e, clang::ASTContext& ac, int depth) {
  if (!e || depth > kDepth) return false;
  // Through the ways one value becomes another without changing its text.
  while (true) {
    if (is_label_type(e->getType(), ac)) return true;
    const clang::Expr* next = e->IgnoreParenImpCasts();
    if (next != e) {
      e = next;
      continue;
    }
    if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else if (const auto* w = llvm::dyn_cast<clang::ExprWithCleanups>(e))
      e = w->getSubExpr();
    else if (const auto* x = llvm::dyn_cast<clang::ExplicitCastExpr>(e))
      e = x->getSubExpr();
    else if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e);
             c && c->getNumArgs() >= 1 && (c->getNumArgs() == 1 || !real_arg(c->getArg(1))))
      e = c->getArg(0);  // std::string(label), std::string_view(label), a copy
    else if (const auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(e);
             mc && llvm::isa_and_nonnull<clang::CXXConversionDecl>(mc->getMethodDecl()))
      e = mc->getImplicitObjectArgument();  // operator std::string_view()
    else
      break;
  }
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
    if (!v || llvm::isa<clang::ParmVarDecl>(v)) return false;
    if (const auto* loop = loop_of(v, ac)) return holds_labels(loop->getRangeInit(), ac, depth + 1);
    return v->getInit() && is_label(v->getInit(), ac, depth + 1);
  }
  if (const auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(e)) {
    const std::string n = method_name(mc);
    if (n == "c_str" || n == "data" || n == "substr" || n == "at" || n == "front" || n == "back")
      if (object_is_label(mc, ac, depth)) return true;  // the text, a part of it, a character of it
    if (n == "value" || n == "value_or" || n == "at" || n == "front" || n == "back")
      return holds_labels(mc->getImplicitObjectArgument(), ac, depth + 1);
    return false;
  }
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e)) {
    if (op->getOperator() == clang::OO_Star && op->getNumArgs() == 1) return holds_labels(op->getArg(0), ac, depth + 1);
    if (op->getOperator() == clang::OO_Subscript)
      return holds_labels(op->getArg(0), ac, depth + 1) || is_label(op->getArg(0), ac, depth + 1);
    return false;
  }
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_Deref)
    return holds_labels(u->getSubExpr(), ac, depth + 1);
  if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) return is_label(a->getBase(), ac, depth + 1);
  if (const auto* c = llvm::dyn_cast<clang::ConditionalOperator>(e))
    return is_label(c->getTrueExpr(), ac, depth + 1) || is_label(c->getFalseExpr(), ac, depth + 1);
  return false;
}

bool any_label_arg(const clang::CallExpr* c, clang::ASTContext& ac, unsigned from = 0) {
  for (unsigned i = from; i < c->getNumArgs(); ++i)
    if (real_arg(c->getArg(i)) && is_label(c->getArg(i), ac)) return true;
  return false;
}

bool reads_label(const clang::Stmt* s, clang::ASTContext& ac) {
  if (!s) return false;
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s); e && is_label(e, ac)) return true;
  for (const clang::Stmt* child : s->children())
    if (reads_label(child, ac)) return true;
  return false;
}

bool is_string_class(const clang::CXXRecordDecl* rd) {
  if (!rd) return false;
  const std::string q = rd->getQualifiedNameAsString();
  return q == "std::basic_string" || q == "std::basic_string_view" || q.starts_with("std::__cxx11::basic_string");
}

const std::set<std::string>& string_compares() {
  static const std::set<std::string> s = {
      "compare",      "starts_with",       "ends_with",        "find",    "rfind", "find_first_of",
      "find_last_of", "find_first_not_of", "find_last_not_of", "contains"};
  return s;
}

const std::set<std::string>& lookups() {
  static const std::set<std::string> s = {"find",        "count",       "contains",   "at",
                                          "lower_bound", "upper_bound", "equal_range"};
  return s;
}

}  // namespace

void LabelBranch::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  // Built-in, overloaded and C++20-rewritten comparisons (a != b as !(a == b), a < b through <=>).
  finder.addMatcher(binaryOperation(hasAnyOperatorName("==", "!=", "<", ">", "<=", ">=", "<=>")).bind("cmp"), this);
  finder.addMatcher(cxxMemberCallExpr().bind("member"), this);
  finder.addMatcher(cxxOperatorCallExpr(hasAnyOverloadedOperatorName("[]", "()")).bind("op"), this);
  finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::strcmp", "::strncmp", "::strcasecmp", "::strncasecmp", "::memcmp",
                                              "::std::strcmp", "::std::strncmp", "::std::memcmp", "::std::regex_match",
                                              "::std::regex_search", "::std::equal", "::std::mismatch"))))
          .bind("cfn"),
      this);
  finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::std::find", "::std::count", "::std::binary_search",
                                              "::std::lower_bound", "::std::upper_bound", "::std::equal_range"))))
          .bind("lfn"),
      this);
  finder.addMatcher(switchStmt().bind("switch"), this);
}

void LabelBranch::run(const MatchFinder::MatchResult& result) {
  const clang::SourceManager& sm = *result.SourceManager;
  clang::ASTContext& ac = *result.Context;
  const auto& n = result.Nodes;
  if (const auto* e = n.getNodeAs<clang::Expr>("cmp")) {
    const clang::Expr *l = nullptr, *r = nullptr;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e))
      l = b->getLHS(), r = b->getRHS();
    else if (const auto* rw = llvm::dyn_cast<clang::CXXRewrittenBinaryOperator>(e))
      l = rw->getLHS(), r = rw->getRHS();
    else if (const auto* oc = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e); oc && oc->getNumArgs() == 2)
      l = oc->getArg(0), r = oc->getArg(1);
    if ((l && is_label(l, ac)) || (r && is_label(r, ac))) report(*ctx_, sm, e->getExprLoc(), kCompare);
    return;
  }
  if (const auto* c = n.getNodeAs<clang::CXXMemberCallExpr>("member")) {
    const std::string name = method_name(c);
    const bool on_string = is_string_class(c->getRecordDecl());
    if (on_string && string_compares().contains(name) && (object_is_label(c, ac, 0) || any_label_arg(c, ac)))
      report(*ctx_, sm, c->getExprLoc(), kCompare);
    else if (!on_string && lookups().contains(name) && any_label_arg(c, ac))
      report(*ctx_, sm, c->getExprLoc(), kLookup);
    return;
  }
  if (const auto* op = n.getNodeAs<clang::CXXOperatorCallExpr>("op")) {
    if (op->getOperator() == clang::OO_Subscript) {
      if (op->getNumArgs() == 2 && is_label(op->getArg(1), ac)) report(*ctx_, sm, op->getExprLoc(), kLookup);
      return;
    }
    // std::equal_to<>{}(a, b), std::less<Label>{}(a, b), ...
    const auto* rd = op->getArg(0)->getType()->getAsCXXRecordDecl();
    static const std::set<std::string> fns = {"std::equal_to",          "std::not_equal_to",     "std::less",
                                              "std::greater",           "std::less_equal",       "std::greater_equal",
                                              "std::compare_three_way", "std::ranges::equal_to", "std::ranges::less"};
    if (rd && fns.contains(rd->getQualifiedNameAsString()) && any_label_arg(op, ac, 1))
      report(*ctx_, sm, op->getExprLoc(), kCompare);
    return;
  }
  if (const auto* c = n.getNodeAs<clang::CallExpr>("cfn")) {
    if (any_label_arg(c, ac)) report(*ctx_, sm, c->getExprLoc(), kCompare);
    return;
  }
  if (const auto* c = n.getNodeAs<clang::CallExpr>("lfn")) {
    if (any_label_arg(c, ac)) {
      report(*ctx_, sm, c->getExprLoc(), kLookup);
    } else if (c->getNumArgs() > 0) {  // a search through labels: std::find(labels.begin(), labels.end(), x)
      const auto* first = llvm::dyn_cast<clang::CXXMemberCallExpr>(c->getArg(0)->IgnoreImplicit());
      if (first && method_name(first).ends_with("begin") && holds_labels(first->getImplicitObjectArgument(), ac, 0))
        report(*ctx_, sm, c->getExprLoc(), kCompare);
    }
    return;
  }
  if (const auto* s = n.getNodeAs<clang::SwitchStmt>("switch"))
    if (reads_label(s->getCond(), ac)) report(*ctx_, sm, s->getSwitchLoc(), kSwitch);
}

}  // namespace blis::lint

BLIS_LINT("blis-label-branch", blis::lint::LabelBranch)
