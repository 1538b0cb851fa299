// The SGLang coupled replay (FID-9 sglang-coupled-replay, issue 10): each trace the oracle recorded from the pinned
// SGLang's own scheduling code (engines/sglang/oracle/traces) is replayed through the simulator's driver: the
// port's EngineCore, built through the engine registry from `sglang serve` arguments that state the trace's
// configuration (on Llama-3.1-8B, one H100, with the loop the oracle ran: --disable-overlap-schedule for
// event_loop_normal, the default overlap schedule for event_loop_overlap), runs inside src/sim's EngineComponent on the DEVS coordinator and receives the trace's
// arrivals and aborts as timed messages (tests/oracle/coupled_driver.h: every step lasts one tick). What the
// simulator made the engine decide is compared, in order, with what upstream decided: each launched batch (the
// whole batch record replay.cpp compares) with the requests it retracted, and at each completion the tokens
// emitted per request, the requests ended (in the batch or outside it) with their reasons, the queues, the
// new-token ratio, the pool and radix-cache sizes and the KV events published with the batch's report; the KV
// events on_idle published, when the engine found nothing to schedule, are a decision of their own. Events are
// compared up to the tokens the two samplers chose (KvEventMatcher). The inputs the engine took before each
// decision are compared too. A request the client aborted leaves the contract's records (the router learns of it
// from the abort); upstream's rows for it are left out of the comparison likewise.
//
// Requests carry their priorities (the contract's Request.priority). A trace whose configuration the engine
// refuses, or whose inputs have no simulated counterpart, is listed with the reason and not replayed; the count
// of replayed traces is printed and must reach --min-replayed.
//
//   sglang-coupled-replay [--min-replayed N] [(TRACE.json | DIR)...]   exit 0 when every replayed trace matches and
//   at least N were replayed; no trace argument: engines/sglang/oracle/traces of the source tree it was built from.
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

#include "engines/sglang/stop_check.h"
#include "tests/sglang/engine/engine_harness.h"
#include "tests/oracle/coupled_replay.h"
#include "trace_records.h"

namespace blis::sglang::oracle {
namespace {

using json = nlohmann::json;
using sim::coupled::Decision;
using sim::coupled::Outcome;

// The trace's configuration as server arguments (the oracle gives upstream's Scheduler the same values).
std::vector<std::pair<std::string, std::string>> serve_args(const json& cfg) {
  auto num = [&](const char* key) { return std::to_string(cfg.at(key).get<std::int64_t>()); };
  std::vector<std::pair<std::string, std::string>> args{
      {"page-size", num("page_size")},
      {"max-total-tokens", num("max_total_num_tokens")},
      {"max-running-requests", num("max_running_requests")},
      {"chunked-prefill-size", num("chunked_prefill_size")},
      {"max-prefill-tokens", num("max_prefill_tokens")},
      {"schedule-policy", cfg.at("schedule_policy").get<std::string>()},
      {"disable-overlap-schedule", cfg.value("disable_overlap_schedule", true) ? "true" : "false"},
      {"kv-events-config", R"({"publisher": "zmq", "topic": "kv-events"})"}};  // runner.py KV_EVENTS_CONFIG
  if (cfg.value("enable_mixed_chunk", false)) args.emplace_back("enable-mixed-chunk", "true");
  if (cfg.value("disable_radix_cache", false)) args.emplace_back("disable-radix-cache", "true");
  args.emplace_back("radix-eviction-policy", cfg.value("radix_eviction_policy", std::string("lru")));
  if (cfg.value("enable_priority_scheduling", false)) {
    args.emplace_back("enable-priority-scheduling", "true");
    args.emplace_back("priority-scheduling-preemption-threshold", num("priority_scheduling_preemption_threshold"));
  }
  args.emplace_back("context-length", num("context_len"));
  return args;
}

// Where a scenario request's output ends (DEV-13): the oracle's sampler emits EOS at output index output_len - 1
// (none under ignore_eos, where max_new_tokens ends it).
engine::Request contract_request(const json& r) {
  engine::Request q;
  q.id = r.at("id");
  q.prompt = r.at("prompt").get<std::vector<std::int32_t>>();
  q.max_tokens = r.at("max_new_tokens").get<std::int64_t>();
  q.sampled_output_len = r.value("ignore_eos", false) ? *q.max_tokens + 1 : r.at("output_len").get<std::int64_t>();
  if (r.contains("priority") && !r.at("priority").is_null()) q.priority = r.at("priority").get<std::int64_t>();
  return q;
}

// The events of the messages the port published, each as runner.py event_record writes upstream's, from the
// engine contract's events (kv_events_codec.cpp to_contract: the signed 64-bit hashes carried as unsigned).
json events_of(const std::vector<engine::KvEventMessage>& messages) {
  auto hash = [](std::uint64_t h) { return static_cast<std::int64_t>(h); };
  auto hashes = [&](const std::vector<engine::KvBlockHash>& list) {
    json out = json::array();
    for (const auto& h : list) out.push_back(hash(std::get<std::uint64_t>(h)));
    return out;
  };
  auto opt = [](const auto& o) { return o ? json(*o) : json(nullptr); };
  json out = json::array();
  for (const auto& m : messages) {
    for (const auto& e : m.events) {
      if (const auto* st = std::get_if<engine::KvBlockStored>(&e)) {
        const json parent =
            st->parent_block_hash ? json(hash(std::get<std::uint64_t>(*st->parent_block_hash))) : json(nullptr);
        out.push_back({"BlockStored", hashes(st->block_hashes), parent, st->token_ids, st->block_size,
                       opt(st->lora_id), opt(st->medium)});
      } else if (const auto* rm = std::get_if<engine::KvBlockRemoved>(&e)) {
        out.push_back({"BlockRemoved", hashes(rm->block_hashes), opt(rm->medium)});
      } else {
        out.push_back(json::array({"AllBlocksCleared"}));
      }
    }
  }
  return out;
}

// The port as the simulator drives it, each decision in the trace's shape.
class Recorder final : public sim::coupled::Recorder {
 public:
  explicit Recorder(EngineCore& core) : sim::coupled::Recorder(core), core_(core) {}

 protected:
  json scheduled(const engine::ScheduledStep&) override {
    return {{"batch", batch_record(*core_.scheduler().newest_launched())}};
  }
  json completed(const engine::StepOutcome& o) override {
    json emitted = json::array(), ended = json::array();
    for (const auto& e : o.emitted) emitted.push_back({e.request, e.tokens});
    for (const auto& f : o.finished) ended.push_back({f.request, f.reason});
    return {{"processed",
             {{"emitted", emitted},
              {"ended", ended},
              {"retracted", o.preempted},
              {"state", state_record(core_.scheduler())},
              {"kv_events", events_of(o.kv_events)}}}};
  }
  json idle_published(const std::vector<engine::KvEventMessage>& messages) override {
    return {{"idle_kv_events", events_of(messages)}};
  }

 private:
  EngineCore& core_;
};

// Upstream's decisions from the trace, in order, and the ticks the driver times.
std::vector<Decision> upstream_decisions(const json& trace, std::vector<sim::coupled::Tick>& ticks) {
  std::map<std::string, json> specs;
  for (const auto& r : trace.at("scenario").at("requests")) specs[r.at("id").get<std::string>()] = r;
  std::set<std::string> live;            // arrived, not yet ended or aborted
  std::set<std::string> client_aborted;  // ended by the client: the contract's records leave them out
  std::vector<Decision> out;
  std::vector<std::string> inputs;
  json retracted_since = json::array();  // retractions made by iterations that launched no batch
  const bool overlap = !trace.at("scenario").at("config").value("disable_overlap_schedule", true);
  for (const json& step : trace.at("steps")) {
    sim::coupled::Tick t;
    t.tick = step.at("step");
    for (const std::string& id : sim::coupled::read_inputs(
             step, [&specs](const std::string& id) { return contract_request(specs.at(id)); }, live, t, inputs)) {
      client_aborted.insert(id);
    }
    for (const auto& id : step.at("retracted")) retracted_since.push_back(id);
    json emitted = json::array(), ended = json::array();
    for (const auto& row : step.at("processed").at("emitted")) {
      if (!client_aborted.contains(row.at(0))) emitted.push_back(row);
    }
    for (const auto* rows : {&step.at("processed").at("finished"), &step.at("ended_outside")}) {
      for (const auto& row : *rows) {
        const std::string rid = row.at(0);
        live.erase(rid);
        if (client_aborted.erase(rid) == 0) ended.push_back(row);
      }
    }
    const json& events = step.at("kv_events");
    const bool launched = !step.at("batch").is_null();
    // A step processes a batch's result: under event_loop_normal the batch it launched, under event_loop_overlap
    // the one launched before (after it launched its own), with the tokens it sampled.
    const bool processed = overlap ? !step.at("sampled").empty() : launched;
    if (launched) {
      t.scheduled = true;
      out.push_back(Decision{t.tick, sim::coupled::take_inputs(inputs), {{"batch", step.at("batch")}}});
    } else {
      t.found_nothing = true;
      t.waits_for_oldest = overlap && processed;  // EngineCore::in_flight_depth while awaiting the last batch
    }
    if (processed) {
      t.updated = true;
      out.push_back(Decision{t.tick, sim::coupled::take_inputs(inputs),
                             {{"processed",
                               {{"emitted", emitted},
                                {"ended", ended},
                                {"retracted", retracted_since},
                                {"state", step.at("state")},
                                {"kv_events", events}}}}});
      retracted_since = json::array();
    } else {
      if (!events.empty()) {
        // on_idle published what the cache had queued: the port publishes it when the component finds it idle.
        out.push_back(Decision{t.tick, sim::coupled::take_inputs(inputs), {{"idle_kv_events", events}}});
      }
      if (!emitted.empty() || !ended.empty()) {
        // Upstream ended requests outside any batch while the simulator's engine ran no step: they reach the
        // contract with the next completion.
        throw std::runtime_error("tick " + std::to_string(t.tick) + ": upstream ended requests in an iteration that "
                                 "processed no batch; the contract reports ends with a step");
      }
    }
    ticks.push_back(std::move(t));
  }
  return out;
}

Outcome replay(const json& trace) {
  if (trace.at("engine") != "sglang") throw std::runtime_error("not an sglang trace");
  const json& scenario = trace.at("scenario");
  std::vector<sim::coupled::Tick> ticks;
  const std::vector<Decision> want = upstream_decisions(trace, ticks);

  std::unique_ptr<EngineCore> core;
  try {
    core = test::make_engine(serve_args(scenario.at("config")));
  } catch (const std::exception& e) {
    return {Outcome::kNotStated, "configuration", std::string("the engine refuses the configuration: ") + e.what()};
  }
  Recorder recorder(*core);
  // Output tokens: upstream's stand-in samples 1000 + k, the port's sampler kSimulatedTokenId (stop_check.h).
  sim::coupled::KvEventMatcher events({sglang::kSimulatedTokenId, sglang::kSimulatedEosTokenId});
  return sim::coupled::drive_and_compare(
      recorder, test_support::environment(), core->plan(), ticks, want, [&events](const json& w, json& g) {
        auto align = [&events](const json& wp, json& gp, const char* key) {
          if (wp.contains(key) && gp.contains(key) && events.match(wp.at(key), gp.at(key))) gp[key] = wp.at(key);
        };
        if (w.contains("processed") && g.contains("processed")) {
          align(w.at("processed"), g.at("processed"), "kv_events");
        }
        align(w, g, "idle_kv_events");
      });
}

}  // namespace
}  // namespace blis::sglang::oracle

int main(int argc, char** argv) {
  return blis::sim::coupled::replay_main(argc, argv, BLIS_SGLANG_ORACLE_TRACES, blis::sglang::oracle::replay);
}
