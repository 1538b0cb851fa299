// The vLLM oracle replay (X5 decisions-match-on-replay, issue 10): feeds each recorded trace's inputs
// (arrivals, aborts, the model runner's sampled tokens) to the port's Scheduler, built as
// tests/v1/core/utils.py@6e448d0e create_scheduler builds upstream's (tests/vllm/sched/harness.h), and
// compares every recorded field at every step: the schedule (scheduled tokens in order, new and cached
// requests with their blocks, common-prefix blocks, finished and preempted ids), the engine outputs
// (tokens, finish and stop reasons), the scheduler stats (gauges, prefix-cache queries and hits), the
// queues, the free blocks and the KV-cache events. The comparison is two-sided: each step's port record
// is built in the trace's shape and compared whole, so a field present on one side only is a mismatch.
// The first divergent step is reported with both sides.
//
//   vllm-oracle-replay [(TRACE.json | DIR)...]   exit 0 when every trace replays with zero divergences; a DIR
//   stands for its *.trace.json files, in name order (at least one); no argument: engines/vllm/oracle/traces
//   of the source tree the program was built from.
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.h"
#include "tests/oracle/replay_support.h"
#include "trace_records.h"

namespace blis::vllm::testing {
namespace {

using oracle_support::first_difference;

using json = nlohmann::json;

json outputs_record(const std::vector<EngineCoreOutput>& outputs) {
  json rows = json::array();
  for (const auto& o : outputs) {
    // The port keeps a stop token's id as its decimal text (no stop strings reach the scheduler: they are
    // the detokenizer's); upstream keeps the int, as the trace records it.
    rows.push_back({o.request_id, o.new_token_ids, o.finish_reason ? json(*o.finish_reason) : json(nullptr),
                    o.stop_reason ? json(std::stoll(*o.stop_reason)) : json(nullptr)});
  }
  return rows;
}

json stats_record(const SchedulerStats& s) {
  return {s.num_running_reqs, s.num_waiting_reqs, s.num_skipped_waiting_reqs, s.kv_cache_usage,
          s.prefix_cache_queries, s.prefix_cache_hits};
}

json state_record(Scheduler& sched) {
  json r = json::object();
  r["running"] = ids_of(sched.running());
  r["waiting"] = ids_of(sched.waiting());
  r["num_free_blocks"] = sched.kv_cache_manager().block_pool->get_num_free_blocks();
  r["has_requests"] = sched.has_requests();
  const auto [running, waiting] = sched.get_request_counts();
  r["request_counts"] = {running, waiting};
  r["kv_cache_usage"] = sched.get_kv_cache_usage();
  return r;
}

json events_record(Scheduler& sched) {
  json events = json::array();
  for (const auto& [seq, batch] : sched.take_sent_kv_events()) {
    for (const auto& e : batch.events) events.push_back(event_record<BlockStored, BlockRemoved>(e));
  }
  return events;
}

struct Divergence {
  std::int64_t step = 0;
  std::string where;
  json want;
  json got;
};

std::optional<Divergence> replay(const json& trace) {
  const json& scenario = trace.at("scenario");
  const json& cfg = scenario.at("config");
  SchedulerArgs args;
  args.block_size = cfg.at("block_size");
  args.num_blocks = cfg.at("num_blocks");
  args.max_num_seqs = cfg.at("max_num_seqs");
  args.max_num_batched_tokens = cfg.at("max_num_batched_tokens");
  if (cfg.contains("max_model_len")) args.max_model_len = cfg.at("max_model_len").get<std::int64_t>();
  args.enable_prefix_caching = cfg.value("enable_prefix_caching", false);
  args.enable_chunked_prefill = cfg.value("enable_chunked_prefill", true);
  args.long_prefill_token_threshold = cfg.value("long_prefill_token_threshold", 0);
  args.async_scheduling = cfg.value("async_scheduling", false);
  args.policy = cfg.value("policy", std::string("fcfs"));
  args.kv_events = cfg.value("kv_events", false);
  for (const auto& g : cfg.value("kv_groups", json::array())) {
    const std::string kind = g.at("kind");
    const std::int64_t param = kind == "sliding_window" ? g.at("sliding_window").get<std::int64_t>()
                               : kind == "chunked_local" ? g.at("attention_chunk_size").get<std::int64_t>()
                                                         : 0;
    args.kv_groups.push_back({kind, param});
  }
  if (cfg.value("watermark", 0.0) != 0.0) throw std::runtime_error("replay: a non-zero watermark is not replayed");
  auto sched = create_scheduler(args);

  std::map<std::string, json> specs;
  for (const auto& r : scenario.at("requests")) specs[r.at("id").get<std::string>()] = r;

  // The batches in flight, oldest first: their tick, scheduler output and the model runner's output (the
  // trace's sampled tokens, an input). The trace says at which ticks the driver scheduled and updated
  // (core.py@6e448d0e step / step_with_batch_queue, as runner.py drives upstream).
  struct InFlight {
    std::int64_t tick;
    SchedulerOutput out;
    ModelRunnerOutput mro;
  };
  std::deque<InFlight> queue;
  for (const json& step : trace.at("steps")) {
    const std::int64_t k = step.at("step");
    json got = json::object();
    got["step"] = k;
    got["arrivals"] = json::array();
    got["aborts"] = json::array();
    for (const auto& id_json : step.at("arrivals")) {
      const std::string id = id_json;
      const json& r = specs.at(id);
      const double arrival = r.contains("arrival_time") ? r.at("arrival_time").get<double>()
                                                        : static_cast<double>(r.at("arrival_step").get<std::int64_t>());
      sched->add_request(make_request_at(id, r.at("prompt").get<std::vector<std::int32_t>>(), r.at("max_tokens"), arrival,
                                         r.value("priority", 0), r.value("ignore_eos", false), args.block_size,
                                         r.value("stop_token_ids", std::vector<std::int32_t>{})));
      got["arrivals"].push_back(id);
    }
    for (const auto& id_json : step.at("aborts")) {
      sched->finish_requests({id_json.get<std::string>()}, RequestStatus::kFinishedAborted);
      got["aborts"].push_back(id_json);
    }
    if (step.contains("reset")) {
      const bool running = step.at("reset").at(0);
      got["reset"] = {running, sched->reset_prefix_cache(running)};
    }
    if (step.contains("schedule")) {
      SchedulerOutput out = sched->schedule();
      got["schedule"] = schedule_record(out);
      if (got["schedule"] != step.at("schedule")) {
        return Divergence{k, first_difference(step.at("schedule"), got["schedule"], "schedule"), step.at("schedule"),
                          got["schedule"]};
      }
      std::vector<std::string> ids;
      std::vector<std::vector<std::int32_t>> sampled;
      for (const auto& row : step.at("sampled")) {
        ids.push_back(row.at(0));
        sampled.push_back(row.at(1).get<std::vector<std::int32_t>>());
      }
      got["sampled"] = step.at("sampled");
      queue.push_back(InFlight{k, std::move(out), model_runner_output(ids, sampled)});
    }
    if (step.contains("update")) {
      if (queue.empty()) throw std::runtime_error("replay: the trace updates with no batch in flight");
      InFlight batch = std::move(queue.front());
      queue.pop_front();
      UpdateResult result = update_from_output(*sched, batch.out, batch.mro);
      got["update"] = {{"of", batch.tick}, {"outputs", outputs_record(result.outputs)}, {"stats", stats_record(result.stats)}};
    }
    got["state"] = state_record(*sched);
    json events = events_record(*sched);
    if (args.kv_events) got["kv_events"] = events;
    if (got != step) {
      return Divergence{k, first_difference(step, got, "step"), step, got};
    }
  }
  if (sched->has_requests()) {
    return Divergence{static_cast<std::int64_t>(trace.at("steps").size()), "the port still holds requests", nullptr,
                      nullptr};
  }
  return std::nullopt;
}

}  // namespace
}  // namespace blis::vllm::testing

int main(int argc, char** argv) {
  using blis::vllm::testing::replay;
  // No argument: the committed traces of the source tree it was built from (the mutation sweep runs it so).
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) args.push_back(BLIS_VLLM_ORACLE_TRACES);
  const auto found = blis::oracle_support::trace_paths(args, std::cerr);
  if (!found) return 2;
  const std::vector<std::string>& paths = *found;
  int failed = 0;
  std::int64_t total_steps = 0;
  for (const std::string& path : paths) {
    const char* name = path.c_str();
    std::ifstream in(path);
    if (!in) {
      std::cerr << path << ": cannot read\n";
      return 2;
    }
    nlohmann::json trace = nlohmann::json::parse(in);
    const auto steps = static_cast<std::int64_t>(trace.at("steps").size());
    total_steps += steps;
    try {
      if (auto d = replay(trace)) {
        ++failed;
        std::cout << name << ": DIVERGES at step " << d->step << " (" << d->where << ")\n  upstream: " << d->want.dump()
                  << "\n  port:     " << d->got.dump() << "\n";
      }
    } catch (const std::exception& e) {
      ++failed;
      std::cout << name << ": FAILS: " << e.what() << "\n";
    }
  }
  std::cout << paths.size() << " traces, " << total_steps << " steps, " << failed << " diverging\n";
  return failed == 0 ? 0 : 1;
}
