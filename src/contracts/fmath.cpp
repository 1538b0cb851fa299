#include "contracts/fmath.h"

#include <bit>
#include <cstdint>
#include <limits>

// The method (a standard one; no source was copied): log reduces x = 2^e * m with m in [sqrt(1/2),
// sqrt(2)), f = m - 1, s = f / (2 + f), and log(1 + f) = 2 atanh(s) = 2s + s * R(s^2) with R the Taylor
// series of 2 atanh(s)/s - 2. exp reduces x = k ln2 + r, |r| <= ln2 / 2, and uses
// e^r = 1 + r + r c / (2 - c), c = r - (r coth(r/2) - 2), whose series has Bernoulli-number coefficients.
// Both keep the reduced argument and the result in double-double form where a rounding would cost an ulp.

namespace blis::fmath {
namespace {

using u64 = std::uint64_t;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^20 (kLn2Hi has 33 significant bits).
constexpr double kLn2Hi = 0x1.62e42feep-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
// ln 2 and 1 / ln 2 as double-double pairs (hi correctly rounded, lo the rounded remainder).
constexpr double kLn2 = 0x1.62e42fefa39efp-1;
constexpr double kLn2Tail = 0x1.abc9e3b39803fp-56;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
constexpr double kInvLn2Tail = 0x1.777d0ffda0d24p-56;
constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;
constexpr double kRoundMagic = 0x1.8p52;  // (x + M) - M rounds |x| < 2^51 to the nearest integer

double from_bits(u64 b) { return std::bit_cast<double>(b); }
u64 to_bits(double x) { return std::bit_cast<u64>(x); }

// 2^k for a normal exponent k in [-1022, 1023].
double pow2(int k) { return from_bits(static_cast<u64>(k + 1023) << 52); }

// y * 2^k for y in [0.5, 2) and any k: two exact steps where the result is normal; below the normal range
// the last step rounds once into the subnormals.
double scale(double y, int k) {
  if (k > 1023) return y * pow2(1023) * pow2(k - 1023);
  if (k >= -1022) return y * pow2(k);
  return y * pow2(k + 600) * pow2(-600);
}

// Round to the nearest integer (ties to even), for |x| < 2^51.
double round_int(double x) { return (x + kRoundMagic) - kRoundMagic; }

// Exact sum and product (Knuth's two-sum, Dekker's product with Veltkamp's split; no fused operations).
struct DD {
  double hi;
  double lo;
};
DD two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
DD fast_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}
DD split(double a) {
  const double t = 134217729.0 * a;  // 2^27 + 1
  const double hi = t - (t - a);
  return {hi, a - hi};
}
DD two_prod(double a, double b) {
  const double p = a * b;
  const DD x = split(a);
  const DD y = split(b);
  const double err = ((x.hi * y.hi - p) + x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo;
  return {p, err};
}

// For positive finite x: x = 2^e * (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)); log(1 + f) as
// double-double (hi exactly 2s's leading part).
struct Reduced {
  int e;
  DD log1p;  // log(1 + f), |value| <= 0.35
};
Reduced reduce_log(double x) {
  int e = 0;
  u64 b = to_bits(x);
  if ((b >> 52) == 0) {  // subnormal: scale into the normal range first
    b = to_bits(x * 0x1p54);
    e = -54;
  }
  e += static_cast<int>(b >> 52) - 1023;
  double m = from_bits((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);  // [1, 2)
  if (m > kSqrt2) {
    m *= 0.5;
    e += 1;
  }
  const double f = m - 1.0;  // exact (Sterbenz)
  if (f == 0.0) return {e, {0.0, 0.0}};
  // s = f / (2 + f) as s_hi + s_lo.
  const DD d = two_sum(2.0, f);
  const double sh = f / d.hi;
  const DD p = two_prod(sh, d.hi);
  const double sl = (((f - p.hi) - p.lo) - sh * d.lo) / d.hi;
  // R(z) = sum_{k=1..11} 2 z^k / (2k + 1): its tail is below 2^-70 of log(1 + f) for |s| <= 0.1716.
  const double z = sh * sh;
  double r = 2.0 / 23.0;
  for (int k = 10; k >= 1; --k) r = 2.0 / (2 * k + 1) + z * r;
  r *= z;
  return {e, fast_two_sum(2.0 * sh, 2.0 * sl + sh * r)};
}

// log2(x) for positive finite x, as double-double.
DD log2_dd(double x) {
  const Reduced red = reduce_log(x);
  const DD l = red.log1p;
  if (l.hi == 0.0) return {static_cast<double>(red.e), 0.0};
  DD p = two_prod(l.hi, kInvLn2);
  const double tail = p.lo + (l.hi * kInvLn2Tail + l.lo * kInvLn2);
  const DD s = two_sum(static_cast<double>(red.e), p.hi);
  return fast_two_sum(s.hi, s.lo + tail);
}

// e^r for the reduced argument r = hi - lo, |r| <= ln2 / 2 (plus rounding).
double exp_reduced(double hi, double lo) {
  const double r = hi - lo;
  const double t = r * r;
  // c = r - t * P(t), P the series of (r coth(r/2) - 2) / r^2: coefficients 2 B_2k / (2k)!.
  const double poly =
      1.0 / 6.0 +
      t * (-1.0 / 360.0 +
           t * (1.0 / 15120.0 +
                t * (-1.0 / 604800.0 +
                     t * (1.0 / 23950080.0 +
                          t * (-691.0 / 653837184000.0 + t * (1.0 / 37362124800.0 + t * (-3617.0 / 5335311421440000.0)))))));
  const double c = r - t * poly;
  return 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
}

// 2^(w.hi + w.lo) for |w.hi| < 1100.
double exp2_dd(DD w) {
  if (w.hi > 1024.0) return kInf;
  if (w.hi < -1080.0) return 0.0;
  const double k = round_int(w.hi);
  const double fh = w.hi - k;  // exact
  // r = (fh + w.lo) * ln 2 as double-double.
  const DD p = two_prod(fh, kLn2);
  const DD r = fast_two_sum(p.hi, p.lo + (fh * kLn2Tail + w.lo * kLn2));
  const double y = exp_reduced(r.hi, -r.lo);
  return scale(y, static_cast<int>(k));
}

bool is_nan(double x) { return x != x; }

// Whether y is an integer, and if so whether it is odd (y finite).
struct IntKind {
  bool integer;
  bool odd;
};
IntKind int_kind(double y) {
  const double a = y < 0 ? -y : y;
  if (a >= 0x1p53) return {true, false};  // every double this large is an even integer
  const double r = round_int(a);
  if (r != a) return {false, false};
  return {true, (static_cast<std::int64_t>(r) & 1) != 0};
}

}  // namespace

double log2(double x) {
  if (is_nan(x)) return x;
  if (x < 0.0) return kNaN;
  if (x == 0.0) return -kInf;
  if (x == kInf) return kInf;
  const DD d = log2_dd(x);
  return d.hi + d.lo;
}

double log(double x) {
  if (is_nan(x)) return x;
  if (x < 0.0) return kNaN;
  if (x == 0.0) return -kInf;
  if (x == kInf) return kInf;
  const Reduced red = reduce_log(x);
  const double e = static_cast<double>(red.e);
  // e ln2 + log(1 + f): e * kLn2Hi is exact; the rest is added to the low part.
  const DD s = two_sum(e * kLn2Hi, red.log1p.hi);
  return s.hi + (s.lo + (red.log1p.lo + e * kLn2Lo));
}

double exp(double x) {
  if (is_nan(x)) return x;
  if (x > 0x1.62e42fefa39efp+9) return kInf;  // above ln(DBL_MAX)
  if (x < -0x1.74910d52d3052p+9) return 0.0;  // below ln of half the smallest subnormal
  const double a = x < 0 ? -x : x;
  if (a < 0x1p-54) return 1.0 + x;
  const double k = round_int(x * kInvLn2);
  const double hi = x - k * kLn2Hi;  // exact
  const double lo = k * kLn2Lo;
  return scale(exp_reduced(hi, lo), static_cast<int>(k));
}

double exp2(double x) {
  if (is_nan(x)) return x;
  if (x >= 1024.0) return kInf;
  if (x < -1080.0) return 0.0;
  return exp2_dd({x, 0.0});
}

double pow(double x, double y) {
  if (y == 0.0) return 1.0;
  if (x == 1.0) return 1.0;
  if (is_nan(x) || is_nan(y)) return kNaN;
  const double ay = y < 0 ? -y : y;
  const double ax = x < 0 ? -x : x;
  if (ay == kInf) {
    if (ax == 1.0) return 1.0;  // pow(-1, +-inf)
    return (ax < 1.0) == (y > 0) ? 0.0 : kInf;
  }
  const IntKind yk = int_kind(y);
  const bool negative = x < 0.0 || (x == 0.0 && (to_bits(x) >> 63) != 0);
  const double sign = negative && yk.odd ? -1.0 : 1.0;
  if (ax == 0.0) return y < 0 ? sign * kInf : sign * 0.0;
  if (ax == kInf) return y < 0 ? sign * 0.0 : sign * kInf;
  if (x < 0.0 && !yk.integer) return kNaN;
  const DD l = log2_dd(ax);
  const double wh = y * l.hi;
  if (wh > 1100.0) return sign * kInf;
  if (wh < -1100.0) return sign * 0.0;
  const DD p = two_prod(y, l.hi);
  const DD w = fast_two_sum(p.hi, p.lo + y * l.lo);
  return sign * exp2_dd(w);
}

}  // namespace blis::fmath
