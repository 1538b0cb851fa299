// The report (src/score/score.h): absolute percentage errors and per-lane medians on hand-computed numbers,
// and the whole scoring of the reasons fixture with a stand-in runner: every vLLM and SGLang point listed
// exactly once, the totals summing to the selected points, other backends counted and not read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "score/score.h"

namespace blis::score {
namespace {

const std::string kRoot = BLIS_SOURCE_ROOT;

TEST(Report, AbsolutePercentageError) {
  EXPECT_DOUBLE_EQ(ape(110, 100), 10.0);
  EXPECT_DOUBLE_EQ(ape(90, 100), 10.0);
  EXPECT_DOUBLE_EQ(ape(1, 4), 75.0);
  EXPECT_THROW(ape(1, 0), std::invalid_argument);
}

TEST(Report, Median) {
  EXPECT_DOUBLE_EQ(median({3}), 3);
  EXPECT_DOUBLE_EQ(median({10, 40, 20}), 20);
  EXPECT_DOUBLE_EQ(median({5, 1, 3, 100}), 4);  // (3 + 5) / 2
  EXPECT_THROW(median({}), std::invalid_argument);
}

// The order-statistic interval of a median (DEV-11): worked by hand from the binomial law. n = 6: only
// [min, max] reaches 95%, with coverage 1 - 2/64; n = 5 cannot (1 - 2/32 < 95%); n = 10: [x(2), x(9)] with
// 1 - 2 * 11/1024 (x(3), x(8) would give 1 - 2 * 56/1024 < 95%).
TEST(Report, MedianInterval) {
  EXPECT_FALSE(median_interval({5, 1, 4, 2, 3}, 0.95).has_value());
  const auto six = median_interval({6, 1, 5, 2, 4, 3}, 0.95);
  ASSERT_TRUE(six.has_value());
  EXPECT_EQ(six->low, 1);
  EXPECT_EQ(six->high, 6);
  EXPECT_DOUBLE_EQ(six->confidence, 1.0 - 2.0 / 64.0);
  const auto ten = median_interval({10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 0.95);
  ASSERT_TRUE(ten.has_value());
  EXPECT_EQ(ten->low, 2);
  EXPECT_EQ(ten->high, 9);
  EXPECT_DOUBLE_EQ(ten->confidence, 1.0 - 22.0 / 1024.0);
  // At 90% n = 5 reaches [min, max] (1 - 2/32 = 93.75%).
  const auto five = median_interval({5, 1, 4, 2, 3}, 0.90);
  ASSERT_TRUE(five.has_value());
  EXPECT_DOUBLE_EQ(five->confidence, 0.9375);
  EXPECT_FALSE(median_interval({}, 0.95).has_value());
  EXPECT_THROW(median_interval({1, 2}, 1.0), std::invalid_argument);
  EXPECT_THROW(median_interval({1, 2}, 0.0), std::invalid_argument);
}

// Coverage of the interval measured on many samples (the interval is exact: at least its stated confidence),
// from a fixed linear congruential sequence of uniform values whose median is 0.5.
TEST(Report, MedianIntervalCoversAtItsConfidence) {
  std::uint64_t state = 42;
  auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (std::size_t n : {6u, 25u, 101u}) {
    int covered = 0;
    const int trials = 4000;
    double stated = 0;
    for (int t = 0; t < trials; ++t) {
      std::vector<double> v(n);
      for (auto& x : v) x = uniform();
      const auto i = median_interval(v, 0.95);
      ASSERT_TRUE(i.has_value());
      stated = i->confidence;
      if (i->low <= 0.5 && 0.5 <= i->high) ++covered;
    }
    // Three binomial standard deviations below the stated coverage at most (sd <= 0.35 points at 95%).
    EXPECT_GE(static_cast<double>(covered) / trials, stated - 0.011) << "n " << n;
  }
}

PointRecord scored(const Lane& lane, double ttft_ape, double tpot_ape) {
  PointRecord r;
  r.status = "scored";
  r.lane = lane;
  r.ttft_ape = ttft_ape;
  r.tpot_ape = tpot_ape;
  return r;
}

TEST(Report, LaneMedians) {
  const Lane a{"vllm", "0.19.0", "B200", "MiniMaxAI/MiniMax-M2.5", "tp4"};
  const Lane b{"vllm", "0.19.0", "B200", "MiniMaxAI/MiniMax-M2.5", "tp2"};  // another layout: another lane
  std::vector<PointRecord> rs = {scored(a, 10, 5), scored(a, 40, 1), scored(b, 7, 9), scored(a, 20, 3), scored(a, 30, 100)};
  PointRecord g5;
  g5.status = "not_scored";
  g5.lane = a;
  rs.push_back(g5);
  const auto lanes = lane_figures(rs);
  ASSERT_EQ(lanes.size(), 2u);
  std::map<std::string, LaneFigures> by;
  for (const auto& l : lanes) by[l.lane.layout] = l;
  EXPECT_EQ(by["tp4"].points, 4);
  EXPECT_DOUBLE_EQ(by["tp4"].ttft_mdape, 25);  // (20 + 30) / 2
  EXPECT_DOUBLE_EQ(by["tp4"].tpot_mdape, 4);   // (3 + 5) / 2
  EXPECT_EQ(by["tp2"].points, 1);
  EXPECT_DOUBLE_EQ(by["tp2"].ttft_mdape, 7);
  EXPECT_DOUBLE_EQ(by["tp2"].tpot_mdape, 9);
}

CatalogNames names() {
  CatalogNames c;
  c.models = {"MiniMaxAI/MiniMax-M2.5", "meta-llama/Meta-Llama-3.1-8B", "openai/gpt-oss-120b"};
  c.models_no_graph = {"moonshotai/Kimi-K2.5"};
  c.chips = {"H100-SXM", "H200-SXM"};
  return c;
}

TEST(Report, EveryPointOnceAndTotalsAddUp) {
  const auto points = read_points_file(kRoot + "/tests/score/fixtures/reasons.csv");
  int runs = 0;
  // A stand-in simulator: TTFT 1.1x and TPOT 0.8x the measurement; it refuses the 8B model, as a
  // simulator refusal would look.
  std::map<std::string, const Point*> by_id;
  for (const auto& p : points) by_id[p.id] = &p;
  const Runner run = [&](const std::string& scenario, const std::string& name) {
    ++runs;
    if (scenario.find("Meta-Llama-3.1-8B") != std::string::npos) throw std::runtime_error("refused: some field");
    const Point& p = *by_id.at(name.substr(std::string("point ").size()));
    Simulated s;
    s.ttft_ms = p.ttft_ms * 1.1;
    s.tpot_ms = p.tpot_ms * 0.8;
    s.replications = 1;
    s.generated = s.completed = 32;
    return s;
  };
  const Report rep = score(points, names(), run, {});
  EXPECT_EQ(rep.engine_points.at("vllm"), 20);
  EXPECT_EQ(rep.engine_points.at("sglang"), 1);
  EXPECT_EQ(rep.selected, 21);
  EXPECT_EQ(rep.other_backends.size(), 1u);
  EXPECT_EQ(rep.other_backends.at("trtllm"), 1);
  ASSERT_EQ(rep.points.size(), 21u);
  std::map<std::string, int> seen;
  for (const auto& r : rep.points) seen[r.id] += 1;
  for (const auto& p : points) {
    if (p.backend == "vllm" || p.backend == "sglang") EXPECT_EQ(seen[p.id], 1) << p.id;
    else EXPECT_EQ(seen.count(p.id), 0u) << p.id;
  }
  std::int64_t total = 0;
  for (const auto& [k, n] : rep.by_grade) total += n;
  EXPECT_EQ(total, rep.selected);
  std::int64_t g5 = 0;
  for (const auto& [k, n] : rep.g5_by_reason) g5 += n;
  EXPECT_EQ(g5, rep.by_grade.at("G5"));
  EXPECT_EQ(rep.by_grade.at("failed"), 1);  // twin-catalog-model, refused by the stand-in
  EXPECT_EQ(runs, rep.by_grade.at("G4") + 1);
  for (const auto& r : rep.points) {
    if (r.status != "scored") continue;
    EXPECT_NEAR(*r.ttft_ape, 10.0, 1e-9) << r.id;
    EXPECT_NEAR(*r.tpot_ape, 20.0, 1e-9) << r.id;
  }
  // The text and JSON list the same points and totals.
  const auto j = nlohmann::json::parse(report_json(rep));
  EXPECT_EQ(j.at("points").size(), 21u);
  EXPECT_EQ(j.at("points_by_engine").at("sglang"), 1);
  EXPECT_EQ(j.at("totals").at("failed"), 1);
  const std::string text = report_text(rep);
  EXPECT_NE(text.find("totals: 21 selected points = " + std::to_string(rep.by_grade.at("G4")) + " scored"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not read here (no port of these backends in this build): trtllm 1\n"), std::string::npos);
  EXPECT_NE(text.find("21 points of ported engines in the file (sglang 1, vllm 20), 21 selected"), std::string::npos) << text;
  // The SGLang point ran on the SGLang release, in its own lane, with SGLang's own settings named once.
  const auto sg = std::find_if(rep.points.begin(), rep.points.end(), [](const PointRecord& r) { return r.id == "sglang-point"; });
  ASSERT_NE(sg, rep.points.end());
  EXPECT_EQ(sg->status, "scored");
  EXPECT_EQ(sg->lane.engine, "sglang");
  EXPECT_NE(text.find("every scored SGLang point names these estimates"), std::string::npos);
  EXPECT_NE(text.find("so the ported SGLang release's defaults apply"), std::string::npos);
  for (const auto& r : rep.points) {
    EXPECT_NE(text.find(r.id + "  "), std::string::npos) << r.id;
  }
}

TEST(Report, LimitAndFilter) {
  const auto points = read_points_file(kRoot + "/tests/score/fixtures/reasons.csv");
  const Runner run = [](const std::string&, const std::string&) -> Simulated { throw std::runtime_error("not run"); };
  Options o;
  o.filter = "field-";
  Report rep = score(points, names(), run, o);
  EXPECT_EQ(rep.engine_points.at("vllm"), 20);
  EXPECT_EQ(rep.selected, 4);
  o.limit = 2;
  rep = score(points, names(), run, o);
  ASSERT_EQ(rep.points.size(), 2u);
  EXPECT_EQ(rep.points[0].id, "field-ep");
  EXPECT_EQ(rep.points[1].id, "field-dp");
}

// --backend: only that ported backend's points are selected; a backend with no port is refused by name.
TEST(Report, BackendFilterBesideItsRefusal) {
  const auto points = read_points_file(kRoot + "/tests/score/fixtures/reasons.csv");
  const Runner run = [](const std::string&, const std::string&) -> Simulated { throw std::runtime_error("not run"); };
  Options o;
  o.backend = "sglang";
  const Report rep = score(points, names(), run, o);
  EXPECT_EQ(rep.selected, 1);
  ASSERT_EQ(rep.points.size(), 1u);
  EXPECT_EQ(rep.points[0].id, "sglang-point");
  EXPECT_EQ(rep.engine_points.at("vllm"), 20);  // still counted in the file
  o.backend = "trtllm";
  try {
    score(points, names(), run, o);
    ADD_FAILURE() << "trtllm accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("backend 'trtllm' has no port in this build"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace blis::score
