// X6: the project's fmath against libm (tests may call libm): ulp distance over the ranges pricing uses and
// beyond, exact powers of two, and the documented special values. The maxima measured are printed.
//
// usage: cost-fmath-test REFERENCE   (the record's input: tests/cost/fmath_reference.txt)
//
// The reference table holds what the program compares with, one entry a line (`#` starts a comment):
//   sample FN ULPS           the sampled sweep of FN stays within ULPS of libm; FN is log, log2, exp, exp2,
//                            pow (where |y log2 x| <= 64) or pow-far (beyond); each sweep needs its line
//   exact FN X [Y] WANT      FN(X[, Y]) is WANT (nan: any NaN; -0: a zero with its sign bit set)
//   near FN X [Y] WANT ULPS  FN(X[, Y]) is within ULPS of WANT, a stated value or `libm` (libm's at the point)
// FN takes Y when it is pow. Numbers are read by strtod: decimal or hex floats, nan, inf, -inf, -0.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "contracts/fmath.h"

namespace {

namespace fm = blis::fmath;

struct Point {
  int line = 0;
  std::string kind;  // exact or near
  std::string fn;
  double x = 0, y = 0;
  double want = 0;
  bool libm = false;  // near: libm's value at the point is WANT
  std::int64_t ulps = 0;
};

struct Reference {
  std::string path;
  std::map<std::string, std::int64_t> sample;  // sweep -> ulp budget
  std::vector<Point> points;
};

Reference g_ref;

double number(const std::string& text, const std::string& where) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') throw std::runtime_error(where + ": '" + text + "' is not a number");
  return v;
}

std::int64_t budget(const std::string& text, const std::string& where) {
  const double v = number(text, where);
  if (!(v >= 0) || v != std::floor(v) || v > 1e6) throw std::runtime_error(where + ": '" + text + "' is not an ulp count");
  return static_cast<std::int64_t>(v);
}

// Reads the table; refuses (std::runtime_error, naming the line) an unknown entry, function or sweep, a
// missing or extra field, and a sweep stated twice.
Reference read_reference(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  Reference r;
  r.path = path;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    if (const auto hash = text.find('#'); hash != std::string::npos) text.resize(hash);
    std::istringstream ws(text);
    std::vector<std::string> f;
    for (std::string w; ws >> w;) f.push_back(w);
    if (f.empty()) continue;
    const std::string where = path + ":" + std::to_string(n);
    if (f[0] == "sample") {
      static const std::vector<std::string> sweeps{"log", "log2", "exp", "exp2", "pow", "pow-far"};
      if (f.size() != 3 || std::find(sweeps.begin(), sweeps.end(), f[1]) == sweeps.end())
        throw std::runtime_error(where + ": want `sample FN ULPS` with FN one of log, log2, exp, exp2, pow, pow-far");
      if (!r.sample.emplace(f[1], budget(f[2], where)).second) throw std::runtime_error(where + ": sweep " + f[1] + " stated twice");
      continue;
    }
    if (f[0] != "exact" && f[0] != "near") throw std::runtime_error(where + ": unknown entry '" + f[0] + "' (sample, exact, near)");
    Point p;
    p.line = n;
    p.kind = f[0];
    p.fn = f.size() > 1 ? f[1] : "";
    if (p.fn != "log" && p.fn != "log2" && p.fn != "exp" && p.fn != "exp2" && p.fn != "pow")
      throw std::runtime_error(where + ": unknown function '" + p.fn + "' (log, log2, exp, exp2, pow)");
    const std::size_t args = p.fn == "pow" ? 2 : 1;
    if (f.size() != 2 + args + (p.kind == "near" ? 2 : 1)) throw std::runtime_error(where + ": wrong number of fields for " + p.kind + " " + p.fn);
    p.x = number(f[2], where);
    if (args == 2) p.y = number(f[3], where);
    const std::string& want = f[2 + args];
    p.libm = p.kind == "near" && want == "libm";
    if (!p.libm) p.want = number(want, where);
    if (p.kind == "near") p.ulps = budget(f[3 + args], where);
    r.points.push_back(p);
  }
  return r;
}

std::string str(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

double call(const std::string& fn, double x, double y, bool libm) {
  if (fn == "log") return libm ? std::log(x) : fm::log(x);
  if (fn == "log2") return libm ? std::log2(x) : fm::log2(x);
  if (fn == "exp") return libm ? std::exp(x) : fm::exp(x);
  if (fn == "exp2") return libm ? std::exp2(x) : fm::exp2(x);
  return libm ? std::pow(x, y) : fm::pow(x, y);
}

// The budget the table gives a sweep.
std::int64_t sample_budget(const std::string& sweep) {
  const auto it = g_ref.sample.find(sweep);
  if (it == g_ref.sample.end()) {
    ADD_FAILURE() << g_ref.path << " states no `sample " << sweep << " ULPS` line: the sweep has no budget";
    return 0;
  }
  return it->second;
}

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
  EXPECT_LE(wl.ulps, sample_budget("log")) << "log at " << wl.x;
  EXPECT_LE(wl2.ulps, sample_budget("log2")) << "log2 at " << wl2.x;
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
  EXPECT_LE(we.ulps, sample_budget("exp")) << "exp at " << we.x;
  EXPECT_LE(we2.ulps, sample_budget("exp2")) << "exp2 at " << we2.x;
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
  EXPECT_LE(near.ulps, sample_budget("pow")) << "pow(" << near.x << ", " << near.y << ")";
  EXPECT_LE(far.ulps, sample_budget("pow-far")) << "pow(" << far.x << ", " << far.y << ")";
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

// The table's points: Annex F special values, exact results (integer powers of negative bases, the
// pricing-sized cases), and values within a stated distance.
TEST(Fmath, TheReferencePointsHold) {
  ASSERT_FALSE(g_ref.points.empty()) << g_ref.path << " states no point";
  for (const Point& p : g_ref.points) {
    const std::string at =
        g_ref.path + ":" + std::to_string(p.line) + ": " + p.fn + "(" + str(p.x) + (p.fn == "pow" ? ", " + str(p.y) : "") + ")";
    const double got = call(p.fn, p.x, p.y, false);
    char shown[96];
    std::snprintf(shown, sizeof shown, "%a (%.17g)", got, got);
    if (p.kind == "exact") {
      if (std::isnan(p.want)) {
        EXPECT_TRUE(std::isnan(got)) << at << " = " << shown << ", the table wants NaN";
      } else {
        EXPECT_TRUE(got == p.want && (p.want != 0 || !std::signbit(p.want) || std::signbit(got)))
            << at << " = " << shown << ", the table wants " << str(p.want);
      }
      continue;
    }
    const double want = p.libm ? call(p.fn, p.x, p.y, true) : p.want;
    const std::int64_t d = ulps(got, want);
    EXPECT_LE(d, p.ulps) << at << " = " << shown << " is " << d << " ulp from " << (p.libm ? "libm's " : "")
                         << str(want) << ", over the table's budget of " << p.ulps << " ulp";
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: cost-fmath-test REFERENCE\n");
    return 2;
  }
  try {
    g_ref = read_reference(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cost-fmath-test: %s\n", e.what());
    return 2;
  }
  return RUN_ALL_TESTS();
}
