// sim-permutation-check [--llm-d] SCENARIO: DEV-2's same-instant permutation check. Runs the scenario (one
// replication, on the conformance doubles) with the coordinator visiting each phase's components in
// ascending, descending and strided order; the three phases make the order irrelevant, so the three
// Results, and every request's place, first token and end, must be the same. Exits 1 naming the orders that differ.
// With --llm-d the router is the llm-d port on the simulated runtime (sim/cluster/llmd_picker.h) instead of the
// conformance pickers: RTR-7's check that the order in which one instant's activities resume decides no route.
#include <cstdio>
#include <exception>
#include <string>

#include "doubles.h"
#include "sim/cluster/llmd_picker.h"
#include "sim/run/run.h"

int main(int argc, char** argv) {
  using namespace blis;
  const bool llmd = argc == 3 && std::string(argv[1]) == "--llm-d";
  if (argc != 2 && !llmd) {
    std::fputs("usage: sim-permutation-check [--llm-d] SCENARIO\n", stderr);
    return 2;
  }
  const char* path = argv[argc - 1];
  try {
    const sim::ScenarioFile file = sim::read_scenario_file(path);
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
      sim::Wiring w = doubles.wiring(order);
      if (llmd) w.router = sim::make_llmd_picker;
      const sim::RunOutput run = sim::run_scenario(file, w, options, context);
      // The Result and every request's record: a swap between symmetric instances can leave the figures
      // alone and still move a request's times.
      std::string json = schema::to_json(run.result).dump();
      for (const auto& r : run.replications.front().observations.records()) {
        json += "\n" + r.id + " " + std::string(r.pool) + "/" + std::to_string(r.instance) + " " + std::string(sim::fate_name(r.fate)) +
                " " + (r.first_token() ? std::to_string((*r.first_token()).us) : "-") + " " +
                (r.ended ? std::to_string((*r.ended).us) : "-");
      }
      if (first.empty()) {
        first = json;
      } else if (json != first) {
        std::printf("%s: the Result under visit order %s differs from ascending: a transition depends on the order "
                    "in which one instant's components are visited (DEV-2)\n", path, name);
        return 1;
      }
    }
    std::printf("%s: the same Result under ascending, descending and strided visit orders%s\n", path,
                llmd ? " (llm-d router)" : "");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sim-permutation-check: %s\n", e.what());
    return 1;
  }
}
