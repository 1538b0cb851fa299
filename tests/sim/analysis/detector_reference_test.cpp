// DEV-10's reference tests: the steady-state detector (src/sim/analysis/steady_state.h) against
// single-server queues whose behaviour is known (queues.h). Time is in mean service times (mu = 1), so the
// load rho is the arrival rate; every run starts empty; seeds are fixed, so every outcome here is
// deterministic. Default options unless stated: k = 20 batches, b_min = 10, 95% intervals, a 10% precision
// bound.
//
// What the slow test (detector_error_rates_test.cpp) measured for these queues and lengths (the full table is
// in src/sim/analysis/steady_state.h):
//   false alarm (a load below 1 classed overloaded): 0 in every row, every length, every service law;
//   power at the lengths used here: rho = 1.1 at 1e5 and rho = 1.5 at 1e4: 100% (200 seeds each);
//   settled at the lengths used here: rho 0.5 at 1e5 92%, 0.7 at 1e5 87%, 0.9 at 1e6 87%, 0.95 at 1e6 80%,
//   0.99 at 1e7 under a 25% precision bound 72% (of 50), 0.99 at 1e5 0% (all incomplete); lognormal service
//   at 1e6 88%; closed queues at 1e5 92.5%; Pareto service of shape 1.5 at 1e5 and 1e6 0% (all
//   incomplete). Seeds 1..5 settle 5, 5, 4 and 4 times at rho 0.5, 0.7, 0.9 and 0.95, meeting the "at least
//   four of five" below; at 80% a fresh set of five would miss it about a quarter of the time. The single
//   seeds elsewhere are seed 1 for every case, not chosen ones.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "queues.h"
#include "sim/analysis/steady_state.h"

namespace {

using namespace blis::sim::analysis;

bool has(const Classification& c, Finding f, const std::string& series) {
  for (const Reason& r : c.reasons) {
    if (r.finding == f && r.series == series) return true;
  }
  return false;
}

std::string describe(const Classification& c) {
  std::string s = to_string(c.run_class);
  for (const Reason& r : c.reasons) s += std::string("; ") + r.series + " " + to_string(r.finding) + ": " + r.detail;
  return s;
}

// The open M/M/1 queue at load rho, observed for `length` mean service times every `interval`; seeds 1..5.
// Asserts that no seed is classed overloaded, that at least four of five settle, and that each settled
// run's batch-means interval of the mean backlog lies within three half-widths of rho / (1 - rho).
void expect_settled(double rho, double length, double interval) {
  int settled = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto n = static_cast<std::size_t>(length / interval);
    const queues::Observed o = queues::open_queue(rho, queues::exponential_service(), n, interval, seed);
    DetectorOptions opt;
    opt.observation_interval_s = interval;
    const Classification c = classify(o.backlog, o.departures, opt);
    EXPECT_NE(c.run_class, RunClass::overloaded) << rho << " seed " << seed << ": " << describe(c);
    if (c.run_class != RunClass::settled) continue;
    ++settled;
    EXPECT_TRUE(c.reasons.empty());
    const Interval& i = c.backlog->batches.interval;
    EXPECT_NEAR(i.mean, rho / (1 - rho), 3 * i.half_width) << rho << " seed " << seed;
    EXPECT_FALSE(c.saturation_throughput.has_value());
  }
  std::printf("M/M/1 rho = %g over %g mean service times: %d of 5 seeds settled\n", rho, length, settled);
  EXPECT_GE(settled, 4) << "rho " << rho;
}

TEST(DetectorReference, OpenMM1SettlesBelowCapacity) {
  expect_settled(0.5, 1e5, 1.0);
  expect_settled(0.7, 1e5, 1.0);
  expect_settled(0.9, 1e6, 1.0);
  expect_settled(0.95, 1e6, 1.0);
}

TEST(DetectorReference, OpenMM1AtNinetyNinePercentSettlesOnlyInALongRun) {
  // Its relaxation time is 1 / (1 - sqrt(0.99))^2, about 4e4, and its mean backlog's asymptotic variance
  // 2 rho (1 + rho) / (1 - rho)^4, about 4e8, so 1e7 mean service times give a half-width near 15% of the
  // mean: settled under a 25% precision bound (72% of seeds; most of the rest have an outlying batch).
  DetectorOptions opt;
  opt.observation_interval_s = 10;
  opt.max_relative_half_width = 0.25;
  const queues::Observed longrun = queues::open_queue(0.99, queues::exponential_service(), 1000000, 10, 1);
  const Classification c = classify(longrun.backlog, longrun.departures, opt);
  ASSERT_EQ(c.run_class, RunClass::settled) << describe(c);
  EXPECT_NEAR(c.backlog->batches.interval.mean, 99.0, 3 * c.backlog->batches.interval.half_width);
  // A run of 1e5 mean service times is shorter than a few correlation times: incomplete, its batches
  // correlated, and not overloaded although its backlog may still be rising.
  const queues::Observed shortrun = queues::open_queue(0.99, queues::exponential_service(), 10000, 10, 1);
  const Classification s = classify(shortrun.backlog, shortrun.departures, opt);
  EXPECT_EQ(s.run_class, RunClass::incomplete) << describe(s);
  EXPECT_TRUE(has(s, Finding::correlated_batches, "backlog")) << describe(s);
}

TEST(DetectorReference, OpenMM1IsOverloadedAboveCapacity) {
  for (double rho : {1.1, 1.5}) {
    const double length = rho == 1.1 ? 1e5 : 1e4;
    const queues::Observed o =
        queues::open_queue(rho, queues::exponential_service(), static_cast<std::size_t>(length), 1.0, 1);
    const Classification c = classify(o.backlog, o.departures);
    ASSERT_EQ(c.run_class, RunClass::overloaded) << rho << ": " << describe(c);
    EXPECT_TRUE(has(c, Finding::backlog_grows, "backlog"));
    // The server is always busy, so departures run at mu = 1 per mean service time with no trend: the
    // saturation throughput is reported, with its interval.
    ASSERT_TRUE(c.saturation_throughput.has_value()) << describe(c);
    EXPECT_NEAR(c.saturation_throughput->mean, 1.0, 0.02);
    EXPECT_NEAR(c.saturation_throughput->mean, 1.0, 3 * c.saturation_throughput->half_width);
    EXPECT_EQ(c.saturation_throughput->source, IntervalSource::batch_means);
  }
}

TEST(DetectorReference, TooShortARunIsIncomplete) {
  // 2 k b_min = 400 observations are needed; 399 of an overloaded queue are too few to say anything.
  const queues::Observed o = queues::open_queue(1.5, queues::exponential_service(), 399, 1.0, 1);
  const Classification c = classify(o.backlog, o.departures);
  EXPECT_EQ(c.run_class, RunClass::incomplete);
  EXPECT_TRUE(has(c, Finding::too_few_observations, ""));
  EXPECT_FALSE(c.backlog.has_value());
}

TEST(DetectorReference, LognormalServiceSettles) {
  // M/G/1 with lognormal service (log-sd 1: squared coefficient of variation e - 1 = 1.72, every moment
  // finite) at rho = 0.7: the Pollaczek-Khinchine mean backlog is rho + rho^2 E[S^2] / (2 (1 - rho)) with
  // E[S^2] = e, about 2.92. Settled at 1e6 in 88% of seeds.
  const queues::Observed o = queues::open_queue(0.7, queues::lognormal_service(1.0), 1000000, 1.0, 1);
  const Classification c = classify(o.backlog, o.departures);
  ASSERT_EQ(c.run_class, RunClass::settled) << describe(c);
  const double truth = 0.7 + 0.49 * std::exp(1.0) / 0.6;
  EXPECT_NEAR(c.backlog->batches.interval.mean, truth, 3 * c.backlog->batches.interval.half_width);
}

TEST(DetectorReference, InfiniteVarianceServiceIsIncompleteAtPracticalLengths) {
  // Pareto service with shape 1.5 (mean 1, infinite variance) at rho = 0.7: E[S^2] is infinite, so the
  // mean backlog is infinite and no window settles. Incomplete at 1e5 and 1e6 (every seed of the slow
  // test), never overloaded.
  for (std::size_t n : {100000u, 1000000u}) {
    const queues::Observed o = queues::open_queue(0.7, queues::pareto_service(1.5), n, 1.0, 1);
    const Classification c = classify(o.backlog, o.departures);
    EXPECT_EQ(c.run_class, RunClass::incomplete) << n << ": " << describe(c);
  }
}

TEST(DetectorReference, FiniteVarianceHeavyTailIsNeverOverloaded) {
  // Pareto shape 2.5 at rho = 0.7 (mean backlog 0.7 + 0.49 * 1.8 / 0.6 = 2.17, infinite variance of the
  // backlog): the detector may class it settled when the window holds no dominant excursion (63% of seeds
  // settle at 1e6, and their intervals cover 2.17 in under a third; src/sim/analysis/steady_state.h); it
  // must never class it overloaded.
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const queues::Observed o = queues::open_queue(0.7, queues::pareto_service(2.5), 200000, 1.0, seed);
    const Classification c = classify(o.backlog, o.departures);
    EXPECT_NE(c.run_class, RunClass::overloaded) << describe(c);
  }
}

TEST(DetectorReference, ClosedQueuesSettle) {
  // A closed queue's backlog is bounded by its population, so it always settles, even when its server is
  // saturated (50 clients with think time 10 keep about 40 at the server).
  for (int population : {10, 50}) {
    const queues::Observed o = queues::closed_queue(population, 10.0, 100000, 1.0, 1);
    const Classification c = classify(o.backlog, o.departures);
    ASSERT_EQ(c.run_class, RunClass::settled) << population << ": " << describe(c);
    EXPECT_NEAR(c.backlog->batches.interval.mean, queues::closed_queue_mean(static_cast<std::size_t>(population), 10.0),
                3 * c.backlog->batches.interval.half_width);
  }
  // A fixed-concurrency benchmark with no think time: the backlog is the concurrency at every instant.
  const queues::Observed o = queues::closed_queue(10, 0.0, 100000, 1.0, 1);
  const Classification c = classify(o.backlog, o.departures);
  ASSERT_EQ(c.run_class, RunClass::settled) << describe(c);
  EXPECT_EQ(c.backlog->batches.interval.mean, 10.0);
  EXPECT_EQ(c.backlog->batches.interval.half_width, 0.0);
  EXPECT_NEAR(c.departures->batches.interval.mean, 1.0, 3 * c.departures->batches.interval.half_width);
}

}  // namespace
