// The lint framework: one executable (blis-lint) runs every lint over the project's translation units
// (through the compilation database) and its other files, in one parse per unit.
//
// A lint is declared by the invariant record that defines it (a check with `runner: lint` and a `lint:`
// block giving its scope and allowances); blis-gen compiles those declarations into lint_specs(). A lint's
// code is a subclass of Lint in checks/lints/<stem>.{h,cpp}, registered with BLIS_LINT. A declaration
// without code, or code without a declaration, stops every run.
#pragma once

#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/Basic/SourceLocation.h>
#include <clang/Frontend/CompilerInstance.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace blis::lint {

// A path the lint tolerates inside its scope, and why (declared in the record).
struct Allowance {
  std::string path;  // repository-relative file, or directory ending in '/' ('*': one component)
  std::string why;
};

// One entry of a named list the lint reads as a setting (the record's `lint: lists:`), and why.
struct ListEntry {
  std::string value;               // a path, a name or a pattern, as the lint reads it
  std::vector<std::string> names;  // what the entry is limited to, where the lint says; empty: no limit
  std::string why;
};

// One lint as its record declares it (generated: lints_table.cpp).
struct LintSpec {
  std::string name;    // blis-no-clock
  std::string record;  // the defining record, e.g. X6
  // Repository-relative directories (ending in '/') or files; '*' matches one path component.
  std::vector<std::string> scope;
  std::vector<Allowance> allow;
  std::string fixture;  // the known-bad input: checks/lints/test/<stem>.<ext> (or a directory)
  std::map<std::string, std::vector<ListEntry>> lists;  // by list name

  // The named list; empty when the record gives none.
  const std::vector<ListEntry>& list(const std::string& list_name) const;
};
const std::vector<LintSpec>& lint_specs();

struct Finding {
  std::string path;  // repository-relative
  unsigned line = 0;
  unsigned col = 0;
  std::string message;  // lower case, without the [lint; record] tag
  std::string lint;
  std::string record;
  auto operator<=>(const Finding&) const = default;
  std::string text() const;  // path:line:col: message [lint; record]
};

// Where files live and which findings count: the run's shared state.
class Context {
 public:
  Context(std::filesystem::path root, std::filesystem::path build);

  const std::filesystem::path& root() const { return root_; }
  const std::filesystem::path& build() const { return build_; }

  // Fixtures: a real file stands in for a repository path (its `lint-path:` line, or its place under a
  // fixture directory), so the lint's scope applies to it as it would to that path.
  void pretend(const std::filesystem::path& real, std::string repo_path);
  // Paths inside a fixture directory resolve against it instead of the repository root.
  void set_fixture_root(const std::filesystem::path& dir);
  // The fixture directory of a fixture run ("" otherwise): it stands for the repository root.
  const std::filesystem::path& fixture_root() const { return fixture_root_; }

  // The repository-relative path of a file; "" outside the repository (system and library headers).
  std::string repo_path(const std::filesystem::path& file) const;
  std::string repo_path(const clang::SourceManager& sm, clang::SourceLocation loc) const;

  // Whether a repository path is in the lint's scope and not allowed by it.
  static bool in_scope(const LintSpec& spec, const std::string& repo_path);
  static bool under(const std::string& repo_path, const std::string& entry);
  // Test code: a path with a test/ or tests/ component. Lints judge the code tests exercise, not tests.
  static bool in_tests(const std::string& repo_path);

  // Records a finding if its place is in the lint's scope; out-of-scope places are not findings.
  void report(const LintSpec& spec, const std::string& repo_path, unsigned line, unsigned col,
              std::string message);
  void report(const LintSpec& spec, const clang::SourceManager& sm, clang::SourceLocation loc,
              std::string message);
  // The same, but at most once per file line and message: one construct often matches several nodes
  // (`std::thread t(f);` is a written type, a qualifier and a construction); the first match reports.
  void report_once_per_line(const LintSpec& spec, const clang::SourceManager& sm, clang::SourceLocation loc,
                            std::string message);

  const std::set<Finding>& findings() const { return findings_; }

 private:
  std::filesystem::path root_;
  std::filesystem::path build_;
  std::filesystem::path fixture_root_;
  std::map<std::string, std::string> pretend_;  // real absolute path -> repository path
  std::set<Finding> findings_;                  // ordered: the output is the same bytes every run
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> lines_;  // lint, path, line, message
};

class Lint {
 public:
  explicit Lint(const LintSpec& spec) : spec_(spec) {}
  virtual ~Lint() = default;
  Lint(const Lint&) = delete;
  Lint& operator=(const Lint&) = delete;

  const LintSpec& spec() const { return spec_; }

  // AST lints: add matchers once per run; callbacks report through the context.
  virtual void add_matchers(clang::ast_matchers::MatchFinder& /*finder*/, Context& /*ctx*/) {}
  // Preprocessor lints: called for each translation unit before it is parsed (add PPCallbacks here).
  virtual void begin_unit(clang::CompilerInstance& /*ci*/, Context& /*ctx*/) {}
  // Whole-run checks, after every unit and file (e.g. the include graph).
  virtual void finish(Context& /*ctx*/) {}
  // Whether the lint reads translation units (matchers, preprocessor callbacks): a pass parses only the
  // units in the scope of a lint that does. A file lint (scripts, data) says false.
  virtual bool reads_units() const { return true; }
  // File lints: files that are not translation units (Python, YAML), under the lint's scope.
  virtual bool wants_file(const std::string& /*repo_path*/) const { return false; }
  virtual void scan_file(const std::string& /*repo_path*/, const std::string& /*text*/, Context& /*ctx*/) {}

  // Shorthand for the lint's own findings.
  void report(Context& ctx, const clang::SourceManager& sm, clang::SourceLocation loc, std::string msg) const {
    ctx.report(spec_, sm, loc, std::move(msg));
  }
  void report_once_per_line(Context& ctx, const clang::SourceManager& sm, clang::SourceLocation loc,
                            std::string msg) const {
    ctx.report_once_per_line(spec_, sm, loc, std::move(msg));
  }

 private:
  const LintSpec& spec_;
};

using Factory = std::unique_ptr<Lint> (*)(const LintSpec&);
// The lints compiled into this binary, by name (filled by BLIS_LINT at static initialisation).
std::map<std::string, Factory>& lint_factories();
bool register_lint(const char* name, Factory factory);

}  // namespace blis::lint

// Registers CLASS as the code of the lint NAME (declared by its record).
#define BLIS_LINT(NAME, CLASS)                                                                 \
  namespace {                                                                                  \
  const bool blis_lint_registered_ = ::blis::lint::register_lint(                             \
      NAME, [](const ::blis::lint::LintSpec& s) -> std::unique_ptr<::blis::lint::Lint> {       \
        return std::make_unique<CLASS>(s);                                                      \
      });                                                                                      \
  }
