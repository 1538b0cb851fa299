// VAL-4, the cost-model half: for every pair of scope dimensions, two entries of one rank that answer one
// lookup, each stating one of the two, resolve to the entry src/data's compare_scopes picks, whichever
// order the two were loaded in (two overlays, applied both ways); the other is reported displaced. The
// workload dimension is tested on the one workload-keyed family (D8 keeps it off every other).
#include <gtest/gtest.h>
#include <stdlib.h>

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

const std::string kHash = "sha256:" + std::string(64, 'c');

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

// A scope dimension's YAML text for one entry.
std::string scope_item(const std::string& dim) {
  if (dim == "kernel") return "kernel: {library: cutlass, variant: fixture_pair, code_hashes: ['" + kHash + "']}";
  if (dim == "chip") return "chip: H100-SXM";
  if (dim == "dtype") return "dtype: bf16";
  if (dim == "model") return "model: Qwen/Qwen3-8B";
  if (dim == "fabric") return "fabric: InfiniBand-NDR";
  if (dim == "span") return "span: node";
  return dim + ": 2";  // group_size and the layout widths
}

std::string entry(const std::string& dim, double value) {
  std::string e = "- name: gemm.compute_efficiency\n  scope: {" + scope_item(dim) + "}\n  value: " + std::to_string(value) +
                  "\n  unit: ratio\n  boundary: {time: device, execution: independent}\n  method:\n    roofline:\n      facts:\n"
                  "      - {file: catalog/hardware/H100-SXM.yaml, field: dense_peak.bf16.value, value: 989000000000000}\n"
                  "      formula: a test fixture of the precedence (tests/cost/precedence_test.cpp)\n";
  if (dim == "model") e += "  missing_form: none; a test fixture of the precedence\n";
  return e;
}

std::string document(const std::string& set, const std::string& family, const std::string& entries) {
  return "# written by registry/scripts/write_floor.py; do not edit\nset: " + set + "\nfamily: " + family +
         "\nwritten_by: registry/scripts/write_floor.py\nentries:\n" + entries;
}

LookupKey full_key() {
  LookupKey k;
  k.kernel = KernelImpl{"cutlass", "fixture_pair", kHash};
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

TEST(CostScopePrecedence, EveryPairOfDimensionsResolvesAsTheDataLayerOrdersItInBothLoadOrders) {
  std::vector<std::string> dims;
  for (auto d : blis::data::scope_precedence())
    if (d != "workload") dims.emplace_back(d);
  ASSERT_EQ(dims.size(), 12u);
  int pairs = 0;
  const InputPoint point{{"m", 256}, {"n", 4096}, {"k", 4096}};
  for (std::size_t i = 0; i < dims.size(); ++i) {
    for (std::size_t j = i + 1; j < dims.size(); ++j) {
      const std::string a = entry(dims[i], 0.5), b = entry(dims[j], 0.25);
      for (bool a_first : {true, false}) {
        SCOPED_TRACE(dims[i] + " vs " + dims[j] + (a_first ? ", pair-a loaded first" : ", pair-b loaded first"));
        const Outcome o = resolve_pair("gemm", "gemm.compute_efficiency", a, b, point, a_first);
        ASSERT_TRUE(o.data_order == blis::data::ScopeOrder::first_wins || o.data_order == blis::data::ScopeOrder::second_wins);
        const std::string winner = o.data_order == blis::data::ScopeOrder::first_wins ? "pair-a" : "pair-b";
        const std::string loser = winner == "pair-a" ? "pair-b" : "pair-a";
        EXPECT_EQ(o.chosen, winner);
        EXPECT_EQ(o.displaced, loser);
        // The README's order, read from the same list: the dimension earlier in it wins.
        EXPECT_EQ(winner, i < j ? "pair-a" : "pair-b");
      }
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 12 * 11 / 2);
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
