// The registry queries behind `blis invariants`, on the compiled table and on small hand-made tables.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "invariants/query.h"
#include "invariants/registry.h"

namespace blis::invariants {
namespace {

TEST(InvariantTable, IdsAreUniqueAndEveryRecordHasAKindAndStatus) {
  std::set<std::string_view> ids;
  for (const auto& r : table()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_FALSE(r.kind.empty()) << r.id;
    EXPECT_FALSE(r.status.empty()) << r.id;
  }
  EXPECT_GE(ids.size(), 184u);  // 149 design invariants and 35 trigger outcomes
}

TEST(InvariantTable, FiltersSelectByStatusFamilyAndId) {
  const auto x = select(table(), {.status = {}, .family = "X", .id = {}});
  EXPECT_EQ(x.size(), 28u);
  const auto one = select(table(), {.status = {}, .family = {}, .id = "X7"});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]->id, "X7");
  for (const auto* r : select(table(), {.status = "ci", .family = {}, .id = {}})) EXPECT_EQ(r->status, "ci");
}

constexpr std::string_view kCmd[] = {"@PY@", "check.py", "@INPUT@"};

Invariant record_with(const Check* checks, std::size_t n, std::string_view status) {
  static constexpr std::string_view kKind[] = {"automated"};
  Invariant r{};
  r.id = "X1";
  r.family = "X";
  r.kind = kKind;
  r.checks = {checks, n};
  r.status = status;
  return r;
}

// The refusal pair: a ci record whose ci check is missing from the build fails status; the same record
// with the check built passes.
TEST(InvariantStatus, CiRecordWithCheckMissingFromBuildIsAProblem) {
  const Check missing[] = {{.name = "c", .runs = "test", .target = "t", .status = "ci", .command = kCmd,
                            .input = ".", .runner = "meson", .known_bad = "kb", .expect = {}, .in_build = false}};
  const Invariant rows[] = {record_with(missing, 1, "ci")};
  const auto rep = status(rows);
  EXPECT_EQ(rep.problems, 1);
  EXPECT_NE(rep.text.find("X1: claims ci but its check 'c' (t) is missing from the build"), std::string::npos);
}

TEST(InvariantStatus, CiRecordWithCheckInBuildIsFine) {
  const Check built[] = {{.name = "c", .runs = "test", .target = "t", .status = "ci", .command = kCmd,
                          .input = ".", .runner = "meson", .known_bad = "kb", .expect = {}, .in_build = true}};
  const Invariant rows[] = {record_with(built, 1, "ci")};
  const auto rep = status(rows);
  EXPECT_EQ(rep.problems, 0);
  EXPECT_NE(rep.text.find("X\t1\t0\t0\t0\t0\t1\n"), std::string::npos) << rep.text;
}

TEST(InvariantStatus, NewRecordMayNamePlannedChecks) {
  const Check planned[] = {{.name = "c", .runs = "test", .target = "t", .status = "new", .command = {},
                            .input = ".", .runner = "meson", .known_bad = {}, .expect = {}, .in_build = false}};
  const Invariant rows[] = {record_with(planned, 1, "new")};
  EXPECT_EQ(status(rows).problems, 0);
}

TEST(InvariantStatus, TheCompiledTableHasNoProblems) { EXPECT_EQ(status(table()).problems, 0); }

}  // namespace
}  // namespace blis::invariants
