#include "sim/run/compare.h"

#include <cmath>
#include <stdexcept>

#include "sim/metrics/figures.h"
#include "sim/metrics/registry.h"

namespace blis::sim {
namespace {

double mean_of(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// The replication values of one metric, or the first withholding reason.
std::optional<std::string> values_of(const std::string& metric, const std::vector<ReplicationOutput>& reps,
                                     const char* side, std::vector<double>& out) {
  for (std::size_t i = 0; i < reps.size(); ++i) {
    const ReplicationFigure f = replication_figure(metric, FigureScope{}, reps[i]);
    if (!f.value) {
      return std::string(side) + " replication " + std::to_string(i) + " withholds it (" + f.withheld + ")";
    }
    out.push_back(*f.value);
  }
  return std::nullopt;
}

}  // namespace

ComparisonReport compare_runs(const std::vector<ReplicationOutput>& baseline,
                              const std::vector<ReplicationOutput>& candidate, const std::vector<std::string>& metrics,
                              const CompareOptions& options) {
  if (baseline.size() != candidate.size()) {
    throw std::invalid_argument("replications: the baseline ran " + std::to_string(baseline.size()) +
                                " and the candidate " + std::to_string(candidate.size()) +
                                "; a paired comparison needs the same number");
  }
  if (baseline.size() < 2) {
    throw std::invalid_argument("replications: " + std::to_string(baseline.size()) +
                                " pair(s); a paired comparison needs at least 2 for an interval");
  }
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    if (baseline[i].seed != candidate[i].seed) {
      throw std::invalid_argument("replication " + std::to_string(i) + ": seeds " + std::to_string(baseline[i].seed) +
                                  " and " + std::to_string(candidate[i].seed) +
                                  " differ, so the pair does not share common random numbers (give both "
                                  "scenarios the same seed)");
    }
  }
  if (!(options.family_confidence > 0.0 && options.family_confidence < 1.0)) {
    throw std::invalid_argument("confidence: " + std::to_string(options.family_confidence) + " is outside (0, 1)");
  }
  for (const auto& [metric, margin] : options.margins) {
    if (!std::isfinite(margin) || margin < 0.0) {
      throw std::invalid_argument("margin of " + metric + ": " + std::to_string(margin) + " is not a finite value >= 0");
    }
  }

  ComparisonReport report;
  report.pairs = static_cast<std::int64_t>(baseline.size());
  report.family_confidence = options.family_confidence;
  report.adjustment = options.adjustment;
  std::vector<std::vector<double>> base_values, cand_values;
  std::vector<analysis::PairedSample> samples;
  std::vector<std::string> ids, units;
  for (const auto& id : metrics) {
    const schema::MetricRegistryMetric* m = find_metric(id);
    if (!m) throw std::invalid_argument("metric '" + id + "' is not in the metric registry (see: blis metrics)");
    if (!m->better) {
      report.left_out.push_back({id, "the registry gives it no direction (better: lower or higher)"});
      continue;
    }
    std::vector<double> b, c;
    if (auto why = values_of(id, baseline, "baseline", b)) {
      report.left_out.push_back({id, *why});
      continue;
    }
    if (auto why = values_of(id, candidate, "candidate", c)) {
      report.left_out.push_back({id, *why});
      continue;
    }
    base_values.push_back(std::move(b));
    cand_values.push_back(std::move(c));
    ids.push_back(id);
    units.push_back(m->unit);
  }
  for (const auto& [metric, margin] : options.margins) {
    bool found = false;
    for (const auto& id : ids) found = found || id == metric;
    if (!found) throw std::invalid_argument("margin of " + metric + ": the metric is not among those compared");
  }
  for (std::size_t k = 0; k < ids.size(); ++k) {
    analysis::PairedSample s;
    s.baseline = base_values[k];
    s.candidate = cand_values[k];
    const auto mg = options.margins.find(ids[k]);
    s.margin = mg == options.margins.end() ? 0.0 : mg->second;
    s.direction = *find_metric(ids[k])->better == "higher" ? analysis::Direction::higher_is_better
                                                            : analysis::Direction::lower_is_better;
    samples.push_back(s);
  }
  if (samples.empty()) return report;
  const auto decided = analysis::compare_paired_family(samples, options.family_confidence, options.adjustment);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    report.compared.push_back({ids[k], units[k], mean_of(base_values[k]), mean_of(cand_values[k]), decided[k]});
  }
  return report;
}

}  // namespace blis::sim
