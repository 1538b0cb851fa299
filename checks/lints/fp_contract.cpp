#include "fp_contract.h"

#include <clang/ASTMatchers/ASTMatchers.h>

#include <regex>
#include <vector>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kUnmarkedFma = "fused multiply-add without a fusion-intended comment on its line";
constexpr const char* kLibm = "libm transcendental function in cost or engine code; use the pure fmath functions";

// Every spelling of the given functions: global and std:: forms, float and long double variants, builtins.
std::vector<std::string> spellings(std::initializer_list<const char*> bases) {
  std::vector<std::string> out;
  for (const char* b : bases)
    for (const char* suffix : {"", "f", "l"})
      for (const char* prefix : {"::", "::std::", "::__builtin_"}) out.push_back(prefix + std::string(b) + suffix);
  return out;
}

// The function (or its name in a template not yet instantiated) referred to by one of the names.
template <class Names>
auto referred(const Names& names) {
  std::vector<llvm::StringRef> refs(names.begin(), names.end());
  auto decl = namedDecl(hasAnyName(refs));
  return expr(anyOf(declRefExpr(to(decl)), unresolvedLookupExpr(hasAnyDeclaration(decl))));
}

// Whether the text of the line holding `loc` carries the fusion mark in a comment.
bool marked(const clang::SourceManager& sm, clang::SourceLocation loc) {
  static const std::regex mark(R"(//\s*fusion intended:)");
  auto [fid, offset] = sm.getDecomposedLoc(loc);
  bool invalid = false;
  llvm::StringRef buf = sm.getBufferData(fid, &invalid);
  if (invalid) return false;
  size_t start = buf.rfind('\n', offset);
  start = start == llvm::StringRef::npos ? 0 : start + 1;
  size_t end = buf.find('\n', offset);
  std::string line = buf.slice(start, end).str();
  return std::regex_search(line, mark);
}

}  // namespace

void FpContract::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  static const auto fma = spellings({"fma"});
  static const auto libm = spellings({"exp",  "exp2",  "expm1", "log",   "log2",  "log10",  "log1p", "pow",
                                      "sin",  "cos",   "tan",   "asin",  "acos",  "atan",   "atan2", "sinh",
                                      "cosh", "tanh",  "asinh", "acosh", "atanh", "cbrt",   "hypot", "erf",
                                      "erfc", "tgamma", "lgamma", "sincos"});
  finder.addMatcher(referred(fma).bind("fma"), this);
  finder.addMatcher(referred(libm).bind("libm"), this);
}

void FpContract::run(const MatchFinder::MatchResult& result) {
  const auto& sm = *result.SourceManager;
  const clang::Expr* e = result.Nodes.getNodeAs<clang::Expr>("fma");
  const char* message = kUnmarkedFma;
  if (!e) {
    e = result.Nodes.getNodeAs<clang::Expr>("libm");
    message = kLibm;
  }
  if (!e) return;
  clang::SourceLocation loc = sm.getFileLoc(e->getExprLoc());
  std::string path = ctx_->repo_path(sm, loc);
  if (path.empty()) return;
  if (message == kUnmarkedFma && marked(sm, loc)) return;
  // (b) judges the cost model and the engines only; (a) the whole scope.
  if (message == kLibm && !Context::under(path, "src/cost/") && !Context::under(path, "engines/")) return;
  report_once_per_line(*ctx_, sm, loc, message);
}

}  // namespace blis::lint

BLIS_LINT("blis-fp-contract", blis::lint::FpContract)
