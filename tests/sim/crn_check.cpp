// sim-crn-check SCENARIO: DEV-6's common-random-numbers check. Runs the scenario (one replication, on the
// conformance doubles) as written and with every pool's max-num-seqs halved (at least 1), and requires
// every request the two runs share to have the same prompt length and, where both completed at their
// sampled length ("stop"), the same output length: draws are keyed by client, purpose and request, not
// by what the server did. Exits 1 naming the first request that differs.
#include <cstdio>
#include <exception>

#include "doubles.h"
#include "sim/run/replication.h"

int main(int argc, char** argv) {
  using namespace blis;
  if (argc != 2) {
    std::fputs("usage: sim-crn-check SCENARIO\n", stderr);
    return 2;
  }
  try {
    const sim::ScenarioFile a = sim::read_scenario_file(argv[1]);
    sim::ScenarioFile b = a;
    for (auto& pool : b.deployment.pools) {
      if (!pool.engine.args) {
        pool.engine.args.emplace();
        pool.engine.args->kind = doc::Kind::Map;
      }
      bool found = false;
      for (auto& e : pool.engine.args->entries) {
        if (e.first.scalar == "max-num-seqs") {
          e.second.scalar = std::to_string(std::max(1L, std::stol(e.second.scalar) / 2));
          found = true;
        }
      }
      if (!found) {
        doc::Entry e;
        e.first.kind = e.second.kind = doc::Kind::Scalar;
        e.first.scalar = "max-num-seqs";
        e.second.scalar = "2";
        pool.engine.args->entries.push_back(e);
      }
    }
    const conformance::Doubles doubles;
    const sim::Wiring w = doubles.wiring();
    const sim::ReplicationOutput ra = sim::run_replication(a, w, 1), rb = sim::run_replication(b, w, 1);
    std::int64_t shared = 0, differing_runs = 0;
    for (const auto& r : ra.observations.records()) {
      const std::string& id = r.id;
      const sim::FinishedRecord* it = rb.observations.find(id);
      if (it == nullptr) continue;
      const auto& s = *it;
      ++shared;
      if (r.ended != s.ended) ++differing_runs;
      const bool stopped = r.fate == sim::Fate::kCompleted && s.fate == sim::Fate::kCompleted && r.reason == "stop" && s.reason == "stop";
      if (r.prompt_tokens != s.prompt_tokens || (stopped && r.output_tokens() != s.output_tokens())) {
        std::printf("%s: request %s differs when the server setting changes: prompt %lld and %lld tokens, output %lld and %lld "
                    "tokens (DEV-6)\n", argv[1], id.c_str(), static_cast<long long>(r.prompt_tokens),
                    static_cast<long long>(s.prompt_tokens), static_cast<long long>(r.output_tokens()),
                    static_cast<long long>(s.output_tokens()));
        return 1;
      }
    }
    if (differing_runs == 0) {
      std::printf("%s: halving max-num-seqs changed no request's end: the check would show nothing\n", argv[1]);
      return 1;
    }
    std::printf("%s: %lld requests share their prompt and output lengths across the two settings (%lld ended at other times)\n",
                argv[1], static_cast<long long>(shared), static_cast<long long>(differing_runs));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sim-crn-check: %s\n", e.what());
    return 1;
  }
}
