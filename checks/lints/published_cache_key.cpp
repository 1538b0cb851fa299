#include "published_cache_key.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/ASTMatchers/ASTMatchers.h>

#include <set>
#include <string>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kMessage = "a published value cached without its publication time and sequence beside it";

bool is_published_value(const clang::CXXRecordDecl* rd) {
  if (rd == nullptr) return false;
  const std::string name = rd->getQualifiedNameAsString();
  return name == "blis::engine::Published" || name == "blis::engine::MetricSample";
}

// Whether the type holds a published value: the type itself, what it points or refers to, its elements, or any
// type argument of a template specialization (std::optional, std::vector, std::map, ...), recursively.
bool holds_published(clang::QualType t, std::set<const clang::Type*>& seen) {
  if (t.isNull()) return false;
  t = t.getCanonicalType();
  const clang::Type* ty = t.getTypePtr();
  if (!seen.insert(ty).second) return false;
  if (ty->isPointerType() || ty->isReferenceType()) return holds_published(ty->getPointeeType(), seen);
  if (const auto* arr = ty->getAsArrayTypeUnsafe()) return holds_published(arr->getElementType(), seen);
  const auto* rd = ty->getAsCXXRecordDecl();
  if (rd == nullptr) return false;
  if (is_published_value(rd)) return true;
  if (const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd)) {
    for (const clang::TemplateArgument& a : spec->getTemplateArgs().asArray()) {
      if (a.getKind() == clang::TemplateArgument::Type && holds_published(a.getAsType(), seen)) return true;
    }
  }
  return false;
}

}  // namespace

void PublishedCacheKey::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  finder.addMatcher(cxxRecordDecl(isDefinition(), unless(isImplicit()), unless(isLambda()),
                                  unless(classTemplateSpecializationDecl()))
                        .bind("record"),
                    this);
}

void PublishedCacheKey::run(const MatchFinder::MatchResult& result) {
  const auto* rd = result.Nodes.getNodeAs<clang::CXXRecordDecl>("record");
  if (rd == nullptr || is_published_value(rd)) return;
  bool has_time = false, has_sequence = false;
  for (const clang::FieldDecl* f : rd->fields()) {
    const std::string name = f->getNameAsString();
    if (name.find("published") != std::string::npos) has_time = true;
    if (name.find("sequence") != std::string::npos) has_sequence = true;
  }
  if (has_time && has_sequence) return;
  for (const clang::FieldDecl* f : rd->fields()) {
    std::set<const clang::Type*> seen;
    if (holds_published(f->getType(), seen)) report(*ctx_, *result.SourceManager, f->getLocation(), kMessage);
  }
}

}  // namespace blis::lint

BLIS_LINT("blis-published-cache-key", blis::lint::PublishedCacheKey)
