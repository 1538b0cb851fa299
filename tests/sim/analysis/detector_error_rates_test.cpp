// DEV-10's error rates (slow tier): the steady-state detector's false-alarm rate and power for each load
// and run length, measured over many seeds of single-server queues (queues.h) and printed as a table.
//
//   false alarm  the fraction of runs of a queue below capacity (rho < 1, any service law, or a closed
//                queue) classed overloaded. Fails above 5% in any row.
//   power        the fraction of runs of a queue above capacity classed overloaded. Fails below 95% at
//                rho >= 1.1 for runs of at least 2e4 mean service times (shorter rows are printed, not
//                judged: at rho = 1.1 the backlog's drift of 0.1 per service time needs about that long to
//                stand out of its random-walk noise at the growth test's 0.1% level).
//   also judged  no run above capacity is classed settled; Pareto service of shape 1.5 (infinite variance,
//                so an infinite mean backlog) is classed incomplete in at least 95% of runs.
//   printed      for rows whose mean backlog is known: how often a settled run's 95% batch-means interval
//                covers it (conditional on settling, so it may fall short of 95% in rows where settling is
//                marginal), and the most frequent reasons for incomplete.
// Time is in mean service times; every run starts empty; seeds 1..N. The grid interval is 1 up to 1e5 mean
// service times and 10 beyond, so a run holds at most 1e5 observations (1e6 for the 1e7 row).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "queues.h"
#include "sim/analysis/steady_state.h"

namespace {

using namespace blis::sim::analysis;

struct Row {
  std::string queue;  // a label
  double load;        // rho, or 0 for a closed queue
  double length;      // mean service times
  int seeds;
  double truth;  // the mean backlog, or NaN when unknown or infinite
  std::function<queues::Observed(std::size_t n, double interval, std::uint64_t seed)> run;
  double max_relative_half_width = 0.1;
};

struct Tally {
  int settled = 0, overloaded = 0, incomplete = 0, covered = 0;
  std::map<std::string, int> reasons;
};

Tally measure(const Row& r) {
  Tally t;
  const double interval = r.length > 1e5 ? 10.0 : 1.0;
  const auto n = static_cast<std::size_t>(r.length / interval);
  DetectorOptions opt;
  opt.observation_interval_s = interval;
  opt.max_relative_half_width = r.max_relative_half_width;
  for (int s = 1; s <= r.seeds; ++s) {
    const queues::Observed o = r.run(n, interval, static_cast<std::uint64_t>(s));
    const Classification c = classify(o.backlog, o.departures, opt);
    switch (c.run_class) {
      case RunClass::settled: {
        ++t.settled;
        const Interval& i = c.backlog->batches.interval;
        if (i.lower() <= r.truth && r.truth <= i.upper()) ++t.covered;
        break;
      }
      case RunClass::overloaded:
        ++t.overloaded;
        break;
      case RunClass::incomplete:
        ++t.incomplete;
        for (const Reason& reason : c.reasons) ++t.reasons[reason.series + ":" + to_string(reason.finding)];
        break;
    }
  }
  return t;
}

std::string top_reasons(const Tally& t) {
  std::vector<std::pair<int, std::string>> v;
  for (const auto& [k, n] : t.reasons) v.emplace_back(-n, k);
  std::sort(v.begin(), v.end());
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 3; ++i) s += " " + v[i].second + "=" + std::to_string(-v[i].first);
  return s;
}

queues::Observed mm1(double rho, std::size_t n, double interval, std::uint64_t seed) {
  return queues::open_queue(rho, queues::exponential_service(), n, interval, seed);
}

TEST(DetectorErrorRates, FalseAlarmAndPowerByLoadAndLength) {
  const double nan = std::nan("");
  std::vector<Row> rows;
  for (double rho : {0.5, 0.7, 0.9, 0.95, 0.99, 1.05, 1.1, 1.5}) {
    std::vector<double> lengths{2e3, 1e4, 2e4, 1e5};
    if (rho >= 0.9 && rho <= 1.05) lengths.push_back(1e6);
    for (double length : lengths) {
      rows.push_back({"M/M/1", rho, length, 200, rho < 1 ? rho / (1 - rho) : nan,
                      [rho](std::size_t n, double dt, std::uint64_t s) { return mm1(rho, n, dt, s); }});
    }
  }
  rows.push_back({"M/M/1 (25% bound)", 0.99, 1e7, 50, 99.0,
                  [](std::size_t n, double dt, std::uint64_t s) { return mm1(0.99, n, dt, s); }, 0.25});
  // M/G/1 at rho = 0.7, mean backlog rho + rho^2 E[S^2] / (2 (1 - rho)).
  for (double length : {1e5, 1e6}) {
    rows.push_back({"M/G/1 lognormal(1)", 0.7, length, 100, 0.7 + 0.49 * std::exp(1.0) / 0.6,
                    [](std::size_t n, double dt, std::uint64_t s) {
                      return queues::open_queue(0.7, queues::lognormal_service(1.0), n, dt, s);
                    }});
    rows.push_back(
        {"M/G/1 Pareto(2.5)", 0.7, length, 100, 0.7 + 0.49 * 1.8 / 0.6, [](std::size_t n, double dt, std::uint64_t s) {
           return queues::open_queue(0.7, queues::pareto_service(2.5), n, dt, s);
         }});
    rows.push_back({"M/G/1 Pareto(1.5)", 0.7, length, 100, nan, [](std::size_t n, double dt, std::uint64_t s) {
                      return queues::open_queue(0.7, queues::pareto_service(1.5), n, dt, s);
                    }});
  }
  for (int population : {10, 50}) {
    rows.push_back({"closed N=" + std::to_string(population) + " Z=10", 0.0, 1e5, 200,
                    queues::closed_queue_mean(static_cast<std::size_t>(population), 10.0),
                    [population](std::size_t n, double dt, std::uint64_t s) {
                      return queues::closed_queue(static_cast<std::size_t>(population), 10.0, n, dt, s);
                    }});
  }

  std::printf("%-20s %5s %8s %5s | %7s %7s %7s | %-12s | %s\n", "queue", "rho", "length", "seeds", "settled", "overld",
              "incompl", "covered", "incomplete: top reasons");
  for (const Row& r : rows) {
    const Tally t = measure(r);
    const double over = static_cast<double>(t.overloaded) / r.seeds;
    char cover[32] = "-";
    if (!std::isnan(r.truth) && t.settled > 0) std::snprintf(cover, sizeof cover, "%d/%d", t.covered, t.settled);
    std::printf("%-20s %5.2f %8.0e %5d | %7d %7d %7d | %-12s |%s\n", r.queue.c_str(), r.load, r.length, r.seeds,
                t.settled, t.overloaded, t.incomplete, cover, top_reasons(t).c_str());
    std::fflush(stdout);
    const bool above = r.load > 1.0;
    if (!above) {
      EXPECT_LE(over, 0.05) << "false alarm: " << r.queue << " rho " << r.load << " length " << r.length;
    } else {
      EXPECT_EQ(t.settled, 0) << r.queue << " rho " << r.load << " length " << r.length;
    }
    if (r.load >= 1.1 && r.length >= 2e4) {
      EXPECT_GE(over, 0.95) << "power: rho " << r.load << " length " << r.length;
    }
    if (r.queue == "M/G/1 Pareto(1.5)") {
      EXPECT_GE(static_cast<double>(t.incomplete) / r.seeds, 0.95) << r.queue << " length " << r.length;
    }
  }
}

}  // namespace
