// sim-detector-check FILE: DEV-10's reference check. Each line of FILE names a reference queue, observed on
// a regular grid from an empty start (tests/sim/analysis/queues.h), and the class its truth demands:
//   open  SERVICE LOAD       LENGTH INTERVAL SEED CLASS    SERVICE: exponential, lognormal:SIGMA, pareto:ALPHA
//   closed POPULATION THINK  LENGTH INTERVAL SEED CLASS
// LENGTH and INTERVAL are in mean service times; CLASS is settled, overloaded or incomplete, the truth. The
// one detector (sim/analysis/steady_state.h, default options but the grid interval) must class every queue
// so, with one allowance: a settled queue may be classed incomplete, the detector's conservative answer
// when its window cannot show more (it does so for 8-20% of long settled runs, steady_state.h); that is
// printed, not failed. A false alarm (settled classed overloaded), a miss the other way (overloaded classed
// settled) or any other mismatch fails. Lines starting with '#' are comments. Exits 1 naming the queue.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "queues.h"
#include "sim/analysis/steady_state.h"

int main(int argc, char** argv) {
  using namespace blis::sim::analysis;
  if (argc != 2) {
    std::fputs("usage: sim-detector-check FILE\n", stderr);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "%s: cannot be read\n", argv[1]);
    return 1;
  }
  std::string line;
  int lineno = 0, checked = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string kind, expected;
    double length = 0, interval = 0;
    std::uint64_t seed = 0;
    queues::Observed o;
    if (!(f >> kind)) continue;
    if (kind == "open") {
      std::string service;
      double load = 0;
      f >> service >> load >> length >> interval >> seed >> expected;
      queues::Service s;
      if (service == "exponential") s = queues::exponential_service();
      else if (service.starts_with("lognormal:")) s = queues::lognormal_service(std::stod(service.substr(10)));
      else if (service.starts_with("pareto:")) s = queues::pareto_service(std::stod(service.substr(7)));
      else {
        std::printf("%s:%d: service '%s' is not exponential, lognormal:SIGMA or pareto:ALPHA\n", argv[1], lineno, service.c_str());
        return 1;
      }
      o = queues::open_queue(load, s, static_cast<std::size_t>(length / interval), interval, seed);
    } else if (kind == "closed") {
      std::size_t population = 0;
      double think = 0;
      f >> population >> think >> length >> interval >> seed >> expected;
      o = queues::closed_queue(population, think, static_cast<std::size_t>(length / interval), interval, seed);
    } else {
      std::printf("%s:%d: '%s' is not open or closed\n", argv[1], lineno, kind.c_str());
      return 1;
    }
    if (!f) {
      std::printf("%s:%d: malformed line\n", argv[1], lineno);
      return 1;
    }
    DetectorOptions options;
    options.observation_interval_s = interval;
    const Classification c = classify(o.backlog, o.departures, options);
    const std::string got = to_string(c.run_class);
    if (got == "incomplete" && expected == "settled") {
      std::printf("%s:%d: %s: classed incomplete (allowed for a settled queue)\n", argv[1], lineno, line.c_str());
    } else if (got != expected) {
      std::string why;
      for (const auto& r : c.reasons) why += std::string("; ") + r.series + " " + to_string(r.finding);
      std::printf("%s:%d: %s: classed %s, not %s%s (DEV-10)\n", argv[1], lineno, line.c_str(), got.c_str(), expected.c_str(), why.c_str());
      return 1;
    }
    ++checked;
  }
  std::printf("%s: the detector classes all %d reference queues as their truth demands\n", argv[1], checked);
  return 0;
}
