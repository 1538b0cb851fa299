// Runs a set of lints over translation units and files, in one parse per translation unit.
#pragma once

#include <clang/Tooling/CompilationDatabase.h>

#include <memory>
#include <string>
#include <vector>

#include "lint.h"

namespace blis::lint {

struct RunStats {
  size_t units = 0;  // translation units parsed
  size_t files = 0;  // other files scanned
  bool parse_failed = false;
};

class Driver {
 public:
  Driver(Context& ctx, std::vector<std::unique_ptr<Lint>> lints) : ctx_(ctx), lints_(std::move(lints)) {}

  // Parses each unit (its command from `db`) once and runs every lint's matchers and callbacks on it.
  void run_units(const clang::tooling::CompilationDatabase& db, const std::vector<std::string>& units,
                 RunStats& stats);
  // Offers a file to every file lint that wants it.
  void scan_file(const std::filesystem::path& real, const std::string& repo_path, RunStats& stats);
  // Walks the repository for the file lints' files (skipping .git, build directories and third_party).
  void scan_tree(RunStats& stats);
  void finish();

  // Whether any lint's scope (or allowance) reaches this repository path: units outside every scope are
  // not parsed.
  bool unit_in_any_scope(const std::string& repo_path) const;

 private:
  Context& ctx_;
  std::vector<std::unique_ptr<Lint>> lints_;
};

}  // namespace blis::lint
