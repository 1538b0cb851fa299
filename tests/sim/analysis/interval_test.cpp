// t intervals (src/sim/analysis/interval.h): values by hand, the relative half-width's edge cases, and
// each refusal beside its closest accepted input.
#include "sim/analysis/interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using namespace blis::sim::analysis;

TEST(Interval, ReplicationIntervalByHand) {
  // {1, 2, 3, 4, 5}: mean 3, s^2 = 10 / 4 = 2.5, t(0.975, 4) = 2.776445105197793.
  const std::vector<double> v{1, 2, 3, 4, 5};
  const Interval i = replication_interval(v, 0.95);
  EXPECT_EQ(i.source, IntervalSource::replications);
  EXPECT_EQ(i.n, 5u);
  EXPECT_EQ(i.confidence, 0.95);
  EXPECT_EQ(i.mean, 3.0);
  EXPECT_DOUBLE_EQ(i.standard_deviation, std::sqrt(2.5));
  EXPECT_NEAR(i.critical_value, 2.776445105197793, 1e-14);
  EXPECT_NEAR(i.half_width, 2.776445105197793 * std::sqrt(2.5) / std::sqrt(5.0), 1e-14);
  EXPECT_NEAR(i.relative_half_width, i.half_width / 3.0, 1e-15);
  EXPECT_EQ(i.lower(), i.mean - i.half_width);
  EXPECT_EQ(i.upper(), i.mean + i.half_width);
}

TEST(Interval, RelativeHalfWidthUsesTheMagnitudeOfTheMean) {
  const Interval neg = t_interval(std::vector<double>{-1, -2, -3}, 0.9, IntervalSource::batch_means);
  EXPECT_EQ(neg.source, IntervalSource::batch_means);
  EXPECT_GT(neg.relative_half_width, 0.0);
  EXPECT_EQ(neg.relative_half_width, neg.half_width / 2.0);
  // Mean 0 with a spread: infinite; all values 0: 0.
  EXPECT_EQ(t_interval(std::vector<double>{-1, 1}, 0.9, IntervalSource::replications).relative_half_width,
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(t_interval(std::vector<double>{0, 0, 0}, 0.9, IntervalSource::replications).relative_half_width, 0.0);
  // Equal values: zero width.
  const Interval flat = t_interval(std::vector<double>{2.5, 2.5}, 0.99, IntervalSource::replications);
  EXPECT_EQ(flat.half_width, 0.0);
  EXPECT_EQ(flat.relative_half_width, 0.0);
}

TEST(Interval, HigherConfidenceIsWider) {
  const std::vector<double> v{3.1, 2.7, 3.9, 3.3, 2.8, 3.6};
  EXPECT_LT(replication_interval(v, 0.8).half_width, replication_interval(v, 0.95).half_width);
  EXPECT_LT(replication_interval(v, 0.95).half_width, replication_interval(v, 0.999).half_width);
}

TEST(Interval, RefusalsBesideTheirClosestAcceptedInputs) {
  const std::vector<double> two{1.0, 2.0};
  EXPECT_NO_THROW(replication_interval(two, 0.95));
  EXPECT_THROW(replication_interval(std::vector<double>{1.0}, 0.95), std::invalid_argument);
  EXPECT_THROW(replication_interval(std::vector<double>{}, 0.95), std::invalid_argument);
  EXPECT_THROW(replication_interval(std::vector<double>{1.0, std::numeric_limits<double>::infinity()}, 0.95),
               std::invalid_argument);
  EXPECT_NO_THROW(replication_interval(two, std::nextafter(1.0, 0.0)));
  EXPECT_THROW(replication_interval(two, 1.0), std::invalid_argument);
  EXPECT_NO_THROW(replication_interval(two, std::nextafter(0.0, 1.0)));
  EXPECT_THROW(replication_interval(two, 0.0), std::invalid_argument);
  EXPECT_THROW(t_interval(two, std::numeric_limits<double>::quiet_NaN(), IntervalSource::replications),
               std::invalid_argument);
  try {
    replication_interval(std::vector<double>{4.0}, 0.95);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "replication_interval: estimates.size() = 1: an interval needs a spread, with n - 1 >= 1 degrees of "
                 "freedom (at least 2 values are needed)");
  }
  try {
    replication_interval(two, 1.5);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "replication_interval: confidence = 1.5: a confidence level must lie in the open interval (0, 1)");
  }
}

}  // namespace
