// Overlays (§3.3): the catalog's identities (a whole file, a whole model directory) and the registry's (one
// coefficient by set, name, scope and method); same identity replaces, any other adds; hashes combine.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "contracts/sha256.h"
#include "data/content_hash.h"
#include "data/loader.h"
#include "data_test_tree.h"

namespace blis::data {
namespace {

using testing::coefficient_set;
using testing::TempTree;

struct Fixture {
  TempTree cat, reg;
  Fixture() {
    cat.write("hardware/h1.yaml", "name: h1\n");
    cat.write("hardware/h2.yaml", "name: h2\n");
    cat.write("models/m/model.yaml", "name: m\n");
    cat.write("models/m/graph.yaml", "layers: 1\n");
    reg.write("families.yaml", "families: []\n");
    reg.write("acceptance/a.yaml", "p: 1\n");
    reg.write("sets/base/gemm.yaml",
              coefficient_set("base", "gemm",
                              {"{name: eff, scope: {chip: h1}, method: {measured: {units: [u1]}}, value: 0.5}",
                               "{name: eff, scope: {chip: h2}, method: {measured: {units: [u2]}}, value: 0.6}"}));
  }
  LoadOutcome load_with(std::vector<std::string> cat_overlays, std::vector<std::string> reg_overlays) const {
    return load({cat.dir(), reg.dir(), std::move(cat_overlays), std::move(reg_overlays)}, testing::accept_all());
  }
};

std::string combined_files(const TreeData& t) {
  std::string out;
  for (const auto& f : t.files) out += f->path + "@" + std::to_string(f->layer) + "\n";
  return out;
}

std::string coefficients(const DataSet& d) {
  std::string out;
  for (const auto& c : d.coefficients)
    out += c.id.text() + " <- " + c.file->path + "@" + std::to_string(c.file->layer) + "\n";
  return out;
}

TEST(Overlay, NoOverlayCombinedHashIsTheBaseHash) {
  Fixture f;
  const auto o = f.load_with({}, {});
  ASSERT_TRUE(o.ok()) << testing::messages(o);
  EXPECT_EQ(o.data->catalog.combined_hash, o.data->catalog.layers[0].hash);
  EXPECT_EQ(o.data->registry.combined_hash, o.data->registry.layers[0].hash);
  EXPECT_FALSE(o.data->has_overlays());
  // The base hash is §3.3's hash over exactly the data files.
  std::vector<std::string> sums;
  for (const auto& file : o.data->catalog.layers[0].files) sums.push_back(contracts::sha256_hex(file->bytes));
  std::vector<FileDigest> digests;
  for (std::size_t i = 0; i < sums.size(); ++i) digests.push_back({o.data->catalog.layers[0].files[i]->path, sums[i]});
  EXPECT_EQ(o.data->catalog.layers[0].hash, content_hash(digests));
}

// A catalog overlay file with a base file's path replaces it; one with a new path is added.
TEST(Overlay, CatalogFileReplacesOrAdds) {
  Fixture f;
  TempTree ov;
  ov.write("hardware/h1.yaml", "name: h1\nrevised: true\n");
  ov.write("hardware/h3.yaml", "name: h3\n");
  const auto o = f.load_with({ov.dir()}, {});
  ASSERT_TRUE(o.ok()) << testing::messages(o);
  EXPECT_EQ(
      combined_files(o.data->catalog),
      "hardware/h1.yaml@1\nhardware/h2.yaml@0\nhardware/h3.yaml@1\nmodels/m/graph.yaml@0\nmodels/m/model.yaml@0\n");
  EXPECT_EQ(o.data->catalog.find("hardware/h1.yaml")->bytes, "name: h1\nrevised: true\n");
  const std::vector<std::string> overlays = {o.data->catalog.layers[1].hash};
  EXPECT_EQ(o.data->catalog.combined_hash, combined_hash(o.data->catalog.layers[0].hash, overlays));
  EXPECT_EQ(o.data->catalog.combined_hash, contracts::sha256_hex(o.data->catalog.layers[0].hash + " base\n" +
                                                                 o.data->catalog.layers[1].hash + " overlay\n"));
  EXPECT_EQ(o.data->registry.combined_hash, o.data->registry.layers[0].hash);
}

// A model is replaced as a whole directory: the base's graph.yaml does not survive an overlay that brings
// only model.yaml. A file-identity twin (hardware/) keeps the base's other files.
TEST(Overlay, CatalogModelDirectoryIsReplacedWhole) {
  Fixture f;
  TempTree ov;
  ov.write("models/m/model.yaml", "name: m\nprivate: true\n");
  ov.write("models/n/model.yaml", "name: n\n");
  const auto o = f.load_with({ov.dir()}, {});
  ASSERT_TRUE(o.ok()) << testing::messages(o);
  EXPECT_EQ(combined_files(o.data->catalog),
            "hardware/h1.yaml@0\nhardware/h2.yaml@0\nmodels/m/model.yaml@1\nmodels/n/model.yaml@1\n");
  ASSERT_EQ(o.data->overlay_log.size(), 2u);
  EXPECT_NE(o.data->overlay_log[0].find(" replaces models/m/"), std::string::npos);
  EXPECT_NE(o.data->overlay_log[1].find(" adds models/n/"), std::string::npos);
}

// A registry overlay entry with a base entry's set, name, scope and method replaces it; an entry that
// differs in scope, or in method, is added beside it.
TEST(Overlay, RegistryCoefficientReplacesOrAdds) {
  Fixture f;
  TempTree ov;
  ov.write("sets/base/gemm.yaml",
           coefficient_set("base", "gemm",
                           {"{name: eff, scope: {chip: h1}, method: {measured: {units: [u9]}}, value: 0.55}",
                            "{name: eff, scope: {chip: h1, model: m}, method: {measured: {units: [u9]}}, value: 0.7}",
                            "{name: eff, scope: {chip: h2}, method: {assumed: {reason: r}}, value: 0.4}"}));
  const auto o = f.load_with({}, {ov.dir()});
  ASSERT_TRUE(o.ok()) << testing::messages(o);
  EXPECT_EQ(coefficients(*o.data),
            "(set base, name eff, scope {chip: h1}, method measured) <- sets/base/gemm.yaml@1\n"
            "(set base, name eff, scope {chip: h1, model: m}, method measured) <- sets/base/gemm.yaml@1\n"
            "(set base, name eff, scope {chip: h2}, method assumed) <- sets/base/gemm.yaml@1\n"
            "(set base, name eff, scope {chip: h2}, method measured) <- sets/base/gemm.yaml@0\n");
  // Both files still contribute entries, so both are part of the combined registry.
  EXPECT_EQ(combined_files(o.data->registry),
            "acceptance/a.yaml@0\nfamilies.yaml@0\nsets/base/gemm.yaml@0\nsets/base/gemm.yaml@1\n");
  EXPECT_EQ(o.data->coefficients[0].line, 4);  // the overlay's first entry
}

// A coefficient set the base lacks is added whole; other registry files are replaced whole.
TEST(Overlay, RegistryNewSetAndWholeFiles) {
  Fixture f;
  TempTree ov;
  ov.write("sets/candidate/attention.yaml",
           coefficient_set("candidate", "attention", {"{name: rate, scope: {chip: h1}, method: {roofline: {}}}"}));
  ov.write("acceptance/a.yaml", "p: 2\n");
  const auto o = f.load_with({}, {ov.dir()});
  ASSERT_TRUE(o.ok()) << testing::messages(o);
  EXPECT_EQ(o.data->coefficients.size(), 3u);
  EXPECT_EQ(o.data->registry.find("acceptance/a.yaml")->layer, 1u);
  EXPECT_EQ(combined_files(o.data->registry),
            "acceptance/a.yaml@1\nfamilies.yaml@0\nsets/base/gemm.yaml@0\nsets/candidate/attention.yaml@1\n");
}

// Overlays apply in order: the second replaces what the first brought; the combined hash names both in order.
TEST(Overlay, OverlaysApplyInOrder) {
  Fixture f;
  TempTree o1, o2;
  o1.write("hardware/h1.yaml", "name: h1\nv: 1\n");
  o2.write("hardware/h1.yaml", "name: h1\nv: 2\n");
  const auto a = f.load_with({o1.dir(), o2.dir()}, {});
  const auto b = f.load_with({o2.dir(), o1.dir()}, {});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.data->catalog.find("hardware/h1.yaml")->bytes, "name: h1\nv: 2\n");
  EXPECT_EQ(b.data->catalog.find("hardware/h1.yaml")->bytes, "name: h1\nv: 1\n");
  EXPECT_NE(a.data->catalog.combined_hash, b.data->catalog.combined_hash);
  EXPECT_EQ(a.data->catalog.combined_hash,
            contracts::sha256_hex(a.data->catalog.layers[0].hash + " base\n" + a.data->catalog.layers[1].hash +
                                  " overlay\n" + a.data->catalog.layers[2].hash + " overlay\n"));
}

// Refused: two entries with one identity in one layer. Accepted twin: the same two with different scopes.
TEST(Overlay, DuplicateIdentityInOneLayerIsRefused) {
  TempTree cat, reg;
  cat.write("hardware/h1.yaml", "a: 1\n");
  reg.write("sets/s/f.yaml", coefficient_set("s", "f",
                                             {"{name: x, scope: {chip: h1}, method: {assumed: {}}}",
                                              "{name: x, scope: {chip: h1}, method: {assumed: {}}}"}));
  const auto bad = load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all());
  ASSERT_EQ(bad.diagnostics.size(), 1u) << testing::messages(bad);
  EXPECT_EQ(bad.diagnostics.all()[0].text(),
            reg.dir() +
                "/sets/s/f.yaml:5: has the identity (set s, name x, scope {chip: h1}, method assumed) of the "
                "entry at " +
                reg.dir() + "/sets/s/f.yaml:4; set, name, scope and method name one coefficient [§3.3]");
  reg.write("sets/s/f.yaml", coefficient_set("s", "f",
                                             {"{name: x, scope: {chip: h1}, method: {assumed: {}}}",
                                              "{name: x, scope: {}, method: {assumed: {}}}"}));
  EXPECT_TRUE(load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all()).ok());
}

// Refused: an overlay entry whose identity is a base entry's in another family file. Accepted twin: the
// same entry in the base entry's own family file.
TEST(Overlay, ReplacingAcrossFamiliesIsRefused) {
  Fixture f;
  TempTree bad;
  bad.write("sets/base/attention.yaml",
            coefficient_set("base", "attention", {"{name: eff, scope: {chip: h1}, method: {measured: {}}}"}));
  const auto o = f.load_with({}, {bad.dir()});
  ASSERT_EQ(o.diagnostics.size(), 1u) << testing::messages(o);
  EXPECT_NE(o.diagnostics.all()[0].message.find("an overlay replaces a coefficient only in its own family"),
            std::string::npos);
  TempTree good;
  good.write("sets/base/gemm.yaml",
             coefficient_set("base", "gemm", {"{name: eff, scope: {chip: h1}, method: {measured: {}}}"}));
  EXPECT_TRUE(f.load_with({}, {good.dir()}).ok());
}

// Refused: set: or family: that disagree with the file's place. Accepted twin: agreeing ones.
TEST(Overlay, IdentityFieldsMustAgreeWithThePath) {
  TempTree cat, reg;
  cat.write("hardware/h1.yaml", "a: 1\n");
  reg.write("sets/s/f.yaml", coefficient_set("t", "f", {}));
  auto o = load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all());
  ASSERT_EQ(o.diagnostics.size(), 1u) << testing::messages(o);
  EXPECT_EQ(o.diagnostics.all()[0].text(),
            reg.dir() + "/sets/s/f.yaml:1:6: set: 't' disagrees with the file's place, sets/s/ [§3.3]");
  reg.write("sets/s/f.yaml", coefficient_set("s", "g", {}));
  o = load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all());
  ASSERT_EQ(o.diagnostics.size(), 1u) << testing::messages(o);
  EXPECT_NE(o.diagnostics.all()[0].message.find("family: 'g' disagrees"), std::string::npos);
  reg.write("sets/s/f.yaml", coefficient_set("s", "f", {}));
  EXPECT_TRUE(load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all()).ok());
}

// Refused: what the identity reader cannot read. Each beside its accepted twin.
TEST(Overlay, UnreadableIdentitiesAreRefused) {
  TempTree cat, reg;
  cat.write("hardware/h1.yaml", "a: 1\n");
  const std::pair<std::string, std::string> cases[] = {
      {"{scope: {chip: h1}, method: {assumed: {}}}", "{name: x, scope: {chip: h1}, method: {assumed: {}}}"},
      {"{name: x, scope: h1, method: {assumed: {}}}", "{name: x, scope: {chip: h1}, method: {assumed: {}}}"},
      {"{name: x, method: {assumed: {}, measured: {}}}", "{name: x, method: {assumed: {}}}"},
      {"{name: x, method: assumed}", "{name: x, method: {assumed: reason}}"},
      {"{name: x, scope: {chip: h1, chip: h2}, method: {assumed: {}}}",
       "{name: x, scope: {chip: h1}, method: {assumed: {}}}"},
      {"{name: x, name: y, method: {assumed: {}}}", "{name: x, method: {assumed: {}}}"},
  };
  for (const auto& [bad, good] : cases) {
    reg.write("sets/s/f.yaml", coefficient_set("s", "f", {bad}));
    EXPECT_FALSE(load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all()).ok()) << bad;
    reg.write("sets/s/f.yaml", coefficient_set("s", "f", {good}));
    const auto o = load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all());
    EXPECT_TRUE(o.ok()) << good << "\n" << testing::messages(o);
  }
  reg.write("sets/s/f.yaml", "set: s\nfamily: f\nentries: [\n");
  const auto o = load({cat.dir(), reg.dir(), {}, {}}, testing::accept_all());
  ASSERT_EQ(o.diagnostics.size(), 1u);
  EXPECT_NE(o.diagnostics.all()[0].message.find("is not valid YAML"), std::string::npos);
}

// Refused: an overlay file whose path differs only in case from a base file's. Accepted twin: the same case.
TEST(Overlay, CaseCollisionAcrossLayersIsRefused) {
  Fixture f;
  TempTree bad;
  bad.write("hardware/H1.yaml", "name: h1\n");
  const auto o = f.load_with({bad.dir()}, {});
  ASSERT_EQ(o.diagnostics.size(), 1u) << testing::messages(o);
  EXPECT_EQ(o.diagnostics.all()[0].text(),
            "catalog with overlays hardware/h1.yaml: differs only in letter case from hardware/H1.yaml [SUB-9]");
  TempTree good;
  good.write("hardware/h1.yaml", "name: h1\n");
  EXPECT_TRUE(f.load_with({good.dir()}, {}).ok());
}

// Refused: a ledger directory in an overlay, through load(). Accepted twin: the overlay without it.
TEST(Overlay, LedgerInAnOverlayIsRefused) {
  Fixture f;
  TempTree ov;
  ov.write("sets/base/gemm.yaml", coefficient_set("base", "gemm", {}));
  ov.write("ledger/units/u1.yaml", "unit: 1\n");
  const auto o = f.load_with({}, {ov.dir()});
  ASSERT_EQ(o.diagnostics.size(), 1u);
  EXPECT_EQ(o.diagnostics.all()[0].text(),
            ov.dir() + "/ledger: is ledger data; an overlay may not contain ledger files [SUB-9]");
  ov.remove("ledger");
  EXPECT_TRUE(f.load_with({}, {ov.dir()}).ok());
}

}  // namespace
}  // namespace blis::data
