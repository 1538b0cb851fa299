// The SGLang oracle replay (SGL-1 decisions-match-on-replay, issue 10): feeds each recorded trace's inputs
// (arrivals, aborts, the model stand-in's sampled tokens) to the port's Scheduler
// (engines/sglang/srt/managers/scheduler.h), built from the trace's scenario configuration as the runner
// (engines/sglang/oracle/runner.py) builds upstream's, and compares every recorded field at every step: the
// batch the scheduler chose (forward mode, requests in order, prefix and extend lengths, the chunked request,
// the decoding requests of a mixed batch), what processing the sampled tokens did (tokens emitted, finishes
// with their reason), retractions, requests ended outside a batch, the waiting queue and running batch, the
// new-token ratio, the allocator's available size and the radix cache's evictable and protected sizes, and the
// KV-cache events published in the step (type, block hashes, parent hash, tokens, block size, LoRA id, medium;
// the hashes are compared as they are: both sides hash the same tokens with SHA-256, hash_binding.cpp@71de97b2
// upstream, mem_cache/utils.cpp here, since the sampled tokens are the trace's). The comparison is two-sided:
// each step's port record is built in the trace's shape and compared whole, so a field present on one side only
// is a mismatch. The first divergent step is reported with both sides.
//
// One step is one iteration of upstream's event_loop_normal (the overlap loop is not recorded): the port's
// next_batch() (get_next_batch_to_run, then process_batch_result with the trace's tokens). An iteration that
// finds no batch repeats without new input until one does or the state stays as it was; the runner and
// next_batch() both run those idle iterations within the step.
//
// KV events are taken from the port's radix cache where upstream's loop publishes them (the runner records what
// the scheduler's publisher sent): after a prefill or mixed batch's result (metrics_reporter.py@71de97b2
// report_prefill_stats), after every decode_log_interval-th decode batch's (report_decode_stats; the count of
// decode batches is process_batch_result_decode's forward_ct_decode), and in an iteration that found no batch
// with nothing queued or running (scheduler.py@71de97b2 on_idle, when is_fully_idle). Events queued elsewhere
// stay in the cache's queue until the next of these, on both sides.
//
//   sglang-oracle-replay (TRACE.json | DIR)...   exit 0 when every trace replays with zero divergences, 1 on a
//   divergence, 2 on a usage error; a DIR stands for its *.trace.json files, in name order (at least one).
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "srt/managers/scheduler.h"
#include "tests/oracle/replay_support.h"
#include "trace_records.h"

namespace blis::sglang::oracle {
namespace {

using json = nlohmann::json;

constexpr std::int64_t kEosTokenId = 2;  // engines/sglang/oracle/runner.py EOS_TOKEN_ID
constexpr std::int64_t kDecodeLogInterval = 40;  // runner.py DECODE_LOG_INTERVAL (server_args.py's default)

// The runner's scenario configuration as the port's SchedulerConfig (one rank, the normal loop).
SchedulerConfig config_of(const json& cfg) {
  SchedulerConfig c;
  c.page_size = cfg.at("page_size");
  c.max_total_num_tokens = cfg.at("max_total_num_tokens");
  c.max_running_requests = cfg.at("max_running_requests");
  c.context_len = cfg.at("context_len");
  const std::int64_t chunked = cfg.at("chunked_prefill_size");
  if (chunked > 0) c.chunked_prefill_size = chunked;
  c.max_prefill_tokens = cfg.at("max_prefill_tokens");
  c.disable_overlap_schedule = cfg.value("disable_overlap_schedule", true);
  c.enable_mixed_chunk = cfg.value("enable_mixed_chunk", false);
  c.schedule_policy = cfg.at("schedule_policy").get<std::string>();
  c.disable_radix_cache = cfg.value("disable_radix_cache", false);
  c.radix_eviction_policy = cfg.value("radix_eviction_policy", std::string("lru"));
  c.enable_priority_scheduling = cfg.value("enable_priority_scheduling", false);
  c.priority_scheduling_preemption_threshold = cfg.value("priority_scheduling_preemption_threshold", 10);
  c.enable_kv_cache_events = true;  // runner.py KV_EVENTS_CONFIG: every scenario runs with --kv-events-config
  return c;
}

std::unique_ptr<Req> make_req(const json& r) {
  SamplingParams sp;
  sp.max_new_tokens = r.at("max_new_tokens");
  sp.ignore_eos = r.value("ignore_eos", false);
  std::optional<std::int64_t> priority;
  if (r.contains("priority") && !r.at("priority").is_null()) priority = r.at("priority").get<std::int64_t>();
  auto req = std::make_unique<Req>(r.at("id").get<std::string>(), r.at("prompt").get<TokenIds>(), sp, priority);
  req->eos_token_ids = {kEosTokenId};
  return req;
}

using oracle_support::first_difference;

struct Divergence {
  std::int64_t step = 0;
  std::string where;
  json want;
  json got;
};

std::optional<Divergence> replay(const json& trace) {
  if (trace.at("engine") != "sglang") throw std::runtime_error("not an sglang trace");
  const json& scenario = trace.at("scenario");
  Scheduler s(config_of(scenario.at("config")));
  std::map<std::string, json> specs;
  for (const auto& r : scenario.at("requests")) specs[r.at("id").get<std::string>()] = r;
  std::int64_t forward_ct_decode = 0;  // metrics_reporter.forward_ct_decode

  for (const json& step : trace.at("steps")) {
    const std::int64_t k = step.at("step");
    try {
    json got = json::object();
    got["step"] = k;
    got["arrivals"] = json::array();
    got["aborts"] = json::array();
    for (const auto& id : step.at("arrivals")) {
      s.handle_generate_request(make_req(specs.at(id.get<std::string>())));
      got["arrivals"].push_back(id);
    }
    for (const auto& id : step.at("aborts")) {
      s.abort_request(id.get<std::string>());
      got["aborts"].push_back(id);
    }
    // Under the overlap schedule the batch launched in an earlier step (event_loop_overlap's last_batch) is
    // processed in this one, after the next batch is scheduled and launched.
    const bool overlap = !s.config().disable_overlap_schedule;
    const bool last_in_flight = s.launched_count() > 0;
    const LaunchedBatch* batch = s.next_batch();
    got["batch"] = batch == nullptr ? json(nullptr) : batch_record(*batch);
    if (got["batch"] != step.at("batch")) {
      return Divergence{k, first_difference(step.at("batch"), got["batch"], "batch"), step.at("batch"), got["batch"]};
    }
    // The model's output is an input: the trace's sampled tokens, in the processed batch's order.
    got["sampled"] = step.at("sampled");
    json emitted = json::array();
    json finished = json::array();
    json events = json::array();
    auto publish = [&] {  // kv_events_publisher.py@71de97b2 publish_kv_events: take_events, in queue order
      for (const KVCacheEvent& e : s.tree_cache().take_events()) events.push_back(event_record(e));
    };
    const bool fully_idle = s.take_fully_idle();  // the port's on_idle found the scheduler fully idle
    const LaunchedBatch* processed = overlap ? (last_in_flight ? s.front_launched() : nullptr) : batch;
    if (processed == nullptr) {
      if (fully_idle) publish();
    } else {
      const bool decode = processed->forward_mode == ForwardMode::kDecode;
      std::vector<std::int64_t> tokens;
      for (const auto& row : step.at("sampled")) tokens.push_back(row.at(1).get<std::int64_t>());
      const BatchResultRecord rec = s.process_batch_result(tokens);
      for (const auto& [rid, n] : rec.emitted) emitted.push_back({rid, n});
      for (const auto& [rid, why] : rec.finished) finished.push_back({rid, why});
      if (decode) {
        forward_ct_decode = (forward_ct_decode + 1) % (std::int64_t{1} << 30);
        if (forward_ct_decode % kDecodeLogInterval == 0) publish();
      } else {
        publish();
      }
    }
    got["processed"] = {{"emitted", emitted}, {"finished", finished}};
    got["retracted"] = s.take_retracted();
    json ended = json::array();
    for (const auto& [rid, type] : s.take_ended_outside_batches()) ended.push_back({rid, type});
    got["ended_outside"] = ended;
    got["state"] = state_record(s);
    got["kv_events"] = events;
    if (got != step) return Divergence{k, first_difference(step, got, "step"), step, got};
    } catch (const std::exception& e) {
      throw std::runtime_error("at step " + std::to_string(k) + ": " + e.what());
    }
  }
  return std::nullopt;
}

}  // namespace
}  // namespace blis::sglang::oracle

int main(int argc, char** argv) {
  using blis::sglang::oracle::replay;
  if (argc < 2) {
    std::cerr << "usage: sglang-oracle-replay (TRACE.json | DIR)...\n";
    return 2;
  }
  const auto found = blis::oracle_support::trace_paths(std::vector<std::string>(argv + 1, argv + argc), std::cerr);
  if (!found) return 2;
  const std::vector<std::string>& paths = *found;
  int failed = 0;
  std::int64_t total_steps = 0;
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) {
      std::cerr << path << ": cannot read\n";
      return 2;
    }
    nlohmann::json trace;
    try {
      trace = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      std::cerr << path << ": not JSON: " << e.what() << "\n";
      return 2;
    }
    total_steps += static_cast<std::int64_t>(trace.at("steps").size());
    try {
      if (auto d = replay(trace)) {
        ++failed;
        std::cout << path << ": DIVERGES at step " << d->step << " (" << d->where << ")\n  upstream: " << d->want.dump()
                  << "\n  port:     " << d->got.dump() << "\n";
      }
    } catch (const std::exception& e) {
      ++failed;
      std::cout << path << ": FAILS: " << e.what() << "\n";
    }
  }
  std::cout << paths.size() << " traces, " << total_steps << " steps, " << failed << " diverging\n";
  return failed == 0 ? 0 : 1;
}
