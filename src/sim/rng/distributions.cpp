#include "sim/rng/distributions.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "contracts/fmath.h"

namespace blis::sim::rng {

namespace {

std::string text(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

[[noreturn]] void refuse(std::string_view sampler, std::string_view param, std::string_view rule, double v) {
  throw std::invalid_argument(std::string(sampler) + ": " + std::string(param) + " must be " + std::string(rule) +
                              ", got " + text(v));
}

void require_positive(std::string_view sampler, std::string_view param, double v) {
  if (!(std::isfinite(v) && v > 0.0)) refuse(sampler, param, "a finite number above 0", v);
}

void require_finite(std::string_view sampler, std::string_view param, double v) {
  if (!std::isfinite(v)) refuse(sampler, param, "finite", v);
}

void require_interval(std::string_view sampler, double lo, double hi) {
  require_finite(sampler, "lo", lo);
  require_finite(sampler, "hi", hi);
  if (!(lo < hi)) refuse(sampler, "hi", "above lo (" + text(lo) + ")", hi);
  if (!std::isfinite(hi - lo)) refuse(sampler, "hi - lo", "finite", hi - lo);
}

// Marsaglia-Tsang for shape >= 1, scale 1 (distributions.h).
double gamma_at_least_one(Stream& s, double shape) {
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double z, v;
    do {
      z = standard_normal(s);
      v = 1.0 + c * z;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = s.uniform01();
    const double z2 = z * z;
    if (u < 1.0 - 0.0331 * (z2 * z2)) return d * v;
    if (fmath::log(u) < 0.5 * z2 + d * (1.0 - v + fmath::log(v))) return d * v;
  }
}

}  // namespace

double uniform(Stream& s, double lo, double hi) {
  require_interval("uniform", lo, hi);
  return lo + (hi - lo) * s.uniform01();
}

std::uint64_t uniform_int(Stream& s, std::uint64_t lo, std::uint64_t hi) {
  if (lo > hi)
    throw std::invalid_argument("uniform_int: hi must be at least lo (" + std::to_string(lo) + "), got " +
                                std::to_string(hi));
  const std::uint64_t span = hi - lo;
  if (span == UINT64_MAX) return s.next_u64();  // the whole range: hi - lo + 1 would wrap to 0
  return lo + s.below(span + 1);
}

double exponential(Stream& s, double mean) {
  require_positive("exponential", "mean", mean);
  return -mean * fmath::log(s.uniform01());
}

double standard_normal(Stream& s) { return normal_quantile(s.uniform01()); }

double normal(Stream& s, double mean, double sd) {
  require_finite("normal", "mean", mean);
  require_positive("normal", "sd", sd);
  return mean + sd * standard_normal(s);
}

double lognormal(Stream& s, double median, double sigma) {
  require_positive("lognormal", "median", median);
  require_positive("lognormal", "sigma", sigma);
  return median * fmath::exp(sigma * standard_normal(s));
}

double gamma(Stream& s, double shape, double scale) {
  require_positive("gamma", "shape", shape);
  require_positive("gamma", "scale", scale);
  if (shape >= 1.0) return scale * gamma_at_least_one(s, shape);
  const double g = gamma_at_least_one(s, shape + 1.0);
  return scale * (g * fmath::pow(s.uniform01(), 1.0 / shape));
}

double weibull(Stream& s, double shape, double scale) {
  require_positive("weibull", "shape", shape);
  require_positive("weibull", "scale", scale);
  return scale * fmath::pow(-fmath::log(s.uniform01()), 1.0 / shape);
}

Empirical::Empirical(std::vector<double> values, std::vector<double> weights)
    : values_(std::move(values)), weights_(std::move(weights)) {
  if (values_.empty()) throw std::invalid_argument("empirical: values must not be empty");
  if (weights_.size() != values_.size())
    throw std::invalid_argument("empirical: weights must have one entry per value (" + std::to_string(values_.size()) +
                                "), got " + std::to_string(weights_.size()));
  cumulative_.reserve(weights_.size());
  double total = 0.0;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    require_finite("empirical", "values[" + std::to_string(i) + "]", values_[i]);
    require_positive("empirical", "weights[" + std::to_string(i) + "]", weights_[i]);
    total += weights_[i];
    cumulative_.push_back(total);
  }
  if (!std::isfinite(total)) refuse("empirical", "the total weight", "finite", total);
  std::vector<std::size_t> order(values_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values_[a] < values_[b]; });
  double running = 0.0;
  for (std::size_t i : order) {
    sorted_values_.push_back(values_[i]);
    running += weights_[i];
    sorted_cumulative_.push_back(running);
  }
}

double Empirical::cdf(double x) const {
  const auto it = std::upper_bound(sorted_values_.begin(), sorted_values_.end(), x);
  return it == sorted_values_.begin() ? 0.0 : sorted_cumulative_[static_cast<std::size_t>(it - sorted_values_.begin()) - 1] / sorted_cumulative_.back();
}

double Empirical::sample(Stream& s) const {
  const double target = s.uniform01() * cumulative_.back();
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), target);
  // u < 1 keeps target below the total; the guard keeps an index even if rounding met it.
  const std::size_t i = std::min<std::size_t>(it - cumulative_.begin(), values_.size() - 1);
  return values_[i];
}

double Empirical::quantile(double p) const {
  // The first value, in order of value, whose cumulative weight exceeds p times the total.
  const auto it = std::upper_bound(sorted_cumulative_.begin(), sorted_cumulative_.end(), p * sorted_cumulative_.back());
  return sorted_values_[std::min<std::size_t>(static_cast<std::size_t>(it - sorted_cumulative_.begin()), sorted_values_.size() - 1)];
}

CopulaPair gaussian_copula_pair(Stream& s, double rho) {
  if (!(rho >= -1.0 && rho <= 1.0)) refuse("gaussian_copula_pair", "rho", "within [-1, 1]", rho);
  const double u1 = s.uniform01();
  const double e = standard_normal(s);
  const double z2 = rho * normal_quantile(u1) + std::sqrt((1.0 - rho) * (1.0 + rho)) * e;
  return {u1, std::clamp(normal_cdf(z2), 0x1p-53, 1.0 - 0x1p-53)};
}

Distribution Distribution::constant(double value) {
  require_finite("constant", "value", value);
  return {Family::kConstant, value, 0.0};
}

Distribution Distribution::uniform(double lo, double hi) {
  require_interval("uniform", lo, hi);
  return {Family::kUniform, lo, hi};
}

Distribution Distribution::normal(double mean, double sd) {
  require_finite("normal", "mean", mean);
  require_positive("normal", "sd", sd);
  return {Family::kNormal, mean, sd};
}

Distribution Distribution::lognormal(double median, double sigma) {
  require_positive("lognormal", "median", median);
  require_positive("lognormal", "sigma", sigma);
  return {Family::kLognormal, median, sigma};
}

Distribution Distribution::gamma(double shape, double scale) {
  require_positive("gamma", "shape", shape);
  require_positive("gamma", "scale", scale);
  return {Family::kGamma, shape, scale};
}

Distribution Distribution::exponential(double mean) {
  require_positive("exponential", "mean", mean);
  return {Family::kExponential, mean, 0.0};
}

Distribution Distribution::weibull(double shape, double scale) {
  require_positive("weibull", "shape", shape);
  require_positive("weibull", "scale", scale);
  return {Family::kWeibull, shape, scale};
}

Distribution Distribution::empirical(std::vector<double> values, std::vector<double> weights) {
  Distribution d(Family::kEmpirical, 0.0, 0.0);
  d.table_.emplace(std::move(values), std::move(weights));
  return d;
}

double Distribution::sample(Stream& s) const {
  switch (family_) {
    case Family::kConstant:
      return a_;
    case Family::kUniform:
      return rng::uniform(s, a_, b_);
    case Family::kNormal:
      return rng::normal(s, a_, b_);
    case Family::kLognormal:
      return rng::lognormal(s, a_, b_);
    case Family::kGamma:
      return rng::gamma(s, a_, b_);
    case Family::kExponential:
      return rng::exponential(s, a_);
    case Family::kWeibull:
      return rng::weibull(s, a_, b_);
    case Family::kEmpirical:
      return table_->sample(s);
  }
  throw std::logic_error("Distribution::sample: unknown family");
}

double Distribution::cdf(double x) const {
  switch (family_) {
    case Family::kConstant:
      return x >= a_ ? 1.0 : 0.0;
    case Family::kUniform:
      return x <= a_ ? 0.0 : x >= b_ ? 1.0 : (x - a_) / (b_ - a_);
    case Family::kNormal:
      return normal_cdf((x - a_) / b_);
    case Family::kLognormal:
      return x <= 0 ? 0.0 : normal_cdf(fmath::log(x / a_) / b_);
    case Family::kExponential:
      return x <= 0 ? 0.0 : 1.0 - fmath::exp(-x / a_);
    case Family::kWeibull:
      return x <= 0 ? 0.0 : 1.0 - fmath::exp(-fmath::pow(x / b_, a_));
    case Family::kEmpirical:
      return table_->cdf(x);
    case Family::kGamma:
      break;
  }
  throw std::invalid_argument(describe() + ": its distribution function is not computed by this build");
}

double Distribution::quantile(double p) const {
  if (!(p > 0.0 && p < 1.0)) refuse("Distribution::quantile", "p", "within (0, 1)", p);
  switch (family_) {
    case Family::kConstant:
      return a_;
    case Family::kUniform:
      return a_ + (b_ - a_) * p;
    case Family::kNormal:
      return a_ + b_ * normal_quantile(p);
    case Family::kLognormal:
      return a_ * fmath::exp(b_ * normal_quantile(p));
    case Family::kExponential:
      return -a_ * fmath::log(1.0 - p);
    case Family::kWeibull:
      return b_ * fmath::pow(-fmath::log(1.0 - p), 1.0 / a_);
    case Family::kEmpirical:
      return table_->quantile(p);
    case Family::kGamma:
      break;
  }
  throw std::invalid_argument(describe() + ": its inverse distribution function is not computed by this build");
}

std::uint64_t tokens_at(const Distribution& d, std::uint64_t min, std::uint64_t max, double u) {
  if (!(u > 0.0 && u < 1.0)) refuse("tokens_at", "u", "within (0, 1)", u);
  const double lo = static_cast<double>(min) - 0.5, hi = static_cast<double>(max) + 0.5;
  const double pa = d.cdf(lo), pb = d.cdf(hi);
  if (!(pb > pa)) {
    throw std::runtime_error(d.describe() + " has no probability within [" + std::to_string(min) + ", " +
                             std::to_string(max) + "] tokens");
  }
  // Strictly inside (pa, pb), so the inverse lands within [lo, hi] up to its own rounding.
  const double p = pa + (pb - pa) * u;
  const double t = round_half_even(d.quantile(std::clamp(p, std::nextafter(pa, 1.0), std::nextafter(pb, 0.0))));
  // At lo or hi exactly (probability zero) the tie rounds to even, which may be just outside: the bound is
  // the count the truncated law gives there.
  if (t < static_cast<double>(min)) return min;
  if (t > static_cast<double>(max)) return max;
  return static_cast<std::uint64_t>(t);
}

std::string Distribution::describe() const {
  switch (family_) {
    case Family::kConstant:
      return "constant(value=" + text(a_) + ")";
    case Family::kUniform:
      return "uniform(lo=" + text(a_) + ", hi=" + text(b_) + ")";
    case Family::kNormal:
      return "normal(mean=" + text(a_) + ", sd=" + text(b_) + ")";
    case Family::kLognormal:
      return "lognormal(median=" + text(a_) + ", sigma=" + text(b_) + ")";
    case Family::kGamma:
      return "gamma(shape=" + text(a_) + ", scale=" + text(b_) + ")";
    case Family::kExponential:
      return "exponential(mean=" + text(a_) + ")";
    case Family::kWeibull:
      return "weibull(shape=" + text(a_) + ", scale=" + text(b_) + ")";
    case Family::kEmpirical: {
      std::string out = "empirical(";  // value:weight pairs
      for (std::size_t i = 0; i < table_->values().size(); ++i)
        out += (i > 0 ? ", " : "") + text(table_->values()[i]) + ":" + text(table_->weights()[i]);
      return out + ")";
    }
  }
  throw std::logic_error("Distribution::describe: unknown family");
}

Distribution gamma_gaps(double rate_per_s, double cv) {
  require_positive("gamma_gaps", "rate_per_s", rate_per_s);
  require_positive("gamma_gaps", "cv", cv);
  const double shape = 1.0 / (cv * cv);
  const double scale = 1.0 / (rate_per_s * shape);
  if (!(shape > 0.0 && std::isfinite(shape) && scale > 0.0 && std::isfinite(scale)))
    throw std::invalid_argument("gamma_gaps: rate_per_s=" + text(rate_per_s) + " and cv=" + text(cv) +
                                " give gamma(shape=" + text(shape) + ", scale=" + text(scale) +
                                "), outside finite positive numbers");
  return Distribution::gamma(shape, scale);
}

double round_half_even(double x) {
  if (!std::isfinite(x)) return x;
  if (std::signbit(x)) return -round_half_even(-x);  // symmetric, so the subtraction below sees x >= 0
  const double down = std::floor(x);
  const double frac = x - down;  // exact: 0 when x < 1, else floor(x) is within [x / 2, x] (Sterbenz)
  if (frac < 0.5) return down;
  if (frac > 0.5) return down + 1.0;
  return std::fmod(down, 2.0) == 0.0 ? down : down + 1.0;
}

std::uint64_t draw_tokens(Stream& s, const Distribution& d, std::uint64_t min, std::uint64_t max) {
  constexpr std::uint64_t kExactLimit = std::uint64_t{1} << 53;  // every integer up to it is a double
  if (min > max || max > kExactLimit)
    throw std::invalid_argument("draw_tokens: bounds must satisfy min <= max <= 2^53, got [" + std::to_string(min) +
                                ", " + std::to_string(max) + "]");
  const double lo = static_cast<double>(min), hi = static_cast<double>(max);
  for (int i = 0; i < kTruncationDraws; ++i) {
    const double t = round_half_even(d.sample(s));
    if (t >= lo && t <= hi) return static_cast<std::uint64_t>(t);
  }
  throw std::runtime_error("token draw: " + d.describe() + " gave no whole token count within [" + std::to_string(min) +
                           ", " + std::to_string(max) + "] in " + std::to_string(kTruncationDraws) +
                           " draws (truncation redraws, it never clamps)");
}

double draw_truncated(Stream& s, const Distribution& d, double lo, double hi) {
  if (!(lo <= hi)) refuse("draw_truncated", "hi", "at least lo (" + text(lo) + ")", hi);
  for (int i = 0; i < kTruncationDraws; ++i) {
    const double v = d.sample(s);
    if (v >= lo && v <= hi) return v;
  }
  throw std::runtime_error("truncated draw: " + d.describe() + " gave no value within [" + text(lo) + ", " + text(hi) +
                           "] in " + std::to_string(kTruncationDraws) + " draws (truncation redraws, " +
                           "it never clamps)");
}

}  // namespace blis::sim::rng
