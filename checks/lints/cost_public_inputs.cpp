#include "cost_public_inputs.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/PrettyPrinter.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <fnmatch.h>

#include <cstdlib>
#include <iostream>
#include <unordered_map>

namespace blis::lint {

namespace {

namespace fs = std::filesystem;
using namespace clang::ast_matchers;

constexpr const char* kNotAHandle = "is not a plan, step shape, transfer or catalog or registry handle";

clang::PrintingPolicy policy_of(const clang::ASTContext& ac) {
  clang::PrintingPolicy p = ac.getPrintingPolicy();
  p.SuppressInlineNamespace = true;  // std::basic_string, not std::__cxx11::basic_string
  return p;
}

std::string qualified(const clang::NamedDecl* d, const clang::PrintingPolicy& p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  d->printQualifiedName(os, p);
  return os.str();
}

bool is_wrapper(const std::string& name) {
  return name == "std::vector" || name == "std::span" || name == "std::optional";
}

// The element type of a std::vector, std::span or std::optional, as spelled where the spelling says it;
// a null type when `t` is none of them.
clang::QualType wrapped(clang::QualType t, const clang::PrintingPolicy& p) {
  if (const auto* ts = t->getAs<clang::TemplateSpecializationType>()) {
    const clang::TemplateDecl* d = ts->getTemplateName().getAsTemplateDecl();
    const auto args = ts->template_arguments();
    if (d != nullptr && is_wrapper(qualified(d, p)) && !args.empty() &&
        args[0].getKind() == clang::TemplateArgument::Type)
      return args[0].getAsType();
  }
  if (const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl())) {
    const auto& args = spec->getTemplateArgs();
    if (is_wrapper(qualified(spec->getSpecializedTemplate(), p)) && args.size() > 0 &&
        args[0].getKind() == clang::TemplateArgument::Type)
      return args[0].getAsType();
  }
  return {};
}

// `t` without const, references, pointers and the wrappers.
clang::QualType strip(clang::QualType t, const clang::PrintingPolicy& p) {
  for (int guard = 0; guard < 64; ++guard) {
    t = t.getNonReferenceType().getUnqualifiedType();
    if (const auto* ptr = t->getAs<clang::PointerType>()) {
      t = ptr->getPointeeType();
      continue;
    }
    clang::QualType inner = wrapped(t, p);
    if (inner.isNull()) return t;
    t = inner;
  }
  return t;
}

// The qualified names `t` goes by, from its spelling down to the canonical type.
std::vector<std::string> names_of(clang::QualType t, const clang::ASTContext& ac, const clang::PrintingPolicy& p) {
  std::vector<std::string> out;
  clang::QualType cur = t;
  for (int guard = 0; guard < 64; ++guard) {
    cur = cur.getUnqualifiedType();
    const clang::Type* ty = cur.getTypePtr();
    if (const auto* td = llvm::dyn_cast<clang::TypedefType>(ty)) {
      out.push_back(qualified(td->getDecl(), p));
    } else if (const auto* ts = llvm::dyn_cast<clang::TemplateSpecializationType>(ty)) {
      if (const clang::TemplateDecl* d = ts->getTemplateName().getAsTemplateDecl()) out.push_back(qualified(d, p));
    } else if (const auto* tag = llvm::dyn_cast<clang::TagType>(ty)) {
      out.push_back(qualified(tag->getDecl(), p));
    } else if (const auto* b = llvm::dyn_cast<clang::BuiltinType>(ty)) {
      out.push_back(b->getName(p).str());
    }
    clang::QualType next = cur.getSingleStepDesugaredType(ac);
    if (next == cur) break;
    cur = next;
  }
  return out;
}

// Whether a declaration sits in namespace blis::cost or one nested in it, other than `detail` (or an
// anonymous namespace).
bool in_cost_namespace(const clang::Decl* d) {
  std::vector<std::string> chain;
  for (const clang::DeclContext* dc = d->getDeclContext(); dc != nullptr; dc = dc->getParent())
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc))
      chain.insert(chain.begin(), ns->isAnonymousNamespace() ? "" : ns->getName().str());
  if (chain.size() < 2 || chain[0] != "blis" || chain[1] != "cost") return false;
  for (const auto& n : chain)
    if (n.empty() || n == "detail") return false;
  return true;
}

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

class Includes : public clang::PPCallbacks {
 public:
  Includes(CostPublicInputs& lint, Context& ctx, clang::SourceManager& sm) : lint_(lint), ctx_(ctx), sm_(sm) {}

  void InclusionDirective(clang::SourceLocation hash, const clang::Token&, llvm::StringRef, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef file, llvm::StringRef, llvm::StringRef,
                          const clang::Module*, clang::SrcMgr::CharacteristicKind) override {
    if (!file || hash.isInvalid() || sm_.isInSystemHeader(hash)) return;
    clang::FileID from_id = sm_.getFileID(sm_.getFileLoc(hash));
    auto [fit, ffresh] = from_.try_emplace(from_id.getHashValue());
    if (ffresh) fit->second = ctx_.repo_path(sm_, hash);
    auto [tit, tfresh] = to_.try_emplace(&file->getFileEntry());
    if (tfresh) {
      llvm::StringRef real = file->getFileEntry().tryGetRealPathName();
      tit->second = ctx_.repo_path(fs::path(real.empty() ? file->getName().str() : real.str()));
    }
    std::string finding = lint_.judge_include(fit->second, tit->second);
    if (!finding.empty()) lint_.report(ctx_, sm_, hash, std::move(finding));
  }

 private:
  CostPublicInputs& lint_;
  Context& ctx_;
  clang::SourceManager& sm_;
  std::unordered_map<unsigned, std::string> from_;
  std::unordered_map<const clang::FileEntry*, std::string> to_;
};

}  // namespace

CostPublicInputs::CostPublicInputs(const LintSpec& spec) : Lint(spec) {
  for (const auto& e : spec.list("public-headers")) headers_.insert(e.value);
  for (const auto& e : spec.list("parameter-types")) types_.push_back({e.value, {e.names.begin(), e.names.end()}});
  if (headers_.empty() || types_.empty()) {
    std::cerr << "blis-lint: record " << spec.record << " declares lint " << spec.name
              << " without its lists public-headers and parameter-types (lint: lists:)\n";
    std::exit(2);
  }
}

std::string CostPublicInputs::judge_include(const std::string& from, const std::string& to) const {
  if (from.empty() || to.empty() || from.starts_with("src/cost/") || Context::in_tests(from)) return "";
  if (!to.starts_with("src/cost/") || headers_.contains(to)) return "";
  return to + " is not a public header of the cost model: outside src/cost/ include only its public headers";
}

void CostPublicInputs::begin_unit(clang::CompilerInstance& ci, Context& ctx) {
  ci.getPreprocessor().addPPCallbacks(std::make_unique<Includes>(*this, ctx, ci.getSourceManager()));
}

void CostPublicInputs::add_matchers(MatchFinder& finder, Context& ctx) {
  ctx_ = &ctx;
  finder.addMatcher(functionDecl(isExpansionInFileMatching("cost/"), unless(isImplicit())).bind("f"), this);
}

namespace {

// Why a value of type `t`, passed under `name`, may not reach the cost model; ok when it may.
struct Verdict {
  bool ok = true;
  std::string field;  // the data member that may not, for a struct judged by its members ("" for the value)
  std::string type;   // that member's type
  std::string hint;   // the names a listed type passes under, when it passes only under some
};

class Judge {
 public:
  Judge(const std::vector<CostPublicInputs::TypeEntry>& types, const CostPublicInputs& lint, Context& ctx,
        const clang::ASTContext& ac)
      : types_(types), lint_(lint), ctx_(ctx), ac_(ac), p_(policy_of(ac)) {}

  Verdict operator()(clang::QualType t, const std::string& name) {
    clang::QualType core = strip(t, p_);
    Verdict v;
    const CostPublicInputs::TypeEntry* only = nullptr;
    for (const auto& n : names_of(core, ac_, p_))
      for (const auto& e : types_) {
        if (fnmatch(e.pattern.c_str(), n.c_str(), 0) != 0) continue;
        if (e.names.empty() || e.names.contains(name)) return v;
        if (only == nullptr) only = &e;
      }
    v.ok = false;
    if (only != nullptr) {
      v.hint = " (that type passes only as: " + join(only->names) + ")";
      return v;
    }
    // A struct of the public headers that no entry lists: what it carries is judged (once per value: a
    // struct that holds itself, through a pointer, is judged at its first level).
    const clang::RecordDecl* rd = core->getAsRecordDecl();
    rd = rd != nullptr ? rd->getDefinition() : nullptr;
    if (rd == nullptr || !in_cost_namespace(rd) ||
        !lint_.is_public_header(ctx_.repo_path(ac_.getSourceManager(), rd->getLocation())))
      return v;
    if (!seen_.insert(rd).second) return Verdict{};  // judged further up: its members' findings are there
    for (const clang::FieldDecl* f : rd->fields()) {
      Verdict m = (*this)(f->getType(), f->getName().str());
      if (m.ok) continue;
      if (m.field.empty()) {
        m.field = f->getName().str();
        m.type = strip(f->getType(), p_).getAsString(p_);
      } else {
        m.field = f->getName().str() + "." + m.field;
      }
      return m;
    }
    return Verdict{};
  }

 private:
  const std::vector<CostPublicInputs::TypeEntry>& types_;
  const CostPublicInputs& lint_;
  Context& ctx_;
  const clang::ASTContext& ac_;
  clang::PrintingPolicy p_;
  std::set<const clang::RecordDecl*> seen_;
};

}  // namespace

void CostPublicInputs::run(const MatchFinder::MatchResult& result) {
  const auto* f = result.Nodes.getNodeAs<clang::FunctionDecl>("f");
  if (f == nullptr || f->isDeleted() || f->isTemplateInstantiation() || llvm::isa<clang::CXXDeductionGuideDecl>(f))
    return;
  if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(f)) {
    if (const auto* c = llvm::dyn_cast<clang::CXXConstructorDecl>(m)) {
      if (c->isCopyOrMoveConstructor()) return;
    } else if (!m->isStatic()) {
      return;
    }
  }
  if (!in_cost_namespace(f)) return;
  const auto& sm = *result.SourceManager;
  if (!headers_.contains(ctx_->repo_path(sm, f->getLocation()))) return;
  const clang::PrintingPolicy policy = policy_of(*result.Context);
  std::string fn = qualified(f, policy);
  if (fn.starts_with("blis::")) fn = fn.substr(6);
  for (const clang::ParmVarDecl* param : f->parameters()) {
    const std::string name = param->getName().str();
    Verdict v = Judge(types_, *this, *ctx_, *result.Context)(param->getType(), name);
    if (v.ok) continue;
    std::string msg = fn + " takes '" + (name.empty() ? "(unnamed)" : name) + "' (" +
                      strip(param->getType(), policy).getAsString(policy) + "), ";
    msg += v.field.empty() ? "which " : "whose field '" + v.field + "' (" + v.type + ") ";
    report(*ctx_, sm, param->getBeginLoc(), msg + kNotAHandle + v.hint);
  }
}

}  // namespace blis::lint

BLIS_LINT("blis-cost-public-inputs", blis::lint::CostPublicInputs)
