// blis-lint: the project's Clang LibTooling lints (X2, X3, X6, X7, SUB-3, SUB-20, DEV-6, DEV-13, X19).
//
//   blis-lint --root SRC [--lint NAME]... BUILD/compile_commands.json   every lint over the project
//   blis-lint --root SRC --lint NAME FIXTURE                            one lint over its fixture
//   blis-lint --root SRC --lint NAME --fixture FIXTURE                  the fixture's marks, line by line
//   blis-lint --list                                                    the lints and their records
//
// Findings print as `path:line:col: message [lint; record]`, sorted. Exit 0: clean (or, with --fixture,
// every mark matched); 1: findings (or mismatches); 2: the run itself failed (bad arguments, a unit that
// does not parse, a lint declared without code or code without a declaration).
#include <clang/Tooling/CompilationDatabase.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <set>

#include "driver.h"
#include "fixture.h"
#include "lint.h"

namespace fs = std::filesystem;
using namespace blis::lint;

namespace {

int usage(const std::string& why) {
  std::cerr << "blis-lint: " << why << "\n"
            << "usage: blis-lint --root SRC [--lint NAME]... [--fixture] (BUILD/compile_commands.json | FIXTURE)\n"
            << "       blis-lint --list\n";
  return 2;
}

// Every declared lint has code and all code is declared; otherwise nothing can be trusted.
bool registry_consistent() {
  bool ok = true;
  std::set<std::string> declared;
  for (const auto& s : lint_specs()) {
    declared.insert(s.name);
    if (!lint_factories().contains(s.name)) {
      std::cerr << "blis-lint: record " << s.record << " declares lint " << s.name
                << " but no code registers it (BLIS_LINT in checks/lints/)\n";
      ok = false;
    }
  }
  for (const auto& [name, f] : lint_factories())
    if (!declared.contains(name)) {
      std::cerr << "blis-lint: lint " << name << " has code but no invariant record declares it\n";
      ok = false;
    }
  return ok;
}

const LintSpec* find_spec(const std::string& name) {
  for (const auto& s : lint_specs())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::string root, input;
  std::vector<std::string> names;
  bool fixture_mode = false, list = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--root" && i + 1 < argc) root = argv[++i];
    else if (a == "--lint" && i + 1 < argc) names.push_back(argv[++i]);
    else if (a == "--fixture") fixture_mode = true;
    else if (a == "--list") list = true;
    else if (a.starts_with("-")) return usage("unknown option " + a);
    else if (input.empty()) input = a;
    else return usage("more than one input: " + input + ", " + a);
  }
  if (!registry_consistent()) return 2;
  if (list) {
    for (const auto& s : lint_specs()) {
      std::cout << s.name << " [" << s.record << "] scope:";
      for (const auto& p : s.scope) std::cout << " " << p;
      for (const auto& a : s.allow) std::cout << " (allowed: " << a.path << ")";
      std::cout << "\n";
    }
    return 0;
  }
  if (root.empty()) return usage("--root is required");
  if (input.empty()) return usage("no input");
  if (!fs::exists(input)) return usage("input " + input + " does not exist");
  input = fs::absolute(input).lexically_normal().string();  // the tool changes directory per unit
  if (names.empty())
    for (const auto& s : lint_specs()) names.push_back(s.name);
  std::vector<std::unique_ptr<Lint>> lints;
  for (const auto& n : names) {
    const LintSpec* spec = find_spec(n);
    if (!spec) return usage("no record declares a lint named " + n);
    lints.push_back(lint_factories().at(n)(*spec));
  }
  const size_t lint_count = lints.size();

  auto t0 = std::chrono::steady_clock::now();
  RunStats stats;
  bool pass = fs::path(input).filename() == "compile_commands.json";
  Context ctx(root, pass ? fs::path(input).parent_path() : fs::path());
  Driver driver(ctx, std::move(lints));
  std::vector<FixtureFile> fixture;

  if (pass) {
    if (fixture_mode) return usage("--fixture takes a fixture, not a compilation database");
    std::string err;
    auto db = clang::tooling::CompilationDatabase::loadFromDirectory(fs::path(input).parent_path().string(), err);
    if (!db) return usage("cannot read " + input + ": " + err);
    std::set<std::string> units;  // sorted: the same order every run
    for (const auto& f : db->getAllFiles()) {
      fs::path p = fs::path(f);
      std::string ext = p.extension().string();
      if (ext != ".cpp" && ext != ".cc") continue;
      if (driver.unit_in_any_scope(ctx.repo_path(p))) units.insert(f);
    }
    driver.run_units(*db, std::vector<std::string>(units.begin(), units.end()), stats);
    driver.scan_tree(stats);
  } else {
    std::vector<std::string> errors;
    fixture = read_fixture(input, errors);
    for (const auto& e : errors) std::cerr << "blis-lint: " << e << "\n";
    if (!errors.empty()) return 2;
    fs::path froot = fs::is_directory(input) ? fs::path(input) : fs::path(input).parent_path();
    if (fs::is_directory(input)) ctx.set_fixture_root(input);
    std::vector<std::string> units;
    for (const auto& f : fixture) {
      if (!fs::is_directory(input)) ctx.pretend(f.real, f.repo_path);
      if (f.is_cpp) units.push_back(fs::absolute(f.real).string());
      else driver.scan_file(f.real, f.repo_path, stats);
    }
    // Fixtures compile alone: the standard library, the fixture directory and the repository's src/.
    std::vector<std::string> args = {"-xc++", "-std=c++20", "-ffp-contract=off",
                                     "-I" + fs::absolute(froot).string(),
                                     "-I" + fs::absolute(froot / "src").string(),
                                     "-I" + (fs::absolute(root) / "src").string()};
    clang::tooling::FixedCompilationDatabase db(fs::absolute(froot).string(), args);
    driver.run_units(db, units, stats);
  }
  driver.finish();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (stats.parse_failed) {
    std::cerr << "blis-lint: a translation unit did not parse (see above); no verdict\n";
    return 2;
  }

  if (fixture_mode) {
    auto mismatches = compare_fixture(fixture, ctx.findings());
    for (const auto& m : mismatches) std::cout << m << "\n";
    size_t marks = 0;
    for (const auto& f : fixture)
      for (const auto& [l, m] : f.expected) marks += m.size();
    std::cout << "blis-lint: fixture " << input << ": " << marks << " expected findings, "
              << ctx.findings().size() << " found, " << mismatches.size() << " mismatches\n";
    return mismatches.empty() ? 0 : 1;
  }
  for (const auto& f : ctx.findings()) std::cout << f.text() << "\n";
  char when[64];
  std::snprintf(when, sizeof when, "%.1f", secs);
  std::cout << "blis-lint: " << lint_count << " lints, " << stats.units << " translation units, " << stats.files
            << " files, " << ctx.findings().size() << " findings in " << when << " s\n";
  return ctx.findings().empty() ? 0 : 1;
}
