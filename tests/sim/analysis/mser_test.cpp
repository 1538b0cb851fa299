// MSER-5 (src/sim/analysis/mser.h): the statistic and the cut by hand, the tie rule, the search limit, and
// each refusal beside its closest accepted input.
#include "sim/analysis/mser.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using namespace blis::sim::analysis;

// Five copies of each batch mean, then a tail of `tail` extra observations.
std::vector<double> batches_of_five(const std::vector<double>& z, std::vector<double> tail = {}) {
  std::vector<double> x;
  for (double v : z) x.insert(x.end(), 5, v);
  x.insert(x.end(), tail.begin(), tail.end());
  return x;
}

TEST(Mser5, CutsTheTransientByHand) {
  // Batch means Z = {20, 12, 5, 1, 2, 1, 2, 1, 2, 1}: m = 10, d searched over 0..5. After dropping three
  // batches the rest {1, 2, 1, 2, 1, 2, 1} has mean 10/7 and sum of squared deviations 4 (3/7)^2 +
  // 3 (4/7)^2 = 12/7, so MSER(3) = (12/7) / 7^2 = 12/343; MSER(2) = 0.201, MSER(4) = 1.5/36, MSER(5) =
  // 1.2/25 are larger. The three trailing observations (fewer than five) enter no batch, however large.
  const std::vector<double> x = batches_of_five({20, 12, 5, 1, 2, 1, 2, 1, 2, 1}, {100, 100, 100});
  const Mser5 r = mser5(x);
  EXPECT_EQ(r.batches, 10u);
  EXPECT_EQ(r.search_limit, 5u);
  EXPECT_EQ(r.truncated_batches, 3u);
  EXPECT_EQ(r.cut, 15u);
  EXPECT_NEAR(r.statistic, 12.0 / 343.0, 1e-16);
  EXPECT_FALSE(r.at_search_limit);
}

TEST(Mser5, BatchesAreMeansOfFive) {
  // Within-batch order does not matter, only each batch's mean: {0, 40, 0, 0, 60} has mean 20 like the
  // first batch above.
  std::vector<double> x = batches_of_five({20, 12, 5, 1, 2, 1, 2, 1, 2, 1});
  x[0] = 0;
  x[1] = 40;
  x[2] = 0;
  x[3] = 0;
  x[4] = 60;
  EXPECT_EQ(mser5(x).cut, 15u);
}

TEST(Mser5, TiesGoToTheEarliestTruncation) {
  // A constant series has MSER(d) = 0 for every d: the earliest, d = 0, wins.
  const Mser5 r = mser5(std::vector<double>(100, 3.0));
  EXPECT_EQ(r.truncated_batches, 0u);
  EXPECT_EQ(r.statistic, 0.0);
  EXPECT_FALSE(r.at_search_limit);
  // A series that settles to a constant after two batches: MSER(d) = 0 for d = 2..limit; d = 2 wins.
  EXPECT_EQ(mser5(batches_of_five({9, 4, 1, 1, 1, 1, 1, 1})).truncated_batches, 2u);
}

TEST(Mser5, AGrowingSeriesReachesTheSearchLimit) {
  // A ramp has no settled part: MSER(d) falls as d grows, so the minimum lies at the end of the searched
  // half.
  std::vector<double> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  const Mser5 r = mser5(x);
  EXPECT_EQ(r.batches, 200u);
  EXPECT_EQ(r.truncated_batches, 100u);
  EXPECT_TRUE(r.at_search_limit);
  EXPECT_EQ(r.cut, 500u);
}

TEST(Mser5, RefusalsBesideTheirClosestAcceptedInputs) {
  EXPECT_NO_THROW(mser5(std::vector<double>(15, 1.0)));
  EXPECT_THROW(mser5(std::vector<double>(14, 1.0)), std::invalid_argument);
  std::vector<double> x(20, 1.0);
  x[7] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(mser5(x), std::invalid_argument);
  x[7] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(mser5(x), std::invalid_argument);
  try {
    mser5(std::vector<double>(14, 1.0));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "mser5: series.size() = 14: MSER-5 needs three batches of five so that the searched half leaves two "
                 "(at least 15 values are needed)");
  }
}

}  // namespace
