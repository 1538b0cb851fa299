// Summary statistics (src/sim/analysis/statistics.h): mean, sample variance and numpy's 'linear'
// percentile, and each refusal beside its closest accepted input.
#include "sim/analysis/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using namespace blis::sim::analysis;

TEST(Statistics, MeanAndSampleVariance) {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_EQ(mean(v), 5.0);
  EXPECT_DOUBLE_EQ(sample_variance(v), 32.0 / 7.0);  // sum of squared deviations 32, n - 1 = 7
  EXPECT_EQ(mean(std::vector<double>{3.5}), 3.5);
  EXPECT_EQ(sample_variance(std::vector<double>{1.0, 3.0}), 2.0);
}

TEST(Statistics, CorrectedMeanIsExactForAConstantSeries) {
  // 0.1 summed ten times is 0.9999999999999999, so a plain sum / n misses 0.1; the correction restores it.
  const std::vector<double> v(10, 0.1);
  EXPECT_EQ(mean(v), 0.1);
  EXPECT_EQ(sample_variance(v), 0.0);
}

TEST(Statistics, VarianceIsStableForALargeOffset) {
  // A two-pass variance about the mean keeps the spread of values near 1e9 (a one-pass sum of squares
  // would lose it to cancellation).
  const std::vector<double> v{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
  EXPECT_EQ(mean(v), 1e9 + 10);
  EXPECT_EQ(sample_variance(v), 30.0);
}

TEST(Statistics, PercentileFollowsNumpyLinear) {
  // Values numpy.percentile gives with its default method.
  EXPECT_EQ(percentile(std::vector<double>{1, 2, 3, 4}, 50), 2.5);
  EXPECT_EQ(percentile(std::vector<double>{4, 1, 3, 2}, 50), 2.5);  // unsorted input
  EXPECT_EQ(percentile(std::vector<double>{10, 7, 4, 3, 2, 1}, 25), 2.25);
  EXPECT_EQ(percentile(std::vector<double>{15, 20, 35, 40, 50}, 40), 29.0);
  EXPECT_EQ(percentile(std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 90), 9.1);
  EXPECT_EQ(percentile(std::vector<double>{1, 2, 3, 4, 5}, 0), 1.0);
  EXPECT_EQ(percentile(std::vector<double>{1, 2, 3, 4, 5}, 100), 5.0);
  EXPECT_EQ(percentile(std::vector<double>{42}, 99), 42.0);
}

TEST(Statistics, PercentileInterpolatesFromTheNearerEndAsNumpyDoes) {
  // numpy's _lerp(a, b, g) is a + (b - a) g for g < 0.5 but b - (b - a)(1 - g) for g >= 0.5, and the two
  // differ in the last bit. For {0.1, 1.1} at q = 60: h = 0.6, b - a = 1 exactly, and numpy gives
  // 1.1 - 0.4 = 0.70000000000000007 where 0.1 + 0.6 = 0.69999999999999996.
  const std::vector<double> v{0.1, 1.1};
  EXPECT_EQ(percentile(v, 60), 1.1 - 1.0 * (1.0 - 0.6));
  EXPECT_NE(percentile(v, 60), 0.1 + 1.0 * 0.6);
  // Below g = 0.5 the left form: q = 30 gives 0.1 + 0.3.
  EXPECT_EQ(percentile(v, 30), 0.1 + 1.0 * 0.3);
}

TEST(Statistics, PercentileIsMonotoneInQ) {
  const std::vector<double> v{0.3, 9.1, 2.2, 2.2, 5.0, 7.7, 1.0};
  double last = -1;
  for (int q = 0; q <= 1000; ++q) {
    const double p = percentile(v, q / 10.0);
    EXPECT_GE(p, last) << q;
    last = p;
  }
}

TEST(Statistics, RefusalsBesideTheirClosestAcceptedInputs) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> empty;
  const std::vector<double> one{1.0};
  // mean: at least one value, all finite
  EXPECT_NO_THROW(mean(one));
  EXPECT_THROW(mean(empty), std::invalid_argument);
  EXPECT_THROW(mean(std::vector<double>{1.0, nan}), std::invalid_argument);
  // sample_variance: at least two values
  EXPECT_NO_THROW(sample_variance(std::vector<double>{1.0, 2.0}));
  EXPECT_THROW(sample_variance(one), std::invalid_argument);
  EXPECT_THROW(sample_variance(std::vector<double>{1.0, inf}), std::invalid_argument);
  // percentile: at least one value, q in [0, 100]
  EXPECT_NO_THROW(percentile(one, 50));
  EXPECT_THROW(percentile(empty, 50), std::invalid_argument);
  EXPECT_NO_THROW(percentile(one, 100));
  EXPECT_THROW(percentile(one, std::nextafter(100.0, 200.0)), std::invalid_argument);
  EXPECT_NO_THROW(percentile(one, 0));
  EXPECT_THROW(percentile(one, -0.001), std::invalid_argument);
  EXPECT_THROW(percentile(one, nan), std::invalid_argument);
  EXPECT_THROW(percentile(std::vector<double>{2.0, -inf}, 50), std::invalid_argument);
  try {
    percentile(empty, 99);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "percentile: values.size() = 0: a percentile of an empty series is undefined (at least 1 value is "
                 "needed)");
  }
  try {
    mean(std::vector<double>{1.0, 2.0, nan});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "mean: values[2] = nan: every value must be finite (not NaN or infinite)");
  }
}

}  // namespace
