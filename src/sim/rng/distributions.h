// Deterministic samplers over a named Stream (DEV-6, design §8.5): the same stream state gives the same
// value, bit for bit, on every platform (X6). Written here because std:: distributions are implementation-
// defined; IEEE arithmetic, std::sqrt and the project's fmath (log, exp, pow) only. Every sampler refuses a
// parameter outside its domain, or not finite, with std::invalid_argument naming the sampler, the parameter
// and the value. Each states the words it consumes, so a caller knows what one draw costs its stream.
// Part of generator version v1 (substreams.h): a change to any result here is a new version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/rng/normal.h"
#include "sim/rng/substreams.h"

namespace blis::sim::rng {

// Uniform: lo + (hi - lo) * u, one word; within [lo, hi] (rounding may reach either end). lo < hi, and
// hi - lo finite.
double uniform(Stream& s, double lo, double hi);
// Uniform on the integers {lo, ..., hi}, both included: lo + below(hi - lo + 1), at least one word. lo <= hi.
std::uint64_t uniform_int(Stream& s, std::uint64_t lo, std::uint64_t hi);
// Exponential with this mean (> 0): -mean * log(u), one word.
double exponential(Stream& s, double mean);
// Standard normal by inversion: normal_quantile(u), one word; |z| <= 8.3 on uniform01's grid.
double standard_normal(Stream& s);
// Normal: mean + sd * standard_normal, sd > 0, one word.
double normal(Stream& s, double mean, double sd);
// Lognormal with median exp(mu) (> 0) and sigma the standard deviation of the log (> 0):
// median * exp(sigma * standard_normal), one word.
double lognormal(Stream& s, double median, double sigma);
// Gamma with shape k > 0 and scale theta > 0 (mean k theta, variance k theta^2). Marsaglia and Tsang, "A
// simple method for generating gamma variables", ACM TOMS 26(3), 2000: for k >= 1, d = k - 1/3,
// c = 1 / sqrt(9 d); draw z = standard_normal until v = 1 + c z > 0, then u; accept d v^3 if
// u < 1 - 0.0331 z^4 or log u < z^2 / 2 + d (1 - v^3 + log v^3), else start again. For k < 1: a draw for
// shape k + 1 first, then u, giving draw * u^(1/k) (the paper's boost). Words: 2 per attempt (more after v <= 0),
// one more for k < 1; measured 2.10 words per draw at k = 1, 2.01 at k = 4.5, 3.07 at k = 0.3.
double gamma(Stream& s, double shape, double scale);
// Weibull with shape k > 0 and scale lambda > 0, by inversion: lambda * (-log u)^(1/k), one word.
double weibull(Stream& s, double shape, double scale);

// A finite distribution over values with relative weights (each > 0, finite), drawn by inversion of the
// cumulative weights summed in the given order: the first value whose cumulative weight exceeds u * total.
// One word per draw.
class Empirical {
 public:
  Empirical(std::vector<double> values, std::vector<double> weights);
  double sample(Stream& s) const;
  // Over the values in order of value: the weight at or below x over the total, and the first value whose
  // cumulative weight exceeds p times the total.
  double cdf(double x) const;
  double quantile(double p) const;
  const std::vector<double>& values() const { return values_; }
  const std::vector<double>& weights() const { return weights_; }

 private:
  std::vector<double> values_;
  std::vector<double> weights_;
  std::vector<double> cumulative_;  // weights_[0] + ... + weights_[i], summed left to right
  std::vector<double> sorted_values_, sorted_cumulative_;  // the same, in order of value (ties as given)
};

// Two uniforms joined by a Gaussian copula with correlation rho in [-1, 1]: z1 = Phi^-1(u1) and
// z2 = rho z1 + sqrt((1 - rho)(1 + rho)) Phi^-1(u2) from two words u1, u2 (in that order); returns u1 and
// Phi(z2). The second is confined to [2^-53, 1 - 2^-53], uniform01's range, so an inverse CDF never sees 0
// or 1 (this moves a probability of about 2^-52). Feed each to its marginal's inverse CDF.
struct CopulaPair {
  double first;
  double second;
};
CopulaPair gaussian_copula_pair(Stream& s, double rho);

// One family with validated parameters: what a scenario's TokenDistribution or DurationDistribution (or an
// arrival process) names, sampled by the functions above, and described for messages.
class Distribution {
 public:
  enum class Family { kConstant, kUniform, kNormal, kLognormal, kGamma, kExponential, kWeibull, kEmpirical };

  static Distribution constant(double value);  // no word consumed
  static Distribution uniform(double lo, double hi);
  static Distribution normal(double mean, double sd);
  static Distribution lognormal(double median, double sigma);
  static Distribution gamma(double shape, double scale);
  static Distribution exponential(double mean);
  static Distribution weibull(double shape, double scale);
  static Distribution empirical(std::vector<double> values, std::vector<double> weights);

  Family family() const { return family_; }
  double sample(Stream& s) const;
  // P(X <= x), and the least x with P(X <= x) >= p for p in (0, 1): the distribution function and its
  // inverse, for a copula's marginals. Every family but gamma, whose std::invalid_argument names it (this
  // build has no incomplete gamma function).
  double cdf(double x) const;
  double quantile(double p) const;
  // The family and its parameters, e.g. "gamma(shape=4, scale=2.5)", numbers in shortest round-trip form.
  std::string describe() const;

 private:
  Distribution(Family f, double a, double b) : family_(f), a_(a), b_(b) {}
  Family family_;
  double a_;  // the first parameter as the factory names it
  double b_;  // the second, or 0
  std::optional<Empirical> table_;
};

// Gaps between arrivals at rate_per_s (> 0) whose coefficient of variation is cv (> 0): gamma with
// shape 1 / cv^2 and scale 1 / (rate_per_s * shape), so mean 1 / rate_per_s and standard deviation
// cv / rate_per_s. In seconds. cv = 1 gives the Poisson process's gaps in distribution, not draw for draw:
// gamma's sampler is not exponential's.
Distribution gamma_gaps(double rate_per_s, double cv);

// Round to the nearest integer, ties to even (2.5 -> 2, 3.5 -> 4, -0.5 -> -0), whatever the floating-point
// environment's rounding mode.
double round_half_even(double x);

// How many draws a truncated draw makes at most, the first included, before refusing.
inline constexpr int kTruncationDraws = 1000;

// A token count from d: a draw rounded half to even, kept if within [min, max], otherwise drawn again from
// the same stream; never clamped. After kTruncationDraws draws none of which fell within the bounds, throws
// std::runtime_error naming the distribution, its parameters, the bounds and the limit. min <= max <= 2^53.
std::uint64_t draw_tokens(Stream& s, const Distribution& d, std::uint64_t min, std::uint64_t max);

// The token count at probability u in (0, 1) of the law draw_tokens samples from d within [min, max]: d
// truncated to the reals that round into [min, max] ([min - 0.5, max + 0.5]), inverted at u, rounded half to
// even. Equal in law to draw_tokens, and monotone in u, so a copula's correlation carries over to the
// counts. Refuses (std::runtime_error, as draw_tokens does after its limit) a d with no probability within
// the bounds, and gamma (Distribution::cdf).
std::uint64_t tokens_at(const Distribution& d, std::uint64_t min, std::uint64_t max, double u);

// A real value from d within [lo, hi], by the same redraw rule without rounding (a duration's truncation
// bounds). lo <= hi.
double draw_truncated(Stream& s, const Distribution& d, double lo, double hi);

}  // namespace blis::sim::rng
