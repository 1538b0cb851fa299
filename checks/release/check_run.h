// `blis-release check`: build a clean export of HEAD and run every ci check, then name each failing invariant.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "registry_json.h"

namespace blis::release {

struct TestResult {
  std::string name, result;
  std::vector<std::string> suites;
};

// Parses Meson's testlog.json (one JSON object per line).
std::vector<TestResult> parse_testlog(const std::string& text);

struct Verdict {
  std::map<std::string, std::vector<std::string>> failing;  // invariant ID -> why, sorted by ID
  std::vector<std::string> unowned;                          // failed tests that name no invariant
  bool passed() const { return failing.empty() && unowned.empty(); }
};

// Judges a test log against the registry: every ci check of a ci or partial record must have run and
// passed, with its known-bad twin; a failed or skipped test fails each invariant its suites name.
Verdict judge(const std::map<std::string, RecordRef>& registry, const std::vector<TestResult>& log);

// Exports `commit` of the repository at `repo_path` into a fresh directory, builds it with Meson and
// runs the release test setup; returns the log text, or throws with the failing step.
std::string build_and_test(const std::string& repo_path, const std::string& commit, std::string& export_dir);

}  // namespace blis::release
