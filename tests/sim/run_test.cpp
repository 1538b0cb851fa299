// Whole runs on the conformance doubles: conservation of requests (DEV-9) in every byte-gate scenario,
// every fate reached, common random numbers across a server setting (DEV-6), the progress watchdog (SIM-7),
// thread-count invariance, and refusal pairs of the frame and the workload (SIM-9).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <unistd.h>

#include "doubles.h"
#include "sim/analysis/batch_means.h"
#include "sim/metrics/figures.h"
#include "sim/run/placement.h"
#include "sim/run/run.h"

namespace blis::sim {
namespace {

const std::string kGolden = BLIS_GOLDEN_DIR;

using conformance::Doubles;

ScenarioFile golden(const std::string& name) { return read_scenario_file(kGolden + "/scenarios/" + name + ".yaml"); }

std::vector<std::string> golden_names() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kGolden + "/scenarios")) {
    if (e.path().extension() == ".yaml") out.push_back(e.path().stem().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

RunContext context() {
  RunContext c;
  c.build.kind = "unreleased";
  c.build.version = "test";
  c.build.commit = std::string(40, '0');
  return c;
}

// DEV-9: in every byte-gate scenario, the generator's own count equals the sum of the fates written, and
// across them every fate occurs.
TEST(Conservation, ArrivalsEqualFatesInEveryGoldenScenarioAndEveryFateOccurs) {
  Doubles d;
  std::set<Fate> seen;
  const auto names = golden_names();
  ASSERT_GE(names.size(), 3u);
  for (const auto& name : names) {
    const ScenarioFile f = golden(name);
    RunOptions o;
    o.replications = 2;
    const RunOutput run = run_scenario(f, d.wiring(), o, context());
    for (const ReplicationOutput& out : run.replications) {
      std::int64_t fated = 0;
      for (const auto& r : out.observations.records()) {
        EXPECT_NE(r.fate, Fate::kNone) << name << " " << r.id;
        seen.insert(r.fate);
        ++fated;
      }
      EXPECT_EQ(out.generated, fated) << name;
      EXPECT_GT(out.generated, 0) << name;
    }
  }
  for (Fate f : {Fate::kCompleted, Fate::kDropped, Fate::kTimedOut, Fate::kInFlightAtHorizon, Fate::kQueuedAtHorizon,
                 Fate::kNotStarted}) {
    EXPECT_TRUE(seen.contains(f)) << "no golden scenario reaches the fate " << fate_name(f);
  }
}

TEST(Conservation, TheSmallCacheScenarioPreemptsAndDropsForTheEnginesReason) {
  Doubles d;
  const ReplicationOutput out = run_replication(golden("preemption-timeouts"), d.wiring(), 1);
  std::int64_t preemptions = 0;
  std::set<std::string> reasons;
  for (const auto& r : out.observations.records()) {
    preemptions += r.preemptions;
    if (r.fate == Fate::kDropped) reasons.insert(std::string(r.reason));
  }
  EXPECT_GT(preemptions, 0);
  EXPECT_EQ(reasons, std::set<std::string>{"prompt-too-long"});
}

// DEV-6: changing a server setting under a closed-loop session workload leaves every request's prompt and
// output lengths the same: the draws are keyed by client, purpose and request, not by what happened. (The
// sessions scenario has no timeout or drop, so every response is as long as its sampled length.)
TEST(CommonRandomNumbers, AServerSettingLeavesEveryRequestsLengthsUnchanged) {
  Doubles d;
  ScenarioFile a = golden("sessions");
  ScenarioFile b = a;
  auto& args = *b.deployment.pools[0].engine.args;
  bool changed = false;
  for (auto& e : args.entries) {
    if (e.first.scalar == "max-num-seqs") {
      e.second.scalar = "2";
      changed = true;
    }
  }
  ASSERT_TRUE(changed);
  const ReplicationOutput ra = run_replication(a, d.wiring(), 5), rb = run_replication(b, d.wiring(), 5);
  // The session workload's prompts accumulate earlier responses, so equal prompts show equal responses too.
  std::int64_t compared = 0, differing_timing = 0;
  for (const auto& r : ra.observations.records()) {
    const std::string& id = r.id;
    const FinishedRecord* it = rb.observations.find(id);
    if (it == nullptr) continue;
    ++compared;
    EXPECT_EQ(r.prompt_tokens, it->prompt_tokens) << id;
    if (r.fate == Fate::kCompleted && it->fate == Fate::kCompleted && r.reason == "stop" && it->reason == "stop") {
      EXPECT_EQ(r.output_tokens(), it->output_tokens()) << id;
    }
    if (r.ended != it->ended) ++differing_timing;
  }
  EXPECT_GT(compared, 20);
  EXPECT_GT(differing_timing, 0);  // the setting did change the run
}

TEST(Progress, AnEngineThatHoldsWorkItNeverRunsStopsTheRun) {
  Doubles d;
  ScenarioFile f = golden("two-replicas-poisson");
  f.deployment.pools[0].engine.kind = "reference-stalls";
  f.deployment.pools[0].engine.args.reset();
  try {
    run_replication(f, d.wiring(), 1);
    FAIL() << "the stalled run returned";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("stopped making progress"), std::string::npos) << e.what();
  }
}

TEST(Progress, TheSameScenarioOnTheReferenceEngineEnds) {
  Doubles d;
  ScenarioFile f = golden("two-replicas-poisson");
  f.deployment.pools[0].engine.args.reset();
  EXPECT_NO_THROW(run_replication(f, d.wiring(), 1));
}

TEST(Defects, AnEngineReportingAFinishTwiceStopsTheRun) {
  Doubles d;
  ScenarioFile f = golden("two-replicas-poisson");
  f.deployment.pools[0].engine.kind = "reference-finishes-twice";
  EXPECT_THROW(run_replication(f, d.wiring(), 1), std::exception);
}

TEST(Determinism, ThreadCountAndVisitOrderChangeNoByte) {
  Doubles d;
  const ScenarioFile f = golden("same-instant-constant");
  RunOptions one, two;
  two.threads = 2;
  const std::string a = schema::to_json(run_scenario(f, d.wiring(), one, context()).result).dump();
  EXPECT_EQ(a, schema::to_json(run_scenario(f, d.wiring(), two, context()).result).dump());
  EXPECT_EQ(a, schema::to_json(run_scenario(f, d.wiring(VisitOrder::kDescending), one, context()).result).dump());
  EXPECT_EQ(a, schema::to_json(run_scenario(f, d.wiring(VisitOrder::kStrided), one, context()).result).dump());
}

// DEV-10: a steady-state frame is judged by the detector; an arrival rate beyond what the engine can serve is
// overloaded, and its latency figures are withheld as a transient's (§8.8), while the run at the golden
// rate settles and reports them.
TEST(SteadyState, AnOverloadedRunWithholdsItsLatencies) {
  Doubles d;
  ScenarioFile f = golden("steady-state");
  (*f.scenario.workload.clients)[0].arrival.rate_per_s = 400.0;
  f.scenario.frame.stop.horizon = units::Seconds{60};
  RunOptions o;
  o.replications = 2;
  const schema::Result r = run_scenario(f, d.wiring(), o, context()).result;
  EXPECT_EQ(r.frame.run, "steady_state");
  EXPECT_EQ(r.classification.state, "overloaded");
  for (const auto& fig : r.metrics) {
    if (fig.metric != "throughput.requests_per_s") {
      EXPECT_EQ(fig.withheld.value_or(""), "overloaded") << fig.metric;
    }
  }
}

TEST(SteadyState, TheGoldenRateSettles) {
  Doubles d;
  RunOptions o;
  o.replications = 2;
  const schema::Result r = run_scenario(golden("steady-state"), d.wiring(), o, context()).result;
  EXPECT_EQ(r.classification.state, "settled");
  for (const auto& fig : r.metrics) EXPECT_TRUE(fig.value.has_value()) << fig.metric;
}

// The steady-state golden as a batch-means frame: one run, 20 batches, the listed per-request means.
ScenarioFile batch_means_frame() {
  ScenarioFile f = golden("steady-state");
  f.scenario.frame.replications.reset();
  f.scenario.frame.batch_means.emplace();
  f.scenario.frame.batch_means->batches = units::Count{20};
  f.scenario.frame.metrics = std::vector<schema::ScenarioFigureRequest>(2);
  (*f.scenario.frame.metrics)[0].metric = "ttft.mean";
  (*f.scenario.frame.metrics)[0].scope.level = "cluster";
  (*f.scenario.frame.metrics)[1].metric = "e2e.mean";
  (*f.scenario.frame.metrics)[1].scope.level = "cluster";
  return f;
}

// Batch means (§8.8): the figure is the t interval of the 20 batch means of the one replication's output
// series after its warm-up, worked here from that replication's series with the analysis library.
TEST(BatchMeans, AFrameOfBatchMeansReportsEachMeanFromOneRun) {
  Doubles d;
  const RunOutput run = run_scenario(batch_means_frame(), d.wiring(), RunOptions{}, context());
  const schema::Result& r = run.result;
  ASSERT_EQ(run.replications.size(), 1u);
  EXPECT_EQ(r.frame.replications.count.value(), 1);
  EXPECT_EQ(r.classification.state, "settled");
  ASSERT_EQ(r.metrics.size(), 2u);
  for (const auto& fig : r.metrics) {
    SCOPED_TRACE(fig.metric);
    ASSERT_TRUE(fig.value.has_value()) << fig.withheld.value_or("");
    const std::vector<double> series = replication_series(fig.metric, FigureScope{}, run.replications.front());
    const analysis::BatchMeans b = analysis::batch_means(series, 20, 0.95);
    EXPECT_EQ(*fig.value, b.interval.mean);
    ASSERT_TRUE(fig.interval.has_value());
    EXPECT_EQ(fig.interval->method, "batch_means");
    EXPECT_EQ(fig.interval->samples.value(), 20);
    EXPECT_EQ(fig.interval->low, b.interval.lower());
    EXPECT_EQ(fig.interval->high, b.interval.upper());
    EXPECT_TRUE(fig.uncertainty.random_input);
  }
}

// A window too short for the batches withholds the figure (incomplete) and says why (2 s: 66 samples after the
// warm-up for 20 batches, which need 80).
TEST(BatchMeans, AWindowTooShortForItsBatchesIsWithheldWithTheReason) {
  Doubles d;
  ScenarioFile f = batch_means_frame();
  f.scenario.frame.stop.horizon = units::Seconds{2};
  const schema::Result r = run_scenario(f, d.wiring(), RunOptions{}, context()).result;
  bool warned = false;
  for (const auto& w : r.warnings) {
    warned = warned || (w.code == "batch-means" &&
                        w.message.find("ttft.mean at cluster scope: 66 samples after the warm-up, fewer than the 80 "
                                       "that 20 batches and their quarter batches need") != std::string::npos);
  }
  for (const auto& fig : r.metrics) {
    EXPECT_FALSE(fig.value.has_value()) << fig.metric;
    EXPECT_EQ(fig.withheld, "incomplete") << fig.metric;
  }
  EXPECT_TRUE(warned);
}

TEST(RefusalPairs, BatchMeansNeedASteadyStateRunOfListedMeans) {
  Doubles d;
  struct Case {
    std::string message;
    std::function<void(ScenarioFile&, RunOptions&)> refuse, accept;
  };
  const std::vector<Case> cases = {
      {"frame.batch_means: batch means split one steady-state run after its warm-up; give frame.warmup: mser-5, not 'none'",
       [](ScenarioFile& f, RunOptions&) { f.scenario.frame.warmup = "none"; }, [](ScenarioFile&, RunOptions&) {}},
      {"frame.replications: give replications or batch_means, not both: batch means run one replication",
       [](ScenarioFile& f, RunOptions&) { f.scenario.frame.replications = golden("steady-state").scenario.frame.replications; },
       [](ScenarioFile&, RunOptions&) {}},
      {"--replications: 2: batch means run one replication (frame.batch_means)",
       [](ScenarioFile&, RunOptions& o) { o.replications = 2; }, [](ScenarioFile&, RunOptions&) {}},
      {"frame.metrics: required with frame.batch_means: batch means give per-request mean latencies only, so the "
       "figures are listed",
       [](ScenarioFile& f, RunOptions&) { f.scenario.frame.metrics.reset(); }, [](ScenarioFile&, RunOptions&) {}},
      {"frame.metrics[1].metric: 'ttft.p99': batch means give a per-request mean latency (a .mean other than "
       "itl.mean), never a percentile, rate or ratio (§8.8)",
       [](ScenarioFile& f, RunOptions&) { (*f.scenario.frame.metrics)[1].metric = "ttft.p99"; },
       [](ScenarioFile& f, RunOptions&) { (*f.scenario.frame.metrics)[1].metric = "tpot.mean"; }},
      {"frame.metrics[1].metric: 'itl.mean': batch means give a per-request mean latency (a .mean other than "
       "itl.mean), never a percentile, rate or ratio (§8.8)",
       [](ScenarioFile& f, RunOptions&) { (*f.scenario.frame.metrics)[1].metric = "itl.mean"; },
       [](ScenarioFile& f, RunOptions&) { (*f.scenario.frame.metrics)[1].metric = "tpot.mean"; }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    ScenarioFile f = batch_means_frame();
    f.scenario.frame.stop.horizon = units::Seconds{20};
    RunOptions o;
    c.refuse(f, o);
    try {
      run_scenario(f, d.wiring(), o, context());
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), c.message);
    }
    ScenarioFile g = batch_means_frame();
    g.scenario.frame.stop.horizon = units::Seconds{20};
    RunOptions p;
    c.accept(g, p);
    EXPECT_NO_THROW(run_scenario(g, d.wiring(), p, context()));
  }
}

// SIM-9: each refusal beside the closest input that is accepted.
// A figure request, as frame.metrics lists it.
schema::ScenarioFigureRequest figure(const std::string& metric, const std::string& level, const std::string& pool = "",
                                     std::optional<std::int64_t> instance = std::nullopt, const std::string& over = "",
                                     const std::string& function = "") {
  schema::ScenarioFigureRequest f;
  f.metric = metric;
  f.scope.level = level;
  if (!pool.empty()) f.scope.pool = pool;
  f.scope.instance = instance;
  if (!over.empty()) {
    f.aggregate.emplace();
    f.aggregate->over = over;
    f.aggregate->function = function;
  }
  return f;
}

// Aggregates over scopes (design §8.7): within a replication, the metric at each instance (or pool) inside the
// figure's scope, combined by max, min or mean; worked from the same run's per-instance figures. The sessions
// scenario serves from two instances of one pool.
TEST(Aggregates, MaxMinAndMeanOverInstancesAndPools) {
  Doubles d;
  ScenarioFile f = golden("sessions");
  f.scenario.frame.metrics = std::vector<schema::ScenarioFigureRequest>{
      figure("ttft.mean", "instance", "serve", 0), figure("ttft.mean", "instance", "serve", 1),
      figure("ttft.mean", "pool", "serve"), figure("ttft.mean", "cluster", "", std::nullopt, "instances", "max"),
      figure("ttft.mean", "cluster", "", std::nullopt, "instances", "min"),
      figure("ttft.mean", "pool", "serve", std::nullopt, "instances", "mean"),
      figure("ttft.mean", "cluster", "", std::nullopt, "pools", "max")};
  RunOptions o;
  o.replications = 1;  // one replication: each figure is that replication's value
  const schema::Result r = run_scenario(f, d.wiring(), o, context()).result;
  ASSERT_EQ(r.metrics.size(), 7u);
  for (const auto& m : r.metrics) ASSERT_TRUE(m.value.has_value()) << m.metric << " withheld: " << m.withheld.value_or("");
  const double i0 = *r.metrics[0].value, i1 = *r.metrics[1].value, pool = *r.metrics[2].value;
  EXPECT_NE(i0, i1);  // the instances differ, so max, min and mean are three values
  EXPECT_EQ(*r.metrics[3].value, std::max(i0, i1));
  EXPECT_EQ(*r.metrics[4].value, std::min(i0, i1));
  EXPECT_EQ(*r.metrics[5].value, (i0 + i1) / 2);
  EXPECT_EQ(*r.metrics[6].value, pool);  // one pool: its maximum is itself
  ASSERT_TRUE(r.metrics[3].aggregate.has_value());
  EXPECT_EQ(r.metrics[3].aggregate->over, "instances");
  EXPECT_EQ(r.metrics[3].aggregate->function, "max");
  EXPECT_FALSE(r.metrics[2].aggregate.has_value());
}

// Each aggregate refusal beside the closest request that runs.
TEST(RefusalPairs, AnAggregateRangesOverScopesInsideItsOwn) {
  Doubles d;
  struct Pair {
    schema::ScenarioFigureRequest refused;
    std::string message;
    schema::ScenarioFigureRequest accepted;
  };
  const std::vector<Pair> pairs = {
      {figure("ttft.mean", "pool", "serve", std::nullopt, "pools", "max"),
       "frame.metrics[0].aggregate.over: pools: an aggregate over pools ranges over the cluster's pools, so its scope "
       "is cluster, not pool",
       figure("ttft.mean", "pool", "serve", std::nullopt, "instances", "max")},
      {figure("ttft.mean", "instance", "serve", 0, "instances", "max"),
       "frame.metrics[0].aggregate.over: instances: an instance scope holds one instance; aggregate over the "
       "instances of a pool or of the cluster",
       figure("ttft.mean", "pool", "serve", std::nullopt, "instances", "max")},
      {figure("requests.completed_ratio", "cluster", "", std::nullopt, "instances", "mean"),
       "frame.metrics[0].aggregate.over: instances: metric 'requests.completed_ratio' takes no instance scope (see: "
       "blis metrics)",
       figure("requests.completed_ratio", "cluster")},
  };
  for (const auto& p : pairs) {
    SCOPED_TRACE(p.message);
    ScenarioFile f = golden("sessions");
    RunOptions o;
    o.replications = 1;
    f.scenario.frame.metrics = std::vector<schema::ScenarioFigureRequest>{p.refused};
    try {
      run_scenario(f, d.wiring(), o, context());
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), p.message);
    }
    f.scenario.frame.metrics = std::vector<schema::ScenarioFigureRequest>{p.accepted};
    EXPECT_NO_THROW(run_scenario(f, d.wiring(), o, context()));
  }
}

TEST(RefusalPairs, AFrameWithRandomInputNeedsReplications) {
  Doubles d;
  ScenarioFile f = golden("same-instant-constant");
  RunOptions o;
  f.scenario.frame.replications.reset();
  try {
    run_scenario(f, d.wiring(), o, context());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("frame.replications: required"), std::string::npos) << e.what();
  }
  o.replications = 2;  // the closest accepted: replications given on the command line
  EXPECT_NO_THROW(run_scenario(f, d.wiring(), o, context()));
}

// Refused: two nodes with no node size (a chip without a rack tier leaves it to the scenario); accepted:
// the same two nodes of 8, where the instances are placed (placement.h) and the run goes on.
TEST(RefusalPairs, InstancesOnSeveralNodesNeedTheNodeSize) {
  Doubles d;
  schema::Chip module;
  module.name = "H100-SXM";  // an SXM module: no rack tier, so no node size from the catalog
  d.env.add_chip(module);
  ScenarioFile f = golden("same-instant-constant");
  f.scenario.cluster.nodes = units::Count{2};
  f.scenario.cluster.gpus_per_node.reset();
  try {
    run_replication(f, d.wiring(), 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cluster.gpus_per_node: not stated, and placing the instances on 2 nodes"),
              std::string::npos)
        << e.what();
  }
  f.scenario.cluster.gpus_per_node = units::Count{8};
  const ReplicationOutput out = run_replication(f, d.wiring(), 1);
  ASSERT_FALSE(out.instances.empty());
  EXPECT_GT(out.generated, 0);
  for (const InstanceInfo& in : out.instances) EXPECT_EQ(in.node, 0) << in.pool << "/" << in.instance;
}

// A rack-scale H100 whose tray holds one accelerator (so each node is one accelerator), for the placement
// tests below.
void add_one_accelerator_tray(Doubles& d) {
  schema::Chip rack;
  rack.name = "H100-SXM";
  rack.rack.emplace();
  rack.rack->gpus_per_tray.value = units::Count{1};
  d.env.add_chip(rack);
}

// A rack-scale chip fixes the node (its tray): unstated, the tray's size is each node's, and the engines are
// told it. Two nodes of one accelerator each hold two single-accelerator instances, one on each; a third is
// refused by the cluster's size.
TEST(Placement, ARackChipsTrayIsTheNodeWhenTheScenarioLeavesItOpen) {
  Doubles d;
  add_one_accelerator_tray(d);
  ScenarioFile f = golden("preemption-timeouts");
  ASSERT_EQ(f.deployment.pools.size(), 1u);
  f.scenario.cluster.nodes = units::Count{2};
  f.scenario.cluster.gpus_per_node.reset();
  f.deployment.pools[0].replicas = units::Count{2};
  const ReplicationOutput out = run_replication(f, d.wiring(), 1);
  ASSERT_EQ(out.instances.size(), 2u);
  EXPECT_EQ(out.instances[0].node, 0);
  EXPECT_EQ(out.instances[1].node, 1);
  EXPECT_EQ(describe_placement(out.instances), "node 0: " + out.instances[0].pool + "/0 (0); node 1: " +
                                                  out.instances[1].pool + "/1 (0)");
  f.deployment.pools[0].replicas = units::Count{3};
  try {
    run_replication(f, d.wiring(), 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("more than the cluster's 2 (cluster.nodes x cluster.gpus_per_node)"),
              std::string::npos)
        << e.what();
  }
}

// The Result records the placement when the cluster has more than one node: each instance's node, first
// node-local accelerator and accelerator count, in build order. On one node it is absent.
TEST(Placement, TheResultRecordsWhereEachInstanceRuns) {
  Doubles d;
  add_one_accelerator_tray(d);
  ScenarioFile f = golden("preemption-timeouts");
  ASSERT_EQ(f.deployment.pools.size(), 1u);
  f.deployment.pools[0].replicas = units::Count{2};
  RunOptions o;
  o.replications = 2;
  const RunOutput one = run_scenario(f, d.wiring(), o, context());
  EXPECT_FALSE(one.result.placement.has_value());
  f.scenario.cluster.nodes = units::Count{2};
  f.scenario.cluster.gpus_per_node.reset();
  const RunOutput two = run_scenario(f, d.wiring(), o, context());
  ASSERT_TRUE(two.result.placement.has_value());
  ASSERT_EQ(two.result.placement->size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& p = (*two.result.placement)[k];
    EXPECT_EQ(p.pool, f.deployment.pools[0].name);
    EXPECT_EQ(p.instance, static_cast<std::int64_t>(k));
    EXPECT_EQ(p.node, static_cast<std::int64_t>(k));
    EXPECT_EQ(p.first_accelerator, 0);
    EXPECT_EQ(p.accelerators.value(), 1);
  }
}

// A run's exported trace, replayed with resampling (resample.h): every replication draws its own trace from
// the recorded one, so replications differ, while the same seed gives the same bytes.
struct ExportedTrace {
  std::filesystem::path dir;
  ExportedTrace(const std::string& scenario, Doubles& d) {
    dir = std::filesystem::temp_directory_path() / ("blis-resample-" + scenario + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    RunOptions o;
    o.replications = 1;
    o.trace = true;
    RunContext c = context();  // a trace header names the data it priced with
    c.data.catalog.combined_hash = std::string(64, 'a');
    c.data.registry.combined_hash = std::string(64, 'b');
    const RunOutput run = run_scenario(golden(scenario), d.wiring(), o, c);
    std::ofstream(dir / "trace.csv") << *run.trace;
  }
  ~ExportedTrace() { std::filesystem::remove_all(dir); }
  ScenarioFile replaying(const std::string& scenario, std::optional<std::string> resample) const {
    ScenarioFile f = golden(scenario);
    f.directory = dir.string();
    f.scenario.workload = schema::ScenarioWorkload{};
    f.scenario.workload.replay.emplace();
    f.scenario.workload.replay->trace = "trace.csv";
    f.scenario.workload.replay->resample = std::move(resample);
    return f;
  }
};

// The refusal run_scenario gives a scenario ("" when it runs).
std::string refusal_of(const ScenarioFile& f, Doubles& d, const RunOptions& o) {
  try {
    run_scenario(f, d.wiring(), o, context());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Resample, AResampledReplayDrawsATraceForEachReplicationAndOneSeedGivesOneResult) {
  Doubles d;
  const ExportedTrace t("two-replicas-poisson", d);
  const ScenarioFile f = t.replaying("two-replicas-poisson", "requests");
  RunOptions o;
  o.replications = 3;
  const RunOutput a = run_scenario(f, d.wiring(), o, context());
  ASSERT_EQ(a.replications.size(), 3u);
  std::vector<std::set<std::string>> ids;
  for (const ReplicationOutput& rep : a.replications) {
    std::set<std::string> these;
    for (const auto& r : rep.observations.records()) these.insert(std::string(r.id));
    EXPECT_EQ(static_cast<std::int64_t>(these.size()), rep.generated);
    ids.push_back(std::move(these));
  }
  EXPECT_NE(ids[0], ids[1]);
  EXPECT_NE(ids[1], ids[2]);
  for (const auto& figure : a.result.metrics) {
    if (figure.value) {
      EXPECT_TRUE(figure.interval.has_value()) << figure.metric;  // random input: intervals
    }
  }
  const RunOutput b = run_scenario(f, d.wiring(), o, context());
  EXPECT_EQ(schema::to_json(a.result).dump(), schema::to_json(b.result).dump());
}

// Refused: replaying a trace with no resampling at 3 replications; accepted: the same with resampling.
TEST(RefusalPairs, ReplicationsOfAReplayNeedResampling) {
  Doubles d;
  const ExportedTrace t("two-replicas-poisson", d);
  RunOptions o;
  o.replications = 3;
  const std::string why = refusal_of(t.replaying("two-replicas-poisson", std::nullopt), d, o);
  EXPECT_NE(why.find("--replications: a replay without resampling has no random input"), std::string::npos) << why;
  EXPECT_EQ(run_scenario(t.replaying("two-replicas-poisson", "requests"), d.wiring(), o, context()).replications.size(), 3u);
}

// Refused: exporting the trace of a resampled replay (each replication draws its own); accepted: the same
// run without the export.
TEST(RefusalPairs, AResampledReplayIsNotExported) {
  Doubles d;
  const ExportedTrace t("two-replicas-poisson", d);
  RunOptions o;
  o.replications = 1;
  o.trace = true;
  const std::string why = refusal_of(t.replaying("two-replicas-poisson", "requests"), d, o);
  EXPECT_NE(why.find("--trace-out: a resampled replay draws a new trace for each replication"), std::string::npos) << why;
  o.trace = false;
  EXPECT_EQ(run_scenario(t.replaying("two-replicas-poisson", "requests"), d.wiring(), o, context()).replications.size(), 1u);
}

// Refused: a session workload's trace resampled by requests; accepted: by sessions.
TEST(RefusalPairs, ASessionTraceIsResampledBySessions) {
  Doubles d;
  const ExportedTrace t("sessions", d);
  RunOptions o;
  o.replications = 2;
  const std::string why = refusal_of(t.replaying("sessions", "requests"), d, o);
  EXPECT_NE(why.find("resample sessions"), std::string::npos) << why;
  const RunOutput run = run_scenario(t.replaying("sessions", "sessions"), d.wiring(), o, context());
  ASSERT_EQ(run.replications.size(), 2u);
  EXPECT_GT(run.replications[0].generated, 0);
}

TEST(RefusalPairs, ClosedLoopNeedsConcurrency) {
  Doubles d;
  ScenarioFile f = golden("preemption-timeouts");
  f.scenario.frame.stop.horizon = units::Seconds{0.2};
  auto& c = (*f.scenario.workload.clients)[0];
  c.arrival.concurrency.reset();
  try {
    run_replication(f, d.wiring(), 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("workload.clients[0].arrival.concurrency: required by closed_loop"), std::string::npos)
        << e.what();
  }
  c.arrival.concurrency = units::Count{1};
  EXPECT_NO_THROW(run_replication(f, d.wiring(), 1));
}

TEST(RefusalPairs, AnUnboundedFamilyNeedsItsLowerBound) {
  Doubles d;
  ScenarioFile f = golden("preemption-timeouts");
  f.scenario.frame.stop.horizon = units::Seconds{0.2};
  auto& c = (*f.scenario.workload.clients)[0];
  c.prompt_tokens.min.reset();
  try {
    run_replication(f, d.wiring(), 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("workload.clients[0].prompt_tokens.min: not stated"), std::string::npos) << e.what();
  }
  c.prompt_tokens.min = units::Tokens{0};  // a shared prefix precedes it, so 0 own tokens is allowed
  EXPECT_NO_THROW(run_replication(f, d.wiring(), 1));
}

TEST(RefusalPairs, AnOutputDistributionMustNotReachZero) {
  Doubles d;
  ScenarioFile f = golden("same-instant-constant");
  auto& c = (*f.scenario.workload.clients)[0];
  c.output_tokens.value = units::Tokens{0};
  EXPECT_THROW(run_replication(f, d.wiring(), 1), std::invalid_argument);
  c.output_tokens.value = units::Tokens{1};
  EXPECT_NO_THROW(run_replication(f, d.wiring(), 1));
}

// Joint prompt/output lengths (workload.clients[].length_dependence, §8.5): a Gaussian copula with
// correlation rho gives the lengths Spearman's rank correlation (6/pi) asin(rho/2) (0.786 at 0.8; a little
// less with ties), and each length keeps its own distribution: the prompts' under rho 0.8 and under rho 0 are
// one distribution by a two-sample Kolmogorov-Smirnov test.
double spearman(const std::vector<std::pair<double, double>>& xy) {
  auto ranks = [&](auto key) {
    std::vector<std::size_t> order(xy.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(xy[a]) < key(xy[b]); });
    std::vector<double> r(xy.size());
    for (std::size_t i = 0; i < order.size();) {  // ties share their mean rank
      std::size_t j = i;
      while (j < order.size() && key(xy[order[j]]) == key(xy[order[i]])) ++j;
      for (std::size_t k = i; k < j; ++k) r[order[k]] = 0.5 * static_cast<double>(i + j - 1);
      i = j;
    }
    return r;
  };
  const auto rx = ranks([](const auto& p) { return p.first; }), ry = ranks([](const auto& p) { return p.second; });
  const double n = static_cast<double>(xy.size()), mean = (n - 1) / 2;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < xy.size(); ++i) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) * (rx[i] - mean);
    syy += (ry[i] - mean) * (ry[i] - mean);
  }
  return sxy / std::sqrt(sxx * syy);
}

ScenarioFile joint_lengths(double rho, const std::string& output_family) {
  ScenarioFile f = golden("two-replicas-poisson");
  f.scenario.frame.stop.requests = units::Count{3000};
  auto& c = (*f.scenario.workload.clients)[0];
  c.arrival.rate_per_s = 20;
  c.output_tokens = schema::ScenarioTokenDistribution{};
  c.output_tokens.family = output_family;
  c.output_tokens.min = units::Tokens{1};
  c.output_tokens.max = units::Tokens{200};
  if (output_family == "lognormal") {
    c.output_tokens.median = 30;
    c.output_tokens.sigma = 0.6;
  } else {
    c.output_tokens.shape = 2;
    c.output_tokens.scale = 15;
  }
  c.output_tokens.source = "test";
  c.length_dependence = schema::ScenarioLengthDependence{"gaussian_copula", rho, "test", {}};
  return f;
}

std::vector<std::pair<double, double>> lengths(const ReplicationOutput& out) {
  std::vector<std::pair<double, double>> xy;
  for (const auto& r : out.observations.records()) {
    if (r.fate == Fate::kCompleted) xy.emplace_back(static_cast<double>(r.prompt_tokens), static_cast<double>(r.output_tokens()));
  }
  return xy;
}

TEST(JointLengths, AGaussianCopulaCorrelatesTheLengthsAndKeepsEachOnesDistribution) {
  Doubles d;
  const auto high = lengths(run_replication(joint_lengths(0.8, "lognormal"), d.wiring(), 1));
  const auto none = lengths(run_replication(joint_lengths(0.0, "lognormal"), d.wiring(), 1));
  const auto negative = lengths(run_replication(joint_lengths(-0.8, "lognormal"), d.wiring(), 1));
  ASSERT_EQ(high.size(), 3000u);
  ASSERT_EQ(none.size(), 3000u);
  EXPECT_GT(spearman(high), 0.74);
  EXPECT_LT(spearman(high), 0.80);
  EXPECT_LT(std::abs(spearman(none)), 0.05);
  EXPECT_LT(spearman(negative), -0.74);
  // Each marginal alone: the two-sample KS statistic over prompts, then outputs, against the 1% critical
  // value sqrt(-ln(0.005) / 2) sqrt(2 / 3000) = 0.042 (conservative for counts).
  for (int side = 0; side < 2; ++side) {
    std::vector<double> a, b;
    for (const auto& p : high) a.push_back(side == 0 ? p.first : p.second);
    for (const auto& p : none) b.push_back(side == 0 ? p.first : p.second);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    double dmax = 0;
    for (double v : a) {
      const double fa = static_cast<double>(std::upper_bound(a.begin(), a.end(), v) - a.begin()) / 3000.0;
      const double fb = static_cast<double>(std::upper_bound(b.begin(), b.end(), v) - b.begin()) / 3000.0;
      dmax = std::max(dmax, std::abs(fa - fb));
    }
    EXPECT_LT(dmax, 0.042) << (side == 0 ? "prompt" : "output") << " lengths";
  }
}

// Refusal pair (SIM-9): a copula over a family whose distribution function this build lacks (gamma) is
// refused by name; the closest accepted input swaps that family for a lognormal.
TEST(RefusalPairs, ACopulaNeedsEachLengthsDistributionFunction) {
  Doubles d;
  ScenarioFile f = joint_lengths(0.5, "gamma");
  f.scenario.frame.stop.requests = units::Count{20};
  try {
    run_replication(f, d.wiring(), 1);
    FAIL() << "a copula over a gamma length ran";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("workload.clients[0].length_dependence: a gaussian_copula"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("workload.clients[0].output_tokens's gamma family"), std::string::npos) << e.what();
  }
  ScenarioFile g = joint_lengths(0.5, "lognormal");
  g.scenario.frame.stop.requests = units::Count{20};
  EXPECT_NO_THROW(run_replication(g, d.wiring(), 1));
}

// Achieved concurrency (frame.conditions.concurrency_tolerance, §8.6): a closed loop of 4 users with no think
// time keeps about 4 requests in the system (less only in the last requests' tail) and meets a 10% tolerance;
// with half a second of think time between a response and the next request, the same loop keeps well under
// one, fails the condition, and reports no figure, naming the achieved value in a warning.
ScenarioFile closed_loop(double think_s) {
  ScenarioFile f = golden("two-replicas-poisson");
  f.scenario.frame.stop.requests = units::Count{400};
  auto& c = (*f.scenario.workload.clients)[0];
  c.arrival.process = "closed_loop";
  c.arrival.rate_per_s.reset();
  c.arrival.concurrency = units::Count{4};
  if (think_s > 0) {
    c.arrival.think_time = schema::ScenarioDurationDistribution{};
    c.arrival.think_time->family = "constant";
    c.arrival.think_time->value = units::Seconds{think_s};
    c.arrival.think_time->source = "test";
  }
  f.scenario.frame.conditions = schema::ScenarioConditions{};
  f.scenario.frame.conditions->concurrency_tolerance = units::Ratio{0.1};
  return f;
}

TEST(Acceptance, AchievedConcurrencyMustLieWithinTheToleranceOfTheClosedLoops) {
  Doubles d;
  RunOptions o;
  o.replications = 2;
  const RunOutput busy = run_scenario(closed_loop(0), d.wiring(), o, context());
  for (const auto& rep : busy.replications) {
    EXPECT_GT(achieved_concurrency(rep), 3.6);
    EXPECT_LE(achieved_concurrency(rep), 4.0);
  }
  EXPECT_TRUE(busy.result.frame.conditions_met);
  for (const auto& f : busy.result.metrics) EXPECT_NE(f.withheld, std::optional<std::string>("conditions_failed")) << f.metric;

  const RunOutput idle = run_scenario(closed_loop(0.5), d.wiring(), o, context());
  for (const auto& rep : idle.replications) EXPECT_LT(achieved_concurrency(rep), 1.0);
  EXPECT_FALSE(idle.result.frame.conditions_met);
  ASSERT_FALSE(idle.result.metrics.empty());
  for (const auto& f : idle.result.metrics) EXPECT_EQ(f.withheld, std::optional<std::string>("conditions_failed")) << f.metric;
  std::int64_t named = 0;
  for (const auto& w : idle.result.warnings) {
    if (w.code != "concurrency-not-achieved") continue;
    ++named;
    EXPECT_NE(w.message.find("against the closed loops' 4, outside the tolerance 0.1"), std::string::npos) << w.message;
  }
  EXPECT_EQ(named, 2);
}

// Refusal pair (SIM-9): an open client states no target concurrency; the closest accepted input is the same
// scenario with that client closed.
TEST(RefusalPairs, AchievedConcurrencyIsJudgedOnlyAgainstClosedLoops) {
  Doubles d;
  RunOptions o;
  o.replications = 1;
  ScenarioFile open = closed_loop(0);
  auto& c = (*open.scenario.workload.clients)[0];
  c.arrival.process = "poisson";
  c.arrival.concurrency.reset();
  c.arrival.rate_per_s = 40;
  try {
    run_scenario(open, d.wiring(), o, context());
    FAIL() << "a tolerance without a target ran";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("frame.conditions.concurrency_tolerance: workload.clients[0] ('chat') is an open poisson "
                                         "process"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(run_scenario(closed_loop(0), d.wiring(), o, context()));
}

TEST(RefusalPairs, AnUnknownEngineKindNamesTheKindsRegistered) {
  Doubles d;
  ScenarioFile f = golden("same-instant-constant");
  f.deployment.pools[0].engine.kind = "vllm";
  f.deployment.pools[0].engine.version = "0.27.1";
  try {
    run_replication(f, d.wiring(), 1);
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("reference 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace blis::sim

namespace blis::sim {
namespace {

// The prefix-cache hit ratio is the engines' own token counters summed over the scope (whole run), and is
// withheld when no engine in the scope looked a token up.
TEST(Figures, PrefixCacheHitRatioSumsTheEnginesCounters) {
  ReplicationOutput run;
  run.instances.push_back(InstanceInfo{"a", 0, 1, 10, 1000, 250});
  run.instances.push_back(InstanceInfo{"a", 1, 1, 10, 3000, 1750});
  run.instances.push_back(InstanceInfo{"b", 0, 1, 10, 0, 0});
  auto cluster = replication_figure("prefix_cache.hit_ratio", FigureScope{}, run);
  ASSERT_TRUE(cluster.value.has_value());
  EXPECT_DOUBLE_EQ(*cluster.value, 2000.0 / 4000.0);
  EXPECT_EQ(cluster.samples, 4000);
  auto one = replication_figure("prefix_cache.hit_ratio", FigureScope{"instance", "a", 1}, run);
  ASSERT_TRUE(one.value.has_value());
  EXPECT_DOUBLE_EQ(*one.value, 1750.0 / 3000.0);
  auto none = replication_figure("prefix_cache.hit_ratio", FigureScope{"pool", "b", -1}, run);
  EXPECT_FALSE(none.value.has_value());
  EXPECT_EQ(none.withheld, "no_samples");
}

}  // namespace
}  // namespace blis::sim
