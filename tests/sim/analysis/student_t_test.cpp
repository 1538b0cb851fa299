// Student's t distribution (src/sim/analysis/student_t.h): quantiles against published and closed-form
// values, the CDF against closed forms, symmetry and round trips, and each refusal beside its closest
// accepted input.
#include "sim/analysis/student_t.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace {

using namespace blis::sim::analysis;

constexpr double kPi = 3.14159265358979323846;

// Relative difference.
double rel(double a, double b) { return std::fabs(a - b) / std::fabs(b); }

TEST(StudentT, QuantilesMatchPublishedValues) {
  // The brief's reference values (10 significant digits).
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706204736, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.776445105, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 29), 2.045229642, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.95, 10), 1.812461123, 1e-9);
}

TEST(StudentT, QuantilesMatchHighPrecisionValues) {
  // For even df the CDF is a finite sum: P(T <= t) = 1/2 + t / (2 sqrt(df + t^2)) * sum_{j < df/2}
  // C(2j, j) / 4^j (df / (df + t^2))^j. These quantiles were found by bisection on that sum in 60-digit
  // decimal arithmetic (Python's decimal module), to 20 digits.
  EXPECT_LT(rel(student_t_quantile(0.95, 10), 1.81246112281167641363), 2e-15);
  EXPECT_LT(rel(student_t_quantile(0.975, 4), 2.77644510519779435780), 2e-15);
  EXPECT_LT(rel(student_t_quantile(0.975, 1000), 1.96233908082640848500), 2e-15);
  EXPECT_LT(rel(student_t_quantile(0.995, 30), 2.74999565356722533240), 2e-15);
  EXPECT_LT(rel(student_t_quantile(0.975, 10000), 1.96020123989062625784), 2e-15);
  EXPECT_LT(rel(student_t_quantile(0.9, 6), 1.43975574726514841179), 2e-15);
  EXPECT_LT(rel(student_t_quantile(0.6, 20), 0.25674275385450197752), 2e-15);
  EXPECT_LT(rel(student_t_quantile(0.999, 8), 4.50079093372372481703), 2e-15);
}

TEST(StudentT, QuantilesMatchClosedFormsForOneAndTwoDegreesOfFreedom) {
  // df = 1 (Cauchy): tan(pi (p - 1/2)); df = 2: (2p - 1) / sqrt(2 p (1 - p)).
  // The Cauchy form is evaluated as cot(pi (1 - p)), which keeps its precision as p nears 1.
  for (double p : {0.6, 0.9, 0.975, 0.995, 0.999999}) {
    EXPECT_LT(rel(student_t_quantile(p, 1), 1.0 / std::tan(kPi * (1.0 - p))), 1e-13) << p;
    EXPECT_LT(rel(student_t_quantile(p, 2), (2 * p - 1) / std::sqrt(2 * p * (1 - p))), 1e-13) << p;
  }
  // Far in the Cauchy tail the quantile is about 1 / (pi q) and exceeds 1e154, where t^2 overflows.
  EXPECT_LT(rel(student_t_quantile(1e-300, 1), -1.0 / (kPi * 1e-300)), 1e-12);
}

TEST(StudentT, LargeDegreesOfFreedomFollowTheCornishFisherExpansion) {
  // t_p(df) = z + g1/df + g2/df^2 + g3/df^3 + g4/df^4 with z = Phi^-1(0.975) (A&S 26.7.5), evaluated in
  // 50-digit decimal arithmetic; the next term is below 1e-20 at df >= 1e5.
  EXPECT_LT(rel(student_t_quantile(0.975, 1e5), 1.95998770753460963859), 1e-11);
  EXPECT_LT(rel(student_t_quantile(0.975, 1e6), 1.95996635681410703526), 3e-11);
  EXPECT_LT(rel(student_t_quantile(0.975, 1e7), 1.95996422176720549037), 1e-10);
}

TEST(StudentT, CdfMatchesClosedForms) {
  EXPECT_EQ(student_t_cdf(0.0, 7), 0.5);
  EXPECT_EQ(student_t_cdf(-std::numeric_limits<double>::infinity(), 3), 0.0);
  EXPECT_EQ(student_t_cdf(std::numeric_limits<double>::infinity(), 3), 1.0);
  for (double t : {-30.0, -2.0, -0.3, 0.1, 1.0, 4.5, 100.0}) {
    EXPECT_NEAR(student_t_cdf(t, 1), 0.5 + std::atan(t) / kPi, 1e-15) << t;
    EXPECT_NEAR(student_t_cdf(t, 2), 0.5 + t / (2 * std::sqrt(2 + t * t)), 1e-15) << t;
  }
  // The upper tail keeps its relative precision where 1 - cdf would not: P(T > 1e6) for df = 1 is
  // atan(1e-6) / pi.
  EXPECT_LT(rel(student_t_upper_tail(1e6, 1), std::atan(1e-6) / kPi), 1e-13);
  EXPECT_LT(rel(student_t_upper_tail(-2.0, 5), student_t_cdf(2.0, 5)), 1e-15);
}

TEST(StudentT, QuantileInvertsTheCdfAndIsSymmetric) {
  // Probabilities that are binary fractions, so 1 - (1 - p) == p and the symmetry can be exact.
  for (double df : {1.0, 2.5, 7.0, 29.0, 300.0}) {
    for (double p : {0x1p-20, 0x1p-9, 0.0625, 0.3125, 0.5, 0.8125, 0.96875, 1.0 - 0x1p-14}) {
      const double t = student_t_quantile(p, df);
      EXPECT_NEAR(student_t_cdf(t, df), p, 4e-16 + 1e-14 * p) << df << " " << p;
      EXPECT_EQ(student_t_quantile(1.0 - p, df), -t) << df << " " << p;
    }
  }
  EXPECT_EQ(student_t_quantile(0.5, 12), 0.0);
  EXPECT_EQ(student_t_critical(0.95, 9), student_t_quantile(0.975, 9));
  // A level near 1 keeps its precision: the tail (1 - c) / 2 is formed from 1 - c (exact for c >= 1/2),
  // not from (1 + c) / 2, which would round it to a multiple of 2^-53.
  const double c = 1.0 - 1e-12;
  EXPECT_LT(rel(student_t_critical(c, 1), 1.0 / std::tan(kPi * (0.5 * (1.0 - c)))), 1e-12);
}

TEST(StudentT, SameInputsGiveTheSameBits) {
  // The method is a fixed sequence of IEEE operations and fmath calls, so its result is the same bits on
  // every platform (X6). These are those bits (identical at -O0 and -O2 with -ffp-contract=off); the value
  // is within 2e-15 of the exact 2.08596344726586484272 (even-df sum, as above). A change of method must
  // update them deliberately.
  const double a = student_t_quantile(0.975, 20);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a), 0x4000b00d9a954436u);
  EXPECT_LT(rel(a, 2.08596344726586484272), 2e-15);
}

TEST(StudentT, RefusesOutOfDomainInputsBesideTheirClosestAcceptedOnes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // probability in (0, 1)
  EXPECT_NO_THROW(student_t_quantile(std::nextafter(0.0, 1.0), 5));
  EXPECT_THROW(student_t_quantile(0.0, 5), std::invalid_argument);
  EXPECT_NO_THROW(student_t_quantile(std::nextafter(1.0, 0.0), 5));
  EXPECT_THROW(student_t_quantile(1.0, 5), std::invalid_argument);
  EXPECT_THROW(student_t_quantile(nan, 5), std::invalid_argument);
  // df in [1, 1e7]
  EXPECT_NO_THROW(student_t_quantile(0.9, 1.0));
  EXPECT_THROW(student_t_quantile(0.9, std::nextafter(1.0, 0.0)), std::invalid_argument);
  EXPECT_NO_THROW(student_t_cdf(1.0, 1e7));
  EXPECT_THROW(student_t_cdf(1.0, std::nextafter(1e7, 1e8)), std::invalid_argument);
  EXPECT_THROW(student_t_cdf(1.0, nan), std::invalid_argument);
  // t not NaN (infinite is accepted)
  EXPECT_NO_THROW(student_t_cdf(std::numeric_limits<double>::infinity(), 2));
  EXPECT_THROW(student_t_cdf(nan, 2), std::invalid_argument);
  EXPECT_NO_THROW(student_t_upper_tail(-std::numeric_limits<double>::infinity(), 2));
  EXPECT_THROW(student_t_upper_tail(nan, 2), std::invalid_argument);
  // confidence in (0, 1)
  EXPECT_NO_THROW(student_t_critical(0.999999, 3));
  EXPECT_THROW(student_t_critical(1.0, 3), std::invalid_argument);
  EXPECT_THROW(student_t_critical(-0.1, 3), std::invalid_argument);
  try {
    student_t_quantile(1.5, 4);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "student_t_quantile: probability = 1.5: a probability must lie in the open interval (0, 1)");
  }
}

}  // namespace
