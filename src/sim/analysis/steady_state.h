// The steady-state detector (design §8.8, DEV-10): the one place that classifies a steady-state run as
// settled, overloaded or incomplete. Only a settled run gives a steady-state latency figure; an overloaded
// run's latencies describe a transient and are not reported, and its departure rate is reported as
// saturation throughput only when the departure series itself shows no trend.
//
// Inputs: two series observed on one regular grid of `observation_interval_s` seconds: backlog[i], the
// number of requests in the system at the i-th grid time (or any non-negative measure of backlog, such as
// a per-request waiting time series), and departures[i], the requests that finished in the i-th interval.
//
// The rule, with k = options.batches and b_min = options.min_batch_size:
//   1. n < 2 k b_min observations: incomplete (too_few_observations). MSER-5 may cut up to half the run,
//      and the window left must still give k batches of b_min.
//   2. Each series is analysed alone: MSER-5 warm-up (mser.h) cut from its start; the window after the
//      cut split into k batch means (batch_means.h); on the batch means, slope_test at kTrendLevel
//      (two-sided) and, for the backlog, growth_test at kGrowthLevel (one-sided, upward) (trend.h).
//   3. The backlog's growth test rejects: overloaded (backlog_grows). Its saturation throughput is the
//      departures' batch-means interval divided by observation_interval_s, reported only when the
//      departures' slope test finds no trend (otherwise the reason departures_trend is added).
//   4. Otherwise, for each series, each of these is a reason for incomplete:
//        warmup_not_found    MSER-5's minimum at the end of its searched half (Mser5::at_search_limit);
//        trend               the slope test rejects: the window is still moving;
//        correlated_batches  the batch means' (or quarter batches') lag-1 autocorrelation exceeds its
//                            threshold (BatchMeans::correlated): the batches are too short for this run's
//                            correlation time, so their interval is not valid;
//        outlying_batch      Grubbs' test finds an outlying batch mean (BatchMeans::outlier): one
//                            excursion dominates the window, as a heavy-tailed service's backlog spike does;
//      and, for the backlog only,
//        imprecise           its batch-means interval's relative half-width exceeds
//                            options.max_relative_half_width: the window is too short for a steady-state
//                            figure at the stated precision (this is what classes an infinite-variance
//                            service incomplete: its mean backlog is infinite, so no window pins it down).
//      Any reason: incomplete.
//   5. Otherwise: settled.
//
// Error rates, measured (not assumed) by tests/sim/analysis/detector_error_rates_test.cpp on M/M/1 queues
// started empty, 200 seeds a cell, run length in mean service times, default options:
//   false alarm (a load below 1 classed overloaded): 0 of 200 in every cell, rho = 0.5, 0.7, 0.9, 0.95, 0.99
//     at 2e3, 1e4, 2e4 and 1e5 (and 1e6 for 0.9 to 0.99), and in every M/G/1 and closed-queue row;
//   power (a load above 1 classed overloaded):
//               2e3     1e4     2e4     1e5     1e6
//     rho 1.05   3%     29%     70%    100%    100%
//     rho 1.1   20%     96%    100%    100%
//     rho 1.5  100%    100%    100%    100%
//   No run above capacity was classed settled. Runs not classed overloaded were incomplete.
//   settled, and in brackets how many settled runs' 95% interval covers the true mean backlog:
//               2e3     1e4            2e4            1e5            1e6
//     rho 0.5    0%     57% (100/113)  82% (155/163)  92% (174/183)
//     rho 0.7    0%      8% (8/16)     51% (83/101)   87% (163/174)
//     rho 0.9    0%      0%             0%            19% (27/38)    87% (163/173)
//     rho 0.95   0%      0%             0%             0%            80% (140/159)
//     rho 0.99   0% at every length up to 1e6; 72% (29/36) of 50 at 1e7 under a 25% precision bound.
//   The rest are incomplete. Where settling is marginal the covered share falls (71% at rho 0.9, 1e5):
//   settling selects windows whose spread happened to be small.
// Heavy tails at rho = 0.7 (100 seeds): Pareto service of shape 1.5 (infinite variance, so an infinite mean
// backlog) is incomplete in every run at 1e5 and 1e6; shape 2.5 (finite variance, infinite third moment, so
// the mean backlog has no central limit) is incomplete in only 40% and 37%, and its settled runs' intervals
// cover the true mean in 30/60 and 18/63: a window that has not sampled the tail looks light-tailed, and no
// test on the window alone can see what it did not sample. Lognormal service (log-sd 1) settles in 76% and
// 88%, covering in 68/76 and 83/88. Closed queues (10 or 50 clients, think time 10, 1e5): settled in 185 of
// 200 each, covering in 182 and 179.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/analysis/batch_means.h"
#include "sim/analysis/interval.h"
#include "sim/analysis/mser.h"
#include "sim/analysis/trend.h"

namespace blis::sim::analysis {

// The slope test's two-sided level: a window whose batch means trend at this level has not settled.
inline constexpr double kTrendLevel = 0.01;
// The growth test's one-sided level: a backlog growing at this level is overloaded.
inline constexpr double kGrowthLevel = 0.001;

enum class RunClass { settled, overloaded, incomplete };

enum class Finding {
  too_few_observations,
  backlog_grows,
  departures_trend,
  warmup_not_found,
  trend,
  correlated_batches,
  outlying_batch,
  imprecise,
};

struct Reason {
  Finding finding;
  std::string series;  // "backlog", "departures", or "" for too_few_observations
  std::string detail;  // the statistic, its threshold and the numbers behind them
};

struct SeriesAnalysis {
  Mser5 warmup;
  std::size_t window_begin = 0;  // warmup.cut: the first observation of the measured window
  BatchMeans batches;            // of the window, interval at options.confidence
  SlopeTest slope;               // at kTrendLevel
  GrowthTest growth;             // at kGrowthLevel
};

struct DetectorOptions {
  std::size_t batches = 20;             // k, in [10, 30]
  std::size_t min_batch_size = 10;      // b_min >= 4 (kQuarterBatches), observations per batch at least
  double confidence = 0.95;             // of the batch-means intervals, in (0, 1)
  double observation_interval_s = 1.0;  // seconds between grid points, finite and > 0
  // The largest relative half-width of the backlog mean's batch-means interval a settled run may have:
  // a wider one means the window is too short for a steady-state figure. > 0; +infinity disables it.
  double max_relative_half_width = 0.1;
};

struct Classification {
  RunClass run_class = RunClass::incomplete;
  std::vector<Reason> reasons;                    // empty exactly when settled
  std::optional<SeriesAnalysis> backlog;          // absent only for too_few_observations
  std::optional<SeriesAnalysis> departures;       // likewise
  std::optional<Interval> saturation_throughput;  // requests per second; overloaded runs only, see rule 3
};

// Refuses (std::invalid_argument): series of different lengths, a negative, NaN or infinite value, and
// options out of range (batches outside [10, 30], min_batch_size below 4, confidence outside (0, 1), an
// observation interval that is not finite and > 0, a precision bound that is not > 0).
Classification classify(std::span<const double> backlog, std::span<const double> departures,
                        const DetectorOptions& options = {});

const char* to_string(RunClass c);
const char* to_string(Finding f);

}  // namespace blis::sim::analysis
