#include "sim/workload/distribution_of.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

namespace blis::sim {
namespace {

[[noreturn]] void refuse(const std::string& field, const std::string& what) {
  throw std::invalid_argument(field + ": " + what);
}

template <class T>
T need(const std::optional<T>& v, const std::string& field, const char* name, const std::string& family) {
  if (!v) refuse(field + "." + name, "required by family " + family + ", and not stated");
  return *v;
}

double real(double v) { return v; }
double real(units::Seconds v) { return v.value(); }
double real(units::Tokens v) { return static_cast<double>(v.value()); }
double real(units::Count v) { return static_cast<double>(v.value()); }

// The family's distribution over reals (token counts and seconds as plain numbers).
template <class D>
rng::Distribution distribution(const D& d, const std::string& field) {
  const std::string& f = d.family;
  if (f == "constant") return rng::Distribution::constant(real(need(d.value, field, "value", f)));
  if (f == "uniform") {
    return rng::Distribution::uniform(real(need(d.min, field, "min", f)), real(need(d.max, field, "max", f)));
  }
  if (f == "normal") return rng::Distribution::normal(real(need(d.mean, field, "mean", f)), real(need(d.stddev, field, "stddev", f)));
  if (f == "lognormal") return rng::Distribution::lognormal(real(need(d.median, field, "median", f)), real(need(d.sigma, field, "sigma", f)));
  if (f == "gamma") return rng::Distribution::gamma(real(need(d.shape, field, "shape", f)), real(need(d.scale, field, "scale", f)));
  if (f == "exponential") return rng::Distribution::exponential(real(need(d.mean, field, "mean", f)));
  if (f == "empirical") {
    const auto& points = need(d.points, field, "points", f);
    std::vector<double> values, weights;
    for (const auto& p : points) {
      values.push_back(real(p.value));
      weights.push_back(p.weight);
    }
    return rng::Distribution::empirical(std::move(values), std::move(weights));
  }
  refuse(field + ".family", "'" + f + "' is not a family this build samples");
}

}  // namespace

namespace {

template <class D>
TokenSampler whole_sampler(const D& d, const std::string& field, std::uint64_t least) {
  TokenSampler s;
  s.distribution = distribution(d, field);
  const bool bounded_family = d.family == "constant" || d.family == "uniform" || d.family == "empirical";
  if (d.family == "constant") {
    s.min = s.max = static_cast<std::uint64_t>(d.value->value());
  } else if (d.family == "uniform") {
    s.min = static_cast<std::uint64_t>(d.min->value());
    s.max = static_cast<std::uint64_t>(d.max->value());
    if (s.min > s.max) refuse(field + ".min", std::to_string(s.min) + " is above max " + std::to_string(s.max));
    s.integer_uniform = true;
  } else if (d.family == "empirical") {
    s.min = std::numeric_limits<std::uint64_t>::max();
    for (const auto& p : *d.points) {
      const auto v = static_cast<std::uint64_t>(p.value.value());
      s.min = std::min(s.min, v);
      s.max = std::max(s.max, v);
    }
  } else {
    if (!d.min) {
      refuse(field + ".min", "not stated, and family " + d.family + " reaches below " + std::to_string(least) +
                                 " tokens: state the truncation bound (§8.5)");
    }
    s.min = static_cast<std::uint64_t>(d.min->value());
    s.max = d.max ? static_cast<std::uint64_t>(d.max->value()) : (std::uint64_t{1} << 53);
    if (s.min > s.max) refuse(field + ".min", std::to_string(s.min) + " is above max " + std::to_string(s.max));
  }
  if (bounded_family && (d.min || d.max) && d.family != "uniform") {
    refuse(field + (d.min ? ".min" : ".max"), "family " + d.family + " takes no truncation bound");
  }
  if (s.min < least) {
    refuse(field + (d.family == "constant" ? ".value" : ".min"),
           std::to_string(s.min) + " allows a draw below " + std::to_string(least) + " tokens");
  }
  return s;
}

}  // namespace

TokenSampler token_sampler(const schema::ScenarioTokenDistribution& d, const std::string& field, std::uint64_t least) {
  return whole_sampler(d, field, least);
}

TokenSampler count_sampler(const schema::ScenarioCountDistribution& d, const std::string& field, std::uint64_t least) {
  return whole_sampler(d, field, least);
}

DurationSampler duration_sampler(const schema::ScenarioDurationDistribution& d, const std::string& field) {
  DurationSampler s;
  s.distribution = distribution(d, field);
  if (d.family == "constant") {
    s.min = s.max = d.value->value();
  } else if (d.family == "uniform") {
    s.min = d.min->value();
    s.max = d.max->value();
  } else if (d.family == "empirical") {
    s.min = std::numeric_limits<double>::infinity();
    s.max = 0;
    for (const auto& p : *d.points) {
      s.min = std::min(s.min, p.value.value());
      s.max = std::max(s.max, p.value.value());
    }
  } else {
    s.min = d.min ? d.min->value() : 0.0;  // durations are non-negative: a draw below 0 is drawn again
    s.max = d.max ? d.max->value() : std::numeric_limits<double>::max();
  }
  if (s.min > s.max) refuse(field + ".min", std::to_string(s.min) + " is above max " + std::to_string(s.max));
  return s;
}

}  // namespace blis::sim
