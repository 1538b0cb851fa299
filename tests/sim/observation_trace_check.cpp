// observation-delay-trace: DEV-4's trace check (src/sim/observe/observation_trace.h).
//   observation-delay-trace TRACE.csv        checks a trace file
//   observation-delay-trace [--llm-d] SCENARIO.yaml
//       runs one replication of the scenario (on the conformance doubles; with --llm-d behind the llm-d router
//       port, whose refresh-metrics-interval sets the scrape interval) at delivery delays of 0 and 7 ms (a delay
//       off the scrape grid), records every publication and what each routing decision saw, and checks both
//       traces. A run in which no decision saw a published value proves nothing and fails.
// Exits 1 naming every breach: a value seen before its publication time plus the scrape and delivery delays,
// a value older than the last delivered one, a value never published.
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "doubles.h"
#include "sim/cluster/llmd_picker.h"
#include "sim/observe/observation_trace.h"
#include "sim/run/replication.h"

namespace {

using namespace blis;

int report(const sim::ParsedObservationTrace& trace, const std::string& name) {
  const std::vector<std::string> breaches = sim::check_observations(trace);
  for (const auto& b : breaches) std::printf("%s: %s (DEV-4)\n", name.c_str(), b.c_str());
  std::int64_t published = 0, observed = 0, seen = 0;
  for (const auto& e : trace.events) {
    if (e.publish) {
      ++published;
    } else {
      ++observed;
      if (e.value) ++seen;
    }
  }
  if (!breaches.empty()) return 1;
  if (seen == 0) {
    std::printf("%s: no decision saw a published value (%lld publications, %lld observations): the trace proves nothing\n",
                name.c_str(), static_cast<long long>(published), static_cast<long long>(observed));
    return 1;
  }
  std::printf("%s: %lld publications, %lld observations (%lld of a published value), scrape interval %lld us, delivery delay "
              "%lld us: every observation is the latest value delivered by its time\n",
              name.c_str(), static_cast<long long>(published), static_cast<long long>(observed), static_cast<long long>(seen),
              static_cast<long long>(trace.interval.us), static_cast<long long>(trace.delay.us));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool llmd = argc == 3 && std::string(argv[1]) == "--llm-d";
  if (argc != 2 && !llmd) {
    std::fputs("usage: observation-delay-trace TRACE.csv | observation-delay-trace [--llm-d] SCENARIO.yaml\n", stderr);
    return 2;
  }
  const std::string path = argv[argc - 1];
  try {
    if (path.size() > 4 && path.ends_with(".csv")) {
      std::ifstream in(path, std::ios::binary);
      if (!in) throw std::invalid_argument(path + ": cannot read");
      std::ostringstream text;
      text << in.rdbuf();
      return report(sim::read_observation_trace(text.str(), path), path);
    }
    const sim::ScenarioFile file = sim::read_scenario_file(path);
    const conformance::Doubles doubles;
    int rc = 0;
    for (const std::int64_t delay_us : {0, 7000}) {
      sim::Wiring w = doubles.wiring();
      if (llmd) w.router = sim::make_llmd_picker;
      w.scrape_delay = sim::SimTime{delay_us};
      sim::ObservationTrace trace;
      const sim::ReplicationOutput out = sim::run_replication(file, w, 1, nullptr, nullptr, &trace);
      const std::string name = path + " (delivery delay " + std::to_string(delay_us) + " us)";
      // Through the file format, as a trace written to disk would be read.
      rc |= report(sim::read_observation_trace(trace.text(out.scrape_interval, w.scrape_delay), name), name);
    }
    return rc;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "observation-delay-trace: %s\n", e.what());
    return 1;
  }
}
