// Temporary data trees for the src/data tests, and a validator table that accepts every kind.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "data/loader.h"
#include "data/patterns.h"
#include "data/validators.h"

namespace blis::data::testing {

// A directory under the system's temporary directory, removed with everything in it at destruction.
class TempTree {
 public:
  TempTree() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "blis-data-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::string dir(std::string_view sub = {}) const { return sub.empty() ? root_.string() : (root_ / sub).string(); }

  // Writes bytes at rel (creating directories), replacing what was there.
  void write(std::string_view rel, std::string_view bytes) const {
    const auto p = root_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  void mkdir(std::string_view rel) const { std::filesystem::create_directories(root_ / rel); }
  void symlink(std::string_view target, std::string_view rel) const {
    std::filesystem::create_directories((root_ / rel).parent_path());
    std::filesystem::create_symlink(target, root_ / rel);
  }
  void remove(std::string_view rel) const { std::filesystem::remove_all(root_ / rel); }

 private:
  std::filesystem::path root_;
};

// Accepts every document of every kind: the stand-in for the generated validators.
inline ValidatorTable accept_all() {
  ValidatorTable t;
  for (Tree tree : {Tree::catalog, Tree::registry}) {
    for (auto kind : PatternTable::compiled().kinds(tree)) {
      t.set_kind_validator(std::string(kind), [](const LoadedFile&, Diagnostics&) {});
    }
  }
  return t;
}

// Every message of an outcome, one a line.
inline std::string messages(const LoadOutcome& o) { return o.diagnostics.text(); }

// A coefficient-set document with one entry a line of `entries`, each written as YAML flow text.
inline std::string coefficient_set(std::string_view set, std::string_view family,
                                   const std::vector<std::string>& entries) {
  std::string s = "set: " + std::string(set) + "\nfamily: " + std::string(family) + "\nentries:\n";
  if (entries.empty()) return s.substr(0, s.size() - 1) + " []\n";
  for (const auto& e : entries) s += "  - " + e + "\n";
  return s;
}

}  // namespace blis::data::testing
