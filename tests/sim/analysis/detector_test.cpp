// The steady-state detector's rule on constructed series (src/sim/analysis/steady_state.h): each class and
// reason, the saturation-throughput rule, and each refusal beside its closest accepted input. The queue
// references are in detector_reference_test.cpp (DEV-10).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
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

// n independent normal(mean, sd) values, floored at 0 (the detector refuses negative values).
std::vector<double> noise(std::size_t n, double mean, double sd, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  for (double& x : v) x = std::max(0.0, mean + sd * queues::normal(rng));
  return v;
}

TEST(Detector, StationaryNoiseSettles) {
  const std::vector<double> backlog = noise(4000, 20, 2, 1);
  const std::vector<double> departures = noise(4000, 5, 1, 2);
  const Classification c = classify(backlog, departures);
  ASSERT_EQ(c.run_class, RunClass::settled);
  EXPECT_TRUE(c.reasons.empty());
  EXPECT_NEAR(c.backlog->batches.interval.mean, 20, 0.2);
  EXPECT_EQ(c.backlog->window_begin, c.backlog->warmup.cut);
  EXPECT_FALSE(c.saturation_throughput.has_value());
}

TEST(Detector, AGrowingBacklogIsOverloadedAndItsSteadyDeparturesAreTheSaturationThroughput) {
  // Backlog rising 0.5 per observation plus noise; departures steady at 4 per observation of 2 s.
  std::vector<double> backlog = noise(4000, 10, 2, 3);
  for (std::size_t i = 0; i < backlog.size(); ++i) backlog[i] += 0.5 * static_cast<double>(i);
  const std::vector<double> departures = noise(4000, 4, 1, 4);
  DetectorOptions opt;
  opt.observation_interval_s = 2.0;
  const Classification c = classify(backlog, departures, opt);
  ASSERT_EQ(c.run_class, RunClass::overloaded);
  EXPECT_TRUE(has(c, Finding::backlog_grows, "backlog"));
  ASSERT_TRUE(c.saturation_throughput.has_value());
  // Requests per second: the departures' batch-means interval divided by the 2 s grid interval.
  const Interval& d = c.departures->batches.interval;
  EXPECT_EQ(c.saturation_throughput->mean, d.mean / 2.0);
  EXPECT_EQ(c.saturation_throughput->half_width, d.half_width / 2.0);
  EXPECT_EQ(c.saturation_throughput->relative_half_width, d.relative_half_width);
  EXPECT_NEAR(c.saturation_throughput->mean, 2.0, 0.05);
}

TEST(Detector, TrendingDeparturesGiveNoSaturationThroughput) {
  std::vector<double> backlog(4000), departures = noise(4000, 4, 0.5, 5);
  for (std::size_t i = 0; i < backlog.size(); ++i) backlog[i] = static_cast<double>(i);
  for (std::size_t i = 0; i < departures.size(); ++i) departures[i] += 0.001 * static_cast<double>(i);
  const Classification c = classify(backlog, departures);
  ASSERT_EQ(c.run_class, RunClass::overloaded);
  EXPECT_TRUE(has(c, Finding::departures_trend, "departures"));
  EXPECT_FALSE(c.saturation_throughput.has_value());
}

TEST(Detector, ADrainingBacklogHasNotSettled) {
  // A backlog falling linearly to zero by the end: no growth, but MSER-5 finds no settled part and the
  // window still trends down.
  std::vector<double> backlog(4000);
  for (std::size_t i = 0; i < backlog.size(); ++i) backlog[i] = static_cast<double>(backlog.size() - i);
  const Classification c = classify(backlog, noise(4000, 5, 1, 6));
  EXPECT_EQ(c.run_class, RunClass::incomplete);
  EXPECT_TRUE(has(c, Finding::warmup_not_found, "backlog"));
  EXPECT_TRUE(has(c, Finding::trend, "backlog"));
  EXPECT_FALSE(has(c, Finding::backlog_grows, "backlog"));
}

TEST(Detector, CorrelatedOutlyingAndImpreciseWindowsAreIncomplete) {
  // Correlated: an AR(1) backlog with correlation time about 1000 observations, shifted to stay positive.
  std::mt19937_64 rng(8);
  std::vector<double> ar(20000);
  double x = 0;
  for (double& v : ar) v = std::max(0.0, 200.0 + (x = 0.999 * x + queues::normal(rng)));
  const Classification corr = classify(ar, noise(20000, 5, 1, 9));
  EXPECT_EQ(corr.run_class, RunClass::incomplete);
  EXPECT_TRUE(has(corr, Finding::correlated_batches, "backlog"));
  // Outlying: one spike of 100 observations at 1000 in a flat noisy window.
  std::vector<double> spiky = noise(4000, 20, 2, 10);
  for (std::size_t i = 3000; i < 3100; ++i) spiky[i] = 1000;
  const Classification out = classify(spiky, noise(4000, 5, 1, 11));
  EXPECT_EQ(out.run_class, RunClass::incomplete);
  EXPECT_TRUE(has(out, Finding::outlying_batch, "backlog"));
  // Imprecise: a settled window's relative half-width r against bounds around it (the bound is inclusive).
  const std::vector<double> b = noise(4000, 10, 8, 12);
  const std::vector<double> d = noise(4000, 5, 1, 13);
  DetectorOptions o;
  o.max_relative_half_width = std::numeric_limits<double>::infinity();
  const Classification free = classify(b, d, o);
  ASSERT_EQ(free.run_class, RunClass::settled);
  const double r = free.backlog->batches.interval.relative_half_width;
  o.max_relative_half_width = r;
  EXPECT_EQ(classify(b, d, o).run_class, RunClass::settled);
  o.max_relative_half_width = std::nextafter(r, 0.0);
  const Classification tight = classify(b, d, o);
  EXPECT_EQ(tight.run_class, RunClass::incomplete);
  ASSERT_EQ(tight.reasons.size(), 1u);
  EXPECT_TRUE(has(tight, Finding::imprecise, "backlog"));
}

TEST(Detector, TheSmallestAcceptedRunIsAnalysedWithoutRefusal) {
  // k = 10 and b_min = 4 need 2 * 10 * 4 = 80 observations; MSER-5 may cut up to half, and the window left
  // still holds the 4k = 40 observations batch_means needs for its quarter batches. A ramp makes MSER-5 cut
  // as much as it can.
  std::vector<double> ramp(80);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<double>(i);
  DetectorOptions o;
  o.batches = 10;
  o.min_batch_size = 4;
  const Classification c = classify(ramp, std::vector<double>(80, 1.0), o);
  ASSERT_TRUE(c.backlog.has_value());
  EXPECT_EQ(c.backlog->window_begin, 40u);
  EXPECT_EQ(c.run_class, RunClass::overloaded);
}

TEST(Detector, TooFewObservations) {
  // 2 k b_min = 2 * 20 * 10 = 400 by default; 2 * 10 * 5 = 100 with k = 10 and b_min = 5.
  const std::vector<double> b = noise(400, 20, 2, 14), d = noise(400, 5, 1, 15);
  const std::span<const double> b399(b.data(), 399), d399(d.data(), 399);
  EXPECT_TRUE(classify(b, d).backlog.has_value());
  const Classification c = classify(b399, d399);
  EXPECT_EQ(c.run_class, RunClass::incomplete);
  ASSERT_EQ(c.reasons.size(), 1u);
  EXPECT_EQ(c.reasons[0].finding, Finding::too_few_observations);
  EXPECT_EQ(c.reasons[0].detail, "399 observations; at least 2 * 20 batches * 10 = 400 are needed");
  DetectorOptions small;
  small.batches = 10;
  small.min_batch_size = 5;
  EXPECT_TRUE(classify(std::span<const double>(b.data(), 100), std::span<const double>(d.data(), 100), small)
                  .backlog.has_value());
}

TEST(Detector, NamesAreStable) {
  EXPECT_STREQ(to_string(RunClass::settled), "settled");
  EXPECT_STREQ(to_string(RunClass::overloaded), "overloaded");
  EXPECT_STREQ(to_string(RunClass::incomplete), "incomplete");
  EXPECT_STREQ(to_string(Finding::backlog_grows), "backlog_grows");
  EXPECT_STREQ(to_string(Finding::imprecise), "imprecise");
}

TEST(Detector, RefusalsBesideTheirClosestAcceptedInputs) {
  const std::vector<double> b = noise(400, 20, 2, 16), d = noise(400, 5, 1, 17);
  EXPECT_NO_THROW(classify(b, d));
  EXPECT_THROW(classify(b, std::span<const double>(d.data(), 399)), std::invalid_argument);
  std::vector<double> bad = b;
  bad[5] = 0.0;
  EXPECT_NO_THROW(classify(bad, d));
  bad[5] = -0.5;
  EXPECT_THROW(classify(bad, d), std::invalid_argument);
  bad[5] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(classify(bad, d), std::invalid_argument);
  bad[5] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(classify(d, bad), std::invalid_argument);
  DetectorOptions o;
  o.batches = 10;
  EXPECT_NO_THROW(classify(b, d, o));
  o.batches = 9;
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  o.batches = 30;
  EXPECT_NO_THROW(classify(b, d, o));
  o.batches = 31;
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  o = DetectorOptions{};
  o.min_batch_size = 4;
  EXPECT_NO_THROW(classify(b, d, o));
  o.min_batch_size = 3;
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  o = DetectorOptions{};
  o.confidence = 1.0;
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  o = DetectorOptions{};
  o.observation_interval_s = std::numeric_limits<double>::denorm_min();
  EXPECT_NO_THROW(classify(b, d, o));
  o.observation_interval_s = 0.0;
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  o.observation_interval_s = std::numeric_limits<double>::infinity();
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  o = DetectorOptions{};
  o.max_relative_half_width = std::numeric_limits<double>::denorm_min();
  EXPECT_NO_THROW(classify(b, d, o));
  o.max_relative_half_width = 0.0;
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  o.max_relative_half_width = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(classify(b, d, o), std::invalid_argument);
  bad = b;
  bad[7] = -1.0;
  try {
    classify(bad, d);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "classify: backlog[7] = -1: a backlog or a departure count cannot be negative");
  }
}

}  // namespace
