#include "driver.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace blis::lint {

namespace fs = std::filesystem;
using clang::ast_matchers::MatchFinder;

namespace {

// Restricts matching to the repository's own top-level declarations (not the standard library's or a
// dependency's), then runs the matchers once over the unit.
class Consumer : public clang::ASTConsumer {
 public:
  Consumer(MatchFinder& finder, Context& ctx) : finder_(finder), ctx_(ctx) {}

  void HandleTranslationUnit(clang::ASTContext& ac) override {
    const clang::SourceManager& sm = ac.getSourceManager();
    std::map<clang::FileID, bool> ours;
    std::vector<clang::Decl*> scope;
    for (clang::Decl* d : ac.getTranslationUnitDecl()->decls()) {
      clang::SourceLocation loc = sm.getFileLoc(d->getLocation());
      if (loc.isInvalid() || sm.isInSystemHeader(loc)) continue;
      clang::FileID id = sm.getFileID(loc);
      auto [it, fresh] = ours.try_emplace(id, false);
      if (fresh) it->second = !ctx_.repo_path(sm, loc).empty();
      if (it->second) scope.push_back(d);
    }
    ac.setTraversalScope(scope);
    finder_.matchAST(ac);
  }

 private:
  MatchFinder& finder_;
  Context& ctx_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(const std::vector<std::unique_ptr<Lint>>& lints, MatchFinder& finder, Context& ctx)
      : lints_(lints), finder_(finder), ctx_(ctx) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    for (const auto& l : lints_) l->begin_unit(ci, ctx_);
    return std::make_unique<Consumer>(finder_, ctx_);
  }

 private:
  const std::vector<std::unique_ptr<Lint>>& lints_;
  MatchFinder& finder_;
  Context& ctx_;
};

class ActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  ActionFactory(const std::vector<std::unique_ptr<Lint>>& lints, MatchFinder& finder, Context& ctx)
      : lints_(lints), finder_(finder), ctx_(ctx) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<Action>(lints_, finder_, ctx_);
  }

 private:
  const std::vector<std::unique_ptr<Lint>>& lints_;
  MatchFinder& finder_;
  Context& ctx_;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

void Driver::run_units(const clang::tooling::CompilationDatabase& db, const std::vector<std::string>& units,
                       RunStats& stats) {
  if (units.empty()) return;
  MatchFinder finder;
  for (const auto& l : lints_) l->add_matchers(finder, ctx_);
  clang::tooling::ClangTool tool(db, units);
  // The lints judge the code, not its warnings: clang warns where g++ does not, and -Werror would make
  // those warnings errors.
  tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      "-Wno-everything", clang::tooling::ArgumentInsertPosition::END));
  ActionFactory factory(lints_, finder, ctx_);
  int rc = tool.run(&factory);
  stats.units += units.size();
  if (rc != 0) stats.parse_failed = true;
}

void Driver::scan_file(const fs::path& real, const std::string& repo_path, RunStats& stats) {
  bool counted = false;
  std::string text;
  for (const auto& l : lints_) {
    if (!l->wants_file(repo_path)) continue;
    if (!counted) {
      text = read_text(real);
      ++stats.files;
      counted = true;
    }
    l->scan_file(repo_path, text, ctx_);
  }
}

void Driver::scan_tree(RunStats& stats) {
  std::vector<std::pair<std::string, fs::path>> files;
  const fs::path& root = ctx_.root();
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& p = it->path();
    std::string name = p.filename().string();
    if (it->is_directory()) {
      bool generated = fs::exists(p / "meson-private") || fs::exists(p / "build.ninja");
      if (name == ".git" || name == "third_party" || name == "node_modules" || generated) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    files.emplace_back(p.lexically_relative(root).generic_string(), p);
  }
  std::sort(files.begin(), files.end());  // the same order, so the same output, every run
  for (const auto& [rel, real] : files) scan_file(real, rel, stats);
}

void Driver::finish() {
  for (const auto& l : lints_) l->finish(ctx_);
}

bool Driver::unit_in_any_scope(const std::string& repo_path) const {
  if (repo_path.empty()) return false;
  for (const auto& l : lints_)
    if (l->reads_units())
      for (const auto& s : l->spec().scope)
        if (Context::under(repo_path, s)) return true;
  return false;
}

}  // namespace blis::lint
