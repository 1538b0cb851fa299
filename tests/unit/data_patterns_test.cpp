// SUB-9: the patterns are written once. The table compiled into the loader equals src/data/patterns.yaml,
// the embedded files are the ones the loader's patterns select, and the generator's Python rules and the
// loader's C++ rules read the same trees the same way, message for message.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "contracts/sha256.h"
#include "data/embedded.h"
#include "data/loader.h"
#include "data/scan.h"
#include "data_test_tree.h"

namespace blis::data {
namespace {

using testing::TempTree;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) throw std::runtime_error(std::string(name) + " is not set (run this test through meson test)");
  return v;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Patterns, CompiledTableEqualsPatternsYaml) {
  const std::string path = env("BLIS_SOURCE_ROOT") + "/src/data/patterns.yaml";
  const std::string text = read(path);
  ASSERT_FALSE(text.empty()) << path;
  EXPECT_EQ(text, generated::patterns_yaml()) << "the build compiled another patterns.yaml: rebuild";
  const YAML::Node doc = YAML::Load(text);
  std::vector<std::string> from_yaml, compiled, ignored_yaml, ignored_compiled;
  for (const auto& tree : doc["trees"]) {
    const std::string name = tree.first.as<std::string>();
    for (const auto& row : tree.second["patterns"]) {
      from_yaml.push_back(name + " " + row["pattern"].as<std::string>() + " " + row["kind"].as<std::string>() + " " +
                          row["overlay"].as<std::string>());
    }
    for (const auto& i : tree.second["ignored"]) ignored_yaml.push_back(name + " " + i.as<std::string>());
  }
  for (const auto& r : PatternTable::compiled().rows()) {
    compiled.push_back(std::string(tree_name(r.tree)) + " " + std::string(r.pattern) + " " + std::string(r.kind) + " " +
                       std::string(overlay_identity_name(r.overlay)));
  }
  for (const auto& i : PatternTable::compiled().ignored()) {
    ignored_compiled.push_back(std::string(tree_name(i.tree)) + " " + std::string(i.pattern));
  }
  EXPECT_EQ(from_yaml, compiled);
  EXPECT_EQ(ignored_yaml, ignored_compiled);
  EXPECT_FALSE(compiled.empty());
}

TEST(Patterns, EveryEmbeddedFileIsOneTheLoaderSelects) {
  const auto& t = PatternTable::compiled();
  for (const auto& f : generated::files()) {
    const auto c = t.classify(f.tree, f.path);
    ASSERT_EQ(c.what, Classification::What::data) << f.path;
    EXPECT_EQ(c.row->kind, f.kind) << f.path;
    EXPECT_EQ(contracts::sha256_hex(f.bytes), f.sha256) << f.path;
  }
  for (Tree tree : {Tree::catalog, Tree::registry, Tree::ledger}) {
    EXPECT_TRUE(scan_embedded(t, tree).problems.empty()) << tree_name(tree);
    // The generator's hash (Python's hashlib) equals the loader's (our SHA-256 and §3.3's text).
    EXPECT_EQ(embedded_hash(tree), generated::content_hash(tree)) << tree_name(tree);
  }
}

TEST(Patterns, GlobMatching) {
  EXPECT_TRUE(glob_match("hardware/*.yaml", "hardware/h100.yaml"));
  EXPECT_FALSE(glob_match("hardware/*.yaml", "hardware/.yaml"));     // '*' matches a non-empty run
  EXPECT_FALSE(glob_match("hardware/*.yaml", "hardware/a/b.yaml"));  // nor a '/'
  EXPECT_FALSE(glob_match("hardware/*.yaml", "hardware/h100.yml"));
  EXPECT_FALSE(glob_match("hardware/*.yaml", "Hardware/h100.yaml"));  // case-sensitive
  EXPECT_TRUE(glob_match("models/*/model.yaml", "models/m/model.yaml"));
  EXPECT_FALSE(glob_match("models/*/model.yaml", "models/model.yaml"));
  EXPECT_TRUE(glob_match("families.yaml", "families.yaml"));
  EXPECT_FALSE(glob_match("families.yaml", "sub/families.yaml"));
}

std::string cpp_scan(Tree tree, const std::string& dir, bool overlay) {
  const Scan s = scan_directory(PatternTable::compiled(), tree, dir, overlay);
  std::string out;
  for (const auto& f : s.files) out += "file\t" + std::string(f.row->kind) + "\t" + f.path + "\n";
  for (const auto& p : s.problems) out += "problem\t" + p.path + "\t" + p.message + "\n";
  return out;
}

std::string python_scan(Tree tree, const std::string& dir, bool overlay) {
  const std::string cmd = "'" + env("BLIS_PYTHON") + "' '" + env("BLIS_EMBED_GEN") + "' --root '" +
                          env("BLIS_SOURCE_ROOT") + "' --scan " + std::string(tree_name(tree)) + " '" + dir + "'" +
                          (overlay ? " --overlay" : "");
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << cmd;
  return out;
}

// X15: the generator restates the loader's rules in Python, so both run on the same trees, accepted and
// refused, and must agree on every file, kind, path and message.
TEST(Patterns, GeneratorAndLoaderReadTreesAlike) {
  TempTree elsewhere;
  elsewhere.write("x.yaml", "a: 1\n");
  struct Fixture {
    const char* name;
    Tree tree;
    bool overlay;
    std::function<void(const TempTree&)> make;
  };
  const std::vector<Fixture> fixtures = {
      {"every-kind", Tree::catalog, false,
       [](const TempTree& t) {
         for (const char* p : {"hardware/h.yaml", "networks/n.yaml", "devices/d.yaml", "workloads/w.yaml",
                               "routing/r.yaml", "models/m/model.yaml", "models/m/graph.yaml",
                               "models/licence-allow-list.yaml", "models/m/config.json", "README.md", "scripts/x.py"}) {
           t.write(p, "a: 1\n");
         }
       }},
      {"registry", Tree::registry, false,
       [](const TempTree& t) {
         for (const char* p : {"sets/s/f.yaml", "acceptance/a.yaml", "routing/r.yaml", "families.yaml",
                               "scripts/fit.py", "families.yml"}) {
           t.write(p, "a: 1\n");
         }
       }},
      {"unmatched", Tree::catalog, false,
       [](const TempTree& t) {
         t.write("hardware/x.yml", "a: 1\n");
         t.write("hardware/sub/x.yaml", "a: 1\n");
         t.write("models/m/config.yaml", "a: 1\n");
         t.write("models/x.yaml", "a: 1\n");
       }},
      {"unmatched-registry", Tree::registry, false,
       [](const TempTree& t) {
         t.write("sets/f.yaml", "a: 1\n");
         t.write("sets/s/t/f.yaml", "a: 1\n");
       }},
      {"symlinks", Tree::catalog, false,
       [&](const TempTree& t) {
         t.symlink(elsewhere.dir("x.yaml"), "hardware/a.yaml");
         t.symlink(elsewhere.dir(), "networks");
         t.symlink(elsewhere.dir(), "models/m");
         t.symlink(elsewhere.dir("x.yaml"), "outside.yaml");
       }},
      {"symlink-top-file", Tree::registry, false,
       [&](const TempTree& t) { t.symlink(elsewhere.dir("x.yaml"), "families.yaml"); }},
      {"not-regular", Tree::catalog, false,
       [](const TempTree& t) {
         t.mkdir("hardware");
         mkfifo((t.root() / "hardware" / "f.yaml").c_str(), 0600);
         t.write("devices", "a: 1\n");
       }},
      {"carriage-return", Tree::catalog, false,
       [](const TempTree& t) {
         t.write("hardware/a.yaml", "a: 1\nb: 2\r\n");
         t.write("hardware/b.yaml", "\r");
         t.write("scripts/c.py", "\r\n");
       }},
      {"case", Tree::catalog, false,
       [](const TempTree& t) {
         t.write("hardware/A.yaml", "a: 1\n");
         t.write("hardware/a.yaml", "a: 1\n");
         t.write("models/M/model.yaml", "a: 1\n");
         t.write("models/m/graph.yaml", "a: 1\n");
         t.write("models/m/model.yaml", "a: 1\n");
       }},
      {"overlay-ledger", Tree::registry, true,
       [](const TempTree& t) {
         t.write("ledger/published/fit.yaml", "a: 1\n");
         t.write("sets/s/f.yaml", "a: 1\n");
       }},
      {"base-ledger", Tree::catalog, false, [](const TempTree& t) { t.write("ledger/published/fit.yaml", "a: 1\n"); }},
      {"ledger-tree", Tree::ledger, false,
       [](const TempTree& t) {
         t.write("published/fit.yaml", "a: 1\n");
         t.write("published/notes.md", "a: 1\n");
         t.write("units/u.yaml", "a: 1\n");
       }},
      {"empty", Tree::catalog, false, [](const TempTree& t) { t.mkdir("hardware"); }},
  };
  for (const auto& f : fixtures) {
    TempTree t;
    f.make(t);
    EXPECT_EQ(cpp_scan(f.tree, t.dir(), f.overlay), python_scan(f.tree, t.dir(), f.overlay)) << f.name;
  }
  TempTree gone;
  EXPECT_EQ(cpp_scan(Tree::catalog, gone.dir("absent"), false), python_scan(Tree::catalog, gone.dir("absent"), false));
}

}  // namespace
}  // namespace blis::data
