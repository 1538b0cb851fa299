// Two configurations compared on common random numbers (design §8.8, DEV-11): the baseline and the
// candidate each ran the same number of replications from the same scenario seed, so replication r of
// both drew the same workload and the same router tie-breaks wherever the configurations agree (§8.4).
// For each cluster-scope metric both frames report, the replication figures pair up, and
// analysis::compare_paired_family decides each metric better, worse or not distinguished, with the chance
// of any false claim across all of them held at 1 - family_confidence.
//
// A metric is left out of the family (and listed with its reason) when the registry gives it no direction
// (`better`) or when any replication of either side withholds it; it is never silently dropped.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/analysis/comparison.h"
#include "sim/run/replication.h"

namespace blis::sim {

struct CompareOptions {
  double family_confidence = 0.95;
  analysis::Adjustment adjustment = analysis::Adjustment::holm;
  std::map<std::string, double> margins;  // by metric id, in the metric's unit; 0 where absent
};

struct MetricComparison {
  std::string metric;
  std::string unit;
  double baseline_mean = 0.0, candidate_mean = 0.0;
  analysis::PairedComparison comparison;
};

struct MetricLeftOut {
  std::string metric;
  std::string reason;
};

struct ComparisonReport {
  std::int64_t pairs = 0;
  double family_confidence = 0.0;
  analysis::Adjustment adjustment = analysis::Adjustment::holm;
  std::vector<MetricComparison> compared;  // in `metrics` order
  std::vector<MetricLeftOut> left_out;     // in `metrics` order
};

// Compares the runs' replications pairwise on each metric id (cluster scope). Refuses
// (std::invalid_argument): runs with different replication counts or seeds (not common random numbers),
// fewer than two pairs, a metric the registry lacks, a margin for a metric not compared, a negative or
// non-finite margin, and a family confidence outside (0, 1).
ComparisonReport compare_runs(const std::vector<ReplicationOutput>& baseline,
                              const std::vector<ReplicationOutput>& candidate, const std::vector<std::string>& metrics,
                              const CompareOptions& options);

}  // namespace blis::sim
