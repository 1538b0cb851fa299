// What a data directory may hold (§3.3): each refusal beside its closest accepted twin.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "data/loader.h"
#include "data/scan.h"
#include "data_test_tree.h"

namespace blis::data {
namespace {

using testing::TempTree;

const PatternTable& table() { return PatternTable::compiled(); }

Scan scan(const TempTree& t, Tree tree = Tree::catalog, bool overlay = false) {
  return scan_directory(table(), tree, t.root(), overlay);
}

std::string problems(const Scan& s) {
  std::string out;
  for (const auto& p : s.problems) out += p.path + ": " + p.message + "\n";
  return out;
}

std::string paths(const Scan& s) {
  std::string out;
  for (const auto& f : s.files) out += f.path + " " + std::string(f.row->kind) + "\n";
  return out;
}

TEST(Scan, EveryPatternSelectsItsKind) {
  TempTree t;
  t.write("hardware/h1.yaml", "a: 1\n");
  t.write("networks/n.yaml", "a: 1\n");
  t.write("devices/d.yaml", "a: 1\n");
  t.write("workloads/w.yaml", "a: 1\n");
  t.write("routing/r.yaml", "a: 1\n");
  t.write("models/m/model.yaml", "a: 1\n");
  t.write("models/m/graph.yaml", "a: 1\n");
  t.write("models/licence-allow-list.yaml", "a: 1\n");  // ignored by name, as config.json
  t.write("models/m/config.json", "{}\n");
  const Scan s = scan(t);
  EXPECT_EQ(problems(s), "");
  EXPECT_EQ(paths(s),
            "devices/d.yaml device\nhardware/h1.yaml chip\n"
            "models/m/graph.yaml graph\nmodels/m/model.yaml model\nnetworks/n.yaml network\n"
            "routing/r.yaml router-table\nworkloads/w.yaml workload\n");
  TempTree r;
  r.write("sets/s1/gemm.yaml", "a: 1\n");
  r.write("acceptance/a.yaml", "a: 1\n");
  r.write("routing/p.yaml", "a: 1\n");
  r.write("families.yaml", "a: 1\n");
  const Scan rs = scan(r, Tree::registry);
  EXPECT_EQ(problems(rs), "");
  EXPECT_EQ(paths(rs),
            "acceptance/a.yaml acceptance-profile\nfamilies.yaml primitive-families\nrouting/p.yaml routing-profile\n"
            "sets/s1/gemm.yaml coefficient-set\n");
}

// Refused: a file under a data directory that matches no pattern (x.yml where .yaml is expected).
// Accepted twin: the same file named x.yaml.
TEST(Scan, UnmatchedFileUnderADataDirectoryIsRefused) {
  TempTree bad;
  bad.write("hardware/x.yml", "a: 1\n");
  const Scan s = scan(bad);
  ASSERT_EQ(s.problems.size(), 1u);
  EXPECT_EQ(s.problems[0].path, "hardware/x.yml");
  EXPECT_NE(s.problems[0].message.find("matches no data-file pattern of the catalog"), std::string::npos);
  EXPECT_NE(s.problems[0].message.find("hardware/*.yaml"), std::string::npos);
  TempTree good;
  good.write("hardware/x.yaml", "a: 1\n");
  EXPECT_EQ(problems(scan(good)), "");
}

// Refused: a file one directory too deep. Accepted twin: the same file at the pattern's depth.
TEST(Scan, FileAtTheWrongDepthIsRefused) {
  TempTree bad;
  bad.write("sets/s/extra/f.yaml", "a: 1\n");
  ASSERT_EQ(scan(bad, Tree::registry).problems.size(), 1u);
  EXPECT_EQ(scan(bad, Tree::registry).problems[0].path, "sets/s/extra/f.yaml");
  TempTree good;
  good.write("sets/s/f.yaml", "a: 1\n");
  EXPECT_EQ(problems(scan(good, Tree::registry)), "");
}

// Ignored by name: a model's config.json. Refused twin: a model's config.yaml, which no pattern names.
TEST(Scan, ModelConfigJsonIsIgnoredByName) {
  TempTree good;
  good.write("models/m/config.json", "{}\n");
  good.write("models/m/model.yaml", "a: 1\n");
  const Scan s = scan(good);
  EXPECT_EQ(problems(s), "");
  EXPECT_EQ(paths(s), "models/m/model.yaml model\n");
  TempTree bad;
  bad.write("models/m/config.yaml", "{}\n");
  ASSERT_EQ(scan(bad).problems.size(), 1u);
  EXPECT_EQ(scan(bad).problems[0].path, "models/m/config.yaml");
}

// Outside the data directories nothing is read: scripts, documents, an unknown directory.
TEST(Scan, FilesOutsideTheDataDirectoriesAreNotRead) {
  TempTree t;
  t.write("README.md", "# catalog\r\n");  // a carriage return too: never read
  t.write("scripts/derive.py", "print()\n");
  t.write("hardwares/typo.yaml", "a: 1\n");
  t.symlink("README.md", "link.md");
  const Scan s = scan(t);
  EXPECT_EQ(problems(s), "");
  EXPECT_TRUE(s.files.empty());
}

// Refused: a symbolic link to a data file, and a data directory that is a symbolic link.
// Accepted twin: the same bytes as a regular file in a real directory.
TEST(Scan, SymbolicLinksAreRefused) {
  TempTree elsewhere;
  elsewhere.write("chip.yaml", "a: 1\n");
  elsewhere.write("hw/chip.yaml", "a: 1\n");
  TempTree bad;
  bad.symlink(elsewhere.dir("chip.yaml"), "hardware/chip.yaml");
  bad.symlink(elsewhere.dir("hw"), "networks");
  bad.symlink(elsewhere.dir("hw"), "models/m");
  const Scan s = scan(bad);
  EXPECT_TRUE(s.files.empty());
  EXPECT_EQ(problems(s),
            "hardware/chip.yaml: is a symbolic link; data must be regular files in real directories [SUB-9]\n"
            "models/m: is a symbolic link; data must be regular files in real directories [SUB-9]\n"
            "networks: is a symbolic link; data must be regular files in real directories [SUB-9]\n");
  TempTree good;
  good.write("hardware/chip.yaml", "a: 1\n");
  good.write("networks/chip.yaml", "a: 1\n");
  EXPECT_EQ(problems(scan(good)), "");
}

// Refused: a FIFO where a data file would be. Accepted twin: a regular file.
TEST(Scan, NonRegularFilesAreRefused) {
  TempTree bad;
  bad.mkdir("hardware");
  ASSERT_EQ(mkfifo((bad.root() / "hardware" / "x.yaml").c_str(), 0600), 0);
  EXPECT_EQ(problems(scan(bad)), "hardware/x.yaml: is neither a regular file nor a directory [SUB-9]\n");
}

// Refused: a file where a data directory belongs. Accepted twin: no such entry at all.
TEST(Scan, AFileNamedLikeADataDirectoryIsRefused) {
  TempTree bad;
  bad.write("hardware", "a: 1\n");
  EXPECT_EQ(problems(scan(bad)),
            "hardware: is not a directory, but hardware/ is a data directory of the catalog [SUB-9]\n");
  TempTree good;
  good.write("hardware.md", "a: 1\n");
  EXPECT_EQ(problems(scan(good)), "");
}

// Refused: one carriage return anywhere in a data file (with its line). Accepted twin: line feeds only.
TEST(Scan, CarriageReturnIsRefused) {
  TempTree bad;
  bad.write("hardware/a.yaml", "a: 1\nb: 2\nc: 3\r\n");
  EXPECT_EQ(problems(scan(bad)),
            "hardware/a.yaml: holds a carriage return (line 3); data files end lines with a line feed only [SUB-9]\n");
  TempTree lone;
  lone.write("hardware/a.yaml", "a: 1\rb: 2\n");
  EXPECT_EQ(scan(lone).problems.size(), 1u);
  TempTree good;
  good.write("hardware/a.yaml", "a: 1\nb: 2\nc: 3\n");
  EXPECT_EQ(problems(scan(good)), "");
}

// Refused: two paths that differ only in letter case, naming both. Accepted twin: two different names.
TEST(Scan, PathsDifferingOnlyInCaseAreRefused) {
  TempTree bad;
  bad.write("hardware/H100.yaml", "a: 1\n");
  bad.write("hardware/h100.yaml", "a: 1\n");
  EXPECT_EQ(problems(scan(bad)), "hardware/h100.yaml: differs only in letter case from hardware/H100.yaml [SUB-9]\n");
  TempTree good;
  good.write("hardware/H100.yaml", "a: 1\n");
  good.write("hardware/h200.yaml", "a: 1\n");
  EXPECT_EQ(problems(scan(good)), "");
}

// Directories count: models/Foo/ and models/foo/ would be one directory on a case-insensitive system.
TEST(Scan, DirectoriesDifferingOnlyInCaseAreRefused) {
  TempTree bad;
  bad.write("models/Foo/model.yaml", "a: 1\n");
  bad.write("models/foo/graph.yaml", "a: 1\n");
  EXPECT_EQ(problems(scan(bad)), "models/foo: differs only in letter case from models/Foo [SUB-9]\n");
  TempTree good;
  good.write("models/Foo/model.yaml", "a: 1\n");
  good.write("models/Foo/graph.yaml", "a: 1\n");
  EXPECT_EQ(problems(scan(good)), "");
}

// Refused in an overlay: a top-level ledger/. Accepted twins: the same overlay without it, and a base tree
// with it (outside the data directories, so never read).
TEST(Scan, AnOverlayMayNotHoldLedgerFiles) {
  TempTree t;
  t.write("hardware/a.yaml", "a: 1\n");
  t.write("ledger/published/fit.yaml", "units: []\n");
  EXPECT_EQ(problems(scan(t, Tree::catalog, true)),
            "ledger: is ledger data; an overlay may not contain ledger files [SUB-9]\n");
  EXPECT_EQ(problems(scan(t, Tree::registry, true)),
            "ledger: is ledger data; an overlay may not contain ledger files [SUB-9]\n");
  EXPECT_EQ(problems(scan(t, Tree::catalog, false)), "");
  t.remove("ledger");
  EXPECT_EQ(problems(scan(t, Tree::catalog, true)), "");
}

TEST(Scan, MissingRootIsRefused) {
  TempTree t;
  EXPECT_EQ(problems(scan_directory(table(), Tree::catalog, t.root() / "absent", false)), ": no such directory\n");
  t.write("file", "x\n");
  EXPECT_EQ(problems(scan_directory(table(), Tree::catalog, t.root() / "file", false)), ": is not a directory\n");
}

// Through load(): each refusal names the source, the file and the cause, and nothing loads.
TEST(Scan, LoadNamesTheDirectoryFileAndCause) {
  TempTree cat, reg;
  cat.write("hardware/x.yml", "a: 1\n");
  reg.write("families.yaml", "a: 1\n");
  const LoadOutcome o = load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all());
  EXPECT_FALSE(o.ok());
  ASSERT_EQ(o.diagnostics.size(), 1u);
  EXPECT_EQ(o.diagnostics.all()[0].location, cat.dir() + "/hardware/x.yml");
  EXPECT_EQ(o.diagnostics.all()[0].path, "hardware/x.yml");
  EXPECT_EQ(o.diagnostics.all()[0].text().rfind(cat.dir() + "/hardware/x.yml: matches no data-file pattern", 0), 0u);

  const LoadOutcome missing = load({cat.dir("absent"), reg.dir(), {}, {}}, testing::accept_all());
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_EQ(missing.diagnostics.all()[0].text(), "catalog directory " + cat.dir("absent") + ": no such directory");
}

// Refused: an overlay that holds no data file (every file outside the data directories).
// Accepted twin: the same overlay with one data file.
TEST(Scan, AnOverlayWithNoDataFileIsRefused) {
  TempTree cat, reg, ov;
  reg.write("families.yaml", "a: 1\n");
  ov.write("hardwares/typo.yaml", "a: 1\n");
  const LoadOutcome bad = load({cat.dir(), reg.dir(), {ov.dir()}, {}}, testing::accept_all());
  ASSERT_EQ(bad.diagnostics.size(), 1u) << testing::messages(bad);
  EXPECT_EQ(bad.diagnostics.all()[0].text().rfind("catalog overlay " + ov.dir() + ": holds no catalog data file", 0),
            0u)
      << testing::messages(bad);
  ov.write("hardware/fixed.yaml", "a: 1\n");
  EXPECT_TRUE(load({cat.dir(), reg.dir(), {ov.dir()}, {}}, testing::accept_all()).ok());
}

TEST(Scan, EmptyDirectoriesAreFine) {
  TempTree t;
  t.mkdir("hardware");
  t.mkdir("models/m");
  EXPECT_EQ(problems(scan(t)), "");
}

}  // namespace
}  // namespace blis::data
