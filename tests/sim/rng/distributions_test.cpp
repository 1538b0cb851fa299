// The samplers (src/sim/rng/distributions.h): golden first draws (the regression anchor of generator v1),
// sample moments against the families' own, gamma gaps with the requested cv (moments and a
// Kolmogorov-Smirnov distance), the copula's correlation, token rounding and truncation by redraw, and
// each sampler's refusal beside its closest accepted twin. Every stream has a fixed seed, so each figure
// below is one fixed number; the tolerances say how far a correct sampler's figure may fall from the
// family's (5 standard errors, or the stated test's 0.1% critical value).
#include "sim/rng/distributions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace blis::sim::rng;

constexpr int kN = 200000;

Stream stream(const std::string& purpose, std::uint64_t entity = 0) {
  return Substreams(20240611).stream("test", purpose, entity);
}

std::vector<double> draws(const std::string& purpose, const std::function<double(Stream&)>& f, int n = kN) {
  Stream s = stream(purpose);
  std::vector<double> out(n);
  for (double& x : out) x = f(s);
  return out;
}

// The sample mean within 5 standard errors of `mean`, and the sample variance within 5 standard errors
// of `var`; mu4 is the family's fourth central moment (the variance estimate's variance is
// (mu4 - var^2) / n).
void expect_moments(const std::vector<double>& x, double mean, double var, double mu4, const std::string& what) {
  const double n = static_cast<double>(x.size());
  double m = 0;
  for (double v : x) m += v;
  m /= n;
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  const double sample_var = ss / (n - 1);
  EXPECT_NEAR(m, mean, 5 * std::sqrt(var / n)) << what << ": mean";
  EXPECT_NEAR(sample_var, var, 5 * std::sqrt((mu4 - var * var) / n)) << what << ": variance";
}

// The fourth central moment from the raw moments E[X], E[X^2], E[X^3], E[X^4].
double central4(double m1, double m2, double m3, double m4) {
  return m4 - 4 * m1 * m3 + 6 * m1 * m1 * m2 - 3 * m1 * m1 * m1 * m1;
}

// ---- golden values: the first four draws of each sampler for seed 20240611, component "golden", the
// sampler's name as purpose, entity 0. A change here is a new generator version (substreams.h).

std::vector<double> first4(const char* purpose, const std::function<double(Stream&)>& f, std::uint64_t words) {
  Stream s = Substreams(20240611).stream("golden", purpose, 0);
  std::vector<double> out;
  for (int i = 0; i < 4; ++i) out.push_back(f(s));
  EXPECT_EQ(s.draws(), words) << purpose;
  return out;
}

using V = std::vector<double>;

TEST(Golden, FirstDrawsOfEachSampler) {
  EXPECT_EQ(first4(
                "uniform", [](Stream& s) { return uniform(s, -2.0, 5.0); }, 4),
            (V{0x1.8a48a2f2d3cp-1, -0x1.ea46a167e72fcp+0, 0x1.8729d28621ad6p+0, -0x1.97921563b37f8p-2}));
  EXPECT_EQ(first4(
                "uniform_int", [](Stream& s) { return double(uniform_int(s, 10, 20)); }, 4),
            (V{14, 11, 19, 17}));
  EXPECT_EQ(first4(
                "exponential", [](Stream& s) { return exponential(s, 3.0); }, 4),
            (V{0x1.b42fd6d8fb542p-1, 0x1.4a7d52789cfcep+0, 0x1.fb5dbb3d1c6c3p-1, 0x1.7eb3ff8f5fa74p+0}));
  EXPECT_EQ(first4(
                "normal", [](Stream& s) { return normal(s, 100.0, 15.0); }, 4),
            (V{0x1.78fa3d25fcc58p+6, 0x1.dbf8f8e8c9412p+6, 0x1.ce957d6d48d79p+6, 0x1.d036d714a82a6p+6}));
  EXPECT_EQ(first4(
                "lognormal", [](Stream& s) { return lognormal(s, 500.0, 0.8); }, 4),
            (V{0x1.89f62a5830563p+9, 0x1.34a07d06dc084p+7, 0x1.036d67865dabcp+8, 0x1.c588326016205p+7}));
  EXPECT_EQ(first4(
                "gamma", [](Stream& s) { return gamma(s, 4.5, 2.0); }, 8),
            (V{0x1.af208219be56bp+1, 0x1.8a82af7441c97p+3, 0x1.c27c86f8b7cb8p+2, 0x1.af6d4304de654p+3}));
  EXPECT_EQ(first4(
                "gamma_small", [](Stream& s) { return gamma(s, 0.3, 2.0); }, 12),
            (V{0x1.f73faf3efc3c8p+1, 0x1.a4192349d2763p-4, 0x1.2d7f30865c293p+1, 0x1.38e28c612e21dp-7}));
  EXPECT_EQ(first4(
                "weibull", [](Stream& s) { return weibull(s, 1.5, 10.0); }, 4),
            (V{0x1.8d473dcc406cfp+0, 0x1.3404d8f45468cp+4, 0x1.1e07952868accp+2, 0x1.1862a2c887cacp+2}));
  const Empirical e({10, 20, 30}, {1, 2, 3});
  EXPECT_EQ(first4(
                "empirical", [&](Stream& s) { return e.sample(s); }, 4),
            (V{20, 10, 10, 20}));
  EXPECT_EQ(first4(
                "copula", [](Stream& s) { return gaussian_copula_pair(s, 0.6).second; }, 8),
            (V{0x1.cd526055ff24bp-1, 0x1.91d82dacffce6p-1, 0x1.7f5a961ecf71ep-3, 0x1.f9b81745600efp-4}));
  const Distribution tokens = Distribution::lognormal(200, 1.0);
  EXPECT_EQ(first4(
                "tokens", [&](Stream& s) { return double(draw_tokens(s, tokens, 50, 400)); }, 6),
            (V{208, 248, 298, 218}));
}

// ---- moments

TEST(Moments, Uniform) {
  const double w = 7.0;  // [-2, 5)
  expect_moments(draws("uniform", [](Stream& s) { return uniform(s, -2.0, 5.0); }), 1.5, w * w / 12, w * w * w * w / 80,
                 "uniform(-2, 5)");
}

TEST(Moments, UniformIntIsFlat) {
  // Chi-square over the 11 values with 10 degrees of freedom: below 29.59 (p = 0.001).
  Stream s = stream("uniform_int");
  std::vector<int> counts(11);
  for (int i = 0; i < 110000; ++i) {
    const std::uint64_t v = uniform_int(s, 10, 20);
    ASSERT_GE(v, 10u);
    ASSERT_LE(v, 20u);
    ++counts[v - 10];
  }
  double chi2 = 0;
  for (int c : counts) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
  EXPECT_LT(chi2, 29.59);
  EXPECT_EQ(uniform_int(s, 7, 7), 7u);
  Stream full = stream("uniform_int_full");
  Stream twin = stream("uniform_int_full");
  EXPECT_EQ(uniform_int(full, 0, UINT64_MAX), twin.next_u64());  // the whole range is one word
}

TEST(Moments, Exponential) {
  expect_moments(draws("exponential", [](Stream& s) { return exponential(s, 3.0); }), 3.0, 9.0, 9 * 81.0,
                 "exponential(3)");
}

TEST(Moments, Normal) {
  expect_moments(draws("normal", [](Stream& s) { return normal(s, 100.0, 15.0); }), 100.0, 225.0, 3 * 225.0 * 225.0,
                 "normal(100, 15)");
}

TEST(Moments, LognormalIsNormalInTheLog) {
  const std::vector<double> x = draws("lognormal", [](Stream& s) { return lognormal(s, 500.0, 0.8); });
  std::vector<double> logs;
  int below_median = 0;
  for (double v : x) {
    logs.push_back(std::log(v));
    below_median += v < 500.0;
  }
  expect_moments(logs, std::log(500.0), 0.64, 3 * 0.64 * 0.64, "log of lognormal(500, 0.8)");
  EXPECT_NEAR(below_median / double(kN), 0.5, 5 * std::sqrt(0.25 / kN));
}

TEST(Moments, GammaAcrossShapes) {
  const double theta = 2.0;
  for (double k : {0.3, 1.0, 4.5, 50.0}) {
    const std::vector<double> x = draws("gamma" + std::to_string(k), [&](Stream& s) { return gamma(s, k, theta); });
    EXPECT_GT(*std::min_element(x.begin(), x.end()), 0.0);
    expect_moments(x, k * theta, k * theta * theta, 3 * k * (k + 2) * std::pow(theta, 4),
                   "gamma(" + std::to_string(k) + ", 2)");
  }
}

TEST(Moments, WeibullAcrossShapes) {
  const double lambda = 10.0;
  for (double k : {0.7, 1.5}) {
    const auto raw = [&](int n) { return std::pow(lambda, n) * std::tgamma(1 + n / k); };
    const double mean = raw(1), var = raw(2) - mean * mean;
    const std::vector<double> x =
        draws("weibull" + std::to_string(k), [&](Stream& s) { return weibull(s, k, lambda); });
    expect_moments(x, mean, var, central4(raw(1), raw(2), raw(3), raw(4)), "weibull(" + std::to_string(k) + ", 10)");
  }
}

TEST(Moments, EmpiricalFrequencies) {
  const Empirical e({10, 20, 30}, {1, 2, 3});
  Stream s = stream("empirical");
  double counts[3] = {};
  for (int i = 0; i < 60000; ++i) counts[static_cast<int>(e.sample(s)) / 10 - 1] += 1;
  // Chi-square with 2 degrees of freedom: below 13.82 (p = 0.001).
  const double expected[3] = {10000, 20000, 30000};
  double chi2 = 0;
  for (int i = 0; i < 3; ++i) chi2 += (counts[i] - expected[i]) * (counts[i] - expected[i]) / expected[i];
  EXPECT_LT(chi2, 13.82);
  EXPECT_EQ(s.draws(), 60000u);
}

// ---- gamma gaps: "gamma arrivals at rate r with coefficient of variation cv"

// The regularized lower incomplete gamma P(a, x): its series below a + 1, else 1 - the continued fraction
// of Q(a, x) (modified Lentz). Test-side only; libm's lgamma is fine here.
double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 10000 && term > sum * 1e-17; ++n) sum += term *= x / (a + n);
    return sum * std::exp(log_front);
  }
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = std::fabs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = std::fabs(c) < tiny ? tiny : c;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return 1 - std::exp(log_front) * h;
}

TEST(GammaGaps, GiveTheRequestedRateAndCv) {
  const double rate = 2.0;  // per second
  const int n = 50000;
  for (double cv : {0.5, 1.0, 2.0, 3.0}) {
    const Distribution d = gamma_gaps(rate, cv);
    const double k = 1 / (cv * cv), theta = 1 / (rate * k);
    EXPECT_EQ(d.describe(), Distribution::gamma(k, theta).describe());
    std::vector<double> x = draws(
        "gaps" + std::to_string(cv), [&](Stream& s) { return d.sample(s); }, n);
    const std::string what = "gamma gaps at 2/s, cv " + std::to_string(cv);
    expect_moments(x, 1 / rate, cv * cv / (rate * rate), 3 * k * (k + 2) * std::pow(theta, 4), what);
    // Kolmogorov-Smirnov distance to gamma(k, theta): below 1.949 / sqrt(n) (p = 0.001).
    std::sort(x.begin(), x.end());
    double dist = 0;
    for (int i = 0; i < n; ++i) {
      const double f = gamma_p(k, x[i] / theta);
      dist = std::max({dist, (i + 1.0) / n - f, f - double(i) / n});
    }
    EXPECT_LT(dist, 1.949 / std::sqrt(double(n))) << what;
  }
}

// ---- the copula

TEST(Copula, NormalScoresHaveTheRequestedCorrelation) {
  const int n = 100000;
  for (double rho : {-0.8, 0.0, 0.5, 0.95}) {
    Stream s = stream("copula", static_cast<std::uint64_t>((rho + 1) * 100));
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, su = 0, sv = 0;
    for (int i = 0; i < n; ++i) {
      const CopulaPair p = gaussian_copula_pair(s, rho);
      ASSERT_GT(p.second, 0.0);
      ASSERT_LT(p.second, 1.0);
      const double x = normal_quantile(p.first), y = normal_quantile(p.second);
      sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y, su += p.first, sv += p.second;
    }
    EXPECT_EQ(s.draws(), 2u * n);
    const double cov = sxy / n - sx / n * sy / n;
    const double r = cov / std::sqrt((sxx / n - sx / n * sx / n) * (syy / n - sy / n * sy / n));
    // The sample correlation's standard error is about (1 - rho^2) / sqrt(n).
    EXPECT_NEAR(r, rho, 5 * (1 - rho * rho) / std::sqrt(double(n)) + 1e-12) << "rho " << rho;
    // Both margins uniform: means 1/2 within 5 standard errors (sqrt(1/12 / n)).
    EXPECT_NEAR(su / n, 0.5, 5 * std::sqrt(1.0 / 12 / n)) << "rho " << rho;
    EXPECT_NEAR(sv / n, 0.5, 5 * std::sqrt(1.0 / 12 / n)) << "rho " << rho;
  }
}

TEST(Copula, ExtremeCorrelations) {
  Stream s = stream("copula_extreme");
  for (int i = 0; i < 1000; ++i) {
    const CopulaPair plus = gaussian_copula_pair(s, 1.0);
    ASSERT_NEAR(plus.second, plus.first, 1e-14);
    const CopulaPair minus = gaussian_copula_pair(s, -1.0);
    ASSERT_NEAR(minus.second, 1 - minus.first, 1e-14);
  }
}

// ---- token counts by inversion (a copula's marginals)

// tokens_at(d, min, max, u) at uniform u has the law draw_tokens samples: the two samples' empirical
// distribution functions agree at every count within the two-sample KS 0.1% critical value
// sqrt(-ln(0.0005) / 2) sqrt(2 / n) (conservative for counts), for each family with a distribution function,
// including bounds that cut into the body.
TEST(TokensAt, InversionHasTheLawOfTheRedrawSampler) {
  const int n = 40000;
  struct Case {
    Distribution d;
    std::uint64_t min, max;
  };
  const std::vector<Case> cases = {
      {Distribution::normal(100, 40), 60, 180},  {Distribution::lognormal(30, 0.8), 1, 120},
      {Distribution::exponential(20), 5, 1000},   {Distribution::weibull(1.5, 40), 1, 60},
      {Distribution::empirical({3, 7.4, 7.6, 12, 40}, {1, 2, 3, 4, 5}), 5, 20}, {Distribution::constant(12.5), 1, 20}};
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    Stream a = stream("tokens_at_redraw", k), b = stream("tokens_at_inverse", k);
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = static_cast<double>(draw_tokens(a, c.d, c.min, c.max));
      y[i] = static_cast<double>(tokens_at(c.d, c.min, c.max, b.uniform01()));
      ASSERT_GE(y[i], static_cast<double>(c.min));
      ASSERT_LE(y[i], static_cast<double>(c.max));
    }
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    double dmax = 0;
    for (std::uint64_t t = c.min; t <= c.max; ++t) {
      const double fx = static_cast<double>(std::upper_bound(x.begin(), x.end(), static_cast<double>(t)) - x.begin()) / n;
      const double fy = static_cast<double>(std::upper_bound(y.begin(), y.end(), static_cast<double>(t)) - y.begin()) / n;
      dmax = std::max(dmax, std::abs(fx - fy));
    }
    EXPECT_LT(dmax, std::sqrt(-std::log(0.0005) / 2) * std::sqrt(2.0 / n)) << c.d.describe();
  }
}

TEST(TokensAt, MonotoneInTheProbability) {
  const Distribution d = Distribution::lognormal(30, 0.8);
  std::uint64_t last = 0;
  for (int i = 1; i < 1000; ++i) {
    const std::uint64_t t = tokens_at(d, 1, 500, i / 1000.0);
    ASSERT_GE(t, last) << i;
    last = t;
  }
  EXPECT_EQ(tokens_at(Distribution::empirical({5, 1, 3}, {1, 1, 1}), 1, 5, 0.1), 1u);  // in order of value
  EXPECT_EQ(tokens_at(Distribution::empirical({5, 1, 3}, {1, 1, 1}), 1, 5, 0.9), 5u);
}

// Refusal pairs: a family without a distribution function (gamma) and bounds holding no probability, each
// beside its closest accepted twin.
TEST(TokensAt, RefusesGammaAndEmptyBounds) {
  try {
    tokens_at(Distribution::gamma(2, 10), 1, 100, 0.5);
    FAIL() << "gamma was inverted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "gamma(shape=2, scale=10): its distribution function is not computed by this build");
  }
  EXPECT_NO_THROW(tokens_at(Distribution::weibull(2, 10), 1, 100, 0.5));
  try {
    tokens_at(Distribution::constant(30), 1, 20, 0.5);
    FAIL() << "a constant outside its bounds was given";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "constant(value=30) has no probability within [1, 20] tokens");
  }
  EXPECT_EQ(tokens_at(Distribution::constant(30), 1, 30, 0.5), 30u);
}

// ---- token counts: rounding half to even, truncation by redraw

TEST(Tokens, RoundHalfEven) {
  EXPECT_EQ(round_half_even(0.5), 0.0);
  EXPECT_EQ(round_half_even(1.5), 2.0);
  EXPECT_EQ(round_half_even(2.5), 2.0);
  EXPECT_EQ(round_half_even(3.5), 4.0);
  EXPECT_EQ(round_half_even(2.4999999999999996), 2.0);
  EXPECT_EQ(round_half_even(0.49999999999999994), 0.0);  // floor(x + 0.5) would give 1
  EXPECT_EQ(round_half_even(2.5000000000000004), 3.0);
  EXPECT_EQ(round_half_even(4503599627370495.5), 4503599627370496.0);  // 2^52 - 0.5: the odd floor goes up
  EXPECT_EQ(round_half_even(-2.5), -2.0);
  EXPECT_EQ(round_half_even(-3.5), -4.0);
  EXPECT_TRUE(std::signbit(round_half_even(-0.5)));
  EXPECT_EQ(round_half_even(1e300), 1e300);
  EXPECT_EQ(round_half_even(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
}

TEST(Tokens, RoundedTiesGoToEven) {
  Stream s = stream("ties");
  EXPECT_EQ(draw_tokens(s, Distribution::constant(2.5), 0, 10), 2u);
  EXPECT_EQ(draw_tokens(s, Distribution::constant(3.5), 0, 10), 4u);
  EXPECT_EQ(s.draws(), 0u);  // a constant consumes no word
}

TEST(Tokens, TruncationRedrawsAndNeverClamps) {
  // normal(100, 50) within [60, 140]: P(60 | kept) is the mass rounding to 60 over the kept mass, about 0.0096;
  // clamping would pile the whole lower tail (about 0.2) onto 60.
  const Distribution d = Distribution::normal(100, 50);
  const auto cdf = [](double x) { return normal_cdf((x - 100) / 50); };
  const double kept = cdf(140.5) - cdf(59.5);
  const double p60 = (cdf(60.5) - cdf(59.5)) / kept;
  Stream s = stream("truncation");
  const int n = 100000;
  int at60 = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t t = draw_tokens(s, d, 60, 140);
    ASSERT_GE(t, 60u);
    ASSERT_LE(t, 140u);
    at60 += t == 60;
  }
  EXPECT_NEAR(at60 / double(n), p60, 5 * std::sqrt(p60 * (1 - p60) / n));
  // Draws per token: geometric with success probability `kept`, mean 1 / kept, variance (1 - kept) / kept^2.
  EXPECT_NEAR(double(s.draws()), n / kept, 5 * std::sqrt(n * (1 - kept)) / kept);
}

TEST(Tokens, RefusesAfterTheRedrawLimitNamingFamilyParametersAndBounds) {
  const Distribution d = Distribution::normal(1000, 1);
  Stream s = stream("limit");
  try {
    draw_tokens(s, d, 0, 10);
    ADD_FAILURE() << "no refusal";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "token draw: normal(mean=1000, sd=1) gave no whole token count within [0, 10] in 1000 draws "
              "(truncation redraws, it never clamps)");
  }
  EXPECT_EQ(s.draws(), static_cast<std::uint64_t>(kTruncationDraws));
  // The twin: bounds holding the mass.
  EXPECT_NEAR(double(draw_tokens(s, d, 0, 2000)), 1000.0, 6.0);
}

TEST(Durations, TruncatedDrawsKeepTheirFractions) {
  const Distribution d = Distribution::exponential(2.0);
  Stream s = stream("durations");
  bool fractional = false;
  for (int i = 0; i < 1000; ++i) {
    const double v = draw_truncated(s, d, 1.0, 3.0);
    ASSERT_GE(v, 1.0);
    ASSERT_LE(v, 3.0);
    fractional = fractional || v != std::floor(v);
  }
  EXPECT_TRUE(fractional);
  try {
    draw_truncated(s, Distribution::uniform(0, 1), 2.0, 3.0);
    ADD_FAILURE() << "no refusal";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "truncated draw: uniform(lo=0, hi=1) gave no value within [2, 3] in 1000 draws (truncation "
              "redraws, it never clamps)");
  }
}

// ---- refusals, each beside its closest accepted twin

void expect_invalid(const std::function<void()>& f, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "accepted; expected: " << message;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(Refusals, EachSamplerNamesTheParameterAndValue) {
  Stream s = stream("refusals");
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double tiny = std::numeric_limits<double>::denorm_min();

  expect_invalid([&] { exponential(s, 0.0); }, "exponential: mean must be a finite number above 0, got 0");
  expect_invalid([&] { exponential(s, inf); }, "exponential: mean must be a finite number above 0, got inf");
  EXPECT_GT(exponential(s, 1e-300), 0.0);

  expect_invalid([&] { normal(s, 0.0, 0.0); }, "normal: sd must be a finite number above 0, got 0");
  expect_invalid([&] { normal(s, nan, 1.0); }, "normal: mean must be finite, got nan");
  EXPECT_TRUE(std::isfinite(normal(s, -1e300, tiny)));

  expect_invalid([&] { lognormal(s, 0.0, 1.0); }, "lognormal: median must be a finite number above 0, got 0");
  expect_invalid([&] { lognormal(s, 1.0, -0.5); }, "lognormal: sigma must be a finite number above 0, got -0.5");
  EXPECT_GT(lognormal(s, tiny, 1e-3), 0.0);

  expect_invalid([&] { gamma(s, 0.0, 1.0); }, "gamma: shape must be a finite number above 0, got 0");
  expect_invalid([&] { gamma(s, -1.0, 1.0); }, "gamma: shape must be a finite number above 0, got -1");
  expect_invalid([&] { gamma(s, 1.0, 0.0); }, "gamma: scale must be a finite number above 0, got 0");
  EXPECT_GE(gamma(s, 1e-3, 1.0), 0.0);

  expect_invalid([&] { weibull(s, 0.0, 1.0); }, "weibull: shape must be a finite number above 0, got 0");
  expect_invalid([&] { weibull(s, 1.0, -1.0); }, "weibull: scale must be a finite number above 0, got -1");
  EXPECT_GT(weibull(s, 0.1, 1.0), 0.0);

  expect_invalid([&] { uniform(s, 1.0, 1.0); }, "uniform: hi must be above lo (1), got 1");
  expect_invalid([&] { uniform(s, -inf, 1.0); }, "uniform: lo must be finite, got -inf");
  expect_invalid([&] { uniform(s, -1e308, 1e308); }, "uniform: hi - lo must be finite, got inf");
  const double u = uniform(s, 1.0, std::nextafter(1.0, 2.0));
  EXPECT_TRUE(u == 1.0 || u == std::nextafter(1.0, 2.0));

  expect_invalid([&] { uniform_int(s, 5, 4); }, "uniform_int: hi must be at least lo (5), got 4");
  EXPECT_EQ(uniform_int(s, 5, 5), 5u);

  expect_invalid([&] { Empirical({}, {}); }, "empirical: values must not be empty");
  expect_invalid([&] { Empirical({1, 2}, {1}); }, "empirical: weights must have one entry per value (2), got 1");
  expect_invalid([&] { Empirical({1, 2}, {1, 0}); }, "empirical: weights[1] must be a finite number above 0, got 0");
  expect_invalid([&] { Empirical({1, inf}, {1, 1}); }, "empirical: values[1] must be finite, got inf");
  expect_invalid([&] { Empirical({1, 2}, {1e308, 1e308}); }, "empirical: the total weight must be finite, got inf");
  EXPECT_EQ(Empirical({1, 2}, {1, tiny}).sample(s), 1.0);

  expect_invalid([&] { gaussian_copula_pair(s, std::nextafter(1.0, 2.0)); },
                 "gaussian_copula_pair: rho must be within [-1, 1], got 1.0000000000000002");
  expect_invalid([&] { gaussian_copula_pair(s, nan); }, "gaussian_copula_pair: rho must be within [-1, 1], got nan");
  EXPECT_NO_THROW(gaussian_copula_pair(s, -1.0));

  expect_invalid([&] { gamma_gaps(0.0, 1.0); }, "gamma_gaps: rate_per_s must be a finite number above 0, got 0");
  expect_invalid([&] { gamma_gaps(1.0, 0.0); }, "gamma_gaps: cv must be a finite number above 0, got 0");
  expect_invalid([&] { gamma_gaps(1.0, 1e200); },
                 "gamma_gaps: rate_per_s=1 and cv=1e+200 give gamma(shape=0, scale=inf), outside finite positive "
                 "numbers");
  EXPECT_EQ(gamma_gaps(1.0, 1e10).describe(), "gamma(shape=1e-20, scale=1e+20)");

  expect_invalid([&] { draw_tokens(s, Distribution::constant(1), 5, 4); },
                 "draw_tokens: bounds must satisfy min <= max <= 2^53, got [5, 4]");
  expect_invalid([&] { draw_tokens(s, Distribution::constant(1), 0, (1ull << 53) + 1); },
                 "draw_tokens: bounds must satisfy min <= max <= 2^53, got [0, 9007199254740993]");
  EXPECT_EQ(draw_tokens(s, Distribution::constant(1), 0, 1ull << 53), 1u);
  expect_invalid([&] { draw_truncated(s, Distribution::constant(1), 2.0, 1.0); },
                 "draw_truncated: hi must be at least lo (2), got 1");
  EXPECT_EQ(draw_truncated(s, Distribution::constant(1), 1.0, 1.0), 1.0);
}

TEST(Refusals, DistributionFactoriesCheckAsTheSamplersDo) {
  expect_invalid([] { Distribution::gamma(0.0, 1.0); }, "gamma: shape must be a finite number above 0, got 0");
  expect_invalid([] { Distribution::exponential(-2.0); }, "exponential: mean must be a finite number above 0, got -2");
  expect_invalid([] { Distribution::normal(0.0, 0.0); }, "normal: sd must be a finite number above 0, got 0");
  expect_invalid([] { Distribution::lognormal(1.0, 0.0); }, "lognormal: sigma must be a finite number above 0, got 0");
  expect_invalid([] { Distribution::weibull(1.0, 0.0); }, "weibull: scale must be a finite number above 0, got 0");
  expect_invalid([] { Distribution::uniform(2.0, 1.0); }, "uniform: hi must be above lo (2), got 1");
  expect_invalid([] { Distribution::constant(std::nan("")); }, "constant: value must be finite, got nan");
  expect_invalid([] { Distribution::empirical({1}, {-1}); },
                 "empirical: weights[0] must be a finite number above 0, got -1");
  // Their twins, described.
  EXPECT_EQ(Distribution::gamma(0.5, 1.0).describe(), "gamma(shape=0.5, scale=1)");
  EXPECT_EQ(Distribution::exponential(2.0).describe(), "exponential(mean=2)");
  EXPECT_EQ(Distribution::normal(0.0, 0.1).describe(), "normal(mean=0, sd=0.1)");
  EXPECT_EQ(Distribution::lognormal(1.0, 0.3).describe(), "lognormal(median=1, sigma=0.3)");
  EXPECT_EQ(Distribution::weibull(1.0, 4.0).describe(), "weibull(shape=1, scale=4)");
  EXPECT_EQ(Distribution::uniform(1.0, 2.0).describe(), "uniform(lo=1, hi=2)");
  EXPECT_EQ(Distribution::constant(7.0).describe(), "constant(value=7)");
  EXPECT_EQ(Distribution::empirical({10, 20}, {0.1, 0.2}).describe(), "empirical(10:0.1, 20:0.2)");
}

TEST(Distribution, SamplesAsItsFreeFunction) {
  const std::vector<std::pair<Distribution, std::function<double(Stream&)>>> pairs = {
      {Distribution::uniform(-1, 4), [](Stream& s) { return uniform(s, -1, 4); }},
      {Distribution::normal(5, 2), [](Stream& s) { return normal(s, 5, 2); }},
      {Distribution::lognormal(50, 0.5), [](Stream& s) { return lognormal(s, 50, 0.5); }},
      {Distribution::gamma(0.7, 3), [](Stream& s) { return gamma(s, 0.7, 3); }},
      {Distribution::exponential(4), [](Stream& s) { return exponential(s, 4); }},
      {Distribution::weibull(2, 3), [](Stream& s) { return weibull(s, 2, 3); }},
  };
  for (const auto& [d, f] : pairs) {
    Stream a = stream("same"), b = stream("same");
    for (int i = 0; i < 100; ++i) ASSERT_EQ(d.sample(a), f(b)) << d.describe();
  }
}

}  // namespace
