// The coefficient registry's rules in C++ (src/data/registry_checks.h, X15): each refuses the smallest bad
// input and accepts its closest twin, on registry/scripts/test's fixture tree (two invented chips, a few
// families) with its floor written by registry/scripts/write_floor.py and each fixtures/cases/<rule>.*.yaml
// added. Validator parity (X15): on every case pair, and on the trees test_registry.py builds, blis's load
// and registry/scripts/check_registry.py give the same verdict.
#include "data/registry_checks.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "data/loader.h"
#include "data/validators.h"
#include "data_test_tree.h"

namespace blis::data {
namespace {

namespace fs = std::filesystem;
using testing::TempTree;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

std::string source_root() {
  const std::string r = env("BLIS_SOURCE_ROOT");
  return r.empty() ? std::string(".") : r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fixtures() { return source_root() + "/registry/scripts/test/fixtures"; }

std::string case_text(const std::string& name, const std::string& twin) {
  const fs::path p = fixtures() + "/cases/" + name + "." + twin + ".yaml";
  EXPECT_TRUE(fs::exists(p)) << p;
  return slurp(p);
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A model.yaml the generated reader accepts, for the one catalog model a case names (scope-names refuses a
// model scope that names no catalog model; check_registry.py reads no models).
std::string model_yaml(const std::string& id) {
  const std::string text = slurp(source_root() + "/schemas/examples/model/qwen3-32b.yaml");
  const auto eol = text.find('\n');
  return text.empty() ? std::string() : "id: " + id + text.substr(eol);
}

// The fixture tree with its floor written, made once.
const TempTree& template_tree() {
  static const TempTree* t = [] {
    auto* tree = new TempTree();
    fs::copy(fixtures() + "/tree", tree->root(), fs::copy_options::recursive);
    tree->write("catalog/models/fixture--Model-T/model.yaml", model_yaml("fixture/Model-T"));
    const std::string cmd = shell_quote(env("BLIS_PYTHON").empty() ? "python3" : env("BLIS_PYTHON")) + " " +
                            shell_quote(source_root() + "/registry/scripts/write_floor.py") + " --root " +
                            shell_quote(tree->dir()) + " > /dev/null";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("write_floor.py failed: " + cmd);
    return tree;
  }();
  return *t;
}

// A copy of the template tree to add a case to.
struct Tree {
  TempTree t;
  Tree() { fs::copy(template_tree().root(), t.root(), fs::copy_options::recursive); }
  void add(const std::string& rel, const std::string& text) const { t.write(rel, text); }
  std::string read(const std::string& rel) const { return slurp(t.root() / rel); }
  LoadOutcome load() const { return data::load({t.dir("catalog"), t.dir("registry"), {}, {}}, standard_validators()); }
  // Every refusal, one a line; empty when accepted.
  std::string refusals() const { return load().diagnostics.text(); }
  // check_registry.py's verdict: true when it accepts.
  bool python_accepts() const {
    const std::string cmd = shell_quote(env("BLIS_PYTHON").empty() ? "python3" : env("BLIS_PYTHON")) + " " +
                            shell_quote(source_root() + "/registry/scripts/check_registry.py") + " --root " +
                            shell_quote(t.dir()) + " > /dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
  }
};

struct Case {
  std::string rel;       // where the case file goes in the tree
  std::string fragment;  // a fragment of blis's refusal, with the rule
};

// Every case of fixtures/cases, as test_registry.py places it. Rules blis checked before this port
// (identity and a set's path in the loader, precedence and catalog names in cross_checks) are here too.
const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> m = {
      {"acceptance-duplicate", {"registry/acceptance/fixture.yaml", "is held twice in one set"}},
      {"acceptance-length", {"registry/acceptance/fixture.yaml", "exceeds K + 1 = 4 [D8]"}},
      {"acceptance-rates-count", {"registry/acceptance/fixture.yaml", "has 2 rates for K = 3 positions [D8]"}},
      {"acceptance-rates-order", {"registry/acceptance/fixture.yaml", "increase with position"}},
      {"boundary", {"registry/sets/extra/host.step.yaml", "its formula reads time=host, execution=independent"}},
      {"efficiency-above-one", {"registry/sets/extra/gemm.yaml", "is not in (0, 1]: an efficiency above 1"}},
      {"time-negative", {"registry/sets/extra/host.step.yaml", "no primitive takes less than no time [SUB-5]"}},
      {"chip-unknown", {"registry/sets/extra/gemm.yaml", "names nothing in the catalog in use"}},
      {"cite-key", {"registry/sets/extra/gemm.yaml", "cites source 'fixture-paper', which is not a key"}},
      {"coefficient", {"registry/sets/extra/gemm.yaml", "is not a coefficient of family gemm"}},
      {"fitted-kernel", {"registry/sets/extra/gemm.yaml", "leaves out kernel"}},
      {"header", {"registry/sets/extra/gemm.yaml", "every registry file is written by its writer script"}},
      {"identity", {"registry/sets/extra/gemm.yaml", "has the identity"}},
      {"input-range", {"registry/sets/extra/gemm.yaml", "not an input of gemm"}},
      {"interval", {"registry/sets/extra/gemm.yaml", "lies outside its own interval_95"}},
      {"kernel-overlap", {"registry/sets/extra/gemm.yaml", "does not order them [VAL-4]"}},
      {"model-scope", {"registry/sets/extra/gemm.yaml", "must name the missing general form (missing_form) [VAL-7]"}},
      {"one-method", {"registry/sets/extra/gemm.yaml", "method"}},
      {"placement", {"registry/sets/extra/gemm.yaml", "disagrees with the file's place"}},
      {"precedence", {"registry/sets/extra/gemm.yaml", "does not order them [VAL-4]"}},
      {"range-order", {"registry/sets/extra/gemm.yaml", "above max"}},
      {"roofline-fact", {"registry/sets/extra/gemm.yaml", "rerun the writer [VAL-1]"}},
      {"transfer-method", {"registry/sets/extra/gemm.yaml", "a transfer moves a measured or calibrated value"}},
      {"transfer-source", {"registry/sets/extra/gemm.yaml", "which is not in the registry [VAL-1]"}},
      {"unit", {"registry/sets/extra/gemm.yaml", "declares ratio [VAL-1]"}},
      {"value-not-charged", {"registry/sets/extra/gemm.yaml", "is not_charged and so has no value"}},
      {"vendor-kind", {"registry/sets/extra/gemm.yaml", "cites a source of kind paper"}},
      {"workload-keyed", {"registry/sets/extra/moe.expert_imbalance.yaml", "its scope states a workload"}},
      {"workload-not-keyed", {"registry/sets/extra/gemm.yaml", "is not workload-keyed"}},
  };
  return m;
}

// The placement case's bad twin sits at the wrong path.
std::string bad_path(const std::string& name, const Case& c) {
  return name == "placement" ? "registry/sets/extra/other.yaml" : c.rel;
}

TEST(RegistryChecks, FixtureFloorIsValid) {
  Tree t;
  EXPECT_EQ(t.refusals(), "");
  Diagnostics notices;
  registry_notices(*t.load().data, notices);
  EXPECT_TRUE(notices.empty()) << notices.text();
}

TEST(RegistryChecks, EveryCaseIsRefusedAndItsTwinAccepted) {
  for (const auto& [name, c] : cases()) {
    SCOPED_TRACE(name);
    Tree bad;
    bad.add(bad_path(name, c), case_text(name, "bad"));
    const std::string refused = bad.refusals();
    EXPECT_NE(refused.find(c.fragment), std::string::npos) << refused;
    Tree good;
    good.add(c.rel, case_text(name, "good"));
    EXPECT_EQ(good.refusals(), "");
  }
}

TEST(RegistryChecks, EveryCaseFileIsInTheTable) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(fixtures() + "/cases")) {
    std::string f = e.path().filename().string();
    f = f.substr(0, f.rfind('.'));
    names.insert(f.substr(0, f.rfind('.')));
  }
  std::set<std::string> table{"unidentified"};
  for (const auto& [name, c] : cases()) table.insert(name);
  EXPECT_EQ(names, table);
}

TEST(RegistryChecks, MessagesNameTheFileAndLine) {
  Tree t;
  t.add("registry/sets/extra/gemm.yaml", case_text("unit", "bad"));
  const auto o = t.load();
  ASSERT_EQ(o.diagnostics.size(), 1u) << o.diagnostics.text();
  EXPECT_EQ(o.diagnostics.all()[0].path, "sets/extra/gemm.yaml:6:3");
  EXPECT_EQ(o.diagnostics.all()[0].message,
            "gemm.memory_efficiency is in bytes; registry/families.yaml declares ratio [VAL-1]");
}

// VAL-10's flag: a notice, never a refusal.
TEST(RegistryChecks, UnidentifiedIsFlaggedNotRefused) {
  for (const char* twin : {"bad", "good"}) {
    Tree t;
    t.add("registry/sets/extra/gemm.yaml", case_text("unidentified", twin));
    const auto o = t.load();
    ASSERT_TRUE(o.ok()) << o.diagnostics.text();
    Diagnostics notices;
    registry_notices(*o.data, notices);
    EXPECT_EQ(notices.text().find("is unidentified: its interval_95 [0.3, 0.9] is wider than half its value 0.7") !=
                  std::string::npos,
              std::string(twin) == "bad")
        << twin << ": " << notices.text();
  }
  Tree unbounded;
  std::string text = case_text("unidentified", "good");
  text.replace(text.find("low: 0.6,"), 9, "low: null,");
  unbounded.add("registry/sets/extra/gemm.yaml", text);
  const auto o = unbounded.load();
  ASSERT_TRUE(o.ok()) << o.diagnostics.text();
  Diagnostics notices;
  registry_notices(*o.data, notices);
  EXPECT_NE(notices.text().find("its interval_95 is unbounded"), std::string::npos) << notices.text();
}

// VAL-10: low above high (the case files cover a value outside its interval).
TEST(RegistryChecks, IntervalLowAboveHighIsRefused) {
  Tree t;
  std::string text = case_text("interval", "good");
  const auto at = text.find("interval_95: {");
  const auto end = text.find('}', at);
  text.replace(at, end - at + 1, "interval_95: {low: 0.72, high: 0.68, how: bootstrap}");
  t.add("registry/sets/extra/gemm.yaml", text);
  EXPECT_NE(t.refusals().find("interval_95 low 0.72 is above high 0.68 [VAL-10]"), std::string::npos);
}

// VAL-1: a value is required on every method but not_charged.
TEST(RegistryChecks, ValueMissingIsRefused) {
  Tree t;
  std::string text = case_text("unit", "good");
  text.erase(text.find("  value: 1.0\n"), 13);
  t.add("registry/sets/extra/gemm.yaml", text);
  EXPECT_NE(t.refusals().find("gemm.memory_efficiency (assumed) has no value [VAL-1]"), std::string::npos)
      << t.refusals();
}

// VAL-1: a roofline fact names a catalog file and field that exist.
TEST(RegistryChecks, RooflineFactFileAndFieldMustResolve) {
  const std::string good = case_text("roofline-fact", "good");
  ASSERT_NE(good.find("memory.bandwidth.value"), std::string::npos);
  Tree field;
  std::string text = good;
  text.replace(text.find("memory.bandwidth.value"), 22, "memory.bandwidth.valeu");
  field.add("registry/sets/extra/gemm.yaml", text);
  EXPECT_NE(field.refusals().find("roofline fact memory.bandwidth.valeu is not in catalog/hardware/Chip-A.yaml"),
            std::string::npos)
      << field.refusals();
  Tree file;
  text = good;
  text.replace(text.find("catalog/hardware/Chip-A.yaml"), 28, "catalog/hardware/Chip-Z.yaml");
  file.add("registry/sets/extra/gemm.yaml", text);
  EXPECT_NE(file.refusals().find("roofline fact file catalog/hardware/Chip-Z.yaml is not in the catalog"),
            std::string::npos)
      << file.refusals();
}

// VAL-2: a coefficient set's family is declared.
TEST(RegistryChecks, UndeclaredFamilyIsRefused) {
  Tree t;
  std::string text = case_text("coefficient", "good");
  text.replace(text.find("family: gemm"), 12, "family: gemv");
  while (text.find("name: gemm.") != std::string::npos) text.replace(text.find("name: gemm."), 11, "name: gemv.");
  t.add("registry/sets/extra/gemv.yaml", text);
  EXPECT_NE(t.refusals().find("family 'gemv' is not in registry/families.yaml"), std::string::npos) << t.refusals();
}

// SUB-4: an acceptance profile set sits at acceptance/<set>.yaml.
TEST(RegistryChecks, AcceptancePlacement) {
  Tree t;
  t.add("registry/acceptance/other.yaml", case_text("acceptance-duplicate", "good"));
  EXPECT_NE(t.refusals().find("profile set 'fixture' belongs at acceptance/fixture.yaml"), std::string::npos)
      << t.refusals();
}

// D8: one exact key in two sets is ambiguous too.
TEST(RegistryChecks, AcceptanceKeyInTwoSetsIsAmbiguous) {
  Tree t;
  std::string text = case_text("acceptance-duplicate", "good");
  t.add("registry/acceptance/fixture.yaml", text);
  text.replace(text.find("set: fixture"), 12, "set: other");
  t.add("registry/acceptance/other.yaml", text);
  EXPECT_NE(t.refusals().find("is held in two sets (fixture, other)"), std::string::npos) << t.refusals();
}

// VAL-2, SUB-7: a chip without a floor, and a floor entry removed.
TEST(RegistryChecks, CompletenessRefusesAChipWithoutAFloor) {
  Tree t;
  std::string chip = t.read("catalog/hardware/Chip-A.yaml");
  for (auto p = chip.find("Chip-A"); p != std::string::npos; p = chip.find("Chip-A")) chip.replace(p, 6, "Chip-B");
  t.add("catalog/hardware/Chip-B.yaml", chip);
  const std::string refused = t.refusals();
  EXPECT_NE(refused.find("hardware/Chip-B.yaml: no entry answers gemm.compute_rate {chip=Chip-B, dtype=fp8}"),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("[VAL-2]"), std::string::npos);
}

TEST(RegistryChecks, CompletenessRefusesARemovedEntry) {
  Tree t;
  const std::string rel = "registry/sets/floor/host.step.yaml";
  const std::string text = t.read(rel);
  const auto start = text.find("- name: host.step.time\n  scope: {chip: Chip-R}");
  ASSERT_NE(start, std::string::npos);
  t.add(rel, text.substr(0, start));
  EXPECT_NE(t.refusals().find("no entry answers host.step.time {chip=Chip-R}"), std::string::npos) << t.refusals();
}

// X15's validator parity: the same verdict as check_registry.py on every case pair and every tree above.
TEST(RegistryChecks, ParityWithCheckRegistry) {
  std::vector<std::pair<std::string, const Tree*>> trees;
  std::vector<std::unique_ptr<Tree>> owned;
  auto add = [&](const std::string& label) {
    owned.push_back(std::make_unique<Tree>());
    trees.emplace_back(label, owned.back().get());
    return owned.back().get();
  };
  add("floor only");
  for (const auto& [name, c] : cases()) {
    add(name + ".bad")->add(bad_path(name, c), case_text(name, "bad"));
    add(name + ".good")->add(c.rel, case_text(name, "good"));
  }
  add("unidentified.bad")->add("registry/sets/extra/gemm.yaml", case_text("unidentified", "bad"));
  add("unidentified.good")->add("registry/sets/extra/gemm.yaml", case_text("unidentified", "good"));
  {
    Tree* t = add("chip without a floor");
    std::string chip = t->read("catalog/hardware/Chip-A.yaml");
    for (auto p = chip.find("Chip-A"); p != std::string::npos; p = chip.find("Chip-A")) chip.replace(p, 6, "Chip-B");
    t->add("catalog/hardware/Chip-B.yaml", chip);
  }
  {
    Tree* t = add("acceptance placement");
    t->add("registry/acceptance/other.yaml", case_text("acceptance-duplicate", "good"));
  }
  for (const auto& [label, t] : trees) {
    const bool cpp = t->load().ok();
    EXPECT_EQ(cpp, t->python_accepts()) << label << ": blis " << (cpp ? "accepts" : "refuses")
                                        << "; check_registry.py does not agree\n"
                                        << t->refusals();
  }
}

}  // namespace
}  // namespace blis::data
