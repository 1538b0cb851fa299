// X6: the project's fmath against libm (tests may call libm): ulp distance over the ranges pricing uses and
// beyond, exact powers of two, and the documented special values. The maxima measured are printed.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>

#include "contracts/fmath.h"

namespace {

namespace fm = blis::fmath;

// Distance in units in the last place between two finite doubles of one sign (or zero).
std::int64_t ulps(double a, double b) {
  if (a == b) return 0;
  auto key = [](double x) {
    const auto i = std::bit_cast<std::int64_t>(x);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  const std::int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

// A double with a uniformly drawn exponent in [lo_exp, hi_exp] and a uniform significand.
double wide(std::mt19937_64& g, int lo_exp, int hi_exp) {
  std::uniform_int_distribution<int> e(lo_exp, hi_exp);
  std::uniform_int_distribution<std::uint64_t> m(0, (std::uint64_t{1} << 52) - 1);
  return std::ldexp(1.0 + static_cast<double>(m(g)) * 0x1p-52, e(g));
}

struct Worst {
  std::int64_t ulps = 0;
  double x = 0, y = 0;
  void see(std::int64_t u, double a, double b = 0) {
    if (u > ulps) *this = {u, a, b};
  }
};

TEST(Fmath, LogAndLog2WithinOneUlpOfLibm) {
  std::mt19937_64 g(20240601);
  Worst wl, wl2;
  for (int i = 0; i < 400000; ++i) {
    const double x = i % 4 == 0 ? wide(g, -1074, 1023) : i % 4 == 1 ? 1.0 + std::uniform_real_distribution<double>(-0.3, 0.5)(g)
                              : i % 4 == 2 ? std::uniform_real_distribution<double>(1.0, 1e7)(g)
                                           : std::ldexp(static_cast<double>(g() >> 12), -1074);  // subnormals
    if (!(x > 0)) continue;
    wl.see(ulps(fm::log(x), std::log(x)), x);
    wl2.see(ulps(fm::log2(x), std::log2(x)), x);
  }
  std::printf("log: max %lld ulp (x=%.17g); log2: max %lld ulp (x=%.17g)\n", static_cast<long long>(wl.ulps), wl.x,
              static_cast<long long>(wl2.ulps), wl2.x);
  EXPECT_LE(wl.ulps, 1) << "log at " << wl.x;
  EXPECT_LE(wl2.ulps, 1) << "log2 at " << wl2.x;
}

TEST(Fmath, ExpAndExp2WithinOneUlpOfLibm) {
  std::mt19937_64 g(20240602);
  Worst we, we2;
  for (int i = 0; i < 400000; ++i) {
    const double a = std::uniform_real_distribution<double>(-745.0, 709.7)(g);
    const double b = i % 2 ? std::uniform_real_distribution<double>(-1074.0, 1023.99)(g)
                           : std::uniform_real_distribution<double>(-8.0, 8.0)(g);
    we.see(ulps(fm::exp(a), std::exp(a)), a);
    we2.see(ulps(fm::exp2(b), std::exp2(b)), b);
  }
  std::printf("exp: max %lld ulp (x=%.17g); exp2: max %lld ulp (x=%.17g)\n", static_cast<long long>(we.ulps), we.x,
              static_cast<long long>(we2.ulps), we2.x);
  EXPECT_LE(we.ulps, 1) << "exp at " << we.x;
  EXPECT_LE(we2.ulps, 1) << "exp2 at " << we2.x;
}

TEST(Fmath, PowWithinAFewUlpOfLibm) {
  std::mt19937_64 g(20240603);
  Worst near, far;
  for (int i = 0; i < 400000; ++i) {
    const double x = i % 2 ? std::uniform_real_distribution<double>(1e-6, 1e6)(g) : wide(g, -60, 60);
    const double y = std::uniform_real_distribution<double>(-40.0, 40.0)(g);
    const double w = y * std::log2(x);
    const double want = std::pow(x, y);
    if (!std::isfinite(want) || want == 0.0 || std::fabs(want) < std::numeric_limits<double>::min()) continue;
    (std::fabs(w) <= 64 ? near : far).see(ulps(fm::pow(x, y), want), x, y);
  }
  std::printf("pow: max %lld ulp where |y log2 x| <= 64 (x=%.17g, y=%.17g); %lld ulp beyond (x=%.17g, y=%.17g)\n",
              static_cast<long long>(near.ulps), near.x, near.y, static_cast<long long>(far.ulps), far.x, far.y);
  EXPECT_LE(near.ulps, 2) << "pow(" << near.x << ", " << near.y << ")";
  EXPECT_LE(far.ulps, 8) << "pow(" << far.x << ", " << far.y << ")";
  // Integer powers of negative bases, and the pricing-sized cases.
  EXPECT_EQ(fm::pow(-2.0, 3.0), -8.0);
  EXPECT_EQ(fm::pow(-2.0, 4.0), 16.0);
  EXPECT_EQ(fm::pow(2.0, 10.0), 1024.0);
  EXPECT_EQ(fm::pow(2.0, -3.0), 0.125);
  EXPECT_LE(ulps(fm::pow(10.0, 0.5), std::sqrt(10.0)), 1);
}

TEST(Fmath, PowersOfTwoAreExact) {
  for (int k = -1074; k <= 1023; ++k) {
    const double x = std::ldexp(1.0, k);
    ASSERT_EQ(fm::log2(x), static_cast<double>(k)) << "log2(2^" << k << ")";
    ASSERT_EQ(fm::exp2(static_cast<double>(k)), x) << "exp2(" << k << ")";
  }
  EXPECT_EQ(fm::log(1.0), 0.0);
  EXPECT_EQ(fm::exp(0.0), 1.0);
}

TEST(Fmath, SpecialValuesFollowAnnexF) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto f : {fm::log, fm::log2}) {
    EXPECT_TRUE(std::isnan(f(nan)));
    EXPECT_TRUE(std::isnan(f(-1.0)));
    EXPECT_TRUE(std::isnan(f(-inf)));
    EXPECT_EQ(f(0.0), -inf);
    EXPECT_EQ(f(-0.0), -inf);
    EXPECT_EQ(f(inf), inf);
  }
  for (auto f : {fm::exp, fm::exp2}) {
    EXPECT_TRUE(std::isnan(f(nan)));
    EXPECT_EQ(f(inf), inf);
    EXPECT_EQ(f(-inf), 0.0);
    EXPECT_EQ(f(2000.0), inf);
    EXPECT_EQ(f(-2000.0), 0.0);
  }
  EXPECT_EQ(fm::exp(709.78), std::exp(709.78));
  EXPECT_EQ(fm::exp(709.8), inf);
  EXPECT_EQ(fm::pow(nan, 0.0), 1.0);
  EXPECT_EQ(fm::pow(1.0, nan), 1.0);
  EXPECT_TRUE(std::isnan(fm::pow(nan, 1.0)));
  EXPECT_TRUE(std::isnan(fm::pow(2.0, nan)));
  EXPECT_TRUE(std::isnan(fm::pow(-2.0, 0.5)));
  EXPECT_EQ(fm::pow(0.0, -1.0), inf);
  EXPECT_EQ(fm::pow(-0.0, -1.0), -inf);
  EXPECT_EQ(fm::pow(-0.0, -2.0), inf);
  EXPECT_EQ(fm::pow(0.0, 2.0), 0.0);
  EXPECT_TRUE(std::signbit(fm::pow(-0.0, 3.0)));
  EXPECT_EQ(fm::pow(0.5, inf), 0.0);
  EXPECT_EQ(fm::pow(0.5, -inf), inf);
  EXPECT_EQ(fm::pow(2.0, inf), inf);
  EXPECT_EQ(fm::pow(-1.0, inf), 1.0);
  EXPECT_EQ(fm::pow(inf, -1.0), 0.0);
  EXPECT_EQ(fm::pow(-inf, 3.0), -inf);
  EXPECT_EQ(fm::pow(2.0, 5000.0), inf);
  EXPECT_EQ(fm::pow(2.0, -5000.0), 0.0);
}

}  // namespace
