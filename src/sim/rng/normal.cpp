#include "sim/rng/normal.h"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contracts/fmath.h"

namespace blis::sim::rng {

namespace {

// exp(-y^2 / 2) for y >= 0, as Cody writes it: y = yr + (y - yr) with yr = trunc(16 y) / 16, whose square
// is exact, so the rounding of y * y does not reach the exponent.
double half_gaussian_factor(double y) {
  const double yr = std::trunc(y * 16.0) / 16.0;
  const double del = (y - yr) * (y + yr);
  return fmath::exp(-yr * yr * 0.5) * fmath::exp(-del * 0.5);
}

// Horner evaluation of c[0] + c[1] r + ... + c[7] r^7, highest power first.
double poly7(const double (&c)[8], double r) {
  double v = c[7];
  for (int i = 6; i >= 0; --i) v = v * r + c[i];
  return v;
}

}  // namespace

double normal_cdf(double x) {
  // Cody's coefficients (ANORM, TOMS 715), in his order: the loops below are his.
  static constexpr double a[5] = {2.2352520354606839287e00, 1.6102823106855587881e02, 1.0676894854603709582e03,
                                  1.8154981253343561249e04, 6.5682337918207449113e-2};
  static constexpr double b[4] = {4.7202581904688241870e01, 9.7609855173777669322e02, 1.0260932208618978205e04,
                                  4.5507789335026729956e04};
  static constexpr double c[9] = {3.9894151208813466764e-1, 8.8831497943883759412e00, 9.3506656132177855979e01,
                                  5.9727027639480026226e02, 2.4945375852903726711e03, 6.8481904505362823326e03,
                                  1.1602651437647350124e04, 9.8427148383839780218e03, 1.0765576773720192317e-8};
  static constexpr double d[8] = {2.2266688044328115691e01, 2.3538790178262499861e02, 1.5193775994075548050e03,
                                  6.4855582982667607550e03, 1.8615571640885098091e04, 3.4900952721145977266e04,
                                  3.8912003286093271411e04, 1.9685429676859990727e04};
  static constexpr double p[6] = {2.1589853405795699e-1,   1.274011611602473639e-1, 2.2235277870649807e-2,
                                  1.421619193227893466e-3, 2.9112874951168792e-5,   2.307344176494017303e-2};
  static constexpr double q[5] = {1.28426009614491121e00, 4.68238212480865118e-1, 6.59881378689285515e-2,
                                  3.78239633202758244e-3, 7.29751555083966205e-5};
  constexpr double kSqrtOneOverTwoPi = 3.9894228040143267794e-1;
  constexpr double kThreshold = 0.66291;   // 0.46875 sqrt(2), the end of Cody's first erf interval
  constexpr double kRoot32 = 5.656854248;  // Cody's sqrt(32), the end of the second interval
  constexpr double kEps = 1.11e-16;        // below it x * x is dropped
  constexpr double kLow = -37.519;         // below it Phi underflows to 0
  constexpr double kHigh = 8.572;          // from it Phi rounds to 1

  if (std::isnan(x)) return x;
  const double y = std::fabs(x);
  if (y <= kThreshold) {
    const double xsq = y > kEps ? x * x : 0.0;
    double num = a[4] * xsq, den = xsq;
    for (int i = 0; i < 3; ++i) {
      num = (num + a[i]) * xsq;
      den = (den + b[i]) * xsq;
    }
    return 0.5 + x * (num + a[3]) / (den + b[3]);
  }
  double tail = 0.0;  // Phi(-y)
  if (y <= kRoot32) {
    double num = c[8] * y, den = y;
    for (int i = 0; i < 7; ++i) {
      num = (num + c[i]) * y;
      den = (den + d[i]) * y;
    }
    tail = half_gaussian_factor(y) * ((num + c[7]) / (den + d[7]));
  } else if (x >= kLow && x < kHigh) {
    const double xsq = 1.0 / (x * x);
    double num = p[5] * xsq, den = xsq;
    for (int i = 0; i < 4; ++i) {
      num = (num + p[i]) * xsq;
      den = (den + q[i]) * xsq;
    }
    const double r = xsq * (num + p[4]) / (den + q[4]);
    tail = half_gaussian_factor(y) * ((kSqrtOneOverTwoPi - r) / y);
  }
  return x > 0.0 ? 1.0 - tail : tail;
}

double normal_quantile(double p) {
  // Wichura's coefficients (AS 241, PPND16), lowest power first.
  static constexpr double a[8] = {3.3871328727963666080e0,  1.3314166789178437745e+2, 1.9715909503065514427e+3,
                                  1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
                                  3.3430575583588128105e+4, 2.5090809287301226727e+3};
  static constexpr double b[8] = {1.0,
                                  4.2313330701600911252e+1,
                                  6.8718700749205790830e+2,
                                  5.3941960214247511077e+3,
                                  2.1213794301586595867e+4,
                                  3.9307895800092710610e+4,
                                  2.8729085735721942674e+4,
                                  5.2264952788528545610e+3};
  static constexpr double c[8] = {1.42343711074968357734e0,  4.63033784615654529590e0, 5.76949722146069140550e0,
                                  3.64784832476320460504e0,  1.27045825245236838258e0, 2.41780725177450611770e-1,
                                  2.27238449892691845833e-2, 7.74545014278341407640e-4};
  static constexpr double d[8] = {1.0,
                                  2.05319162663775882187e0,
                                  1.67638483018380384940e0,
                                  6.89767334985100004550e-1,
                                  1.48103976427480074590e-1,
                                  1.51986665636164571966e-2,
                                  5.47593808499534494600e-4,
                                  1.05075007164441684324e-9};
  static constexpr double e[8] = {6.65790464350110377720e0,  5.46378491116411436990e0,  1.78482653991729133580e0,
                                  2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                                  2.71155556874348757815e-5, 2.01033439929228813265e-7};
  static constexpr double f[8] = {1.0,
                                  5.99832206555887937690e-1,
                                  1.36929880922735805310e-1,
                                  1.48753612908506148525e-2,
                                  7.86869131145613259100e-4,
                                  1.84631831751005468180e-5,
                                  1.42151175831644588870e-7,
                                  2.04426310338993978564e-15};

  if (!(p > 0.0 && p < 1.0)) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, p);
    throw std::invalid_argument("normal_quantile: p must be strictly between 0 and 1, got " + std::string(buf, r.ptr));
  }
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * poly7(a, r) / poly7(b, r);
  }
  double r = std::sqrt(-fmath::log(q < 0.0 ? p : 1.0 - p));
  double z;
  if (r <= 5.0) {
    r -= 1.6;
    z = poly7(c, r) / poly7(d, r);
  } else {
    r -= 5.0;
    z = poly7(e, r) / poly7(f, r);
  }
  return q < 0.0 ? -z : z;
}

}  // namespace blis::sim::rng
