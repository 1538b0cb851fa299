// sim-permutation-check SCENARIO: DEV-2's same-instant permutation check. Runs the scenario (one
// replication, on the conformance doubles) with the coordinator visiting each phase's components in
// ascending, descending and strided order; the three phases make the order irrelevant, so the three
// Results, and every request's place, first token and end, must be the same. Exits 1 naming the orders that differ.
#include <cstdio>
#include <exception>

#include "doubles.h"
#include "sim/run/run.h"

int main(int argc, char** argv) {
  using namespace blis;
  if (argc != 2) {
    std::fputs("usage: sim-permutation-check SCENARIO\n", stderr);
    return 2;
  }
  try {
    const sim::ScenarioFile file = sim::read_scenario_file(argv[1]);
    const conformance::Doubles doubles;
    sim::RunContext context;
    context.build.kind = "unreleased";
    context.build.commit = std::string(40, '0');
    sim::RunOptions options;
    options.replications = 1;
    std::string first;
    const std::pair<sim::VisitOrder, const char*> orders[] = {
        {sim::VisitOrder::kAscending, "ascending"}, {sim::VisitOrder::kDescending, "descending"}, {sim::VisitOrder::kStrided, "strided"}};
    for (const auto& [order, name] : orders) {
      const sim::Wiring w = doubles.wiring(order);
      const sim::RunOutput run = sim::run_scenario(file, w, options, context);
      // The Result and every request's record: a swap between symmetric instances can leave the figures
      // alone and still move a request's times.
      std::string json = schema::to_json(run.result).dump();
      for (const auto& [id, r] : run.replications.front().observations.records()) {
        json += "\n" + id + " " + r.pool + "/" + std::to_string(r.instance) + " " + std::string(sim::fate_name(r.fate)) + " " +
                (r.first_token() ? std::to_string(r.first_token()->us) : "-") + " " + (r.ended ? std::to_string(r.ended->us) : "-");
      }
      if (first.empty()) {
        first = json;
      } else if (json != first) {
        std::printf("%s: the Result under visit order %s differs from ascending: a transition depends on the order "
                    "in which one instant's components are visited (DEV-2)\n", argv[1], name);
        return 1;
      }
    }
    std::printf("%s: the same Result under ascending, descending and strided visit orders\n", argv[1]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sim-permutation-check: %s\n", e.what());
    return 1;
  }
}
