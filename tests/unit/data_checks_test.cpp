// Every load runs every kind validator and every cross-check; the built-in cross-checks between catalog
// and registry (chips and models a scope names exist; VAL-4's scope precedence); options from the
// environment.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "data/cross_checks.h"
#include "data/loader.h"
#include "data/scope_precedence.h"
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "data_test_tree.h"

namespace blis::data {
namespace {

using testing::coefficient_set;
using testing::TempTree;

// A model.yaml the generated reader accepts (the cross-check reads model ids with it): the schema's
// example, renamed.
std::string model_yaml(const std::string& id) {
  const char* root = std::getenv("BLIS_SOURCE_ROOT");
  std::ifstream in(std::string(root ? root : ".") + "/schemas/examples/model/qwen3-32b.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const auto eol = text.find('\n');
  return text.empty() ? std::string() : "id: " + id + text.substr(eol);
}

struct Trees {
  TempTree cat, reg;
  Trees() {
    cat.write("hardware/h1.yaml", "a: 1\n");
    cat.write("models/org--m/model.yaml", model_yaml("org/m"));
    cat.write("models/org--m/graph.yaml", "a: 1\n");
    reg.write("families.yaml", "a: 1\n");
  }
  LoadOptions options(std::vector<std::string> cat_overlays = {}, std::vector<std::string> reg_overlays = {}) const {
    return {cat.dir(), reg.dir(), std::move(cat_overlays), std::move(reg_overlays)};
  }
};

ValidatorTable with_builtins() {
  ValidatorTable t = testing::accept_all();
  add_builtin_cross_checks(t);
  return t;
}

// Refused: a loaded file whose kind has no validator, naming the file and the kind. Accepted twins: the
// complete table, and a table lacking only kinds no loaded file has.
TEST(Validators, EveryLoadedFileNeedsAValidatorForItsKind) {
  Trees t;
  ValidatorTable partial;
  for (const char* kind : {"chip", "model", "graph"})
    partial.set_kind_validator(kind, [](const LoadedFile&, Diagnostics&) {});
  const auto o = load(t.options(), partial);
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(testing::messages(o), t.reg.dir() +
                                      "/families.yaml: no validator is registered for its kind, "
                                      "primitive-families; every loaded file is validated "
                                      "(src/data/standard_validators.cpp) [SUB-9]\n");
  partial.set_kind_validator("primitive-families", [](const LoadedFile&, Diagnostics&) {});
  EXPECT_TRUE(load(t.options(), partial).ok()) << testing::messages(load(t.options(), partial));
  EXPECT_FALSE(partial.missing_kinds(PatternTable::compiled()).empty());
  EXPECT_TRUE(testing::accept_all().missing_kinds(PatternTable::compiled()).empty());
}

TEST(Validators, EveryFileOfEveryLayerIsValidatedByItsKind) {
  Trees t;
  TempTree ov;
  ov.write("hardware/h1.yaml", "a: 2\n");
  std::vector<std::string> seen;
  ValidatorTable v = testing::accept_all();
  for (const char* kind : {"chip", "model", "graph", "primitive-families"}) {
    v.set_kind_validator(kind, [&seen, kind](const LoadedFile& f, Diagnostics&) {
      seen.push_back(std::string(kind) + " " + f.path + "@" + std::to_string(f.layer));
    });
  }
  ASSERT_TRUE(load(t.options({ov.dir()}), v).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"chip hardware/h1.yaml@0", "graph models/org--m/graph.yaml@0",
                                            "model models/org--m/model.yaml@0", "chip hardware/h1.yaml@1",
                                            "primitive-families families.yaml@0"}));
}

// Refused: a validator's finding (with its line), or a validator that throws. Accepted twin: a file the
// same validator passes.
TEST(Validators, AValidatorFindingRefusesTheLoad) {
  Trees t;
  ValidatorTable v = testing::accept_all();
  v.set_kind_validator("chip", [](const LoadedFile& f, Diagnostics& d) {
    if (f.bytes.find("bad") != std::string::npos) d.error(f, 2, 3, "bad is not a chip field [SUB-12]");
  });
  v.set_kind_validator("graph", [](const LoadedFile& f, Diagnostics&) {
    if (f.bytes.find("throw") != std::string::npos) throw std::runtime_error("boom");
  });
  ASSERT_TRUE(load(t.options(), v).ok());
  t.cat.write("hardware/h1.yaml", "a: 1\nbad: 2\n");
  t.cat.write("models/org--m/graph.yaml", "throw: 1\n");
  const auto o = load(t.options(), v);
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(testing::messages(o), t.cat.dir() + "/hardware/h1.yaml:2:3: bad is not a chip field [SUB-12]\n" +
                                      t.cat.dir() + "/models/org--m/graph.yaml: the graph validator failed: boom\n");
}

TEST(Validators, CrossChecksSeeTheCombinedDataInNameOrder) {
  Trees t;
  TempTree ov;
  ov.write("hardware/h2.yaml", "a: 1\n");
  std::vector<std::string> order;
  ValidatorTable v = testing::accept_all();
  v.add_cross_check("b-second", [&](const DataSet& d, Diagnostics&) {
    order.push_back("b:" + std::to_string(d.catalog.of_kind("chip").size()));
  });
  v.add_cross_check("a-first", [&](const DataSet&, Diagnostics&) { order.push_back("a"); });
  ASSERT_TRUE(load(t.options({ov.dir()}), v).ok());
  EXPECT_EQ(order, (std::vector<std::string>{"a", "b:2"}));
  v.add_cross_check("c-refuses", [](const DataSet&, Diagnostics& d) { d.error("no"); });
  EXPECT_EQ(testing::messages(load(t.options({ov.dir()}), v)), "no\n");
}

// Refused: a coefficient scoped to a chip, network or model the catalog in use lacks, named with where
// it would belong. Accepted twins: the entry exists, including when an overlay brings it.
TEST(CrossChecks, EveryCatalogEntryAScopeNamesExists) {
  Trees t;
  t.reg.write("sets/s/gemm.yaml",
              coefficient_set("s", "gemm", {"{name: e, scope: {chip: h9}, method: {assumed: {}}}"}));
  EXPECT_EQ(testing::messages(load(t.options(), with_builtins())),
            t.reg.dir() +
                "/sets/s/gemm.yaml:4: scope chip 'h9' names nothing in the catalog in use (path), which "
                "would hold it at hardware/h9.yaml [SUB-9]\n");
  TempTree ov;
  ov.write("hardware/h9.yaml", "a: 1\n");
  EXPECT_TRUE(load(t.options({ov.dir()}), with_builtins()).ok());
  t.reg.write("sets/s/gemm.yaml",
              coefficient_set("s", "gemm", {"{name: e, scope: {chip: h1}, method: {assumed: {}}}"}));
  EXPECT_TRUE(load(t.options(), with_builtins()).ok());

  t.reg.write("sets/s/gemm.yaml",
              coefficient_set("s", "gemm", {"{name: e, scope: {fabric: ib}, method: {assumed: {}}}"}));
  EXPECT_NE(testing::messages(load(t.options(), with_builtins())).find("would hold it at networks/ib.yaml"),
            std::string::npos);
  t.cat.write("networks/ib.yaml", "a: 1\n");
  EXPECT_TRUE(load(t.options(), with_builtins()).ok());

  // A model is named by its id (org/name); its directory is org--name.
  t.reg.write("sets/s/gemm.yaml",
              coefficient_set("s", "gemm", {"{name: e, scope: {model: org/q}, method: {assumed: {}}}"}));
  EXPECT_NE(testing::messages(load(t.options(), with_builtins())).find("would hold it at models/org--q/model.yaml"),
            std::string::npos);
  t.reg.write("sets/s/gemm.yaml",
              coefficient_set("s", "gemm", {"{name: e, scope: {model: org/m}, method: {assumed: {}}}"}));
  EXPECT_TRUE(load(t.options(), with_builtins()).ok()) << testing::messages(load(t.options(), with_builtins()));
}

std::vector<ScopeItem> scope(std::string_view flow) {
  // Reads a scope through the loader, so the test sees exactly what the cross-check sees.
  TempTree cat, reg;
  reg.write("sets/s/f.yaml",
            coefficient_set("s", "f", {"{name: e, scope: " + std::string(flow) + ", method: {assumed: {}}}"}));
  const auto o = load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all());
  if (!o.ok() || o.data->coefficients.size() != 1) throw std::runtime_error(testing::messages(o));
  return o.data->coefficients[0].id.scope;
}

TEST(ScopePrecedence, WrittenRule) {
  const auto none = scope("{}"), chip = scope("{chip: h1}"), chip2 = scope("{chip: h2}"), model = scope("{model: m}"),
             both = scope("{chip: h1, model: m}"), tp = scope("{chip: h1, tp: 8}"),
             dtype = scope("{chip: h1, dtype: bf16}");
  EXPECT_EQ(compare_scopes(chip, chip2), ScopeOrder::disjoint);
  EXPECT_EQ(compare_scopes(both, chip2), ScopeOrder::disjoint);
  EXPECT_EQ(compare_scopes(both, chip), ScopeOrder::first_wins);
  EXPECT_EQ(compare_scopes(chip, both), ScopeOrder::second_wins);
  EXPECT_EQ(compare_scopes(chip, none), ScopeOrder::first_wins);
  EXPECT_EQ(compare_scopes(none, model), ScopeOrder::second_wins);
  EXPECT_EQ(compare_scopes(chip, model), ScopeOrder::first_wins);  // chip precedes model
  EXPECT_EQ(compare_scopes(model, chip), ScopeOrder::second_wins);
  EXPECT_EQ(compare_scopes(dtype, tp), ScopeOrder::first_wins);  // dtype precedes tp
  EXPECT_EQ(compare_scopes(both, tp), ScopeOrder::first_wins);   // a count of keys would tie these
  EXPECT_EQ(compare_scopes(chip, chip), ScopeOrder::unordered);
  EXPECT_EQ(compare_scopes(none, none), ScopeOrder::unordered);
  // kernel: library and variant agree and the hash lists overlap (lists compare as sets).
  const auto k1 = scope("{kernel: {library: l, variant: v, code_hashes: [a, b]}}");
  const auto k2 = scope("{kernel: {library: l, variant: v, code_hashes: [c, b]}}");
  const auto k3 = scope("{kernel: {library: l, variant: v, code_hashes: [c]}}");
  const auto k4 = scope("{kernel: {library: l, variant: w, code_hashes: [a]}}");
  EXPECT_EQ(compare_scopes(k1, k2), ScopeOrder::unordered);
  EXPECT_EQ(compare_scopes(k1, k3), ScopeOrder::disjoint);
  EXPECT_EQ(compare_scopes(k1, k4), ScopeOrder::disjoint);
  EXPECT_EQ(compare_scopes(k3, chip), ScopeOrder::first_wins);                      // kernel precedes chip
  EXPECT_EQ(scope("{kernel: {library: l, variant: v, code_hashes: [b, a]}}"), k1);  // one identity
}

// The written order is the field order of Scope in the coefficient-set schema.
TEST(ScopePrecedence, EqualsTheSchemaScopeFieldOrder) {
  const char* root = std::getenv("BLIS_SOURCE_ROOT");
  ASSERT_NE(root, nullptr);
  const std::string path = std::string(root) + "/schemas/registry/coefficient-set.yaml";
  const YAML::Node schema = YAML::LoadFile(path);
  std::vector<std::string> fields;
  for (const auto& kv : schema["types"]["Scope"]["fields"]) fields.push_back(kv.first.as<std::string>());
  const auto p = scope_precedence();
  EXPECT_EQ(fields, std::vector<std::string>(p.begin(), p.end())) << path;
}

// VAL-4. Refused: two entries of one name and rank that state the same scope dimensions and can answer
// one lookup, in either load order. Accepted twins: the precedence orders them, they cannot answer one
// lookup, or their ranks or names differ.
TEST(CrossChecks, UnorderedMatchesAtOneRankAreRefused) {
  struct Case {
    std::vector<std::string> entries;
    bool ok;
  };
  const std::string k1 = "kernel: {library: l, variant: v, code_hashes: [a, b]}";
  const std::string k2 = "kernel: {library: l, variant: v, code_hashes: [b, c]}";
  const std::string k3 = "kernel: {library: l, variant: v, code_hashes: [c]}";
  const Case cases[] = {
      {{"{name: e, scope: {chip: h1}, method: {measured: {}}}", "{name: e, scope: {chip: h1}, method: {measured: {}}}"},
       false},
      {{"{name: e, scope: {" + k1 + "}, method: {measured: {}}}",
        "{name: e, scope: {" + k2 + "}, method: {measured: {}}}"},
       false},
      {{"{name: e, scope: {chip: h1}, method: {assumed: {}}}",
        "{name: e, scope: {chip: h1}, method: {not_charged: {}}}"},
       false},
      {{"{name: e, scope: {" + k1 + "}, method: {measured: {}}}",
        "{name: e, scope: {" + k3 + "}, method: {measured: {}}}"},
       true},
      {{"{name: e, scope: {chip: h1}, method: {measured: {}}}",
        "{name: e, scope: {model: org/m}, method: {measured: {}}}"},
       true},
      {{"{name: e, scope: {chip: h1}, method: {measured: {}}}", "{name: e, scope: {chip: h2}, method: {measured: {}}}"},
       true},
      {{"{name: e, scope: {chip: h1}, method: {measured: {}}}",
        "{name: e, scope: {chip: h1}, method: {calibrated: {}}}"},
       true},
      {{"{name: e, scope: {chip: h1}, method: {measured: {}}}", "{name: f, scope: {chip: h1}, method: {measured: {}}}"},
       true},
  };
  for (const auto& c : cases) {
    for (bool swapped : {false, true}) {
      Trees t;
      t.cat.write("hardware/h2.yaml", "a: 1\n");
      // Each entry in its own set, so the load order is the set order; swapped reverses it.
      t.reg.write("sets/a/gemm.yaml", coefficient_set("a", "gemm", {c.entries[swapped ? 1 : 0]}));
      t.reg.write("sets/b/gemm.yaml", coefficient_set("b", "gemm", {c.entries[swapped ? 0 : 1]}));
      const auto o = load(t.options(), with_builtins());
      EXPECT_EQ(o.ok(), c.ok) << c.entries[0] << " / " << c.entries[1] << "\n" << testing::messages(o);
      if (!c.ok) {
        EXPECT_NE(testing::messages(o).find("[VAL-4]"), std::string::npos);
      }
    }
  }
  Trees t;
  t.reg.write("sets/a/gemm.yaml",
              coefficient_set("a", "gemm", {"{name: e, scope: {chip: h1}, method: {measured: {}}}"}));
  t.reg.write("sets/b/gemm.yaml",
              coefficient_set("b", "gemm", {"{name: e, scope: {chip: h1}, method: {measured: {}}}"}));
  EXPECT_EQ(testing::messages(load(t.options(), with_builtins())),
            t.reg.dir() +
                "/sets/b/gemm.yaml:4: (set b, name e, scope {chip: h1}, method measured) and (set a, name e, "
                "scope {chip: h1}, method measured) at " +
                t.reg.dir() +
                "/sets/a/gemm.yaml:4 both answer a lookup at rank 1 and state the same scope dimensions, so the "
                "precedence of registry/README.md does not order them [VAL-4]\n");
}

TEST(Options, AFlagWinsOverItsVariable) {
  const std::map<std::string, std::string> env = {{"BLIS_CATALOG", "/env/cat"}, {"BLIS_REGISTRY", "/env/reg"}};
  const EnvLookup lookup = [&](const char* n) -> std::optional<std::string> {
    const auto it = env.find(n);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  Diagnostics d;
  LoadOptions flags;
  flags.catalog_dir = "/flag/cat";
  const LoadOptions o = apply_environment(flags, lookup, d);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(o.catalog_dir, "/flag/cat");
  EXPECT_EQ(o.registry_dir, "/env/reg");
  const LoadOptions none = apply_environment(
      {}, [](const char*) { return std::nullopt; }, d);
  EXPECT_FALSE(none.catalog_dir.has_value());
  EXPECT_FALSE(none.registry_dir.has_value());
  EXPECT_TRUE(d.empty());
}

// Refused: a variable or flag set to the empty string. Accepted twin: unset.
TEST(Options, EmptyPathsAreRefused) {
  Diagnostics d;
  (void)apply_environment(
      {},
      [](const char* n) -> std::optional<std::string> {
        return std::string(n) == "BLIS_REGISTRY" ? std::optional<std::string>("") : std::nullopt;
      },
      d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.all()[0].text(),
            "BLIS_REGISTRY: is set to the empty string; unset it to use the embedded copy, or name a directory");
  Diagnostics d2;
  LoadOptions flags;
  flags.catalog_dir = "";
  (void)apply_environment(
      flags, [](const char*) { return std::nullopt; }, d2);
  EXPECT_EQ(d2.size(), 1u);
}

}  // namespace
}  // namespace blis::data
