// Lint fixtures: a known-bad input whose flagged lines carry the expected message inline.
//
//   // lint-path: engines/vllm/fixture.cpp     (first lines: the repository path the file stands for)
//   auto t = std::chrono::steady_clock::now();  // expect: engine code reads the wall clock
//   auto d = std::chrono::seconds(3);           // near-miss: a duration is not a clock read
//
// Python, shell and YAML fixtures write `#` instead of `//`. Several findings on one line are separated by
// ` || ` after `expect:`. A fixture must hold at least one expectation and one near-miss; every line
// without `expect:` must stay silent.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lint.h"

namespace blis::lint {

struct FixtureFile {
  std::filesystem::path real;  // the file on disk
  std::string repo_path;       // the path it stands for
  bool is_cpp = false;         // a translation unit (.cpp/.cc), not a header or script
  std::map<unsigned, std::multiset<std::string>> expected;  // line -> messages
  std::set<unsigned> near_misses;
};

// Reads one fixture file, or every file of a fixture directory (whose layout is a small repository:
// paths inside it are repository paths). Errors name the file and line.
std::vector<FixtureFile> read_fixture(const std::filesystem::path& path, std::vector<std::string>& errors);

// Compares a lint's findings with the fixture's marks; returns the mismatches, one line each.
std::vector<std::string> compare_fixture(const std::vector<FixtureFile>& files, const std::set<Finding>& found);

}  // namespace blis::lint
