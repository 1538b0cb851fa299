#include "sim/run/run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>

#include "contracts/sha256.h"
#include "sim/analysis/batch_means.h"
#include "sim/analysis/interval.h"
#include "sim/metrics/figures.h"
#include "sim/metrics/registry.h"
#include "sim/replication_runner.h"
#include "sim/rng/substreams.h"
#include "sim/run/steady_state.h"
#include "sim/trace/resample.h"
#include "sim/workload/convert/convert.h"

namespace blis::sim {
namespace {

void put_le(std::string& s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// An aggregate over scopes (design §8.7): the metric at each pool of the cluster, or at each instance of the
// scope, combined by max, min or mean within each replication; the interval is then taken across
// replications of the combined value, as for any figure.
struct Aggregate {
  std::string over;      // pools or instances
  std::string function;  // max, min or mean
};

struct Request {
  std::string metric;
  FigureScope scope;
  std::optional<Aggregate> aggregate;
};

std::vector<Request> requested_figures(const schema::Scenario& sc) {
  std::vector<Request> out;
  if (!sc.frame.metrics) {
    for (const auto& m : metric_registry().metrics) out.push_back(Request{m.id, FigureScope{}, std::nullopt});
    return out;
  }
  for (std::size_t i = 0; i < sc.frame.metrics->size(); ++i) {
    const auto& f = (*sc.frame.metrics)[i];
    const std::string field = "frame.metrics[" + std::to_string(i) + "]";
    if (!find_metric(f.metric)) throw std::invalid_argument(field + ".metric: '" + f.metric + "' is not in the metric registry (see: blis metrics)");
    FigureScope s;
    s.level = f.scope.level;
    if (s.level != "cluster") {
      if (!f.scope.pool) throw std::invalid_argument(field + ".scope.pool: required by a " + s.level + " scope");
      s.pool = *f.scope.pool;
    }
    if (s.level == "instance") {
      if (!f.scope.instance) throw std::invalid_argument(field + ".scope.instance: required by an instance scope");
      s.instance = *f.scope.instance;
    }
    std::optional<Aggregate> aggregate;
    if (f.aggregate) {
      aggregate = Aggregate{f.aggregate->over, f.aggregate->function};
      // The scopes aggregated over lie inside the figure's scope: pools inside the cluster, instances inside
      // the cluster or a pool.
      const std::string member = aggregate->over == "pools" ? "pool" : "instance";
      if (aggregate->over == "pools" && s.level != "cluster") {
        throw std::invalid_argument(field + ".aggregate.over: pools: an aggregate over pools ranges over the cluster's "
                                    "pools, so its scope is cluster, not " + s.level);
      }
      if (aggregate->over == "instances" && s.level == "instance") {
        throw std::invalid_argument(field + ".aggregate.over: instances: an instance scope holds one instance; "
                                    "aggregate over the instances of a pool or of the cluster");
      }
      const auto& scopes = find_metric(f.metric)->scopes;
      if (std::find(scopes.begin(), scopes.end(), member) == scopes.end()) {
        throw std::invalid_argument(field + ".aggregate.over: " + aggregate->over + ": metric '" + f.metric +
                                    "' takes no " + member + " scope (see: blis metrics)");
      }
    }
    out.push_back(Request{f.metric, s, aggregate});
  }
  return out;
}

struct Estimate {
  std::optional<double> value;
  std::string withheld;
  std::optional<schema::ResultInterval> interval;
  std::int64_t unfinished = 0;
};

// One replication's value of a requested figure: the metric at its scope, or its aggregate over the pools
// or instances inside that scope (withheld, with the first member's reason, when any member's is withheld).
ReplicationFigure replication_value(const Request& r, const ReplicationOutput& rep) {
  if (!r.aggregate) return replication_figure(r.metric, r.scope, rep);
  std::vector<FigureScope> members;
  for (const auto& in : rep.instances) {  // in the cluster's build order: pools, then each pool's instances
    if (r.scope.level == "pool" && in.pool != r.scope.pool) continue;
    FigureScope m;
    m.level = r.aggregate->over == "pools" ? "pool" : "instance";
    m.pool = in.pool;
    if (m.level == "instance") m.instance = in.instance;
    if (m.level == "pool" &&
        std::any_of(members.begin(), members.end(), [&](const FigureScope& x) { return x.pool == in.pool; })) {
      continue;
    }
    members.push_back(m);
  }
  ReplicationFigure out;
  if (members.empty()) {
    out.withheld = "no_samples";
    return out;
  }
  std::vector<double> values;
  for (const auto& m : members) {
    const ReplicationFigure f = replication_figure(r.metric, m, rep);
    out.unfinished += f.unfinished;
    out.samples += f.samples;
    if (!f.value) {
      if (out.withheld.empty()) out.withheld = f.withheld;
      continue;
    }
    values.push_back(*f.value);
  }
  if (!out.withheld.empty()) return out;
  if (r.aggregate->function == "max") {
    out.value = *std::max_element(values.begin(), values.end());
  } else if (r.aggregate->function == "min") {
    out.value = *std::min_element(values.begin(), values.end());
  } else {
    double sum = 0;
    for (double v : values) sum += v;  // in member order: the same bits every run
    out.value = sum / static_cast<double>(values.size());
  }
  return out;
}

Estimate estimate(const Request& r, const std::vector<ReplicationOutput>& reps, double confidence) {
  Estimate e;
  std::vector<double> values;
  for (const auto& rep : reps) {
    const ReplicationFigure f = replication_value(r, rep);
    e.unfinished += f.unfinished;
    if (!f.value) {
      if (e.withheld.empty()) e.withheld = f.withheld;
      continue;
    }
    values.push_back(*f.value);
  }
  if (!e.withheld.empty()) return e;
  if (values.size() < 2) {
    e.value = values.front();
    return e;
  }
  const analysis::Interval in = analysis::replication_interval(values, confidence);
  e.value = in.mean;
  schema::ResultInterval out;
  out.low = in.lower();
  out.high = in.upper();
  out.confidence = units::Ratio{confidence};
  out.method = "replications";
  out.samples = units::Count{static_cast<std::int64_t>(values.size())};
  e.interval = out;
  return e;
}

// A listed mean from batch means over the one replication's window (after its warm-up): withheld as
// incomplete, with a warning saying why, when the window is too short for the batches or the batch means are
// correlated or hold an outlier (the batches are then too short to be treated as independent).
Estimate batch_estimate(const Request& r, const ReplicationOutput& rep, std::int64_t batches, double confidence,
                        std::vector<schema::ResultWarning>& warnings) {
  Estimate e;
  e.unfinished = replication_figure(r.metric, r.scope, rep).unfinished;
  const std::vector<double> series = replication_series(r.metric, r.scope, rep);
  auto withhold = [&](const std::string& why) {
    e.withheld = "incomplete";
    schema::ResultWarning w;
    w.code = "batch-means";
    w.field = "frame.batch_means";
    w.message = r.metric + " at " + r.scope.level + " scope: " + why;
    warnings.push_back(std::move(w));
    return e;
  };
  if (series.size() < 4 * static_cast<std::size_t>(batches)) {
    return withhold(std::to_string(series.size()) + " samples after the warm-up, fewer than the " +
                    std::to_string(4 * batches) + " that " + std::to_string(batches) +
                    " batches and their quarter batches need: run longer");
  }
  const analysis::BatchMeans b = analysis::batch_means(series, static_cast<std::size_t>(batches), confidence);
  if (b.correlated) {
    return withhold("the batch means are correlated (lag-1 " + std::to_string(b.lag1_autocorrelation) + ", quarter batches " +
                    std::to_string(b.quarter_lag1_autocorrelation) + "): batches of " + std::to_string(b.batch_size) +
                    " are too short to be independent; run longer or use replications");
  }
  if (b.outlier) {
    return withhold("one batch mean is an outlier (Grubbs G " + std::to_string(b.outlier_statistic) + " above " +
                    std::to_string(b.outlier_threshold) + "): the window's mean rests on one event; run longer");
  }
  e.value = b.interval.mean;
  schema::ResultInterval out;
  out.low = b.interval.lower();
  out.high = b.interval.upper();
  out.confidence = units::Ratio{confidence};
  out.method = "batch_means";
  out.samples = units::Count{static_cast<std::int64_t>(b.means.size())};
  e.interval = out;
  return e;
}

bool narrow_enough(const std::vector<Request>& figures, const std::vector<ReplicationOutput>& reps, double confidence,
                   double fraction) {
  for (const auto& r : figures) {
    const Estimate e = estimate(r, reps, confidence);
    if (!e.value || !e.interval) continue;  // withheld figures do not hold the run open
    const double half = (e.interval->high - e.interval->low) / 2;
    if (half > fraction * std::fabs(*e.value)) return false;
  }
  return true;
}

}  // namespace

std::uint64_t replication_seed(std::uint64_t scenario_seed, std::int64_t index) {
  std::string bytes = "replication";
  bytes.push_back('\0');
  put_le(bytes, scenario_seed);
  put_le(bytes, static_cast<std::uint64_t>(index));
  contracts::Sha256 h;
  h.update(bytes);
  const auto d = h.digest();
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(d[static_cast<std::size_t>(i)]) << (8 * i);
  return v & ~(std::uint64_t{1} << 63);
}

RunOutput run_scenario(const ScenarioFile& file, const Wiring& wiring, const RunOptions& options, const RunContext& context) {
  const schema::Scenario& sc = file.scenario;
  // Batch means (§8.8): one long steady-state run after its warm-up, each listed per-request mean split into
  // k batches; the frame gives them instead of replications.
  const bool batch = sc.frame.batch_means.has_value();
  if (batch) {
    if (sc.frame.warmup != "mser-5") {
      throw std::invalid_argument("frame.batch_means: batch means split one steady-state run after its warm-up; give "
                                  "frame.warmup: mser-5, not '" + sc.frame.warmup + "'");
    }
    if (sc.frame.replications) {
      throw std::invalid_argument("frame.replications: give replications or batch_means, not both: batch means run "
                                  "one replication");
    }
    if (options.replications) {
      throw std::invalid_argument("--replications: " + std::to_string(*options.replications) +
                                  ": batch means run one replication (frame.batch_means)");
    }
    if (!sc.frame.metrics) {
      throw std::invalid_argument("frame.metrics: required with frame.batch_means: batch means give per-request mean "
                                  "latencies only, so the figures are listed");
    }
    if (sc.workload.replay) {
      throw std::invalid_argument(sc.workload.replay->resample
                                      ? "frame.batch_means: a resampled replay draws a new trace for each replication; "
                                        "judge it by replications, not batch means"
                                      : "frame.batch_means: a replay has no random input, so its batches would describe "
                                        "one fixed trace; replay without batch means");
    }
  }
  if (sc.frame.rng && *sc.frame.rng != rng::Substreams::generator()) {
    throw std::invalid_argument("frame.rng: '" + *sc.frame.rng + "' is not this build's generator, " +
                                std::string(rng::Substreams::generator()));
  }
  // Achieved concurrency is judged against a target only closed loops state: the sum of their concurrency.
  std::optional<double> target_concurrency;
  if (sc.frame.conditions && sc.frame.conditions->concurrency_tolerance) {
    const std::string field = "frame.conditions.concurrency_tolerance";
    if (!sc.workload.clients) {
      throw std::invalid_argument(field + ": " +
                                  (sc.workload.replay ? "a replayed trace" : sc.workload.convert ? "a converted workload" : "a catalog workload") +
                                  " states no target concurrency; achieved concurrency is judged against closed-loop clients' "
                                  "arrival.concurrency");
    }
    double target = 0;
    for (std::size_t i = 0; i < sc.workload.clients->size(); ++i) {
      const schema::ScenarioClient& c = (*sc.workload.clients)[i];
      if (c.arrival.process != "closed_loop" || !c.arrival.concurrency) {
        throw std::invalid_argument(field + ": workload.clients[" + std::to_string(i) + "] ('" + c.name + "') is an open " +
                                    c.arrival.process + " process, which states no target concurrency; achieved concurrency is "
                                    "judged against closed-loop clients' arrival.concurrency");
      }
      target += static_cast<double>(c.arrival.concurrency->value());
    }
    target_concurrency = target;
  }
  // Replay of a recorded trace: no random input, one run, unless it is resampled (a trace drawn from it for
  // each replication, resample.h) (§8.5).
  std::optional<Trace> replay;
  std::optional<TraceResampler> resampler;
  if (sc.workload.replay) {
    const auto& rp = *sc.workload.replay;
    const bool resample = rp.resample.has_value();
    const std::string path = (std::filesystem::path(file.directory) / rp.trace).string();
    replay = read_trace(path);
    if (rp.sha256 && *rp.sha256 != replay->sha256) {
      throw std::invalid_argument("workload.replay.sha256: " + path + " has SHA-256 " + replay->sha256 + ", not " + *rp.sha256);
    }
    if (!resample && options.replications && *options.replications != 1) {
      throw std::invalid_argument("--replications: a replay without resampling has no random input; every replication would be the same run");
    }
    if (resample && options.trace) {
      throw std::invalid_argument("--trace-out: a resampled replay draws a new trace for each replication; export is "
                                  "not done for it (replay the trace itself, or export from a generated workload)");
    }
    if (resample) resampler.emplace(*replay, *rp.resample);  // refuses a trace its unit cannot be drawn from
  }
  // A replay that runs the recorded trace as it is: one run, no random input.
  const bool fixed_replay = replay.has_value() && !resampler;
  if (sc.workload.convert && (options.trace)) {
    throw std::invalid_argument("--trace-out: a converted workload is already a trace of its client's requests; export is not done for it yet");
  }
  const bool random_input = !fixed_replay;
  if (random_input && !batch && !sc.frame.replications && !options.replications) {
    throw std::invalid_argument("frame.replications: required: the workload draws random inputs, so one run gives no interval (§8.8)");
  }
  if (options.replications && *options.replications < 1) {
    throw std::invalid_argument("--replications: " + std::to_string(*options.replications) + " is below 1");
  }
  const std::vector<Request> figures = requested_figures(sc);
  if (batch) {
    for (std::size_t i = 0; i < figures.size(); ++i) {
      const std::string field = "frame.metrics[" + std::to_string(i) + "]";
      const std::string& id = figures[i].metric;
      if (find_metric(id)->estimator.statistic != "mean" || id.starts_with("itl.")) {
        throw std::invalid_argument(field + ".metric: '" + id + "': batch means give a per-request mean latency (a "
                                    ".mean other than itl.mean), never a percentile, rate or ratio (§8.8)");
      }
      if (figures[i].aggregate) {
        throw std::invalid_argument(field + ".aggregate: an aggregate over scopes is not taken with batch means");
      }
    }
  }
  const double confidence = sc.frame.replications && sc.frame.replications->confidence ? sc.frame.replications->confidence->value() : 0.95;
  const auto seed = static_cast<std::uint64_t>(sc.seed);
  if (options.trace && !(replay || options.replications == 1)) {
    throw std::invalid_argument("--trace-out: a trace records one run; give --replications 1");
  }
  TraceWriter writer;
  const bool steady = sc.frame.warmup == "mser-5";
  Wiring wired = wiring;
  wired.steady_state = steady;
  // A benchmark client's workload file, converted anew for each replication from that replication's seed.
  std::vector<std::string> conversion_warnings;
  if (sc.workload.convert) {
    conversion_warnings = convert_workload(*sc.workload.convert, file.directory, replication_seed(seed, 0)).warnings;
  }
  auto one = [&](std::int64_t index) {
    // The replication's own trace: a conversion of the client's file, or a draw from the recorded trace.
    std::optional<Trace> drawn;
    if (sc.workload.convert) drawn = convert_workload(*sc.workload.convert, file.directory, replication_seed(seed, index)).trace;
    if (resampler) drawn = resampler->draw(replication_seed(seed, index));
    const Trace* source = drawn ? &*drawn : replay ? &*replay : nullptr;
    ReplicationOutput rep = run_replication(file, wired, replication_seed(seed, index),
                                            options.trace && !replay ? &writer : nullptr, source);
    if (steady) {
      const SteadyStateJudgement j = judge_steady_state(rep);
      rep.state = analysis::to_string(j.classification.run_class);
      for (const auto& reason : j.classification.reasons) {
        rep.reasons.push_back(reason.series + (reason.series.empty() ? "" : ": ") + analysis::to_string(reason.finding) +
                              " (" + reason.detail + ")");
      }
      if (j.classification.saturation_throughput) rep.saturation_rps = j.classification.saturation_throughput->mean;
      rep.warmup_end = j.warmup_end;
    }
    return rep;
  };

  RunOutput out;
  std::string stopped_by;
  const std::int64_t most = fixed_replay || batch ? 1 : options.replications ? *options.replications : sc.frame.replications->max.value();
  std::int64_t ended = 0;
  const std::function<void()> finished = [&] {
    if (options.progress) options.progress(++ended, most);
  };
  if (fixed_replay || batch) {
    out.replications = run_replications(one, 0, 1, 1, finished);
    stopped_by = "single_run";
  } else if (options.replications) {
    out.replications = run_replications(one, 0, *options.replications, options.threads, finished);
    stopped_by = "max_reached";
  } else {
    const auto& rule = *sc.frame.replications;
    const std::int64_t min = rule.min.value(), max = rule.max.value();
    if (max < min) throw std::invalid_argument("frame.replications.max: " + std::to_string(max) + " is below min " + std::to_string(min));
    out.replications = run_replications(one, 0, min, options.threads, finished);
    stopped_by = "width_reached";
    // One more at a time, judged in index order; with threads, a batch is run ahead and judged in order, and
    // replications past the stopping point are discarded, so the result never depends on the thread count.
    while (!narrow_enough(figures, out.replications, confidence, rule.relative_half_width.value())) {
      const auto have = static_cast<std::int64_t>(out.replications.size());
      if (have >= max) {
        stopped_by = "max_reached";
        break;
      }
      const std::int64_t batch = std::min<std::int64_t>(options.threads, max - have);
      auto more = run_replications(one, have, batch, options.threads, finished);
      for (auto& m : more) {
        out.replications.push_back(std::move(m));
        if (narrow_enough(figures, out.replications, confidence, rule.relative_half_width.value())) break;
      }
    }
  }

  schema::Result& r = out.result;
  r.scenario.name = sc.name;
  r.scenario.deployment = file.deployment.name;
  r.scenario.sha256 = file.sha256;
  r.scenario.seed = sc.seed;
  r.build = context.build;
  r.data = context.data;
  r.inputs = context.inputs;

  // Settings: every engine argument as stated, and the simulator's own rules.
  for (const auto& pool : file.deployment.pools) {
    if (pool.engine.args && pool.engine.args->is_map()) {
      for (const auto& e : pool.engine.args->entries) {
        schema::ResultSetting s;
        s.component = "engine";
        s.pool = pool.name;
        s.name = e.first.scalar;
        s.value = e.second;
        s.source = "stated";
        r.settings.push_back(std::move(s));
      }
    }
  }
  {
    schema::ResultSetting s;
    s.component = "simulator";
    s.name = "scrape_interval_us";
    doc::Node v;
    v.kind = doc::Kind::Scalar;
    const bool from_router = !out.replications.empty() && out.replications.front().scrape_interval_from_router;
    v.scalar = std::to_string(from_router ? out.replications.front().scrape_interval.us : wiring.scrape_interval.us);
    s.value = v;
    const auto& flags = file.deployment.router.flags;
    const bool stated = flags && flags->count("refresh-metrics-interval") > 0;
    s.source = !from_router ? "simulator_rule" : stated ? "stated" : "router_default";
    s.detail = from_router ? "how often the router reads each engine's published metrics: llm-d's --refresh-metrics-interval "
                             "(router.flags, else its default)"
                           : "how often the router reads each engine's published metrics";
    r.settings.push_back(std::move(s));
  }

  // Placement (placement.h): the same in every replication, which builds the same cluster; recorded when the
  // cluster has more than one node (on one node every instance is on node 0).
  if (sc.cluster.nodes.value() > 1 && !out.replications.empty()) {
    r.placement.emplace();
    for (const auto& in : out.replications.front().instances) {
      schema::ResultPlacement p;
      p.pool = in.pool;
      p.instance = in.instance;
      p.node = in.node;
      p.first_accelerator = in.first_accelerator;
      p.accelerators = units::Count{in.gpus};
      r.placement->push_back(std::move(p));
    }
  }

  // Fates, summed; the generator's own count must equal their sum (DEV-9).
  std::map<std::string, std::int64_t> dropped;
  std::int64_t generated = 0, completed = 0, timed_out = 0, in_flight = 0, queued = 0, not_started = 0, fated = 0;
  for (const auto& rep : out.replications) {
    generated += rep.generated;
    for (const auto& rec : rep.observations.records()) {
      ++fated;
      switch (rec.fate) {
        case Fate::kCompleted: ++completed; break;
        case Fate::kDropped: ++dropped[std::string(rec.reason)]; break;
        case Fate::kTimedOut: ++timed_out; break;
        case Fate::kInFlightAtHorizon: ++in_flight; break;
        case Fate::kQueuedAtHorizon: ++queued; break;
        case Fate::kNotStarted: ++not_started; break;
        case Fate::kNone: throw SimulationError("request '" + rec.id + "' ended the run with no fate (DEV-9)");
      }
    }
  }
  if (fated != generated) {
    throw SimulationError("the generator created " + std::to_string(generated) + " requests but " + std::to_string(fated) +
                          " have a fate (DEV-9)");
  }
  r.fates.generated = units::Count{generated};
  r.fates.completed = units::Count{completed};
  for (const auto& [reason, n] : dropped) {
    schema::ResultDropped d;
    d.reason = reason;
    d.count = units::Count{n};
    r.fates.dropped.push_back(std::move(d));
  }
  r.fates.timed_out = units::Count{timed_out};
  r.fates.in_flight_at_horizon = units::Count{in_flight};
  r.fates.queued_at_horizon = units::Count{queued};
  r.fates.not_started = units::Count{not_started};

  // The frame as run.
  r.frame.run = steady ? "steady_state" : "terminating";
  r.frame.generator = replay ? "replay" : sc.workload.convert ? "convert" : "clients";
  for (const auto& text : conversion_warnings) {
    schema::ResultWarning w;
    w.code = "conversion-approximation";
    w.field = "workload.convert";
    w.message = text;
    r.warnings.push_back(std::move(w));
  }
  if (!out.replications.empty()) {
    for (const auto& text : out.replications.front().router_warnings) {
      schema::ResultWarning w;
      w.code = "router-configuration";
      w.field = "router";
      w.message = text;
      r.warnings.push_back(std::move(w));
    }
  }
  r.frame.warmup = sc.frame.warmup;
  bool client_warmup = false;
  for (const auto& c : sc.workload.clients.value_or(std::vector<schema::ScenarioClient>{})) {
    client_warmup = client_warmup || c.warmup_requests.has_value();
  }
  if (replay) {
    for (const auto& row : replay->rows) client_warmup = client_warmup || !row.measured;
  }
  r.frame.initial_state = client_warmup ? "client_warmup" : "empty";
  r.frame.stop_requests = sc.frame.stop.requests;
  r.frame.stop_horizon = sc.frame.stop.horizon;
  r.frame.rng = std::string(rng::Substreams::generator());
  r.frame.metric_registry = metric_registry().version;
  r.frame.replications.count = units::Count{static_cast<std::int64_t>(out.replications.size())};
  for (const auto& rep : out.replications) r.frame.replications.seeds.push_back(static_cast<std::int64_t>(rep.seed));
  r.frame.replications.stopped_by = stopped_by;
  bool met = true;
  if (sc.frame.conditions && sc.frame.conditions->max_unfinished) {
    const double share = generated == 0 ? 0.0 : static_cast<double>(in_flight + queued) / static_cast<double>(generated);
    met = share <= sc.frame.conditions->max_unfinished->value();
  }
  if (target_concurrency) {
    // Every replication's achieved concurrency (the measured requests' time in the system over the measured
    // window) within the tolerance of the target; each one outside is named in a warning.
    const double tolerance = sc.frame.conditions->concurrency_tolerance->value();
    for (std::size_t i = 0; i < out.replications.size(); ++i) {
      const double achieved = achieved_concurrency(out.replications[i]);
      if (std::abs(achieved - *target_concurrency) <= tolerance * *target_concurrency) continue;
      met = false;
      schema::ResultWarning w;
      w.code = "concurrency-not-achieved";
      w.field = "frame.conditions.concurrency_tolerance";
      char text[256];
      std::snprintf(text, sizeof text,
                    "replication %zu: achieved concurrency %.4g against the closed loops' %.4g, outside the tolerance %.4g; "
                    "no figure is reported (§8.6)",
                    i, achieved, *target_concurrency, tolerance);
      w.message = text;
      r.warnings.push_back(std::move(w));
    }
  }
  r.frame.conditions_met = met;
  // The run's class: any overloaded replication makes the run overloaded; else any incomplete one, incomplete.
  std::string state = steady ? "settled" : "terminating";
  if (steady) {
    for (const auto& rep : out.replications) {
      if (rep.state == "overloaded") state = "overloaded";
      else if (rep.state == "incomplete" && state != "overloaded") state = "incomplete";
    }
    r.classification.detector = std::string(metric_registry().detector.name);
    double window = 0;
    for (const auto& rep : out.replications) window += seconds_of(SimTime{rep.end.us - rep.warmup_end.us});
    if (window > 0) r.classification.window = units::Seconds{window / static_cast<double>(out.replications.size())};
    for (std::size_t i = 0; i < out.replications.size(); ++i) {
      for (const auto& reason : out.replications[i].reasons) {
        schema::ResultWarning w;
        w.code = "detector-" + out.replications[i].state;
        w.message = "replication " + std::to_string(i) + ": " + reason;
        r.warnings.push_back(std::move(w));
      }
    }
  }
  r.classification.state = state;
  r.validity_domain.inside = false;
  r.validity_domain.outside.push_back(
      "no held-out end-to-end measurement has been scored against this build (the scoring harness, §11.7, is not built)");

  for (const auto& req : figures) {
    const schema::MetricRegistryMetric& m = *find_metric(req.metric);
    schema::ResultFigure f;
    f.metric = req.metric;
    f.scope.level = req.scope.level;
    if (req.scope.level != "cluster") f.scope.pool = req.scope.pool;
    if (req.scope.level == "instance") f.scope.instance = req.scope.instance;
    if (req.aggregate) {
      f.aggregate.emplace();
      f.aggregate->over = req.aggregate->over;
      f.aggregate->function = req.aggregate->function;
    }
    f.unit = m.unit;
    f.uncertainty.random_input = random_input;
    if (random_input) f.uncertainty.covers = {"workload_draws"};
    f.uncertainty.leaves_out = {"coefficient_intervals", "method_error", "measurement_noise"};
    if (!random_input) f.uncertainty.leaves_out.push_back("workload_draws");
    const Estimate e = batch ? batch_estimate(req, out.replications.front(), sc.frame.batch_means->batches.value(),
                                              confidence, r.warnings)
                             : estimate(req, out.replications, confidence);
    if (!met) {
      f.withheld = "conditions_failed";
    } else if (state == "incomplete") {
      f.withheld = "incomplete";
    } else if (state == "overloaded" &&
               !(req.metric == "throughput.requests_per_s" && req.scope.level == "cluster" && !req.aggregate)) {
      // An overloaded run's figures describe a transient (§8.8); only saturation throughput is reported.
      f.withheld = "overloaded";
    } else if (state == "overloaded") {
      std::vector<double> sat;
      for (const auto& rep : out.replications) {
        if (rep.saturation_rps) sat.push_back(*rep.saturation_rps);
      }
      if (sat.size() != out.replications.size()) {
        f.withheld = "overloaded";  // some replication's departures still trend: no saturation throughput
      } else {
        double sum = 0;
        for (double v : sat) sum += v;
        f.value = sum / static_cast<double>(sat.size());
      }
    } else if (!e.value) {
      f.withheld = e.withheld;
    } else {
      f.value = *e.value;
      f.interval = e.interval;
    }
    if (m.counts.unfinished == "excluded") {
      f.unfinished.emplace();
      f.unfinished->treatment = "excluded";
      f.unfinished->count = units::Count{e.unfinished};
    }
    r.metrics.push_back(std::move(f));
  }

  if (fixed_replay && sc.frame.replications) {
    schema::ResultWarning w;
    w.code = "replications-unused";
    w.field = "frame.replications";
    w.message = "a replay without resampling has no random input: it ran once, and its figures have no interval";
    r.warnings.push_back(std::move(w));
  }
  if (options.trace && !replay) {
    schema::TraceHeader h;
    h.format_version = kTraceFormatVersion;
    h.producer = "simulator";
    h.writer.program = "blis";
    h.writer.version = context.build.version;
    h.writer.commit = context.build.commit;
    const auto& engine = file.deployment.pools.front().engine;
    h.engine.kind = engine.kind;
    h.engine.version = engine.version;
    h.engine.commit = std::string(40, '0');  // the run records no upstream commit for its engine yet
    h.scenario = file.sha256;
    h.seed = sc.seed;
    h.generator.name = std::string(rng::Substreams::generator_name());
    h.generator.version = rng::Substreams::generator_version();
    h.data.emplace();
    h.data->catalog = context.data.catalog.combined_hash;
    h.data->registry = context.data.registry.combined_hash;
    h.time_unit = "microseconds";
    h.records = {"arrivals"};
    out.trace = writer.text(h);
  }

  PricingTally pricing;
  for (const auto& rep : out.replications) pricing.merge(rep.pricing);
  r.pricing.least_trusted = pricing.least_trusted_rank == 0 ? "assumed" : std::string(engine::method_name(
      static_cast<engine::Method>(pricing.least_trusted_rank)));
  out.entries_used = pricing.entries;
  r.pricing.extrapolated = units::Count{pricing.extrapolated};
  r.pricing.unidentified = units::Count{pricing.unidentified};
  if (pricing.least_trusted_rank == 0) {
    schema::ResultWarning w;
    w.code = "prices-without-coefficients";
    w.message = "no step price used a registry coefficient (the environment priced from fixed values), so pricing "
                "trust is stated as assumed";
    r.warnings.push_back(std::move(w));
  }
  return out;
}

}  // namespace blis::sim
