// The vLLM coupled replay (FID-9 coupled-replay, issue 10): each trace the oracle recorded from the pinned vLLM's
// own scheduler (engines/vllm/oracle/traces) is replayed through the simulator's driver: the port's EngineCore,
// built through the engine registry from `vllm serve` arguments that state the trace's configuration (on
// Qwen3-30B-A3B, one H100), runs inside src/sim's EngineComponent on the DEVS coordinator and receives the
// trace's arrivals and aborts as timed messages (tests/oracle/coupled_driver.h: every step lasts one tick). What
// the simulator made the engine decide is compared, in order, with what upstream decided: each step with work
// (the whole scheduler output as replay.cpp compares it, block ids included), and at each completion the tokens
// emitted per request, the finishes with their reasons, the KV-cache events, the queues, the free blocks and the
// published gauges and prefix-cache counters. The inputs the engine took before each decision are compared too.
//
// Upstream's steps of no tokens are no steps to the simulator (EngineCore::schedule returns none); the replay
// checks that each such step's update emitted nothing, and carries its KV events to the next step compared.
// A trace whose configuration or inputs the engine contract cannot state, or whose input order has no simulated
// counterpart (time_inputs), is not replayed and is listed with the reason; the count of replayed traces is
// printed and must reach --min-replayed.
//
//   vllm-coupled-replay [--min-replayed N] [(TRACE.json | DIR)...]   exit 0 when every replayed trace matches and
//   at least N were replayed; no trace argument: engines/vllm/oracle/traces of the source tree it was built from.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/oracle/coupled_replay.h"
#include "tests/vllm/engine/engine_harness.h"
#include "harness.h"
#include "stop_check.h"
#include "trace_records.h"

namespace blis::vllm::testing {
namespace {

using sim::coupled::Decision;
using sim::coupled::Outcome;

using json = nlohmann::json;

// Why the engine contract cannot state a trace's scenario as a user states it, or nothing.
std::optional<std::string> not_stated(const json& scenario) {
  const json& cfg = scenario.at("config");
  for (const auto& g : cfg.value("kv_groups", json::array())) {
    if (g.at("kind") != "full") {
      return "kv_groups holds a " + g.at("kind").get<std::string>() +
             " group: the engine's groups come from the model (Qwen3-30B-A3B: full attention only)";
    }
  }
  for (const auto& r : scenario.at("requests")) {
    if (r.contains("arrival_time") && r.at("arrival_time").get<double>() != r.at("arrival_step").get<double>()) {
      return "arrival_time: request " + r.at("id").get<std::string>() +
             " states an arrival time other than its tick's; the engine's is the instant it took the request";
    }
  }
  if (!scenario.value("resets", json::array()).empty()) return "resets: /reset_prefix_cache is no input of the engine contract";
  return std::nullopt;
}

// Where a scenario request's output ends (DEV-13): where upstream's ended it. The oracle's sampler emits
// 1000 + k at output index k, and EOS at index output_len - 1 (none under ignore_eos); check_stop ends the request
// at its EOS or at the first token in stop_token_ids, whichever comes first -- both FINISHED_STOPPED, which is
// what the contract's forced end of sequence gives. Past max_tokens neither fires (the length check comes first).
std::int64_t output_end(const json& r) {
  std::int64_t end = r.value("ignore_eos", false) ? r.at("max_tokens").get<std::int64_t>() + 1 : r.at("output_len").get<std::int64_t>();
  for (const auto& stop : r.value("stop_token_ids", json::array())) {
    const std::int64_t k = stop.get<std::int64_t>() - 1000;
    if (k >= 0) end = std::min(end, k + 1);
  }
  return end;
}

// The max_tokens the replay's client states: the scenario's, lowered to two past the output's end when larger.
// The scheduler reads max_tokens in the length stop, which then never fires first, and in the cap on a step's
// tokens (max_total_tokens in scheduler.py@6e448d0e schedule), which then still lets the one step past the end
// that async scheduling runs; so it decides nothing differently -- and the replay compares every decision, so a
// difference would show. It lets a small pool serve the scenario (see served_max_model_len).
std::int64_t served_max_tokens(const json& r) {
  return std::min(r.at("max_tokens").get<std::int64_t>(), output_end(r) + 2);
}

// A scenario request as the simulator's workload hands it over.
engine::Request contract_request(const json& r) {
  engine::Request q;
  q.id = r.at("id");
  q.prompt = r.at("prompt").get<std::vector<std::int32_t>>();
  q.max_tokens = served_max_tokens(r);
  q.sampled_output_len = output_end(r);
  if (r.contains("priority")) q.priority = r.at("priority").get<std::int64_t>();
  return q;
}

// The max-model-len the replay serves: the trace's, lowered to the longest request's prompt + served max_tokens
// when that is shorter. Upstream refuses to start when a pool cannot hold one request of max_model_len tokens
// (kv_cache_utils.py@6e448d0e check_enough_kv_cache_memory), and the oracle's small pools often cannot; no
// request reaches either length, so the scheduler's bounds by max_model_len (the token caps, the length stop,
// the full-sequence fit) decide nothing differently.
std::int64_t served_max_model_len(const json& scenario) {
  const json& cfg = scenario.at("config");
  const std::int64_t stated = cfg.contains("max_model_len") ? cfg.at("max_model_len").get<std::int64_t>()
                                                             : cfg.at("max_num_batched_tokens").get<std::int64_t>();
  std::int64_t longest = 1;
  for (const auto& r : scenario.at("requests")) {
    longest = std::max(longest, static_cast<std::int64_t>(r.at("prompt").size()) + served_max_tokens(r));
  }
  return std::min(stated, longest);
}

// The trace's configuration as `vllm serve` arguments (the oracle gives upstream the same values resolved).
std::vector<std::pair<std::string, std::string>> serve_args(const json& scenario) {
  auto flag = [](bool on) { return std::string(on ? "true" : "false"); };
  const json& cfg = scenario.at("config");
  const std::int64_t max_model_len = served_max_model_len(scenario);
  std::vector<std::pair<std::string, std::string>> args{
      {"block-size", std::to_string(cfg.at("block_size").get<std::int64_t>())},
      {"num-gpu-blocks-override", std::to_string(cfg.at("num_blocks").get<std::int64_t>())},
      {"max-num-seqs", std::to_string(cfg.at("max_num_seqs").get<std::int64_t>())},
      {"max-num-batched-tokens", std::to_string(cfg.at("max_num_batched_tokens").get<std::int64_t>())},
      {"enable-prefix-caching", flag(cfg.value("enable_prefix_caching", false))},
      {"enable-chunked-prefill", flag(cfg.value("enable_chunked_prefill", true))},
      {"async-scheduling", flag(cfg.value("async_scheduling", false))},
      {"scheduling-policy", cfg.value("policy", std::string("fcfs"))}};
  if (cfg.value("long_prefill_token_threshold", 0) != 0) {
    args.emplace_back("long-prefill-token-threshold", std::to_string(cfg.at("long_prefill_token_threshold").get<std::int64_t>()));
  }
  if (cfg.value("kv_events", false)) args.emplace_back("kv-events-config", R"({"enable_kv_cache_events": true})");
  if (cfg.value("watermark", 0.0) != 0.0) args.emplace_back("watermark", std::to_string(cfg.at("watermark").get<double>()));
  // make_engine puts its model and max-model-len first; a later argument of the same name wins (argparse's rule).
  // A mixture-of-experts model: vLLM resolves the V1 model runner for it (vllm.py@6e448d0e use_v2_model_runner),
  // as the oracle's scheduler is configured; a dense model would get the V2 runner, which sends a resumed request
  // as a new one.
  args.emplace_back("model", "Qwen/Qwen3-30B-A3B");
  args.emplace_back("max-model-len", std::to_string(max_model_len));
  return args;
}

json state_of(const Scheduler& s) {
  return {{"running", ids_of(s.running())},
          {"waiting", ids_of(s.waiting())},
          {"num_free_blocks", s.kv_cache_manager().block_pool->get_num_free_blocks()},
          {"kv_cache_usage", s.get_kv_cache_usage()}};
}

// The port as the simulator drives it, each decision in the trace's shape.
class Recorder final : public sim::coupled::Recorder {
 public:
  explicit Recorder(EngineCore& core) : sim::coupled::Recorder(core), core_(core) {}

 protected:
  json scheduled(const engine::ScheduledStep& step) override {
    return {{"schedule", schedule_record(*core_.in_flight_output(step.id))}};
  }
  json completed(const engine::StepOutcome& o) override {
    json emitted = json::array(), finished = json::array(), events = json::array();
    for (const auto& e : o.emitted) emitted.push_back({e.request, e.tokens});
    for (const auto& f : o.finished) finished.push_back({f.request, f.reason});
    for (const auto& m : o.kv_events) {
      for (const auto& e : m.events) events.push_back(event_record<engine::KvBlockStored, engine::KvBlockRemoved>(e));
    }
    const engine::Published p = core_.published();
    return {{"update",
             {{"emitted", emitted},
              {"finished", finished},
              {"kv_events", events},
              {"state", state_of(core_.scheduler())},
              {"published", {p.running, p.waiting, p.kv_usage, p.prefix_cache_queries, p.prefix_cache_hits}}}}};
  }

 private:
  EngineCore& core_;
};

// Upstream's decisions from the trace, in order, and the ticks the driver times.
std::vector<Decision> upstream_decisions(const json& trace, std::vector<sim::coupled::Tick>& ticks) {
  const json& scenario = trace.at("scenario");
  std::map<std::string, json> specs;
  for (const auto& r : scenario.at("requests")) specs[r.at("id").get<std::string>()] = r;
  std::set<std::string> live;  // arrived and not yet finished: an abort of any other request changes nothing
  std::map<std::int64_t, bool> zero;  // tick -> its schedule had no tokens
  std::vector<Decision> out;
  std::vector<std::string> inputs;
  json carried_events = json::array();  // KV events published by updates of steps with no tokens
  std::int64_t queries = 0, hits = 0;
  for (const json& step : trace.at("steps")) {
    sim::coupled::Tick t;
    t.tick = step.at("step");
    sim::coupled::read_inputs(step, [&specs](const std::string& id) { return contract_request(specs.at(id)); }, live, t,
                              inputs);
    if (step.contains("schedule")) {
      const bool none = step.at("schedule").at("total_num_scheduled_tokens") == 0;
      zero[t.tick] = none;
      t.found_nothing = none;
      if (!none) {
        t.scheduled = true;
        out.push_back(Decision{t.tick, sim::coupled::take_inputs(inputs), {{"schedule", step.at("schedule")}}});
      }
    }
    for (const auto& e : step.value("kv_events", json::array())) carried_events.push_back(e);
    if (step.contains("update")) {
      const json& u = step.at("update");
      const json& stats = u.at("stats");
      if (!stats.is_null()) {
        queries += stats.at(4).get<std::int64_t>();
        hits += stats.at(5).get<std::int64_t>();
      }
      json emitted = json::array(), finished = json::array();
      for (const auto& row : u.at("outputs")) {
        if (!row.at(1).empty()) emitted.push_back({row.at(0), row.at(1).size()});
        if (!row.at(2).is_null()) {
          finished.push_back({row.at(0), row.at(2)});
          live.erase(row.at(0).get<std::string>());
        }
      }
      if (zero.at(u.at("of").get<std::int64_t>())) {
        if (!emitted.empty() || !finished.empty()) {
          throw std::runtime_error("tick " + std::to_string(t.tick) + ": upstream's step of no tokens emitted or finished "
                                   "requests; the simulator's engine never runs such a step");
        }
      } else {
        t.updated = true;
        // step_with_batch_queue blocked on this step after scheduling none (EngineCore::in_flight_depth).
        t.waits_for_oldest = t.found_nothing;
        json published = {stats.at(0), stats.at(1).get<std::int64_t>() + stats.at(2).get<std::int64_t>(), stats.at(3),
                          queries, hits};
        json state = step.at("state");
        out.push_back(Decision{t.tick, sim::coupled::take_inputs(inputs),
                               {{"update",
                                 {{"emitted", emitted},
                                  {"finished", finished},
                                  {"kv_events", carried_events},
                                  {"state",
                                   {{"running", state.at("running")},
                                    {"waiting", state.at("waiting")},
                                    {"num_free_blocks", state.at("num_free_blocks")},
                                    {"kv_cache_usage", state.at("kv_cache_usage")}}},
                                  {"published", published}}}}});
        carried_events = json::array();
      }
    }
    ticks.push_back(std::move(t));
  }
  return out;
}

Outcome replay(const json& trace) {
  const json& scenario = trace.at("scenario");
  if (auto why = not_stated(scenario)) return {Outcome::kNotStated, why->substr(0, why->find(':')), *why};
  std::vector<sim::coupled::Tick> ticks;
  const std::vector<Decision> want = upstream_decisions(trace, ticks);

  std::unique_ptr<EngineCore> core;
  try {
    core = test::make_engine(serve_args(scenario), {{"PYTHONHASHSEED", "0"}});
  } catch (const std::exception& e) {
    return {Outcome::kNotStated, "configuration", std::string("the engine refuses the configuration: ") + e.what()};
  }
  Recorder recorder(*core);
  sim::coupled::KvEventMatcher events({kSimulatedTokenId, kSimulatedEosTokenId});  // engines/vllm/stop_check.h
  const Outcome o = sim::coupled::drive_and_compare(
      recorder, test::environment(), core->plan(), ticks, want, [&events](const json& w, json& g) {
        if (w.contains("update") && g.contains("update") &&
            events.match(w.at("update").at("kv_events"), g.at("update").at("kv_events"))) {
          g["update"]["kv_events"] = w.at("update").at("kv_events");
        }
      });
  if (o.kind == Outcome::kMatch && core->scheduler().has_unfinished_requests()) {
    return {Outcome::kDiverges, "", "the end: the port still holds requests"};
  }
  return o;
}

}  // namespace
}  // namespace blis::vllm::testing

int main(int argc, char** argv) {
  return blis::sim::coupled::replay_main(argc, argv, BLIS_VLLM_ORACLE_TRACES, blis::vllm::testing::replay);
}
