#include "sim/metrics/figures.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/analysis/statistics.h"
#include "sim/metrics/registry.h"

namespace blis::sim {
namespace {

// Whether an instance (pool, index) lies inside a scope.
bool covers(const FigureScope& s, std::string_view pool, std::int64_t instance) {
  return s.level == "cluster" || (pool == s.pool && (s.level == "pool" || instance == s.instance));
}

bool in_scope(const FinishedRecord& r, const FigureScope& s) { return covers(s, r.pool, r.instance); }

// b - a in seconds, from the exact difference in microseconds (one rounding).
double between(SimTime a, SimTime b) { return static_cast<double>(b.us - a.us) / 1e6; }

bool unfinished(Fate f) { return f == Fate::kInFlightAtHorizon || f == Fate::kQueuedAtHorizon; }

// When a request left the system as the measured window sees it: its fate's time, or the run's end when it
// was unfinished there.
SimTime left_at(const FinishedRecord& r, const ReplicationOutput& run) {
  return unfinished(r.fate) ? run.end : r.ended.value_or(run.end);
}

// The samples one request gives for a latency quantity (several for itl).
void samples_of(const std::string& q, const FinishedRecord& r, std::vector<double>& out) {
  const auto first = r.first_token();
  const auto last = r.last_token();
  const std::int64_t tokens = r.output_tokens();
  if (q == "ttft") {
    if (first && r.sent) out.push_back(between(*r.sent, *first));
  } else if (q == "e2e") {
    if (last && r.sent) out.push_back(between(*r.sent, *last));
  } else if (q == "tpot" || q == "interactivity") {
    if (tokens >= 2 && first && last) {
      const double span = between(*first, *last);
      const double per = span / static_cast<double>(tokens - 1);
      if (q == "tpot") out.push_back(per);
      else if (span > 0) out.push_back(static_cast<double>(tokens - 1) / span);
    }
  } else if (q == "scheduling_delay") {
    if (r.dispatched && r.sent) out.push_back(between(*r.sent, *r.dispatched));
  } else if (q == "queueing_delay") {
    if (r.first_scheduled && r.dispatched) out.push_back(between(*r.dispatched, *r.first_scheduled));
  } else {
    throw std::invalid_argument("metric quantity '" + q + "' is not computed by this build");
  }
}

bool counts_fate(const schema::MetricRegistryMetric& m, Fate f) {
  const auto name = std::string(fate_name(f));
  return std::find(m.counts.fates.begin(), m.counts.fates.end(), name) != m.counts.fates.end();
}

// The k-th smallest (from 0) gap of a counted set.
std::int64_t kth(const CountedGaps& c, std::int64_t k) {
  for (const auto& [gap, n] : c) {
    if (k < n) return gap;
    k -= n;
  }
  throw std::logic_error("kth: beyond the counted gaps");
}

// Inter-token latency: the pooled gaps of the scope's measured requests whose fates count; the same
// statistics as over a list of samples (numpy's linear percentile over the sorted gaps).
ReplicationFigure itl_figure(const schema::MetricRegistryMetric& m, const FigureScope& scope, const ReplicationOutput& run) {
  ReplicationFigure fig;
  CountedGaps pooled;
  for (const auto& [key, gaps] : run.observations.itl()) {
    if (!covers(scope, key.pool, key.instance) || !key.measured || !counts_fate(m, key.fate)) continue;
    for (const auto& [g, n] : gaps) pooled[g] += n;
  }
  std::int64_t n = 0, requests = 0;
  long double sum = 0;
  for (const auto& [g, c] : pooled) {
    n += c;
    sum += static_cast<long double>(g) * static_cast<long double>(c);
  }
  for (const auto& r : run.observations.records()) {
    if (!r.measured || !in_scope(r, scope)) continue;
    if (unfinished(r.fate)) ++fig.unfinished;
    else if (counts_fate(m, r.fate) && r.emissions() >= 2) ++requests;
  }
  fig.samples = n;
  if (n == 0) {
    fig.withheld = "no_samples";
    return fig;
  }
  if (m.estimator.statistic == "mean") {
    fig.value = static_cast<double>(sum / static_cast<long double>(n)) / 1e6;
    return fig;
  }
  const double p = *m.estimator.percentile;
  if (static_cast<double>(fig.unfinished) > (1.0 - p / 100.0) * static_cast<double>(requests + fig.unfinished)) {
    fig.withheld = "too_many_unfinished";
    return fig;
  }
  const double h = static_cast<double>(n - 1) * (p / 100.0);
  const auto lo = static_cast<std::int64_t>(std::floor(h));
  const std::int64_t hi = std::min(lo + 1, n - 1);
  const double a = static_cast<double>(kth(pooled, lo)) / 1e6, b = static_cast<double>(kth(pooled, hi)) / 1e6;
  // numpy's _lerp, as analysis::percentile interpolates over a list (exact at g = 1, monotone).
  const double g = h - static_cast<double>(lo);
  fig.value = g < 0.5 ? a + (b - a) * g : b - (b - a) * (1 - g);
  return fig;
}

}  // namespace

double measured_window(const ReplicationOutput& run) {
  std::optional<SimTime> start, end;
  for (const auto& r : run.observations.records()) {
    if (!r.measured || !r.sent) continue;
    if (!start || *r.sent < *start) start = r.sent;
    const SimTime e = left_at(r, run);
    if (!end || e > *end) end = e;
  }
  if (!start) return 0;
  return between(*start, *end);
}

double achieved_concurrency(const ReplicationOutput& run) {
  const double window = measured_window(run);
  if (window <= 0) return 0;
  std::int64_t busy_us = 0;
  for (const auto& r : run.observations.records()) {
    if (!r.measured || !r.sent) continue;
    busy_us += left_at(r, run).us - (*r.sent).us;
  }
  return static_cast<double>(busy_us) / 1e6 / window;
}

ReplicationFigure replication_figure(const std::string& id, const FigureScope& scope, const ReplicationOutput& run) {
  const schema::MetricRegistryMetric* m = find_metric(id);
  if (!m) throw std::invalid_argument("metric '" + id + "' is not in the metric registry (see: blis metrics)");
  return replication_figure(*m, scope, run);
}

ReplicationFigure replication_figure(const schema::MetricRegistryMetric& metric, const FigureScope& scope,
                                     const ReplicationOutput& run) {
  const schema::MetricRegistryMetric* m = &metric;
  const std::string& id = metric.id;
  if (std::find(m->scopes.begin(), m->scopes.end(), scope.level) == m->scopes.end()) {
    throw std::invalid_argument("metric '" + id + "' takes no " + scope.level + " scope");
  }
  auto counts = [&](Fate f) {
    const auto name = std::string(fate_name(f));
    return std::find(m->counts.fates.begin(), m->counts.fates.end(), name) != m->counts.fates.end();
  };
  ReplicationFigure fig;
  const std::string& stat = m->estimator.statistic;
  const std::string quantity = id.substr(0, id.find('.'));
  // An identifier names its statistic: "<quantity>.mean" or "<quantity>.p<percentile>" (DEV-8).
  const std::string suffix = id.find('.') == std::string::npos ? "" : id.substr(id.find('.') + 1);
  if (stat == "percentile") {
    const double p = m->estimator.percentile.value_or(-1);
    if (p != std::floor(p) || suffix != "p" + std::to_string(static_cast<long>(p))) {
      throw std::invalid_argument("metric '" + id + "': its identifier does not name its percentile " + std::to_string(p));
    }
  } else if (stat == "mean" && suffix != "mean") {
    throw std::invalid_argument("metric '" + id + "': a mean's identifier ends in .mean");
  }

  if (stat == "rate") {
    const double window = measured_window(run);
    double amount = 0;
    std::int64_t gpus = 0;
    for (const auto& in : run.instances) {
      if (covers(scope, in.pool, in.instance)) gpus += in.gpus;
    }
    for (const auto& r : run.observations.records()) {
      if (!r.measured || !in_scope(r, scope) || !counts(r.fate)) continue;
      if (m->counts.needs_token && r.output_tokens() == 0) continue;
      ++fig.samples;
      if (id == "throughput.requests_per_s") amount += 1;
      else if (id.starts_with("throughput.output_tokens")) amount += static_cast<double>(r.output_tokens());
      else if (id.starts_with("throughput.total_tokens")) {
        amount += static_cast<double>(r.output_tokens()) + (r.fate == Fate::kCompleted ? static_cast<double>(r.prompt_tokens) : 0.0);
      } else {
        throw std::invalid_argument("rate metric '" + id + "' is not computed by this build");
      }
    }
    if (window <= 0) {
      fig.withheld = "no_samples";
      return fig;
    }
    double rate = amount / window;
    if (id.ends_with("_per_accelerator")) {
      if (gpus == 0) throw std::invalid_argument("metric '" + id + "': the scope has no accelerator");
      rate /= static_cast<double>(gpus);
    }
    fig.value = rate;
    return fig;
  }
  if (stat == "ratio" && id == "prefix_cache.hit_ratio") {
    // The engines' own counters over the whole run (the registry says window: whole_run).
    std::int64_t hit = 0, all = 0;
    for (const auto& in : run.instances) {
      if (!covers(scope, in.pool, in.instance)) continue;
      hit += in.prefix_cache_hits;
      all += in.prefix_cache_queries;
    }
    fig.samples = all;
    if (all == 0) fig.withheld = "no_samples";
    else fig.value = static_cast<double>(hit) / static_cast<double>(all);
    return fig;
  }
  if (stat == "ratio") {
    std::int64_t hit = 0, all = 0;
    for (const auto& r : run.observations.records()) {
      if (!r.measured || !in_scope(r, scope)) continue;
      ++all;
      if (id == "requests.completed_ratio" && r.fate == Fate::kCompleted) ++hit;
    }
    if (id != "requests.completed_ratio") throw std::invalid_argument("ratio metric '" + id + "' is not computed by this build");
    fig.samples = all;
    if (all == 0) fig.withheld = "no_samples";
    else fig.value = static_cast<double>(hit) / static_cast<double>(all);
    return fig;
  }

  if (quantity == "itl") return itl_figure(*m, scope, run);

  std::vector<double> samples;
  std::int64_t requests = 0;
  for (const auto& r : run.observations.records()) {
    if (!r.measured || !in_scope(r, scope)) continue;
    if (unfinished(r.fate)) {
      ++fig.unfinished;
      continue;
    }
    if (!counts(r.fate)) continue;
    if (m->counts.needs_token && r.output_tokens() == 0) continue;
    const std::size_t before = samples.size();
    samples_of(quantity, r, samples);
    if (samples.size() > before) ++requests;
  }
  fig.samples = static_cast<std::int64_t>(samples.size());
  if (samples.empty()) {
    fig.withheld = "no_samples";
    return fig;
  }
  if (stat == "mean") {
    double sum = 0;
    for (double v : samples) sum += v;
    fig.value = sum / static_cast<double>(samples.size());
  } else if (stat == "percentile") {
    const double p = *m->estimator.percentile;
    // Room: the unfinished requests could all lie above the percentile only if they are at most 1 - p of all.
    const double all = static_cast<double>(requests + fig.unfinished);
    if (static_cast<double>(fig.unfinished) > (1.0 - p / 100.0) * all) {
      fig.withheld = "too_many_unfinished";
      return fig;
    }
    fig.value = analysis::percentile(samples, p);
  } else {
    throw std::invalid_argument("metric '" + id + "': statistic '" + stat + "' is not computed by this build");
  }
  return fig;
}

std::vector<double> replication_series(const std::string& id, const FigureScope& scope, const ReplicationOutput& run) {
  const schema::MetricRegistryMetric* m = find_metric(id);
  if (!m) throw std::invalid_argument("metric '" + id + "' is not in the metric registry (see: blis metrics)");
  const std::string quantity = id.substr(0, id.find('.'));
  if (m->estimator.statistic != "mean" || quantity == "itl") {
    throw std::invalid_argument("metric '" + id + "': batch means take a per-request mean latency, not a " +
                                (quantity == "itl" ? std::string("pooled inter-token gap") : m->estimator.statistic));
  }
  if (std::find(m->scopes.begin(), m->scopes.end(), scope.level) == m->scopes.end()) {
    throw std::invalid_argument("metric '" + id + "' takes no " + scope.level + " scope");
  }
  std::vector<std::pair<std::pair<SimTime, std::string>, std::vector<double>>> ended;
  for (const auto& r : run.observations.records()) {
    if (!r.measured || !in_scope(r, scope) || unfinished(r.fate) || !counts_fate(*m, r.fate)) continue;
    if (m->counts.needs_token && r.output_tokens() == 0) continue;
    std::vector<double> own;
    samples_of(quantity, r, own);
    if (!own.empty()) ended.push_back({{r.ended.value_or(run.end), r.id}, std::move(own)});
  }
  std::sort(ended.begin(), ended.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> out;
  for (const auto& e : ended) out.insert(out.end(), e.second.begin(), e.second.end());
  return out;
}

}  // namespace blis::sim
