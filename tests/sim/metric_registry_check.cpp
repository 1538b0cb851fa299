// sim-metric-registry-check REGISTRY: DEV-8's registry check. Reads a metric registry document with the
// generated reader, and computes every metric it defines, at every scope it allows, on one replication of
// a byte-gate scenario (on the conformance doubles): an identifier this build does not compute, one whose
// name does not state its statistic, or a repeated identifier fails the check, naming it. Run on
// src/sim/metrics/registry.yaml, the registry blis compiles in.
#include <cstdio>
#include <exception>
#include <fstream>
#include <set>
#include <sstream>

#include "contracts/doc/parse.h"
#include "doubles.h"
#include "sim/metrics/figures.h"

int main(int argc, char** argv) {
  using namespace blis;
  if (argc != 2) {
    std::fputs("usage: sim-metric-registry-check REGISTRY\n", stderr);
    return 2;
  }
  try {
    std::ifstream in(argv[1], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    doc::Diagnostics d{argv[1]};
    const doc::Parsed parsed = doc::parse(text.str(), doc::Syntax::Yaml, d);
    schema::MetricRegistry registry;
    if (d.ok() && parsed.documents.size() == 1 && schema::read(parsed.documents[0], "", d, registry)) schema::validate(registry, "", d);
    if (!d.ok() || parsed.documents.size() != 1) {
      std::printf("%s", d.str().c_str());
      return 1;
    }
    const conformance::Doubles doubles;
    const sim::Wiring w = doubles.wiring();
    const auto run = sim::run_replication(sim::read_scenario_file(BLIS_GOLDEN_DIR "/scenarios/two-replicas-poisson.yaml"), w, 1);
    std::set<std::string> ids;
    std::int64_t computed = 0;
    for (const auto& m : registry.metrics) {
      if (!ids.insert(m.id).second) {
        std::printf("%s: metric '%s' is defined twice (DEV-8)\n", argv[1], m.id.c_str());
        return 1;
      }
      for (const auto& level : m.scopes) {
        sim::FigureScope scope;
        scope.level = level;
        if (level != "cluster") scope.pool = "serve";
        if (level == "instance") scope.instance = 0;
        try {
          sim::replication_figure(m, scope, run);
          ++computed;
        } catch (const std::exception& e) {
          std::printf("%s: %s (DEV-8)\n", argv[1], e.what());
          return 1;
        }
      }
    }
    std::printf("%s: %zu metrics, %lld figures computed\n", argv[1], ids.size(), static_cast<long long>(computed));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sim-metric-registry-check: %s\n", e.what());
    return 1;
  }
}
