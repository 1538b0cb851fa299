// Shared pieces of the SGLang engine-core tests: the embedded data, the production Environment on one
// H100-SXM node, an EngineCore built through the registry (both construction phases), and a driver that
// keeps up to in_flight_depth() steps in flight as the simulator's engine component does. (The vLLM engine
// tests have their own harness, tests/vllm/engine/engine_harness.h, which names the vLLM port.)
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "contracts/engine/engine.h"
#include "tests/sim/embedded_environment.h"
#include "srt/entrypoints/engine_core.h"

namespace blis::sglang::test {

using test_support::embedded;
using test_support::environment;
using test_support::scalar;

inline engine::Spec spec_of(std::vector<std::pair<std::string, std::string>> args,
                            std::map<std::string, std::string> env_vars = {}, bool add_model = true) {
  engine::Spec spec;
  spec.engine.kind = "sglang";
  spec.engine.version = "0.5.18";
  doc::Node a;
  a.kind = doc::Kind::Map;
  if (add_model) {
    args.insert(args.begin(), {"context-length", "4096"});
    args.insert(args.begin(), {"model-path", "meta-llama/Meta-Llama-3.1-8B"});
  }
  for (auto& [k, v] : args) a.entries.push_back(doc::Entry{scalar(k), scalar(v)});
  spec.engine.args = a;
  if (!env_vars.empty()) {
    spec.engine.env.emplace();
    for (auto& [k, v] : env_vars) (*spec.engine.env)[k] = scalar(v);
  }
  spec.pool = "serve";
  spec.chip = "H100-SXM";
  spec.nodes = units::Count{1};
  spec.gpus_per_node = units::CountPerNode{8};
  return spec;
}

// An EngineCore for Llama-3.1-8B on one H100 with the given server arguments (model-path and a 4096-token
// context-length are added first).
inline std::unique_ptr<EngineCore> make_engine(std::vector<std::pair<std::string, std::string>> args = {},
                                               std::map<std::string, std::string> env_vars = {}) {
  engine::EngineRegistry registry;
  register_sglang_engine(registry);
  std::unique_ptr<engine::Engine> built =
      engine::build_engine(registry, spec_of(std::move(args), std::move(env_vars)), environment());
  return std::unique_ptr<EngineCore>(static_cast<EngineCore*>(built.release()));
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

struct Record {
  std::vector<engine::ScheduledStep> steps;
  std::map<std::string, std::int64_t> emitted;
  std::map<std::string, std::string> finished;
  std::vector<std::string> preempted;
  std::vector<engine::KvEventMessage> kv_events;
  std::int64_t most_in_flight = 0;
};

inline Record drain(EngineCore& e, Record rec = {}) {
  std::deque<std::uint64_t> in_flight;
  for (int guard = 0; guard < 100000; ++guard) {
    while (static_cast<std::int64_t>(in_flight.size()) < e.in_flight_depth()) {
      auto step = e.schedule();
      if (!step) break;
      in_flight.push_back(step->id);
      rec.steps.push_back(*step);
    }
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

}  // namespace blis::sglang::test
