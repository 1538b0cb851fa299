// The standard normal CDF and its inverse (src/sim/rng/normal.h) against 50-digit reference values, computed
// with mpmath 1.3.0 (ncdf, and findroot on log ncdf for the quantiles), and their symmetry, monotonicity
// across the approximations' interval ends, round trip, and refusals.
#include "sim/rng/normal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/rng/substreams.h"

namespace {

using namespace blis::sim::rng;

// Relative tolerance 1e-15 (about 9 ulp); the measured errors are at most 3.3e-16.
constexpr double kRel = 1e-15;

struct Ref {
  double x;
  double expected;
};

TEST(NormalCdf, MatchesReferenceValues) {
  constexpr Ref kRefs[] = {
      {-37.0, 5.725571222524576822683193e-300}, {-30.0, 4.906713927148187059533809e-198},
      {-20.0, 2.753624118606233695075623e-89},  {-10.0, 7.619853024160526065973343e-24},
      {-8.0, 6.220960574271784123515995e-16},   {-5.656854248, 7.708629017140470810073111e-9},
      {-5.0, 2.866515718791939116737523e-7},    {-3.0, 0.001349898031630094526651815},
      {-1.96, 0.02499789514822043621282369},    {-1.0, 0.1586552539314570514147675},
      {-0.66291, 0.2536940983897399398332293},  {-0.5, 0.3085375387259868963622954},
      {-0.1, 0.4601721627229710163310661},      {0.0, 0.5},
      {0.3, 0.6179114221889526330722736},       {0.66291, 0.7463059016102600601667707},
      {1.0, 0.8413447460685429485852325},       {1.96, 0.9750021048517795637871763},
      {3.0, 0.9986501019683699054733482},       {5.6, 0.9999999892824097416890707},
      {6.0, 0.9999999990134123549623019},       {8.0, 0.9999999999999993779039426},
  };
  for (const Ref& r : kRefs) EXPECT_NEAR(normal_cdf(r.x), r.expected, kRel * r.expected) << "x = " << r.x;
  EXPECT_NEAR(normal_cdf(1.96), 0.9750021048517795, 2e-16);
}

TEST(NormalCdf, EndsAndNaN) {
  EXPECT_EQ(normal_cdf(-38.0), 0.0);
  EXPECT_GT(normal_cdf(-37.5), 0.0);
  EXPECT_EQ(normal_cdf(8.6), 1.0);
  EXPECT_EQ(normal_cdf(std::numeric_limits<double>::infinity()), 1.0);
  EXPECT_EQ(normal_cdf(-std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_TRUE(std::isnan(normal_cdf(std::numeric_limits<double>::quiet_NaN())));
}

TEST(NormalCdf, NeverDecreasesAcrossTheIntervalEnds) {
  for (double edge : {-5.656854248, -0.66291, 0.0, 0.66291, 5.656854248}) {
    double prev = normal_cdf(edge - 1e-6);
    for (int i = -1000; i <= 1000; ++i) {
      const double v = normal_cdf(edge + i * 1e-9);
      EXPECT_GE(v, prev) << "at " << edge << " + " << i << "e-9";
      prev = v;
    }
  }
}

TEST(NormalQuantile, MatchesReferenceValues) {
  constexpr Ref kRefs[] = {
      {1e-300, -37.04709629936119923654704},  {1e-100, -21.27345356096532429417952},
      {1e-20, -9.262340089798407579572095},   {1e-10, -6.361340902404056199100397},
      {1e-05, -4.264890793922824610233749},   {0.001, -3.090232306167813535358005},
      {0.025, -1.959963984540054211779584},   {0.075, -1.439531470938455934949801},
      {0.1, -1.281551565544600435334517},     {0.3, -0.5244005127080408159694544},
      {0.7, 0.5244005127080406563136292},     {0.975, 1.959963984540053855604431},
      {0.999, 3.090232306167813277758202},    {1 - 0x1p-53, 8.209536151601386855630769},
      {0x1p-53, -8.209536151601386855630769},
  };
  for (const Ref& r : kRefs)
    EXPECT_NEAR(normal_quantile(r.x), r.expected, kRel * std::fabs(r.expected)) << "p = " << r.x;
  EXPECT_EQ(normal_quantile(0.5), 0.0);
}

TEST(NormalQuantile, AntisymmetricOnUniformsAndInvertsTheCdf) {
  Stream s = Substreams(11).stream("test", "quantile", 0);
  for (int i = 0; i < 20000; ++i) {
    const double u = s.uniform01();
    const double z = normal_quantile(u);
    ASSERT_EQ(normal_quantile(1.0 - u), -z) << "u = " << u;
    // Phi(Phi^-1(u)) = u to the CDF's own relative accuracy, on the side where it is small.
    const double tail = u < 0.5 ? u : 1.0 - u;
    ASSERT_NEAR(u < 0.5 ? normal_cdf(z) : 1.0 - normal_cdf(z), tail, 1e-14 * tail) << "u = " << u;
  }
}

TEST(NormalQuantile, NeverDecreasesAcrossTheIntervalEnds) {
  // 0.075 and 0.925 (|p - 0.5| = 0.425) and exp(-25) (r = 5).
  for (double edge : {std::exp(-25.0), 0.075, 0.5, 0.925}) {
    double prev = normal_quantile(edge * (1 - 1e-9));
    for (int i = -1000; i <= 1000; ++i) {
      const double v = normal_quantile(edge * (1 + i * 1e-12));
      EXPECT_GE(v, prev) << "at " << edge << " * (1 + " << i << "e-12)";
      prev = v;
    }
  }
}

TEST(NormalQuantile, RefusesPOutsideTheOpenInterval) {
  for (double p : {0.0, 1.0, -0.25, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
    try {
      normal_quantile(p);
      ADD_FAILURE() << "accepted p = " << p;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("p must be strictly between 0 and 1, got"), std::string::npos) << e.what();
    }
  }
  // The accepted twins nearest 0 and 1.
  EXPECT_LT(normal_quantile(1e-300), -37.0);
  EXPECT_GT(normal_quantile(1 - 0x1p-53), 8.2);
}

}  // namespace
