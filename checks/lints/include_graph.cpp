#include "include_graph.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <unordered_map>

namespace blis::lint {

namespace {

namespace fs = std::filesystem;

// The layer of a repository path (MAPPING.md "Dependency direction"): "engine:<x>" for engines/<x>/.
std::string layer(const std::string& p) {
  auto top = [&](const char* dir) { return p.starts_with(dir); };
  if (top("src/contracts/")) return "contracts";
  if (top("src/cost/")) return "cost";
  if (top("src/data/")) return "data";
  if (top("src/sim/api/")) return "sim-api";
  if (top("src/sim/")) return "sim";
  if (top("src/search/")) return "search";
  if (top("src/score/")) return "score";
  if (top("src/cli/")) return "cli";
  if (top("router/")) return "router";
  if (top("engines/")) {
    size_t slash = p.find('/', 8);
    return slash == std::string::npos ? "engines" : "engine:" + p.substr(8, slash - 8);
  }
  return "other";
}

bool is_engine(const std::string& l) { return l == "engines" || l.starts_with("engine:"); }

}  // namespace

std::string IncludeGraph::judge(const std::string& from, const std::string& to) {
  const std::string f = layer(from), t = layer(to);
  const bool engine = is_engine(t);
  // X7: src/contracts/ and generated types depend on nothing of ours.
  if (f == "contracts")
    return t == "contracts" ? "" : "src/contracts/ includes only src/contracts/ and generated types";
  // X3: the cost model includes no engine code; X7: cost and data depend on contracts only.
  if (f == "cost" || f == "data") {
    std::string dir = "src/" + f + "/";
    if (engine || t == "router") return dir + " includes no engine or router header";
    if (t == "contracts" || t == f) return "";
    return dir + " includes only src/contracts/, generated types and " + dir;
  }
  // X3: no engine includes another; X7: engines depend on contracts only.
  if (f.starts_with("engine:")) {
    if (t == f || t == "contracts") return "";
    if (engine) return "an engine includes no other engine";
    return "an engine includes only src/contracts/, generated types and its own directory";
  }
  if (f == "router") {
    if (engine) return "router/ includes no engine header";
    if (t == "contracts" || t == "router") return "";
    return "router/ includes only src/contracts/, generated types and router/";
  }
  // X7: search and scoring reach the simulator through its public API (or the blis command).
  if (f == "search" || f == "score") {
    std::string dir = "src/" + f + "/";
    if (t == "sim") return dir + " reaches src/sim/ only through its public api, src/sim/api/";
    if (engine || t == "router") return dir + " includes no engine or router header: it reaches them through src/sim/api/";
    return "";
  }
  if (f == "sim-api" && engine) return "src/sim/api/ includes no engine header: engines are wired at the build site";
  if (f == "sim" || f == "sim-api") {
    if (t == "search" || t == "score" || t == "cli")
      return "src/sim/ includes nothing of the layers above it (src/search/, src/score/, src/cli/)";
    // X4, DEV-1: the simulator reaches the router port only through its one entry point.
    if (t == "router" && !to.starts_with("router/embed/"))
      return "src/sim/ reaches router/ only through its entry point router/embed/";
    return "";  // engine headers: counted per unit (the build site)
  }
  // X3: engines are constructed at one build site, in src/sim/; nothing else includes them.
  if (engine) return "only the build site in src/sim/ includes engine headers";
  return "";
}

namespace {

class Callbacks : public clang::PPCallbacks {
 public:
  Callbacks(IncludeGraph& lint, Context& ctx, clang::SourceManager& sm, std::string unit, std::string generated)
      : lint_(lint), ctx_(ctx), sm_(sm), unit_(std::move(unit)), generated_(std::move(generated)) {}

  void InclusionDirective(clang::SourceLocation hash, const clang::Token&, llvm::StringRef, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef file, llvm::StringRef,
                          llvm::StringRef, const clang::Module*, clang::SrcMgr::CharacteristicKind) override {
    if (!file || hash.isInvalid() || sm_.isInSystemHeader(hash)) return;
    clang::FileID from_id = sm_.getFileID(sm_.getFileLoc(hash));
    auto [fit, ffresh] = from_.try_emplace(from_id.getHashValue());
    if (ffresh) fit->second = ctx_.repo_path(sm_, hash);
    const std::string& from = fit->second;
    if (from.empty()) return;
    auto [tit, tfresh] = to_.try_emplace(&file->getFileEntry());
    if (tfresh) {
      llvm::StringRef real = file->getFileEntry().tryGetRealPathName();
      tit->second = ctx_.repo_path(fs::path(real.empty() ? file->getName().str() : real.str()));
    }
    const std::string& to = tit->second;
    // Not ours (outside the repository, third_party/), or a generated type: every layer may include it.
    if (to.empty() || to.starts_with("third_party/") || (!generated_.empty() && to.starts_with(generated_))) return;
    std::string finding = IncludeGraph::judge(from, to);
    if (!finding.empty()) lint_.report(ctx_, sm_, hash, std::move(finding));
    if (unit_.starts_with("src/sim/") && from.starts_with("src/sim/") && to.starts_with("engines/") &&
        !lint_.sim_engine_units().contains(unit_)) {
      clang::PresumedLoc p = sm_.getPresumedLoc(sm_.getFileLoc(hash), /*UseLineDirectives=*/false);
      if (p.isValid()) lint_.sim_engine_units()[unit_] = {from, p.getLine(), p.getColumn()};
    }
  }

 private:
  IncludeGraph& lint_;
  Context& ctx_;
  clang::SourceManager& sm_;
  std::string unit_;
  std::string generated_;
  std::unordered_map<unsigned, std::string> from_;
  std::unordered_map<const clang::FileEntry*, std::string> to_;
};

}  // namespace

void IncludeGraph::begin_unit(clang::CompilerInstance& ci, Context& ctx) {
  const auto& inputs = ci.getFrontendOpts().Inputs;
  std::string unit = inputs.empty() || !inputs[0].isFile() ? "" : ctx.repo_path(fs::path(inputs[0].getFile().str()));
  // Generated types live in the build directory (the compilation database's). A fixture has no build
  // directory: it stands for a repository whose build directory is build/.
  std::string generated = "build/";
  if (!ctx.build().empty()) {
    std::string rel = ctx.repo_path(ctx.build());
    generated = rel.empty() ? "" : rel + "/";  // a build directory outside the tree: its files are not ours
  }
  ci.getPreprocessor().addPPCallbacks(
      std::make_unique<Callbacks>(*this, ctx, ci.getSourceManager(), std::move(unit), std::move(generated)));
}

void IncludeGraph::finish(Context& ctx) {
  if (sim_units_.size() < 2) return;
  const std::string& first = sim_units_.begin()->first;  // ordered by path: the same build site every run
  for (auto it = std::next(sim_units_.begin()); it != sim_units_.end(); ++it)
    ctx.report(spec(), it->second.path, it->second.line, it->second.col,
               "only one unit of src/sim/ includes engine headers (the build site): " + first + " already does");
}

}  // namespace blis::lint

BLIS_LINT("blis-include-graph", blis::lint::IncludeGraph)
