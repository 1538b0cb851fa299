// The replication stopping rule (src/sim/analysis/stopping.h): each decision, several figures, and each
// refusal beside its closest accepted input.
#include "sim/analysis/stopping.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using namespace blis::sim::analysis;

StoppingRule rule(double rhw) {
  StoppingRule r;
  r.min_replications = 5;
  r.max_replications = 8;
  r.relative_half_width = rhw;
  r.confidence = 0.95;
  return r;
}

// Five estimates around 100 with sample standard deviation sqrt(2.5): half-width 1.963, relative 0.0196.
const std::vector<double> kTight{98, 99, 100, 101, 102};
// Five estimates around 100 with a wide spread: relative half-width about 0.39.
const std::vector<double> kWide{60, 80, 100, 120, 140};

TEST(Stopping, ContinuesBelowTheMinimumEvenWhenNarrow) {
  const std::vector<std::vector<double>> f{{99, 100, 101, 100}};
  const StoppingState s = replication_decision(f, rule(0.5));
  EXPECT_EQ(s.decision, StopDecision::continue_running);
  EXPECT_EQ(s.replications, 4u);
  ASSERT_EQ(s.figures.size(), 1u);  // intervals are still reported from n >= 2
  EXPECT_LT(s.figures[0].relative_half_width, 0.5);
  // With fewer than two replications there is no interval yet.
  EXPECT_TRUE(replication_decision(std::vector<std::vector<double>>{{1.0}}, rule(0.5)).figures.empty());
  EXPECT_TRUE(replication_decision(std::vector<std::vector<double>>{{}}, rule(0.5)).figures.empty());
}

TEST(Stopping, StopsWhenEveryFigureIsNarrowEnough) {
  const std::vector<std::vector<double>> f{kTight};
  const StoppingState s = replication_decision(f, rule(0.02));
  EXPECT_EQ(s.decision, StopDecision::width_reached);
  EXPECT_NEAR(s.figures[0].relative_half_width, 0.019632, 1e-6);
  // The bound is inclusive: exactly the width reached stops.
  EXPECT_EQ(replication_decision(f, rule(s.figures[0].relative_half_width)).decision, StopDecision::width_reached);
  EXPECT_EQ(replication_decision(f, rule(0.019)).decision, StopDecision::continue_running);
}

TEST(Stopping, EveryFigureMustBeNarrow) {
  const std::vector<std::vector<double>> f{kTight, kWide};
  const StoppingState s = replication_decision(f, rule(0.05));
  EXPECT_EQ(s.decision, StopDecision::continue_running);
  ASSERT_EQ(s.figures.size(), 2u);
  EXPECT_LE(s.figures[0].relative_half_width, 0.05);
  EXPECT_GT(s.figures[1].relative_half_width, 0.05);
  EXPECT_EQ(replication_decision(f, rule(0.5)).decision, StopDecision::width_reached);
}

TEST(Stopping, ReportsTheWidthReachedAtTheLimit) {
  // Eight replications (the limit) of a narrow and a wide figure.
  std::vector<double> eight = kWide;
  eight.insert(eight.end(), {70, 130, 100});
  std::vector<double> tight8 = kTight;
  tight8.insert(tight8.end(), {100, 99, 101});
  const std::vector<std::vector<double>> g{tight8, eight};
  const StoppingState s = replication_decision(g, rule(0.05));
  EXPECT_EQ(s.decision, StopDecision::max_reached);
  EXPECT_GT(s.figures[1].relative_half_width, 0.05);  // the width reached, reported
  // Past the limit (n > max) is still max_reached, and narrow enough still wins.
  tight8.push_back(100);
  eight.push_back(100);
  EXPECT_EQ(replication_decision(std::vector<std::vector<double>>{tight8, eight}, rule(0.05)).decision,
            StopDecision::max_reached);
  EXPECT_EQ(replication_decision(std::vector<std::vector<double>>{tight8}, rule(0.05)).decision,
            StopDecision::width_reached);
}

TEST(Stopping, AZeroMeanFigureStopsOnlyWhenAllEstimatesAreEqual) {
  EXPECT_EQ(replication_decision(std::vector<std::vector<double>>{{-1, 1, -1, 1, 0}}, rule(10)).decision,
            StopDecision::continue_running);
  EXPECT_EQ(replication_decision(std::vector<std::vector<double>>{{0, 0, 0, 0, 0}}, rule(0.01)).decision,
            StopDecision::width_reached);
}

TEST(Stopping, RefusalsBesideTheirClosestAcceptedInputs) {
  const std::vector<std::vector<double>> f{kTight};
  StoppingRule r = rule(0.1);
  EXPECT_NO_THROW(replication_decision(f, r));
  r.min_replications = 4;
  EXPECT_THROW(replication_decision(f, r), std::invalid_argument);
  r = rule(0.1);
  r.max_replications = 5;
  EXPECT_NO_THROW(replication_decision(f, r));
  r.max_replications = 4;
  EXPECT_THROW(replication_decision(f, r), std::invalid_argument);
  r = rule(std::numeric_limits<double>::denorm_min());
  EXPECT_NO_THROW(replication_decision(f, r));
  EXPECT_THROW(replication_decision(f, rule(0.0)), std::invalid_argument);
  EXPECT_THROW(replication_decision(f, rule(std::numeric_limits<double>::infinity())), std::invalid_argument);
  EXPECT_THROW(replication_decision(f, rule(std::numeric_limits<double>::quiet_NaN())), std::invalid_argument);
  r = rule(0.1);
  r.confidence = 1.0;
  EXPECT_THROW(replication_decision(f, r), std::invalid_argument);
  EXPECT_THROW(replication_decision(std::vector<std::vector<double>>{}, rule(0.1)), std::invalid_argument);
  EXPECT_NO_THROW(replication_decision(std::vector<std::vector<double>>{kTight, kWide}, rule(0.1)));
  EXPECT_THROW(replication_decision(std::vector<std::vector<double>>{kTight, {1, 2, 3, 4}}, rule(0.1)),
               std::invalid_argument);
  EXPECT_THROW(replication_decision(
                   std::vector<std::vector<double>>{{1, 2, 3, 4, std::numeric_limits<double>::quiet_NaN()}}, rule(0.1)),
               std::invalid_argument);
  try {
    replication_decision(std::vector<std::vector<double>>{kTight, {1, 2, 3, 4}}, rule(0.1));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "replication_decision: figures[1].size() = 4: every figure needs one estimate per replication, as "
                 "figures[0] has 5");
  }
}

}  // namespace
