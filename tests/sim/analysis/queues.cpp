#include "queues.h"

#include <cmath>
#include <limits>

#include "contracts/fmath.h"

namespace blis::sim::analysis::queues {

double uniform(std::mt19937_64& rng) { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; }

double exponential(std::mt19937_64& rng, double mean) { return -mean * fmath::log(uniform(rng)); }

double normal(std::mt19937_64& rng) {
  for (;;) {
    const double u = 2.0 * uniform(rng) - 1.0;
    const double v = 2.0 * uniform(rng) - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * fmath::log(s) / s);
  }
}

Service exponential_service() {
  return [](std::mt19937_64& rng) { return exponential(rng, 1.0); };
}

Service lognormal_service(double sigma) {
  return [sigma](std::mt19937_64& rng) { return fmath::exp(sigma * normal(rng) - 0.5 * sigma * sigma); };
}

Service pareto_service(double alpha) {
  const double scale = (alpha - 1.0) / alpha;
  return [alpha, scale](std::mt19937_64& rng) { return scale * fmath::exp(-fmath::log(uniform(rng)) / alpha); };
}

Observed open_queue(double load, const Service& service, std::size_t observations, double interval,
                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr double kNever = std::numeric_limits<double>::infinity();
  Observed o;
  o.backlog.reserve(observations);
  o.departures.reserve(observations);
  const double mean_gap = 1.0 / load;
  double next_arrival = exponential(rng, mean_gap);
  double next_departure = kNever;
  std::size_t in_system = 0;
  for (std::size_t i = 1; i <= observations; ++i) {
    const double grid = static_cast<double>(i) * interval;
    std::size_t departed = 0;
    for (;;) {
      if (next_arrival <= next_departure && next_arrival <= grid) {
        ++in_system;
        if (in_system == 1) next_departure = next_arrival + service(rng);
        next_arrival += exponential(rng, mean_gap);
      } else if (next_departure < next_arrival && next_departure <= grid) {
        --in_system;
        ++departed;
        next_departure = in_system > 0 ? next_departure + service(rng) : kNever;
      } else {
        break;
      }
    }
    o.backlog.push_back(static_cast<double>(in_system));
    o.departures.push_back(static_cast<double>(departed));
  }
  return o;
}

Observed closed_queue(std::size_t population, double think, std::size_t observations, double interval,
                      std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  constexpr double kNever = std::numeric_limits<double>::infinity();
  Observed o;
  o.backlog.reserve(observations);
  o.departures.reserve(observations);
  // Each thinking client's return time; with exponential think times the next return is the minimum.
  std::vector<double> returns;
  std::size_t at_server = think > 0.0 ? 0 : population;
  double next_departure = at_server > 0 ? exponential(rng, 1.0) : kNever;
  if (think > 0.0) {
    for (std::size_t c = 0; c < population; ++c) returns.push_back(exponential(rng, think));
  }
  for (std::size_t i = 1; i <= observations; ++i) {
    const double grid = static_cast<double>(i) * interval;
    std::size_t departed = 0;
    for (;;) {
      std::size_t first = returns.size();
      for (std::size_t c = 0; c < returns.size(); ++c) {
        if (first == returns.size() || returns[c] < returns[first]) first = c;
      }
      const double next_return = first < returns.size() ? returns[first] : kNever;
      if (next_return <= next_departure && next_return <= grid) {
        returns.erase(returns.begin() + static_cast<std::ptrdiff_t>(first));
        ++at_server;
        if (at_server == 1) next_departure = next_return + exponential(rng, 1.0);
      } else if (next_departure < next_return && next_departure <= grid) {
        --at_server;
        ++departed;
        const double done = next_departure;
        if (think > 0.0) {
          returns.push_back(done + exponential(rng, think));
        } else {
          ++at_server;  // the client sends its next request at once
        }
        next_departure = at_server > 0 ? done + exponential(rng, 1.0) : kNever;
      } else {
        break;
      }
    }
    o.backlog.push_back(static_cast<double>(at_server));
    o.departures.push_back(static_cast<double>(departed));
  }
  return o;
}

double closed_queue_mean(std::size_t population, double think) {
  double weight = 1, total = 0, first = 0;
  for (std::size_t n = 0; n <= population; ++n) {
    if (n > 0) weight *= static_cast<double>(population - n + 1) / think;
    total += weight;
    first += static_cast<double>(n) * weight;
  }
  return first / total;
}

}  // namespace blis::sim::analysis::queues
