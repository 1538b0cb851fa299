// `blis score`: each vLLM or SGLang point converted (convert.h), graded (grade.h), run on the engine kind its
// backend names, and compared with its measurement; the per-point records, the per-lane median absolute
// percentage errors and the totals. Points of backends this build has no port of are not read here; they are
// counted by backend. Every point of a ported backend selected is
// in the report exactly once: scored (G2-G4), not scored (G5 with its §11.4 reasons), or failed (the
// simulator refused or broke on the scenario: a defect or a refusal to fix, listed with its message).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "score/convert.h"
#include "score/grade.h"
#include "score/points.h"

namespace blis::score {

// What a run gives for one point; latencies in milliseconds.
struct Simulated {
  double ttft_ms = 0, tpot_ms = 0;
  std::optional<double> ttft_low_ms, ttft_high_ms, tpot_low_ms, tpot_high_ms;  // the replication interval
  std::int64_t replications = 0;
  std::int64_t generated = 0, completed = 0;
  // Which uncertainty the replication interval covers (DEV-11), as the run's Result states it.
  bool random_input = false;
  std::vector<std::string> covers, leaves_out;
};

// Runs a scenario's text (name: for messages); throws on a refusal or a failed run.
using Runner = std::function<Simulated(const std::string& scenario, const std::string& name)>;

struct PointRecord {
  std::string id;
  int line = 0;
  std::string status;  // scored, not_scored or failed
  std::string grade;   // G2-G4, G5 (not scored), or empty (failed)
  std::string grade_detail;
  std::vector<NotScored> not_scored;  // G5: every reason found, the first is the point's
  std::vector<std::string> estimates;
  std::string error;                  // failed: the simulator's message
  Lane lane;
  double measured_ttft_ms = 0, measured_tpot_ms = 0;
  std::optional<Simulated> simulated;
  std::optional<double> ttft_ape, tpot_ape;  // percent
  double seconds = 0;                        // the run's wall time
};

// A distribution-free interval for a median from the order statistics of n values: [x_(k), x_(n+1-k)] with
// the largest k whose exact coverage under the binomial law, 1 - 2 P(Bin(n, 1/2) <= k - 1), is at least the
// level asked for. It covers which points were measured (the lane's points as a sample of the lane), not the
// simulated figures' own replication intervals, the measurements' noise or the coefficients' intervals.
struct MedianInterval {
  double low = 0, high = 0;
  double confidence = 0;  // the exact coverage (at least the level asked for)
};

struct LaneFigures {
  Lane lane;
  std::int64_t points = 0;
  double ttft_mdape = 0, tpot_mdape = 0;  // median APE, percent
  // Their intervals at 95%; absent with fewer than 6 points (no order-statistic interval reaches 95%).
  std::optional<MedianInterval> ttft_interval, tpot_interval;
};

struct Report {
  std::vector<PointRecord> points;
  std::vector<LaneFigures> lanes;
  std::map<std::string, std::int64_t> engine_points;  // points of ported backends in the file, by backend
  std::int64_t selected = 0;        // after --backend, --filter and --limit
  std::map<std::string, std::int64_t> other_backends;  // points not read here, by backend
  std::map<std::string, std::int64_t> by_grade;        // over the selected points; "failed" for failures
  std::map<std::string, std::int64_t> g5_by_reason;    // by each G5 point's first reason
};

struct Options {
  std::optional<std::int64_t> limit;    // the first N points (after the backend and id filters)
  std::optional<std::string> filter;    // a substring of the id
  std::optional<std::string> backend;   // only this ported backend's points (vllm, sglang)
};

// The absolute percentage error of a simulated figure against its measurement, in percent.
double ape(double simulated, double measured);
// The median (the mean of the middle two of an even count); refuses an empty list.
double median(std::vector<double> values);
// The order-statistic interval of the median at `level` (in (0, 1)); nothing when n is too small for any
// interval to reach it, or above 16000 values (the exact binomial sum is computed in long double).
std::optional<MedianInterval> median_interval(std::vector<double> values, double level);
// The lanes of the scored records, sorted by lane, each with its median APEs and point count.
std::vector<LaneFigures> lane_figures(const std::vector<PointRecord>& records);

// Scores the points; `progress` (if given) is called after each point with (done, of, record).
Report score(const std::vector<Point>& points, const CatalogNames& catalog, const Runner& run, const Options& options,
             const std::function<void(std::int64_t, std::int64_t, const PointRecord&)>& progress = {});

std::string report_text(const Report& report);
std::string report_json(const Report& report);

}  // namespace blis::score
