// The scaling benchmark (issue 6, DEV-5): one replication of an 8-instance cluster of reference engines
// behind round robin at a steady load, at N requests given on the command line, printing events per
// request, nanoseconds per event, simulated requests and output tokens per wall-clock second and peak
// memory; then a bare binary-heap event loop doing the same number of events on this machine, the
// reference limit. It asserts nothing about time (benchmarks never do); run it with
//   meson test --benchmark -C build   or   build/tests/bench/sim-scaling N
// Each N runs in a process of its own so peak memory (getrusage's maxrss) belongs to that N.
// `sim-scaling --check SMALL LARGE` is the slow tier's check: it fails when events per request grow by more
// than 5% from SMALL to LARGE requests, or when the most full request records held at once (requests in
// flight) grows by more than half while the run grows tenfold: memory bounded by requests in flight, but for
// the compact finished records the exact percentiles need. Instructions per event (callgrind) are not
// checked yet.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <random>
#include <string>

#include "doubles.h"
#include "sim/run/replication.h"

namespace {

std::string scenario_text(long requests) {
  return R"(kind: Deployment
name: bench
pools:
  - name: serve
    replicas: 8
    engine: {kind: reference, version: "1", args: {max-num-seqs: 32, max-num-batched-tokens: 1024, num-gpu-blocks: 4096}}
router: {}
---
kind: Scenario
name: scaling
deployment: bench
seed: 1
cluster: {chip: H100-SXM, nodes: 1, gpus_per_node: 8}
workload:
  clients:
    - name: load
      arrival: {process: poisson, rate_per_s: 400}
      prompt_tokens: {family: uniform, min: 50, max: 400, source: benchmark}
      output_tokens: {family: uniform, min: 10, max: 60, source: benchmark}
frame:
  stop: {requests: )" + std::to_string(requests) + R"(}
  warmup: none
  replications: {min: 5, max: 5, relative_half_width: 0.5}
)";
}

double peak_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

}  // namespace

// Events per request, and the most records held in flight, of one replication at n requests.
struct Growth {
  double events_per_request;
  double peak_live;
};
Growth growth(long n);

int run(long n);

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--check") {
    // The slow tier's growth check (DEV-5): events per request may not grow with the run's size.
    const long small = std::atol(argv[2]), large = std::atol(argv[3]);
    const Growth a = growth(small), b = growth(large);
    const double events = b.events_per_request / a.events_per_request, live = b.peak_live / a.peak_live;
    std::printf("events per request: %.3f at %ld requests, %.3f at %ld (ratio %.3f, limit 1.05)\n", a.events_per_request,
                small, b.events_per_request, large, events);
    std::printf("records in flight at most: %.0f at %ld requests, %.0f at %ld (ratio %.3f, limit 1.5)\n", a.peak_live, small,
                b.peak_live, large, live);
    return events > 1.05 || live > 1.5 ? 1 : 0;
  }
  return run(argc > 1 ? std::atol(argv[1]) : 10000);
}

namespace {

blis::sim::ReplicationOutput simulate(long n) {
  using namespace blis;
  static const conformance::Doubles doubles;
  return sim::run_replication(sim::read_scenario_text(scenario_text(n), "scaling"), doubles.wiring(), 1);
}

}  // namespace

Growth growth(long n) {
  const blis::sim::ReplicationOutput out = simulate(n);
  const auto& s = out.stats;
  return {static_cast<double>(s.internal + s.external + s.confluent) / static_cast<double>(n),
          static_cast<double>(out.observations.peak_live())};
}

int run(long n) {
  using namespace blis;
  const auto t0 = std::chrono::steady_clock::now();
  const sim::ReplicationOutput out = simulate(n);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto& s = out.stats;
  const std::int64_t events = s.internal + s.external + s.confluent;
  std::int64_t tokens = 0;
  for (const auto& r : out.observations.records()) tokens += r.output_tokens();
  std::printf("requests %ld  simulated %.1f s  events %lld (%.2f per request)  rounds %lld  messages %lld\n", n,
              sim::seconds_of(out.end), static_cast<long long>(events), static_cast<double>(events) / static_cast<double>(n),
              static_cast<long long>(s.rounds), static_cast<long long>(s.messages));
  std::printf("wall %.3f s  %.0f ns/event  %.0f requests/s  %.0f output tokens/s  peak %.1f MiB\n", wall,
              wall * 1e9 / static_cast<double>(events), static_cast<double>(n) / wall, static_cast<double>(tokens) / wall,
              peak_mib());
  // Memory: full records live only in flight; a finished request keeps its compact record (the samples the
  // exact percentiles need), so peak memory = the in-flight state + the finished records' bytes + the base.
  const auto& obs = out.observations;
  std::printf("records: at most %zu in flight at once; finished records %.1f MiB (%.0f B per request)\n", obs.peak_live(),
              static_cast<double>(obs.finished_bytes()) / (1024.0 * 1024.0),
              static_cast<double>(obs.finished_bytes()) / static_cast<double>(n));

  // The reference limit: a bare binary heap of (time, id) doing as many pushes and pops.
  std::priority_queue<std::pair<std::int64_t, std::uint32_t>, std::vector<std::pair<std::int64_t, std::uint32_t>>, std::greater<>> heap;
  std::mt19937_64 rng(1);
  const auto t1 = std::chrono::steady_clock::now();
  std::int64_t now = 0;
  for (std::uint32_t i = 0; i < 1000; ++i) heap.emplace(static_cast<std::int64_t>(rng() % 1000), i);
  for (std::int64_t k = 0; k < events; ++k) {
    auto [t, id] = heap.top();
    heap.pop();
    now = t;
    heap.emplace(now + 1 + static_cast<std::int64_t>(rng() % 5000), id);
  }
  const double bare = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  std::printf("bare heap: %.0f ns/event (%lld events); the simulator costs %.0fx the bare loop per event\n",
              bare * 1e9 / static_cast<double>(events), static_cast<long long>(events), wall / bare);
  return 0;
}
