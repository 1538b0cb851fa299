#include "cli/compare_cmd.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/data_cmd.h"
#include "sim/metrics/registry.h"
#include "sim/run/compare.h"
#include "sim/run/run.h"

namespace blis::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: blis compare [data flags] [--replications N] [--threads N] [--confidence C] [--adjust holm|bonferroni]\n"
    "                    [--metric ID]... [--margin ID=VALUE]... [--json] BASELINE CANDIDATE\n"
    "  BASELINE, CANDIDATE  scenario files (a Deployment and a Scenario each) with the same seed: replication r of\n"
    "                       both runs on the same random numbers, and the comparison is made on the pairs\n"
    "  --replications N     pairs to run (at least 2); default: the larger of the two frames' replications.min\n"
    "  --threads N          run replications on N threads (changes no figure)\n"
    "  --confidence C       the family confidence (default 0.95): the chance of any false 'better' or 'worse'\n"
    "                       across all the metrics compared is at most 1 - C\n"
    "  --adjust A           holm (default) or bonferroni\n"
    "  --metric ID          compare this cluster-scope metric (repeatable); default: every metric both frames\n"
    "                       request at cluster scope (every metric in the registry where a frame lists none)\n"
    "  --margin ID=VALUE    a difference smaller than VALUE (the metric's unit) does not count (default 0)\n"
    "  --json               the report as JSON\n";

constexpr const char* kCovers =
    "the spread between replications of the pairs' differences: the workload's and the router's random draws "
    "(common random numbers make the pairs share them); not the cost model's coefficient uncertainty, which is "
    "the same on both sides";

// The cluster-scope metric ids a frame requests, in its order (every registry metric when it lists none).
std::vector<std::string> cluster_metrics(const schema::Scenario& sc) {
  std::vector<std::string> out;
  if (!sc.frame.metrics) {
    for (const auto& m : sim::metric_registry().metrics) out.push_back(m.id);
    return out;
  }
  for (const auto& f : *sc.frame.metrics) {
    if (f.scope.level == "cluster" && !f.aggregate) out.push_back(f.metric);
  }
  return out;
}

std::string text_report(const sim::ComparisonReport& r, const schema::Scenario& base, const schema::Scenario& cand,
                        const std::vector<std::string>& paths) {
  std::string out = "baseline " + paths[0] + " (scenario " + base.name + "), candidate " + paths[1] + " (scenario " +
                    cand.name + "): " + std::to_string(r.pairs) + " pairs on common random numbers (seed " +
                    std::to_string(base.seed) + ")\n";
  char line[512];
  std::snprintf(line, sizeof line,
                "family confidence %.4g (%s): the chance of any false 'better' or 'worse' below is at most %.4g\n",
                r.family_confidence, r.adjustment == sim::analysis::Adjustment::holm ? "holm" : "bonferroni",
                1.0 - r.family_confidence);
  out += line;
  std::snprintf(line, sizeof line, "%-46s %-14s %13s %13s %13s %29s %8s  %s\n", "metric", "unit", "baseline", "candidate",
                "difference", "interval", "conf.", "outcome");
  out += line;
  for (const auto& c : r.compared) {
    const auto& d = c.comparison.difference;
    std::string outcome = sim::analysis::to_string(c.comparison.outcome);
    if (c.comparison.equivalent) outcome += " (equivalent within the margin " + std::to_string(c.comparison.margin) + ")";
    char interval[64];
    std::snprintf(interval, sizeof interval, "[%.6g, %.6g]", d.lower(), d.upper());
    std::snprintf(line, sizeof line, "%-46s %-14s %13.6g %13.6g %13.6g %29s %8.4g  %s\n", c.metric.c_str(), c.unit.c_str(),
                  c.baseline_mean, c.candidate_mean, d.mean, interval, d.confidence, outcome.c_str());
    out += line;
  }
  for (const auto& l : r.left_out) out += "not compared: " + l.metric + ": " + l.reason + "\n";
  out += std::string("the intervals cover ") + kCovers + "\n";
  return out;
}

nlohmann::json json_report(const sim::ComparisonReport& r, const schema::Scenario& base, const schema::Scenario& cand,
                           const std::vector<std::string>& paths) {
  nlohmann::json j;
  j["baseline"] = {{"file", paths[0]}, {"scenario", base.name}, {"seed", base.seed}};
  j["candidate"] = {{"file", paths[1]}, {"scenario", cand.name}, {"seed", cand.seed}};
  j["pairs"] = r.pairs;
  j["family_confidence"] = r.family_confidence;
  j["adjustment"] = r.adjustment == sim::analysis::Adjustment::holm ? "holm" : "bonferroni";
  j["covers"] = kCovers;
  j["compared"] = nlohmann::json::array();
  for (const auto& c : r.compared) {
    const auto& d = c.comparison.difference;
    j["compared"].push_back({{"metric", c.metric},
                             {"unit", c.unit},
                             {"baseline_mean", c.baseline_mean},
                             {"candidate_mean", c.candidate_mean},
                             {"difference", {{"mean", d.mean}, {"low", d.lower()}, {"high", d.upper()}, {"confidence", d.confidence}}},
                             {"margin", c.comparison.margin},
                             {"p_value", c.comparison.p_value},
                             {"outcome", sim::analysis::to_string(c.comparison.outcome)},
                             {"equivalent", c.comparison.equivalent}});
  }
  j["left_out"] = nlohmann::json::array();
  for (const auto& l : r.left_out) j["left_out"].push_back({{"metric", l.metric}, {"reason", l.reason}});
  return j;
}

}  // namespace

int compare_main(std::span<const std::string_view> args, const Runtime& runtime) {
  data::LoadOptions flags;
  std::vector<std::string_view> rest;
  if (!data_flags(args, flags, rest)) return 2;
  std::optional<std::int64_t> replications;
  int threads = 1;
  sim::CompareOptions options;
  std::vector<std::string> metrics;
  std::vector<std::string> paths;
  bool json = false;
  auto refuse = [](const std::string& why) {
    std::fprintf(stderr, "blis compare: %s\n%s", why.c_str(), kUsage.data());
    return 2;
  };
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string_view a = rest[i];
    const bool has_value = i + 1 < rest.size();
    const std::string_view v = has_value ? rest[i + 1] : std::string_view{};
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage.data(), stdout);
      return 0;
    } else if (a == "--replications" || a == "--threads") {
      const auto n = has_value ? positive(v) : std::nullopt;
      if (!n) return refuse(positive_refusal(a, has_value, v));
      if (a == "--replications") replications = *n;
      else threads = static_cast<int>(*n);
      ++i;
    } else if (a == "--confidence") {
      const auto c = has_value ? finite_number(v) : std::nullopt;
      if (!c || !(*c > 0.0 && *c < 1.0)) return refuse("--confidence needs a number in (0, 1), not '" + std::string(v) + "'");
      options.family_confidence = *c;
      ++i;
    } else if (a == "--adjust") {
      if (v == "holm") options.adjustment = sim::analysis::Adjustment::holm;
      else if (v == "bonferroni") options.adjustment = sim::analysis::Adjustment::bonferroni;
      else return refuse("--adjust needs holm or bonferroni, not '" + std::string(v) + "'");
      ++i;
    } else if (a == "--metric") {
      if (!has_value) return refuse("--metric needs a metric id");
      if (!sim::find_metric(v)) return refuse("--metric: '" + std::string(v) + "' is not in the metric registry (see: blis metrics)");
      metrics.emplace_back(v);
      ++i;
    } else if (a == "--margin") {
      const auto eq = v.find('=');
      const auto m = eq == std::string_view::npos ? std::nullopt : finite_number(v.substr(eq + 1));
      if (!has_value || !m || *m < 0.0) return refuse("--margin needs ID=VALUE with a value >= 0, not '" + std::string(v) + "'");
      if (!sim::find_metric(v.substr(0, eq))) {
        return refuse("--margin: '" + std::string(v.substr(0, eq)) + "' is not in the metric registry (see: blis metrics)");
      }
      options.margins[std::string(v.substr(0, eq))] = *m;
      ++i;
    } else if (a == "--json") {
      json = true;
    } else if (a.starts_with("-")) {
      return refuse("unknown option '" + std::string(a) + "'");
    } else {
      paths.emplace_back(a);
    }
  }
  if (paths.size() != 2) return refuse("needs two scenario files, a baseline and a candidate (" + std::to_string(paths.size()) + " given)");
  try {
    const sim::ScenarioFile base = sim::read_scenario_file(paths[0]);
    const sim::ScenarioFile cand = sim::read_scenario_file(paths[1]);
    if (base.scenario.seed != cand.scenario.seed) {
      throw std::invalid_argument("seed: the baseline's is " + std::to_string(base.scenario.seed) + " and the candidate's " +
                                  std::to_string(cand.scenario.seed) +
                                  "; a paired comparison runs both on the same seeds (common random numbers)");
    }
    if (metrics.empty()) {
      const std::vector<std::string> theirs = cluster_metrics(cand.scenario);
      const std::set<std::string> in_candidate(theirs.begin(), theirs.end());
      for (const auto& id : cluster_metrics(base.scenario)) {
        if (in_candidate.contains(id)) metrics.push_back(id);
      }
      if (metrics.empty()) throw std::invalid_argument("frame.metrics: the two frames request no cluster-scope metric in common");
    }
    std::int64_t n = 0;
    for (const auto* sc : {&base.scenario, &cand.scenario}) {
      if (sc->frame.replications) n = std::max<std::int64_t>(n, sc->frame.replications->min.value());
    }
    if (n == 0) n = 5;  // neither frame states replications: the least replications.min a frame may state
    if (replications) n = *replications;  // as given: one pair is refused by compare_runs, never raised
    sim::RunOptions run_options;
    run_options.replications = n;
    run_options.threads = threads;
    const sim::RunOutput b = run_file(base, runtime, flags, run_options);
    const sim::RunOutput c = run_file(cand, runtime, flags, run_options);
    const sim::ComparisonReport report = sim::compare_runs(b.replications, c.replications, metrics, options);
    if (json) {
      std::fputs((json_report(report, base.scenario, cand.scenario, paths).dump(2) + "\n").c_str(), stdout);
    } else {
      std::fputs(text_report(report, base.scenario, cand.scenario, paths).c_str(), stdout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blis compare: %s\n", e.what());
    return 1;
  }
}

}  // namespace blis::cli
