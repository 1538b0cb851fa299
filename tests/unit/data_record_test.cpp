// The record of what a run loaded and used (§3.3, X8): sources, hashes, overlays, selected entries and
// registry files never loaded, serialised deterministically.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "data/loader.h"
#include "data/record.h"
#include "data_test_tree.h"

namespace blis::data {
namespace {

using testing::coefficient_set;
using testing::TempTree;

struct Loaded {
  TempTree cat, reg, ov;
  LoadOutcome outcome;
  Loaded() {
    cat.write("hardware/h1.yaml", "a: 1\n");
    reg.write("families.yaml", "a: 1\n");
    reg.write("acceptance/p.yaml", "a: 1\n");
    reg.write("routing/r.yaml", "a: 1\n");
    reg.write("sets/s/gemm.yaml", coefficient_set("s", "gemm",
                                                  {"{name: e, scope: {chip: h1}, method: {measured: {}}}",
                                                   "{name: f, method: {assumed: {}}}"}));
    reg.write("sets/s/attn.yaml", coefficient_set("s", "attn", {"{name: r, method: {roofline: {}}}"}));
    ov.write("sets/s/gemm.yaml", coefficient_set("s", "gemm", {"{name: f, method: {assumed: {why: new}}}"}));
    outcome = load({cat.dir(), reg.dir(), {}, {ov.dir()}}, testing::accept_all());
  }
  const DataSet& data() const { return *outcome.data; }
  const Coefficient& entry(const std::string& name) const {
    for (const auto& c : data().coefficients) {
      if (c.id.name == name) return c;
    }
    throw std::runtime_error("no entry " + name);
  }
};

TEST(Record, SourcesHashesAndOverlays) {
  Loaded l;
  ASSERT_TRUE(l.outcome.ok()) << testing::messages(l.outcome);
  const LoadRecord r = make_record(l.data());
  EXPECT_EQ(r.catalog.source, Source::path);
  EXPECT_EQ(r.catalog.directory, std::filesystem::absolute(l.cat.dir()).lexically_normal().generic_string());
  EXPECT_EQ(r.catalog.base_hash, l.data().catalog.layers[0].hash);
  EXPECT_TRUE(r.catalog.overlays.empty());
  EXPECT_EQ(r.catalog.combined_hash, r.catalog.base_hash);
  ASSERT_EQ(r.registry.overlays.size(), 1u);
  EXPECT_EQ(r.registry.overlays[0].hash, l.data().registry.layers[1].hash);
  EXPECT_EQ(r.registry.combined_hash, l.data().registry.combined_hash);
  EXPECT_NE(r.registry.combined_hash, r.registry.base_hash);
}

// Without a usage log every registry file of the combined data is never loaded; with one, what the run's
// readers used is not, and each selected entry is listed with its file and layer.
TEST(Record, SelectedEntriesAndFilesNeverLoaded) {
  Loaded l;
  ASSERT_TRUE(l.outcome.ok()) << testing::messages(l.outcome);
  EXPECT_EQ(make_record(l.data()).never_loaded.size(), 6u);  // acceptance, families, routing, attn, gemm@0, gemm@1

  UsageLog usage;
  usage.selected(l.entry("f"));  // the overlay's entry
  usage.selected(l.entry("f"));  // twice: listed once
  usage.used(*l.data().registry.find("routing/r.yaml"));
  const LoadRecord r = make_record(l.data(), &usage);
  ASSERT_EQ(r.selected.size(), 1u);
  EXPECT_EQ(r.selected[0].id.name, "f");
  EXPECT_EQ(r.selected[0].path, "sets/s/gemm.yaml");
  EXPECT_EQ(r.selected[0].layer, 1u);
  std::string never;
  for (const auto& f : r.never_loaded) never += f.path + "@" + std::to_string(f.layer) + " " + f.kind + "\n";
  EXPECT_EQ(never,
            "acceptance/p.yaml@0 acceptance-profile\nfamilies.yaml@0 primitive-families\n"
            "sets/s/attn.yaml@0 coefficient-set\nsets/s/gemm.yaml@0 coefficient-set\n");
}

TEST(Record, JsonIsDeterministicAndTheComparedFormOmitsSources) {
  Loaded l;
  ASSERT_TRUE(l.outcome.ok());
  UsageLog a, b;  // the same uses, in different orders
  a.selected(l.entry("e"));
  a.selected(l.entry("r"));
  b.selected(l.entry("r"));
  b.selected(l.entry("e"));
  const std::string ja = make_record(l.data(), &a).to_json().dump(2);
  const std::string jb = make_record(l.data(), &b).to_json().dump(2);
  EXPECT_EQ(ja, jb);
  const nlohmann::json j = make_record(l.data(), &a).to_json();
  EXPECT_EQ(j["catalog"]["source"], "path");
  EXPECT_EQ(j["registry"]["overlays"][0]["hash"], l.data().registry.layers[1].hash);
  // Sorted by identity (set, name, scope, method), whatever order the lookups came in.
  EXPECT_EQ(j["registry_entries_selected"][0]["name"], "e");
  EXPECT_EQ(j["registry_entries_selected"][0]["scope"]["chip"], "h1");
  EXPECT_EQ(j["registry_entries_selected"][1]["name"], "r");
  const nlohmann::json c = make_record(l.data(), &a).to_json_compared();
  EXPECT_FALSE(c["catalog"].contains("source"));
  EXPECT_FALSE(c["catalog"].contains("directory"));
  EXPECT_FALSE(c["registry"]["overlays"][0].contains("directory"));
  EXPECT_EQ(c["registry"]["combined_hash"], l.data().registry.combined_hash);
}

// The same data from two directories gives the same compared record (X6: the source is left out).
TEST(Record, ComparedFormIgnoresWhereTheDataCameFrom) {
  Loaded one, two;
  ASSERT_TRUE(one.outcome.ok() && two.outcome.ok());
  EXPECT_NE(make_record(one.data()).to_json(), make_record(two.data()).to_json());
  EXPECT_EQ(make_record(one.data()).to_json_compared(), make_record(two.data()).to_json_compared());
}

}  // namespace
}  // namespace blis::data
