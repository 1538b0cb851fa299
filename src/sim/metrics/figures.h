// One replication's value of a metric at a scope (design §8.7, DEV-8). The metric's definition comes from
// the registry: its counts (which fates give samples, whether a sample needs a token) and its estimator
// (mean, percentile, rate, ratio) are read from there, so a figure and its definition cannot drift apart.
// Only measured requests count (a client's warm-up requests are never measured). Requests unfinished at
// the horizon are excluded from latency samples and counted beside them; a percentile is withheld when
// more requests are unfinished than it leaves room for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schema/metric-registry.h"
#include "sim/run/replication.h"

namespace blis::sim {

struct FigureScope {
  std::string level = "cluster";  // cluster, pool or instance
  std::string pool;               // pool and instance scopes
  std::int64_t instance = -1;     // instance scope
};

struct ReplicationFigure {
  std::optional<double> value;     // absent when withheld
  std::string withheld;            // no_samples or too_many_unfinished
  std::int64_t samples = 0;        // samples the statistic was taken over
  std::int64_t unfinished = 0;     // measured requests of the scope unfinished at the horizon
};

// Throws std::invalid_argument for an identifier the registry lacks, or a scope the metric does not take.
ReplicationFigure replication_figure(const std::string& metric, const FigureScope& scope, const ReplicationOutput& run);
// The same for a metric given by its definition (a registry document under test); an identifier whose
// quantity or statistic this build does not compute is refused, naming it.
ReplicationFigure replication_figure(const schema::MetricRegistryMetric& metric, const FigureScope& scope,
                                     const ReplicationOutput& run);

// The per-request samples a mean latency metric averages at a scope (the samples replication_figure's mean
// is taken over), in the order the requests ended (ties by request id): the output series batch means split
// (§8.8). Refuses (std::invalid_argument, naming the metric) a metric whose statistic is not a per-request
// mean: percentiles, rates and ratios have no batch-means series here, and ITL's gaps are pooled, not kept
// in order.
std::vector<double> replication_series(const std::string& metric, const FigureScope& scope, const ReplicationOutput& run);

// The measured window of a replication, in seconds: from the first measured request sent to the last
// measured request ended (or the horizon, when some were unfinished there). 0 when none was sent.
double measured_window(const ReplicationOutput& run);
// The replication's achieved concurrency: the measured requests' summed time in the system (sent to fate, or
// to the end for one unfinished) over the measured window; 0 for an empty window. Little's law: the
// time-average number of requests sent and not yet ended.
double achieved_concurrency(const ReplicationOutput& run);

}  // namespace blis::sim
