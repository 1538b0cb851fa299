#include "sim/analysis/steady_state.h"

#include <cmath>

#include "sim/analysis/checks.h"

namespace blis::sim::analysis {
namespace {

constexpr std::string_view kFn = "classify";

void check_series(std::string_view name, std::span<const double> s) {
  detail::require_finite(kFn, name, s);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] < 0.0) {
      detail::refuse(kFn, std::string(name) + "[" + detail::number(i) + "]", detail::number(s[i]),
                     "a backlog or a departure count cannot be negative");
    }
  }
}

SeriesAnalysis analyse(std::span<const double> series, const DetectorOptions& o) {
  SeriesAnalysis a;
  a.warmup = mser5(series);
  a.window_begin = a.warmup.cut;
  a.batches = batch_means(series.subspan(a.window_begin), o.batches, o.confidence);
  a.slope = slope_test(a.batches.means, kTrendLevel);
  a.growth = growth_test(a.batches.means, kGrowthLevel);
  return a;
}

void incomplete_reasons(const std::string& name, const SeriesAnalysis& a, std::vector<Reason>& out) {
  if (a.warmup.at_search_limit) {
    out.push_back({Finding::warmup_not_found, name,
                   "MSER-5's minimum lies at the end of its searched half (" +
                       detail::number(a.warmup.truncated_batches) + " of " + detail::number(a.warmup.batches) +
                       " batches of five)"});
  }
  if (a.slope.trend) {
    out.push_back({Finding::trend, name,
                   "slope " + detail::number(a.slope.slope) + " per batch, t = " + detail::number(a.slope.t_statistic) +
                       ", two-sided p = " + detail::number(a.slope.p_value) + " < " + detail::number(a.slope.level)});
  }
  if (a.batches.correlated) {
    out.push_back({Finding::correlated_batches, name,
                   "lag-1 autocorrelation of the batch means " + detail::number(a.batches.lag1_autocorrelation) +
                       " (threshold " + detail::number(a.batches.correlation_threshold) + "), of the quarter batches " +
                       detail::number(a.batches.quarter_lag1_autocorrelation) + " (threshold " +
                       detail::number(a.batches.quarter_correlation_threshold) + "); batch size " +
                       detail::number(a.batches.batch_size)});
  }
  if (a.batches.outlier) {
    out.push_back({Finding::outlying_batch, name,
                   "Grubbs' G of the batch means " + detail::number(a.batches.outlier_statistic) + " > threshold " +
                       detail::number(a.batches.outlier_threshold)});
  }
}

}  // namespace

Classification classify(std::span<const double> backlog, std::span<const double> departures,
                        const DetectorOptions& options) {
  if (options.batches < kMinBatches || options.batches > kMaxBatches) {
    detail::refuse(kFn, "options.batches", detail::number(options.batches),
                   "a run is split into 10 to 30 batches (design 8.8)");
  }
  if (options.min_batch_size < kQuarterBatches) {
    detail::refuse(kFn, "options.min_batch_size", detail::number(options.min_batch_size),
                   "a batch needs at least 4 observations, so each of its quarter batches holds one");
  }
  detail::require_confidence(kFn, "options.confidence", options.confidence);
  if (!(std::isfinite(options.observation_interval_s) && options.observation_interval_s > 0.0)) {
    detail::refuse(kFn, "options.observation_interval_s", detail::number(options.observation_interval_s),
                   "the grid's interval must be finite and greater than 0 seconds");
  }
  if (!(options.max_relative_half_width > 0.0)) {
    detail::refuse(kFn, "options.max_relative_half_width", detail::number(options.max_relative_half_width),
                   "the precision bound must be greater than 0 (+infinity disables it)");
  }
  if (departures.size() != backlog.size()) {
    detail::refuse(kFn, "departures.size()", detail::number(departures.size()),
                   "both series lie on one grid, and backlog.size() is " + detail::number(backlog.size()));
  }
  check_series("backlog", backlog);
  check_series("departures", departures);

  Classification c;
  // n < 2 k b_min, written so that a huge b_min cannot overflow the product.
  if (backlog.size() / (2 * options.batches) < options.min_batch_size) {
    const double needed = 2.0 * static_cast<double>(options.batches) * static_cast<double>(options.min_batch_size);
    c.run_class = RunClass::incomplete;
    c.reasons.push_back({Finding::too_few_observations, "",
                         detail::number(backlog.size()) + " observations; at least 2 * " +
                             detail::number(options.batches) + " batches * " + detail::number(options.min_batch_size) +
                             " = " + detail::number(needed) + " are needed"});
    return c;
  }
  c.backlog = analyse(backlog, options);
  c.departures = analyse(departures, options);

  if (c.backlog->growth.grows) {
    c.run_class = RunClass::overloaded;
    c.reasons.push_back({Finding::backlog_grows, "backlog",
                         "mean increment " + detail::number(c.backlog->growth.mean_increment) +
                             " per batch, t = " + detail::number(c.backlog->growth.t_statistic) +
                             ", one-sided p = " + detail::number(c.backlog->growth.p_value) + " < " +
                             detail::number(c.backlog->growth.level)});
    if (c.departures->slope.trend) {
      c.reasons.push_back({Finding::departures_trend, "departures",
                           "the departure rate trends (slope " + detail::number(c.departures->slope.slope) +
                               " per batch, two-sided p = " + detail::number(c.departures->slope.p_value) +
                               "), so no saturation throughput is reported"});
    } else {
      Interval rate = c.departures->batches.interval;
      const double dt = options.observation_interval_s;
      rate.mean /= dt;
      rate.standard_deviation /= dt;
      rate.half_width /= dt;
      c.saturation_throughput = rate;
    }
    return c;
  }
  incomplete_reasons("backlog", *c.backlog, c.reasons);
  if (c.backlog->batches.interval.relative_half_width > options.max_relative_half_width) {
    c.reasons.push_back({Finding::imprecise, "backlog",
                         "the batch-means interval's relative half-width " +
                             detail::number(c.backlog->batches.interval.relative_half_width) + " > " +
                             detail::number(options.max_relative_half_width)});
  }
  incomplete_reasons("departures", *c.departures, c.reasons);
  c.run_class = c.reasons.empty() ? RunClass::settled : RunClass::incomplete;
  return c;
}

const char* to_string(RunClass c) {
  switch (c) {
    case RunClass::settled:
      return "settled";
    case RunClass::overloaded:
      return "overloaded";
    case RunClass::incomplete:
      return "incomplete";
  }
  return "?";
}

const char* to_string(Finding f) {
  switch (f) {
    case Finding::too_few_observations:
      return "too_few_observations";
    case Finding::backlog_grows:
      return "backlog_grows";
    case Finding::departures_trend:
      return "departures_trend";
    case Finding::warmup_not_found:
      return "warmup_not_found";
    case Finding::trend:
      return "trend";
    case Finding::correlated_batches:
      return "correlated_batches";
    case Finding::outlying_batch:
      return "outlying_batch";
    case Finding::imprecise:
      return "imprecise";
  }
  return "?";
}

}  // namespace blis::sim::analysis
