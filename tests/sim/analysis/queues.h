// Single-server queues whose behaviour is known, simulated for the detector's reference tests (DEV-10).
// Every random draw comes from one std::mt19937_64 seeded by the caller, turned into a uniform and then a
// variate with the project's fmath (not libm, not <random>'s distributions, whose algorithms the standard
// leaves open), so a seed gives the same series on every platform.
//
// Time is in units of the mean service time (1 / mu = 1). The system is observed on the grid t_i = i *
// interval, i = 1..n: backlog[i-1] is the number in system at t_i (in service and waiting), and
// departures[i-1] the number of service completions in (t_{i-1}, t_i]. Every run starts empty at t = 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace blis::sim::analysis::queues {

struct Observed {
  std::vector<double> backlog;
  std::vector<double> departures;
};

// A uniform in (0, 1): the top 53 bits of a draw, offset by half a step so neither 0 nor 1 occurs.
double uniform(std::mt19937_64& rng);
// An exponential variate with the given mean, by inversion: -mean * log(u).
double exponential(std::mt19937_64& rng, double mean);
// A standard normal variate by Marsaglia's polar method (log and sqrt only).
double normal(std::mt19937_64& rng);

// A service-time law with mean 1.
using Service = std::function<double(std::mt19937_64&)>;
Service exponential_service();
// Lognormal with mean 1 and log-standard-deviation sigma: exp(sigma Z - sigma^2 / 2).
Service lognormal_service(double sigma);
// Pareto (type I) with shape alpha > 1 and mean 1: scale x_m = (alpha - 1) / alpha, x_m u^(-1/alpha).
// Finite variance only for alpha > 2; infinite third moment for alpha <= 3.
Service pareto_service(double alpha);

// M/G/1, FIFO: Poisson arrivals at rate `load` (the utilisation, since the mean service is 1).
Observed open_queue(double load, const Service& service, std::size_t observations, double interval, std::uint64_t seed);

// The closed queue of a fixed-concurrency benchmark: `population` clients, each sending its next request an
// exponential think time (mean `think`) after its previous one finished; think = 0 sends at once, so the
// backlog stays at the population. One exponential server (mean 1), FIFO.
Observed closed_queue(std::size_t population, double think, std::size_t observations, double interval,
                      std::uint64_t seed);

// That closed queue's stationary mean number at the server for think > 0 (the finite-source, or
// machine-repairman, queue): p_n is proportional to N! / (N - n)! think^-n, n = 0..N.
double closed_queue_mean(std::size_t population, double think);

}  // namespace blis::sim::analysis::queues
