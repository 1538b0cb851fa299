#include "score/score.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace blis::score {
namespace {

// The estimates every scored point names, in the same words apart from its numbers: the text report
// prints them once; the JSON records them on each point.
bool common_estimate(const std::string& e) {
  return e.starts_with("client:") || e.starts_with("warm-up:") || e.starts_with("engine settings") ||
         e.starts_with("measured statistic:");
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string interval(const std::optional<double>& lo, const std::optional<double>& hi) {
  if (!lo || !hi) return "";
  return " [" + fixed(*lo, 2) + ", " + fixed(*hi, 2) + "]";
}

}  // namespace

double ape(double simulated, double measured) {
  if (!(measured > 0)) throw std::invalid_argument("ape: the measured value " + std::to_string(measured) + " is not positive");
  return std::fabs(simulated - measured) / measured * 100.0;
}

double median(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("median: no values");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::optional<MedianInterval> median_interval(std::vector<double> v, double level) {
  if (!(level > 0.0 && level < 1.0)) throw std::invalid_argument("median_interval: level " + std::to_string(level) + " is not in (0, 1)");
  const std::size_t n = v.size();
  if (n == 0 || n > 16000) return std::nullopt;
  std::sort(v.begin(), v.end());
  // P(Bin(n, 1/2) <= j) for j = 0, 1, ...: c_j = C(n, j) / 2^n by c_{j+1} = c_j (n - j) / (j + 1). Only +, *,
  // / and an exact power of two: the same bits on every IEEE machine.
  long double c = std::ldexp(1.0L, -static_cast<int>(n));
  long double cdf = c;  // P(Bin <= k - 1) for the k being tried, starting at k = 1
  const long double alpha = 1.0L - static_cast<long double>(level);
  std::size_t k = 0;
  long double tail = 0;
  for (std::size_t j = 0; 2 * (j + 1) <= n; ++j) {
    if (2.0L * cdf > alpha) break;
    k = j + 1;
    tail = cdf;
    c = c * static_cast<long double>(n - j) / static_cast<long double>(j + 1);
    cdf += c;
  }
  if (k == 0) return std::nullopt;
  MedianInterval out;
  out.low = v[k - 1];
  out.high = v[n - k];
  out.confidence = static_cast<double>(1.0L - 2.0L * tail);
  return out;
}

std::vector<LaneFigures> lane_figures(const std::vector<PointRecord>& records) {
  std::map<Lane, std::pair<std::vector<double>, std::vector<double>>> by;
  for (const auto& r : records) {
    if (r.status != "scored" || !r.ttft_ape || !r.tpot_ape) continue;
    auto& [t, p] = by[r.lane];
    t.push_back(*r.ttft_ape);
    p.push_back(*r.tpot_ape);
  }
  std::vector<LaneFigures> out;
  for (const auto& [lane, apes] : by) {
    LaneFigures f;
    f.lane = lane;
    f.points = static_cast<std::int64_t>(apes.first.size());
    f.ttft_mdape = median(apes.first);
    f.tpot_mdape = median(apes.second);
    f.ttft_interval = median_interval(apes.first, 0.95);
    f.tpot_interval = median_interval(apes.second, 0.95);
    out.push_back(std::move(f));
  }
  return out;
}

Report score(const std::vector<Point>& points, const CatalogNames& catalog, const Runner& run, const Options& options,
             const std::function<void(std::int64_t, std::int64_t, const PointRecord&)>& progress) {
  Report rep;
  std::vector<const Point*> selected;
  if (options.backend && backend_of(*options.backend) == nullptr) {
    throw std::invalid_argument("score: backend '" + *options.backend + "' has no port in this build (vllm, sglang)");
  }
  for (const auto& p : points) {
    if (backend_of(p.backend) == nullptr) {
      rep.other_backends[p.backend] += 1;
      continue;
    }
    rep.engine_points[p.backend] += 1;
    if (options.backend && p.backend != *options.backend) continue;
    if (options.filter && p.id.find(*options.filter) == std::string::npos) continue;
    if (options.limit && static_cast<std::int64_t>(selected.size()) >= *options.limit) continue;
    selected.push_back(&p);
  }
  rep.selected = static_cast<std::int64_t>(selected.size());
  std::int64_t done = 0;
  for (const Point* pp : selected) {
    const Point& p = *pp;
    PointRecord r;
    r.id = p.id;
    r.line = p.line;
    r.measured_ttft_ms = p.ttft_ms;
    r.measured_tpot_ms = p.tpot_ms;
    const Grade g = grade(p);
    Conversion c = convert(p, catalog);
    r.not_scored = c.not_scored;
    if (g.not_scored) r.not_scored.push_back(*g.not_scored);
    r.estimates = c.estimates;
    r.lane = c.lane;
    r.lane.release = g.release;
    if (!r.not_scored.empty()) {
      r.status = "not_scored";
      r.grade = "G5";
      r.grade_detail = std::string(reason_name(r.not_scored.front().reason)) + ": " + r.not_scored.front().detail;
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      try {
        const Simulated s = run(c.scenario, "point " + p.id);
        r.simulated = s;
        if (s.completed < s.generated) {
          r.estimates.push_back("run: " + std::to_string(s.generated - s.completed) + " of " + std::to_string(s.generated) +
                                " simulated requests did not complete; the figures are over the completed ones");
        }
        r.ttft_ape = ape(s.ttft_ms, p.ttft_ms);
        r.tpot_ape = ape(s.tpot_ms, p.tpot_ms);
        r.status = "scored";
        r.grade = g.grade;
        r.grade_detail = g.detail;
      } catch (const std::exception& e) {
        r.status = "failed";
        r.error = e.what();
        while (!r.error.empty() && r.error.back() == '\n') r.error.pop_back();
      }
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (r.status == "failed") rep.by_grade["failed"] += 1;
    else rep.by_grade[r.grade] += 1;
    if (r.status == "not_scored") rep.g5_by_reason[std::string(reason_name(r.not_scored.front().reason))] += 1;
    rep.points.push_back(std::move(r));
    ++done;
    if (progress) progress(done, rep.selected, rep.points.back());
  }
  rep.lanes = lane_figures(rep.points);
  return rep;
}

std::string report_text(const Report& rep) {
  std::string s;
  std::int64_t in_file = 0;
  std::string by_engine, engines;
  for (const auto& [b, n] : rep.engine_points) {
    in_file += n;
    by_engine += std::string(by_engine.empty() ? "" : ", ") + b + " " + std::to_string(n);
  }
  for (const auto& b : kBackends) engines += std::string(engines.empty() ? "" : " and ") + b.display + " " + b.release;
  s += "blis score: " + std::to_string(in_file) + " points of ported engines in the file (" + by_engine + "), " +
       std::to_string(rep.selected) + " selected; simulated on " + engines + "\n";
  if (!rep.other_backends.empty()) {
    s += "not read here (no port of these backends in this build):";
    for (const auto& [b, n] : rep.other_backends) s += " " + b + " " + std::to_string(n);
    s += "\n";
  }
  // The estimates every scored point of an engine names, once per engine.
  for (const auto& b : kBackends) {
    for (const auto& r : rep.points) {
      if (r.status != "scored" || r.lane.engine != b.backend) continue;
      s += "\nevery scored " + std::string(b.display) + " point names these estimates (numbers as for its first point, " +
           r.id + "):\n";
      for (const auto& e : r.estimates) {
        if (common_estimate(e)) s += "  - " + e + "\n";
      }
      break;
    }
  }
  s += "\nscored points (milliseconds; simulated [replication interval] / measured, APE %):\n";
  for (const auto& r : rep.points) {
    if (r.status != "scored") continue;
    const Simulated& m = *r.simulated;
    s += r.id + "  " + r.grade + "  TTFT " + fixed(m.ttft_ms, 2) + interval(m.ttft_low_ms, m.ttft_high_ms) + " / " +
         fixed(r.measured_ttft_ms, 2) + " (" + fixed(*r.ttft_ape, 1) + "%)  TPOT " + fixed(m.tpot_ms, 3) +
         interval(m.tpot_low_ms, m.tpot_high_ms) + " / " + fixed(r.measured_tpot_ms, 3) + " (" + fixed(*r.tpot_ape, 1) +
         "%)  " + std::to_string(m.replications) + " replication(s)" +
         (m.ttft_low_ms ? "" : ", no interval") + "\n";
    s += "    " + r.grade_detail + "\n";
    for (const auto& e : r.estimates) {
      if (!common_estimate(e)) s += "    estimate: " + e + "\n";
    }
  }
  s += "\nlanes (engine release | chip | model | layout): points, median APE of TTFT and TPOT [order-statistic "
       "interval, its exact confidence; it covers which points were measured, not the runs' replication intervals, "
       "the measurements' noise or the coefficients' intervals]\n";
  const auto median_text = [](double m, const std::optional<MedianInterval>& i) {
    if (!i) return fixed(m, 1) + "% (no interval: fewer than 6 points)";
    return fixed(m, 1) + "% [" + fixed(i->low, 1) + ", " + fixed(i->high, 1) + "; " + fixed(i->confidence * 100.0, 1) + "%]";
  };
  for (const auto& l : rep.lanes) {
    s += "  " + l.lane.text() + ": " + std::to_string(l.points) + " point(s), TTFT " + median_text(l.ttft_mdape, l.ttft_interval) +
         ", TPOT " + median_text(l.tpot_mdape, l.tpot_interval) + "\n";
  }
  s += "\nnot scored (G5), with the reasons of design 11.4 (the first is the point's):\n";
  for (const auto& r : rep.points) {
    if (r.status != "not_scored") continue;
    s += r.id + "  G5  " + std::string(reason_name(r.not_scored.front().reason)) + ": " + r.not_scored.front().detail + "\n";
    for (std::size_t i = 1; i < r.not_scored.size(); ++i) {
      s += "    also " + std::string(reason_name(r.not_scored[i].reason)) + ": " + r.not_scored[i].detail + "\n";
    }
  }
  s += "\nfailed (the simulator refused or broke on the scenario):\n";
  for (const auto& r : rep.points) {
    if (r.status == "failed") s += r.id + "  " + r.error + "\n";
  }
  const auto count = [&](const std::string& k) { return rep.by_grade.contains(k) ? rep.by_grade.at(k) : 0; };
  const std::int64_t scored = count("G1") + count("G2") + count("G3") + count("G4");
  s += "\ntotals: " + std::to_string(rep.selected) + " selected points = " + std::to_string(scored) + " scored (G2 " +
       std::to_string(count("G2")) + ", G3 " + std::to_string(count("G3")) + ", G4 " + std::to_string(count("G4")) +
       ") + " + std::to_string(count("G5")) + " not scored (G5) + " + std::to_string(count("failed")) + " failed\n";
  if (!rep.g5_by_reason.empty()) {
    s += "G5 by reason:";
    for (const auto& [k, n] : rep.g5_by_reason) s += " " + k + " " + std::to_string(n);
    s += "\n";
  }
  return s;
}

std::string report_json(const Report& rep) {
  using J = nlohmann::ordered_json;
  // A lane's median interval, or why there is none.
  const auto median_json = [](const std::optional<MedianInterval>& i) -> J {
    if (!i) return J{{"withheld", "fewer than 6 points: no order-statistic interval reaches 95%"}};
    return J{{"low", i->low}, {"high", i->high}, {"confidence", i->confidence}};
  };
  J j;
  j["engines"] = J::array();
  for (const auto& b : kBackends) j["engines"].push_back({{"kind", b.backend}, {"release", b.release}});
  j["points_by_engine"] = J::object();
  for (const auto& [b, n] : rep.engine_points) j["points_by_engine"][b] = n;
  j["selected"] = rep.selected;
  j["other_backends"] = J::object();
  for (const auto& [b, n] : rep.other_backends) j["other_backends"][b] = n;
  j["points"] = J::array();
  for (const auto& r : rep.points) {
    J p;
    p["id"] = r.id;
    p["line"] = r.line;
    p["status"] = r.status;
    p["grade"] = r.grade.empty() ? J(nullptr) : J(r.grade);
    p["grade_detail"] = r.grade_detail;
    p["not_scored"] = J::array();
    for (const auto& n : r.not_scored) p["not_scored"].push_back({{"reason", reason_name(n.reason)}, {"detail", n.detail}});
    p["estimates"] = r.estimates;
    if (r.status == "failed") p["error"] = r.error;
    p["measured"] = {{"ttft_ms", r.measured_ttft_ms}, {"tpot_ms", r.measured_tpot_ms}};
    if (r.simulated) {
      const Simulated& m = *r.simulated;
      J sim = {{"ttft_ms", m.ttft_ms}, {"tpot_ms", m.tpot_ms}, {"replications", m.replications},
               {"generated", m.generated}, {"completed", m.completed}};
      if (m.ttft_low_ms) sim["ttft_interval_ms"] = {*m.ttft_low_ms, *m.ttft_high_ms};
      if (m.tpot_low_ms) sim["tpot_interval_ms"] = {*m.tpot_low_ms, *m.tpot_high_ms};
      sim["uncertainty"] = {{"random_input", m.random_input}, {"covers", m.covers}, {"leaves_out", m.leaves_out}};
      p["simulated"] = sim;
      p["ape_percent"] = {{"ttft", *r.ttft_ape}, {"tpot", *r.tpot_ape}};
      p["lane"] = {{"engine", r.lane.engine}, {"release", r.lane.release}, {"chip", r.lane.chip},
                   {"model", r.lane.model}, {"layout", r.lane.layout}};
    }
    if (r.status != "not_scored") p["seconds"] = r.seconds;
    j["points"].push_back(std::move(p));
  }
  j["lanes"] = J::array();
  for (const auto& l : rep.lanes) {
    j["lanes"].push_back({{"engine", l.lane.engine}, {"release", l.lane.release}, {"chip", l.lane.chip},
                          {"model", l.lane.model}, {"layout", l.lane.layout}, {"points", l.points},
                          {"ttft_median_ape_percent", l.ttft_mdape}, {"tpot_median_ape_percent", l.tpot_mdape},
                          {"ttft_median_ape_interval", median_json(l.ttft_interval)},
                          {"tpot_median_ape_interval", median_json(l.tpot_interval)},
                          {"uncertainty", {{"method", "order_statistics"},
                                           {"covers", {"point_sampling"}},
                                           {"leaves_out", {"replication_intervals", "measurement_noise",
                                                           "coefficient_intervals", "method_error"}}}}});
  }
  j["totals"] = J::object();
  for (const auto& [k, n] : rep.by_grade) j["totals"][k] = n;
  j["g5_by_reason"] = J::object();
  for (const auto& [k, n] : rep.g5_by_reason) j["g5_by_reason"][k] = n;
  return j.dump(2) + "\n";
}

}  // namespace blis::score
