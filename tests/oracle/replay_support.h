// Original to BLIS: what every oracle replay program (tests/vllm/oracle, tests/sglang/oracle) shares: its trace
// arguments -- each a trace file or a directory standing for its *.trace.json files, in name order (at least
// one) -- and the report of where two records differ.
#pragma once

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace blis::oracle_support {

// The trace files the arguments name, or nothing (after writing the cause to `err`) when a directory holds no
// trace.
inline std::optional<std::vector<std::string>> trace_paths(const std::vector<std::string>& args, std::ostream& err) {
  std::vector<std::string> paths;
  for (const std::string& a : args) {
    const std::filesystem::path arg(a);
    if (!std::filesystem::is_directory(arg)) {
      paths.push_back(arg.string());
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(arg)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 11 && name.substr(name.size() - 11) == ".trace.json") found.push_back(entry.path().string());
    }
    if (found.empty()) {
      err << arg.string() << ": holds no *.trace.json\n";
      return std::nullopt;
    }
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
  }
  return paths;
}

// The first key (depth first, in `want`'s order) where two records differ, for the report: a key on one side
// only is named so.
inline std::string first_difference(const nlohmann::json& want, const nlohmann::json& got, const std::string& path) {
  if (want.is_object() && got.is_object()) {
    for (auto it = want.begin(); it != want.end(); ++it) {
      if (!got.contains(it.key())) return path + "." + it.key() + " (only in the trace)";
      if (it.value() != got[it.key()]) return first_difference(it.value(), got[it.key()], path + "." + it.key());
    }
    for (auto it = got.begin(); it != got.end(); ++it) {
      if (!want.contains(it.key())) return path + "." + it.key() + " (only in the port)";
    }
  }
  return path;
}

}  // namespace blis::oracle_support
