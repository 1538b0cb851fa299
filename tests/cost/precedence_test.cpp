// VAL-4, the cost-model half: for every pair of scope dimensions, two entries of one rank that answer one
// lookup, each stating one of the two, resolve to the entry src/data's compare_scopes picks, whichever
// order the two were loaded in (two overlays on the embedded floor, floor_registry(), applied both ways);
// the other is reported displaced. The workload dimension is tested on the one workload-keyed family (D8
// keeps it off every other).
//
// usage: cost-scope-precedence-test SCOPES   (the record's input: tests/cost/precedence_scopes.txt)
//
// SCOPES holds the entries' scopes, one a line as the entry's `scope:` mapping states it (`#` starts a
// comment): `dimension: value`, the dimension one of registry/README.md's order. Every scope dimension but
// workload needs a line, and every pair of lines is tried; a pair whose order the precedence leaves open
// (two lines stating one dimension) is refused at load, and the test fails naming it.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cost_data.h"
#include "cost/lookup.h"
#include "data/scope_precedence.h"

namespace {

using namespace blis::cost;
using namespace blis::cost::testing;

std::string g_scopes;  // the SCOPES file the program is given

class TempDir {
 public:
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "blis-cost-XXXXXX").string();
    if (mkdtemp(t.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = t;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  std::string write(const std::string& rel, const std::string& text) const {
    const auto p = root_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return root_.string();
  }
  std::string path() const { return root_.string(); }

 private:
  std::filesystem::path root_;
};

// The embedded registry without its fitted sets (measured, transferred), copied once: every pair is loaded
// twice on top of it, and the fitted sets' entries would otherwise outrank the pair and slow each load.
const std::string& floor_registry() {
  static const TempDir dir;
  static const std::string path = [] {
    namespace fs = std::filesystem;
    const fs::path src = fs::path(blis::cost::testing::source_root()) / "registry";
    const fs::path out = dir.path();
    fs::copy_file(src / "families.yaml", out / "families.yaml");
    for (const char* sub : {"sets/floor", "acceptance", "routing"})
      if (fs::is_directory(src / sub)) {
        fs::create_directories(out / sub);
        fs::copy(src / sub, out / sub, fs::copy_options::recursive);
      }
    return out.string();
  }();
  return path;
}

// The scope lines of SCOPES, in order.
std::vector<std::string> scope_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// The dimension a scope line states: the text before its first ':'.
std::string dimension(const std::string& line) { return line.substr(0, line.find(':')); }

std::string entry(const std::string& scope, double value) {
  std::string e = "- name: gemm.compute_efficiency\n  scope: {" + scope + "}\n  value: " + std::to_string(value) +
                  "\n  unit: ratio\n  boundary: {time: device, execution: independent}\n  method:\n    roofline:\n      facts:\n"
                  "      - {file: catalog/hardware/H100-SXM.yaml, field: dense_peak.bf16.value, value: 989000000000000}\n"
                  "      formula: a test fixture of the precedence (tests/cost/precedence_test.cpp)\n";
  if (dimension(scope) == "model") e += "  missing_form: none; a test fixture of the precedence\n";
  return e;
}

std::string document(const std::string& set, const std::string& family, const std::string& entries) {
  return "# written by registry/scripts/write_floor.py; do not edit\nset: " + set + "\nfamily: " + family +
         "\nwritten_by: registry/scripts/write_floor.py\nentries:\n" + entries;
}

LookupKey full_key() {
  LookupKey k;
  k.kernel = KernelImpl{"cutlass", "fixture_pair", "sha256:" + std::string(64, 'c')};
  k.chip = "H100-SXM";
  k.dtype = "bf16";
  k.model = "Qwen/Qwen3-8B";
  k.workload = "chat-sharegpt";
  k.fabric = "InfiniBand-NDR";
  k.span = "node";
  k.group_size = k.tp = k.ep = k.pp = k.dp = k.cp = 2;
  return k;
}

struct Outcome {
  std::string chosen;     // the chosen entry's set
  std::string displaced;  // the other pair entry's set, if displaced
  blis::data::ScopeOrder data_order{};  // compare_scopes(pair-a, pair-b)
};

Outcome resolve_pair(const std::string& family, const std::string& name, const std::string& a, const std::string& b,
                     const InputPoint& point, bool a_first) {
  TempDir da, db;
  da.write("sets/pair-a/" + family + ".yaml", document("pair-a", family, a));
  db.write("sets/pair-b/" + family + ".yaml", document("pair-b", family, b));
  blis::data::LoadOptions o;
  o.registry_dir = floor_registry();
  o.registry_overlays = a_first ? std::vector<std::string>{da.path(), db.path()} : std::vector<std::string>{db.path(), da.path()};
  const blis::data::DataSet data = load_data(o);
  const Coefficients c = blis::cost::testing::coefficients(data);
  const Resolved r = resolve(c, name, full_key(), point);
  Outcome out;
  out.chosen = r.entry->set;
  for (const auto& d : r.displaced)
    if (d.find("set pair-") != std::string::npos) out.displaced = d.substr(d.find("set pair-") + 4, 6);
  const blis::data::Coefficient *ca = nullptr, *cb = nullptr;
  for (const auto& co : data.coefficients) {
    if (co.id.name != name) continue;
    if (co.id.set == "pair-a") ca = &co;
    if (co.id.set == "pair-b") cb = &co;
  }
  if (ca == nullptr || cb == nullptr) throw std::runtime_error("a pair entry did not load");
  out.data_order = blis::data::compare_scopes(ca->id.scope, cb->id.scope);
  return out;
}

TEST(CostScopePrecedence, EveryPairOfScopesResolvesAsTheDataLayerOrdersItInBothLoadOrders) {
  const std::vector<std::string> scopes = scope_lines(g_scopes);
  const auto order = blis::data::scope_precedence();
  auto rank = [&](const std::string& dim) {
    return static_cast<std::size_t>(std::find(order.begin(), order.end(), dim) - order.begin());
  };
  for (const auto& s : scopes) ASSERT_LT(rank(dimension(s)), order.size()) << g_scopes << ": '" << s << "' states no scope dimension";
  for (auto d : order) {
    if (d == "workload") continue;
    EXPECT_TRUE(std::any_of(scopes.begin(), scopes.end(), [&](const std::string& s) { return dimension(s) == d; }))
        << g_scopes << " states no scope of dimension " << d << ": every dimension but workload is tried";
  }
  const InputPoint point{{"m", 256}, {"n", 4096}, {"k", 4096}};
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    for (std::size_t j = i + 1; j < scopes.size(); ++j) {
      const std::string a = entry(scopes[i], 0.5), b = entry(scopes[j], 0.25);
      for (bool a_first : {true, false}) {
        SCOPED_TRACE("'" + scopes[i] + "' vs '" + scopes[j] + (a_first ? "', pair-a loaded first" : "', pair-b loaded first"));
        Outcome o;
        try {
          o = resolve_pair("gemm", "gemm.compute_efficiency", a, b, point, a_first);
        } catch (const std::exception& e) {
          const std::string why = e.what();
          // The input itself is refused: the first such pair is reported, and the rest not tried.
          if (why.find("does not order them") != std::string::npos)
            FAIL() << "the precedence leaves the pair unordered, and the load refuses it:\n" << why;
          FAIL() << "the load refused the pair:\n" << why;
        }
        ASSERT_TRUE(o.data_order == blis::data::ScopeOrder::first_wins || o.data_order == blis::data::ScopeOrder::second_wins);
        const std::string winner = o.data_order == blis::data::ScopeOrder::first_wins ? "pair-a" : "pair-b";
        const std::string loser = winner == "pair-a" ? "pair-b" : "pair-a";
        EXPECT_EQ(o.chosen, winner);
        EXPECT_EQ(o.displaced, loser);
        // The README's order, read from the same list: the dimension earlier in it wins.
        EXPECT_EQ(winner, rank(dimension(scopes[i])) < rank(dimension(scopes[j])) ? "pair-a" : "pair-b");
      }
    }
  }
}

// The workload dimension: an entry stating it outranks the floor's unscoped assumed entry, which the
// lookup reports displaced.
TEST(CostScopePrecedence, AWorkloadEntryOutranksTheUnscopedFloor) {
  TempDir d;
  d.write("sets/pair-a/moe.expert_imbalance.yaml",
          document("pair-a", "moe.expert_imbalance",
                   "- name: moe.expert_imbalance.max_over_mean\n  scope: {workload: chat-sharegpt}\n  value: 1.5\n  unit: ratio\n"
                   "  boundary: {time: device, execution: independent}\n  method:\n    assumed:\n"
                   "      reason: a test fixture of the precedence\n      price_bound: none\n"));
  blis::data::LoadOptions o;
  o.registry_dir = floor_registry();
  o.registry_overlays = {d.path()};
  const blis::data::DataSet data = load_data(o);
  const Coefficients c = blis::cost::testing::coefficients(data);
  const Resolved r = resolve(c, "moe.expert_imbalance.max_over_mean", full_key(), {{"ep", 8}, {"experts", 128}, {"top_k", 8}});
  EXPECT_EQ(r.entry->set, "pair-a");
  EXPECT_EQ(r.value, 1.5);
  ASSERT_EQ(r.displaced.size(), 1u);
  EXPECT_NE(r.displaced[0].find("set floor"), std::string::npos) << r.displaced[0];
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: cost-scope-precedence-test SCOPES\n");
    return 2;
  }
  g_scopes = argv[1];
  // Run from its invariant record, the environment meson gives tests is absent: the floor registry is the
  // checkout's, whose path the build records.
  if (std::getenv("BLIS_SOURCE_ROOT") == nullptr) setenv("BLIS_SOURCE_ROOT", BLIS_SOURCE_ROOT_BUILD, 0);
  return RUN_ALL_TESTS();
}
