// Original to BLIS: the production Environment on the embedded data (one H100-SXM node of 8 GPUs), for tests
// that build engines through the registry (tests/vllm/engine, tests/sglang/engine, tests/sim's plan-difference
// trace): the pool's Spec from the upstream's arguments, a request, and a driver that runs an engine's steps as
// the simulator's engine component does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "contracts/doc/node.h"
#include "contracts/engine/engine.h"
#include "contracts/engine/scheduling.h"
#include "data/loader.h"
#include "data/validators.h"
#include "sim/environment.h"
#include "sim/wiring/cluster.h"

namespace blis::test_support {

inline const data::DataSet& embedded() {
  static const data::DataSet d = [] {
    data::LoadOutcome out = data::load({}, data::standard_validators());
    if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
    return std::move(*out.data);
  }();
  return d;
}

inline const sim::SubstrateEnvironment& environment() {
  static const sim::SubstrateEnvironment env = [] {
    schema::ScenarioCluster c;
    c.chip = "H100-SXM";
    c.nodes = units::Count{1};
    c.gpus_per_node = units::Count{8};
    return sim::SubstrateEnvironment(embedded(), sim::cluster_topology(c, embedded()));
  }();
  return env;
}

inline doc::Node scalar(std::string s) {
  doc::Node n;
  n.kind = doc::Kind::Scalar;
  n.scalar = std::move(s);
  return n;
}

// One pool's engine Spec on the environment's H100 node: kind, version, the upstream's own arguments in order and
// its environment variables.
inline engine::Spec engine_spec(const std::string& kind, const std::string& version,
                                const std::vector<std::pair<std::string, std::string>>& args,
                                const std::map<std::string, std::string>& env_vars = {}) {
  engine::Spec spec;
  spec.engine.kind = kind;
  spec.engine.version = version;
  doc::Node a;
  a.kind = doc::Kind::Map;
  for (const auto& [k, v] : args) a.entries.push_back(doc::Entry{scalar(k), scalar(v)});
  spec.engine.args = a;
  if (!env_vars.empty()) {
    spec.engine.env.emplace();
    for (const auto& [k, v] : env_vars) (*spec.engine.env)[k] = scalar(v);
  }
  spec.pool = "serve";
  spec.chip = "H100-SXM";
  spec.nodes = units::Count{1};
  spec.gpus_per_node = units::CountPerNode{8};
  return spec;
}

inline engine::Request request(std::string id, std::int64_t prompt_len, std::int64_t sampled_output_len,
                               std::optional<std::int64_t> max_tokens = std::nullopt, std::int32_t first_token = 1000) {
  engine::Request r;
  r.id = std::move(id);
  for (std::int64_t i = 0; i < prompt_len; ++i) r.prompt.push_back(first_token + static_cast<std::int32_t>(i));
  r.max_tokens = max_tokens;
  r.sampled_output_len = sampled_output_len;
  return r;
}

// What a run of the engine's steps produced.
struct Record {
  std::vector<engine::ScheduledStep> steps;
  std::map<std::string, std::int64_t> emitted;       // tokens per request
  std::map<std::string, std::string> finished;       // finish reason per request
  std::vector<std::string> preempted;
  std::vector<engine::KvEventMessage> kv_events;     // every KV-event message published (steps' and idle), in order
  std::int64_t most_in_flight = 0;
};

// Runs the engine until it has nothing to schedule and nothing in flight, keeping up to in_flight_depth() steps
// in flight (the simulator's engine component does the same).
inline Record drain(engine::StepEngine& e, Record rec = {}) {
  std::deque<std::uint64_t> in_flight;
  for (int guard = 0; guard < 100000; ++guard) {
    while (static_cast<std::int64_t>(in_flight.size()) < e.in_flight_depth()) {
      auto step = e.schedule();
      if (!step) break;
      in_flight.push_back(step->id);
      rec.steps.push_back(*step);
    }
    for (auto& m : e.take_idle_publications()) rec.kv_events.push_back(std::move(m));  // as the component takes them
    rec.most_in_flight = std::max<std::int64_t>(rec.most_in_flight, static_cast<std::int64_t>(in_flight.size()));
    if (in_flight.empty()) return rec;
    engine::StepOutcome out = e.complete(in_flight.front());
    in_flight.pop_front();
    for (const auto& t : out.emitted) rec.emitted[t.request] += t.tokens;
    for (const auto& f : out.finished) rec.finished[f.request] = f.reason;
    rec.preempted.insert(rec.preempted.end(), out.preempted.begin(), out.preempted.end());
    for (auto& m : out.kv_events) rec.kv_events.push_back(std::move(m));
  }
  throw std::runtime_error("drain: the engine did not go idle");
}

}  // namespace blis::test_support
