#include "sim/analysis/student_t.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "contracts/fmath.h"
#include "sim/analysis/checks.h"

namespace blis::sim::analysis {
namespace {

constexpr double kHalfLog2Pi = 0.91893853320467274178;  // log(2 pi) / 2
constexpr double kMaxDf = 1e7;
constexpr int kMaxFractionTerms = 100000;
constexpr double kFractionTolerance = 1e-16;
constexpr double kTiny = 1e-300;  // Lentz's guard against a zero denominator

// log(1 + u) for u > -1, accurate where u is small: the rounding of 1 + u is undone by the factor
// u / ((1 + u) - 1) (Goldberg, "What every computer scientist should know about floating-point", 1991).
double log1p(double u) {
  const double w = 1.0 + u;
  if (w == 1.0) return u;
  return fmath::log(w) * (u / (w - 1.0));
}

// log Gamma(x) for x >= 0.5 by Lanczos' approximation with g = 7 and Godfrey's nine coefficients
// (relative error of Gamma about 1e-15 on this domain).
double log_gamma_lanczos(double x) {
  constexpr double kG = 7.0;
  constexpr double kC[9] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                            771.32342877765313,   -176.61502916214059,   12.507343278686905,
                            -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
  const double z = x - 1.0;
  double a = kC[0];
  for (int i = 1; i < 9; ++i) a += kC[i] / (z + static_cast<double>(i));
  const double t = z + kG + 0.5;
  return kHalfLog2Pi + (z + 0.5) * fmath::log(t) - t + fmath::log(a);
}

// Stirling's remainder: log Gamma(x) - ((x - 1/2) log x - x + log(2 pi)/2) for x >= 10, as
// sum_k B_2k / (2k (2k-1) x^(2k-1)) for k = 1..7 (the next term is below 3e-17 at x = 10).
double stirling_remainder(double x) {
  const double r = 1.0 / x;
  const double r2 = r * r;
  double s = 1.0 / 156.0;
  s = s * r2 - 691.0 / 360360.0;
  s = s * r2 + 1.0 / 1188.0;
  s = s * r2 - 1.0 / 1680.0;
  s = s * r2 + 1.0 / 1260.0;
  s = s * r2 - 1.0 / 360.0;
  s = s * r2 + 1.0 / 12.0;
  return s * r;
}

// log B(a, b) = log Gamma(a) + log Gamma(b) - log Gamma(a + b) for a, b >= 0.5.
double log_beta(double a, double b) {
  const double p = a < b ? a : b;
  const double q = a < b ? b : a;
  const double s = p + q;
  if (p >= 10.0) {
    const double corr = stirling_remainder(p) + stirling_remainder(q) - stirling_remainder(s);
    return -0.5 * fmath::log(q) + kHalfLog2Pi + corr + (p - 0.5) * fmath::log(p / s) + q * log1p(-p / s);
  }
  if (q >= 10.0) {
    const double corr = stirling_remainder(q) - stirling_remainder(s);
    return log_gamma_lanczos(p) + corr + p - p * fmath::log(s) + (q - 0.5) * log1p(-p / s);
  }
  return log_gamma_lanczos(p) + (log_gamma_lanczos(q) - log_gamma_lanczos(s));
}

// The continued fraction of A&S 26.5.8 for I_x(a, b) (without its prefactor), by the modified Lentz method.
double beta_fraction(double a, double b, double x) {
  const double qab = a + b;
  const double qap = a + 1.0;
  const double qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= kMaxFractionTerms; ++m) {
    const double dm = static_cast<double>(m);
    const double m2 = 2.0 * dm;
    double aa = dm * (b - dm) * x / ((qam + m2) * (a + m2));  // even step
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + dm) * (qab + dm) * x / ((a + m2) * (qap + m2));  // odd step
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) <= kFractionTolerance) return h;
  }
  // Unreachable for df <= kMaxDf (the fraction needs O(sqrt(df)) terms); a defect if reached.
  throw std::logic_error("student_t: the incomplete beta continued fraction did not converge (a = " +
                         detail::number(a) + ", b = " + detail::number(b) + ", x = " + detail::number(x) + ")");
}

// x = df / (df + t^2) and y = 1 - x = t^2 / (df + t^2) with their logarithms, for t >= 0, computed from
// u = t^2 / df where t^2 <= df and from v = df / t^2 beyond, so neither overflows for any finite t.
struct BetaArgument {
  double x;
  double y;
  double log_x;
  double log_y;
};
BetaArgument beta_argument(double t, double df) {
  if (t * t <= df) {
    const double u = (t * t) / df;
    const double l = log1p(u);
    return {1.0 / (1.0 + u), u / (1.0 + u), -l,
            (u == 0.0 ? -std::numeric_limits<double>::infinity() : fmath::log(u)) - l};
  }
  const double v = (df / t) / t;
  const double l = log1p(v);
  return {v / (1.0 + v), 1.0 / (1.0 + v), fmath::log(df) - 2.0 * fmath::log(t) - l, -l};
}

// P(T > t) for t >= 0 (t may be +inf).
double upper_tail(double t, double df) {
  if (t == 0.0) return 0.5;
  if (std::isinf(t)) return 0.0;
  const double a = 0.5 * df;
  const double b = 0.5;
  const BetaArgument arg = beta_argument(t, df);
  const double front = fmath::exp(a * arg.log_x + b * arg.log_y - log_beta(a, b));
  double i;  // I_x(a, b)
  if (arg.x < (a + 1.0) / (a + b + 2.0)) {
    i = front * beta_fraction(a, b, arg.x) / a;
  } else {
    i = 1.0 - front * beta_fraction(b, a, arg.y) / b;
  }
  return 0.5 * i;
}

// The density of T at t >= 0: (1 + t^2/df)^(-(df+1)/2) / (sqrt(df) B(df/2, 1/2)), with 1 + t^2/df = 1/x.
double density(double t, double df) {
  const BetaArgument arg = beta_argument(t, df);
  return fmath::exp(0.5 * (df + 1.0) * arg.log_x - 0.5 * fmath::log(df) - log_beta(0.5 * df, 0.5));
}

// The t >= 0 with P(T > t) = q, for q in (0, 1/2].
double upper_quantile(double q, double df) {
  if (q == 0.5) return 0.0;
  // Bracket: upper_tail(lo) > q >= upper_tail(hi).
  double lo = 0.0;
  double hi = 1.0;
  while (upper_tail(hi, df) > q) {
    lo = hi;
    hi *= 2.0;
    if (std::isinf(hi)) return std::numeric_limits<double>::infinity();
  }
  double t = lo + 0.5 * (hi - lo);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    const double f = upper_tail(t, df) - q;  // decreasing in t
    if (f == 0.0) return t;
    if (f > 0.0) {
      lo = t;
    } else {
      hi = t;
    }
    const double step = f / density(t, df);  // Newton: t + (P(T > t) - q) / density(t)
    double next = t + step;
    if (!(next > lo && next < hi)) next = lo + 0.5 * (hi - lo);
    if (std::fabs(next - t) <= 4e-16 * next || next == lo || next == hi) return next;
    t = next;
  }
  return t;  // the bracket has shrunk to adjacent doubles long before this
}

void check_df(std::string_view function, double df) {
  if (!(df >= 1.0 && df <= kMaxDf)) {
    detail::refuse(function, "df", detail::number(df),
                   "the degrees of freedom must lie in [1, 1e7] (an interval from n values has n - 1 >= 1; above 1e7 "
                   "the continued fraction loses precision, and no analysis here needs it)");
  }
}

}  // namespace

double student_t_cdf(double t, double df) {
  check_df("student_t_cdf", df);
  if (std::isnan(t)) detail::refuse("student_t_cdf", "t", detail::number(t), "t must not be NaN");
  if (t >= 0.0) return 1.0 - upper_tail(t, df);
  return upper_tail(-t, df);
}

double student_t_upper_tail(double t, double df) {
  check_df("student_t_upper_tail", df);
  if (std::isnan(t)) detail::refuse("student_t_upper_tail", "t", detail::number(t), "t must not be NaN");
  if (t >= 0.0) return upper_tail(t, df);
  return 1.0 - upper_tail(-t, df);
}

double student_t_quantile(double probability, double df) {
  check_df("student_t_quantile", df);
  if (!(probability > 0.0 && probability < 1.0)) {
    detail::refuse("student_t_quantile", "probability", detail::number(probability),
                   "a probability must lie in the open interval (0, 1)");
  }
  if (probability > 0.5) return upper_quantile(1.0 - probability, df);
  return -upper_quantile(probability, df);
}

double student_t_critical(double confidence, double df) {
  check_df("student_t_critical", df);
  detail::require_confidence("student_t_critical", "confidence", confidence);
  return upper_quantile(0.5 * (1.0 - confidence), df);
}

}  // namespace blis::sim::analysis
