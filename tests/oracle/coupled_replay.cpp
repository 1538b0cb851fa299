// Original to BLIS: the coupled replays' recorder, comparison and program loop (see coupled_replay.h).
#include "tests/oracle/coupled_replay.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <utility>

#include "tests/oracle/replay_support.h"

namespace blis::sim::coupled {

using json = nlohmann::json;

std::optional<engine::Refused> Recorder::add_request(const engine::Request& r) {
  inputs_.push_back("add " + r.id);
  return inner_.add_request(r);
}

void Recorder::abort_request(const std::string& id) {
  inputs_.push_back("abort " + id);
  inner_.abort_request(id);
}

std::optional<engine::ScheduledStep> Recorder::schedule() {
  std::optional<engine::ScheduledStep> step = inner_.schedule();
  if (step) push(scheduled(*step));
  return step;
}

engine::StepOutcome Recorder::complete(std::uint64_t step) {
  engine::StepOutcome outcome = inner_.complete(step);
  push(completed(outcome));
  return outcome;
}

std::vector<engine::KvEventMessage> Recorder::take_idle_publications() {
  std::vector<engine::KvEventMessage> messages = inner_.take_idle_publications();
  if (!messages.empty()) push(idle_published(messages));
  return messages;
}

json Recorder::idle_published(const std::vector<engine::KvEventMessage>& messages) {
  return {{"idle_kv_messages", messages.size()}};
}

bool KvEventMatcher::match(const json& want, const json& got) {
  if (!want.is_array() || !got.is_array() || want.size() != got.size()) return false;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const json& w = want[i];
    const json& g = got[i];
    if (w.size() != g.size() || w.at(0) != g.at(0)) return false;
    const std::string kind = w.at(0);
    if (kind == "AllBlocksCleared") continue;
    if (w.at(1).size() != g.at(1).size()) return false;
    for (std::size_t k = 0; k < w.at(1).size(); ++k) {
      if (!same_block(w.at(1)[k], g.at(1)[k])) return false;
    }
    std::size_t rest = 2;
    if (kind == "BlockStored") {
      if (w.at(2).is_null() != g.at(2).is_null() || (!w.at(2).is_null() && !same_block(w.at(2), g.at(2)))) return false;
      if (w.at(3).size() != g.at(3).size()) return false;
      for (std::size_t k = 0; k < w.at(3).size(); ++k) {
        if (!port_sampled_.contains(g.at(3)[k].get<std::int64_t>()) && g.at(3)[k] != w.at(3)[k]) return false;
      }
      rest = 4;
    }
    for (std::size_t k = rest; k < w.size(); ++k) {
      if (w[k] != g[k]) return false;
    }
  }
  return true;
}

bool KvEventMatcher::same_block(const json& w, const json& g) {
  const auto a = upstream_to_port_.emplace(w.dump(), g.dump()).first;
  const auto b = port_to_upstream_.emplace(g.dump(), w.dump()).first;
  return a->second == g.dump() && b->second == w.dump();
}

void Recorder::push(json record) { decisions.push_back(Decision{-1, take_inputs(inputs_), std::move(record)}); }

std::vector<std::string> take_inputs(std::vector<std::string>& inputs) {
  std::vector<std::string> taken = std::move(inputs);
  inputs.clear();
  std::sort(taken.begin(), taken.end());
  return taken;
}

std::vector<std::string> read_inputs(const json& step, const std::function<engine::Request(const std::string& id)>& request,
                                     std::set<std::string>& live, Tick& tick, std::vector<std::string>& inputs) {
  std::vector<std::string> passed;
  for (const auto& id : step.at("arrivals")) {
    tick.arrivals.push_back(request(id.get<std::string>()));
    inputs.push_back("add " + id.get<std::string>());
    live.insert(id.get<std::string>());
  }
  for (const auto& id : step.at("aborts")) {
    tick.aborts.push_back(id.get<std::string>());
    if (live.erase(id.get<std::string>()) > 0) {
      inputs.push_back("abort " + id.get<std::string>());
      passed.push_back(id.get<std::string>());
    }
  }
  return passed;
}

Outcome drive_and_compare(Recorder& recorder, const engine::Environment& base, const engine::plan::PoolPlan& plan,
                          const std::vector<Tick>& ticks, const std::vector<Decision>& want, const Align& align) {
  const Timing timing = time_inputs(ticks, recorder.in_flight_depth(), kTick);
  if (timing.inexpressible) return {Outcome::kNotStated, "input order", *timing.inexpressible};
  const FixedStepEnvironment env(base, kTick);
  const RunResult result = run(recorder, env, plan, timing.inputs);
  if (!result.refused.empty()) {
    return {Outcome::kNotStated, "admission",
            "the engine refused request " + result.refused.front().request + " at admission (" +
                result.refused.front().reason + "); the oracle does not run upstream's input checks"};
  }
  const std::vector<Decision>& got = recorder.decisions;
  for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    const std::string at = "decision " + std::to_string(i);
    if (i >= got.size()) {
      return {Outcome::kDiverges, "", at + " (tick " + std::to_string(want[i].tick) +
                                          "): the port made no more decisions\n  upstream: " + want[i].record.dump()};
    }
    if (i >= want.size()) {
      return {Outcome::kDiverges, "", at + ": upstream made no more decisions\n  port:     " + got[i].record.dump()};
    }
    const json w = {{"inputs", want[i].inputs}, {"decision", want[i].record}};
    json g = {{"inputs", got[i].inputs}, {"decision", got[i].record}};
    if (align) align(w.at("decision"), g.at("decision"));
    if (w != g) {
      return {Outcome::kDiverges, "", at + " (tick " + std::to_string(want[i].tick) + ", " +
                                          oracle_support::first_difference(w, g, "") + ")\n  upstream: " + w.dump() +
                                          "\n  port:     " + g.dump()};
    }
  }
  return {};
}

int replay_main(int argc, char** argv, const std::string& default_traces,
                const std::function<Outcome(const json& trace)>& replay) {
  std::vector<std::string> args;
  std::int64_t min_replayed = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--min-replayed") {
      if (i + 1 >= argc) {
        std::cerr << "--min-replayed takes a count\n";
        return 2;
      }
      min_replayed = std::stoll(argv[++i]);
    } else {
      args.push_back(a);
    }
  }
  if (args.empty()) args.push_back(default_traces);
  const auto paths = oracle_support::trace_paths(args, std::cerr);
  if (!paths) return 2;
  std::int64_t replayed = 0, diverging = 0;
  std::map<std::string, std::int64_t> not_replayed;
  for (const std::string& path : *paths) {
    std::ifstream in(path);
    if (!in) {
      std::cerr << path << ": cannot read\n";
      return 2;
    }
    Outcome o;
    try {
      o = replay(json::parse(in));
    } catch (const std::exception& e) {
      o = {Outcome::kDiverges, "", std::string("FAILS: ") + e.what()};
    }
    if (o.kind == Outcome::kNotStated) {
      std::cout << path << ": not replayed: " << o.why << "\n";
      ++not_replayed[o.category];
      continue;
    }
    ++replayed;
    if (o.kind == Outcome::kDiverges) {
      ++diverging;
      std::cout << path << ": DIVERGES at " << o.why << "\n";
    }
  }
  std::cout << paths->size() << " traces, " << replayed << " replayed through the simulator's driver, " << diverging
            << " diverging\n";
  for (const auto& [why, n] : not_replayed) std::cout << "  not replayed (" << why << "): " << n << "\n";
  if (replayed < min_replayed) {
    std::cout << "fewer than " << min_replayed << " traces replayed\n";
    return 1;
  }
  return diverging == 0 ? 0 : 1;
}

}  // namespace blis::sim::coupled
