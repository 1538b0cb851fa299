// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/scheduler.py@71de97b2 event_loop_normal /
// event_loop_overlap, metrics_reporter.py@71de97b2's publication points and tokenizer_manager.py@71de97b2
// _validate_one_request behind BLIS's engine contracts; see engine_core.h.
#include "srt/entrypoints/engine_core.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "contracts/engine/errors.h"
#include "srt/disaggregation/kv_events_codec.h"
#include "srt/entrypoints/device_capability.h"
#include "stop_check.h"

namespace blis::sglang {

namespace {

const char* mode_name(ForwardMode m) {
  switch (m) {
    case ForwardMode::kExtend: return "extend";
    case ForwardMode::kDecode: return "decode";
    case ForwardMode::kMixed: return "mixed";
    case ForwardMode::kIdle: return "idle";
  }
  return "idle";
}

}  // namespace

EngineCore::EngineCore(const engine::Spec& spec, const engine::Environment& env) : env_(env), chip_name_(spec.chip) {
  parsed_ = parse_server_args(spec.engine.args ? &*spec.engine.args : nullptr,
                              spec.engine.env ? &*spec.engine.env : nullptr);
  model_executor::LoweringConfig& cfg = parsed_.lowering;
  const schema::Graph& graph = env.graph(cfg.model);
  const schema::Chip& chip = env.chip(spec.chip);
  cfg.chip = chip.name;
  cfg.capability = device_capability(chip);
  if (cfg.dp != 1) {
    throw std::invalid_argument("sglang: --dp-size " + std::to_string(cfg.dp) +
                                " is not modelled by this port: one engine instance runs one data-parallel rank");
  }
  const std::int64_t world = cfg.tp * cfg.pp;
  const std::int64_t gpus = spec.nodes.value() * spec.gpus_per_node.value();
  if (world > gpus) {
    throw std::invalid_argument("sglang: tp_size x pp_size = " + std::to_string(world) +
                                " needs more GPUs than the pool gives one instance (" + std::to_string(gpus) + ")");
  }
  if (parsed_.scheduler.schedule_policy == "random") {
    throw std::invalid_argument(
        "sglang: --schedule-policy random is not modelled by this port: the engine contract gives an engine no "
        "named random substream to draw the queue order from");
  }
  if (parsed_.decode_log_interval <= 0) {
    throw std::invalid_argument("sglang: --decode-log-interval " + std::to_string(parsed_.decode_log_interval) +
                                " must be positive (upstream divides the decode step count by it)");
  }
  // model_runner.py@71de97b2 init_memory_pool (KVCacheConfigurator's pool and allocator) and the scheduler's
  // create_tree_cache (mem_cache/registry.py@71de97b2): a type this port does not model is refused by name here,
  // before the lowering (SGL-6); the allocator is restated at the resolved page size below.
  kv_types_ = select_kv_cache_types(graph, parsed_, *cfg.capability, 1);
  resolved_ = model_executor::resolve_server_args(graph, chip, cfg);
  kv_types_ = select_kv_cache_types(graph, parsed_, *cfg.capability, resolved_.attention.page_size);
  cell_size_ = model_executor::kv_cell_size(graph, cfg.tp, static_cast<std::int64_t>(graph.layers.size()),
                                            model_executor::kv_cache_element_size(graph, cfg.kv_cache_dtype));
  // The decode graphs are captured after the pool is sized; phase 1 states them for the user's cap (or the
  // configured sizes unclamped), and fill_budget restates them for the pool's request slots.
  const std::int64_t provisional_reqs =
      cfg.max_running_requests.value_or(std::max<std::int64_t>(1, resolved_.memory.decode_max_bs));
  plan_ = model_executor::lower(graph, chip, cfg, resolved_, provisional_reqs);
}

void EngineCore::fill_budget(const engine::MemoryBreakdown& memory) {
  const schema::Chip& chip = env_.chip(chip_name_);
  const schema::Graph& graph = env_.graph(parsed_.lowering.model);
  const std::vector<model_executor::MemoryPool> pools =
      model_executor::kv_budget(memory, chip, resolved_, parsed_.lowering, std::vector<std::int64_t>(memory.stages.size(), cell_size_));
  pool_ = pools.front();
  plan_.kv_budget = schema::PoolPlanKVBudget{};
  for (const model_executor::MemoryPool& p : pools) plan_.kv_budget->push_back(units::BytesPerRank{p.available_bytes});
  // base_cuda_graph_runner.py@71de97b2 get_batch_sizes_to_capture: the decode graphs for the pool's slots.
  plan_.graphs = model_executor::lower_policies(graph, chip, parsed_.lowering, resolved_, pool_.max_running_requests).graphs;

  SchedulerConfig sc = parsed_.scheduler;
  sc.page_size = resolved_.attention.page_size;
  sc.max_total_num_tokens = pool_.max_total_num_tokens;
  sc.max_running_requests = pool_.max_running_requests;
  sc.context_len = resolved_.context_len;
  sc.chunked_prefill_size = resolved_.memory.chunked_prefill_size;
  sc.max_prefill_tokens = parsed_.lowering.max_prefill_tokens;
  scheduler_ = std::make_unique<Scheduler>(sc);
  log_stats(0);
}

// tokenizer_manager.py@71de97b2 _validate_one_request (allow_auto_truncate off; validate_total_tokens on),
// then Scheduler.handle_generate_request. The request's max_tokens is SamplingParams.max_new_tokens (128
// when the client states none, sampling_params.py@71de97b2).
std::optional<engine::Refused> EngineCore::add_request(const engine::Request& r) {
  if (!scheduler_) throw engine::ContractError("sglang engine: add_request before the KV budget was filled");
  const auto input_token_num = static_cast<std::int64_t>(r.prompt.size());
  const std::int64_t context_len = resolved_.context_len;
  if (input_token_num >= context_len) {
    if (!parsed_.scheduler.allow_auto_truncate) {
      return engine::Refused{r.id, "The input (" + std::to_string(input_token_num) +
                                       " tokens) is longer than the model's context length (" +
                                       std::to_string(context_len) + " tokens)."};
    }
  }
  SamplingParams sp;
  if (r.max_tokens) sp.max_new_tokens = *r.max_tokens;
  if (r.max_tokens && *r.max_tokens + input_token_num > context_len && !parsed_.scheduler.allow_auto_truncate) {
    return engine::Refused{r.id, "Requested token count exceeds the model's maximum context length of " +
                                     std::to_string(context_len) + " tokens. You requested a total of " +
                                     std::to_string(*r.max_tokens + input_token_num) + " tokens: " +
                                     std::to_string(input_token_num) + " tokens from the input messages and " +
                                     std::to_string(*r.max_tokens) +
                                     " tokens for the completion. Please reduce the number of tokens in the input "
                                     "messages or the completion to fit within the limit."};
  }
  TokenIds ids(r.prompt.begin(), r.prompt.end());
  if (input_token_num >= context_len) ids.resize(static_cast<std::size_t>(context_len));  // auto-truncate
  auto req = std::make_unique<Req>(r.id, std::move(ids), sp, r.priority);  // the request's priority, if stated
  req->eos_token_ids = {kSimulatedEosTokenId};
  requests_.insert_or_assign(r.id, r);
  scheduler_->handle_generate_request(std::move(req));
  return std::nullopt;
}

void EngineCore::abort_request(const std::string& id) {
  if (!scheduler_ || !requests_.contains(id)) return;
  client_aborted_.insert(id);
  scheduler_->abort_request(id);
}

std::optional<engine::ScheduledStep> EngineCore::schedule() {
  if (!scheduler_) throw engine::ContractError("sglang engine: schedule before the KV budget was filled");
  if (static_cast<std::int64_t>(in_flight_.size()) >= in_flight_depth()) {
    throw engine::ContractError("sglang engine: schedule() with " + std::to_string(in_flight_.size()) + " batches in flight");
  }
  const LaunchedBatch* batch = scheduler_->next_batch();
  for (const std::string& id : scheduler_->take_retracted()) pending_preempted_.push_back(id);
  // scheduler.py@71de97b2 on_idle, fully idle: kv_events_publisher.publish_kv_events().
  if (scheduler_->take_fully_idle()) publish_kv_events(idle_kv_events_);
  if (batch == nullptr) return std::nullopt;
  engine::ScheduledStep step;
  step.id = next_step_++;
  step.shape = shape_of(*batch, step.first_scheduled);
  in_flight_.push_back(step.id);
  return step;
}

engine::plan::StepShape EngineCore::shape_of(const LaunchedBatch& batch, std::vector<std::string>& first_scheduled) {
  engine::plan::StepShape shape;
  schema::StepShapeRankStep rank;
  rank.rank = 0;
  rank.requests.emplace();
  std::int64_t tokens = 0, max_query_len = 0;
  bool extend = false, decode = false;
  for (std::size_t i = 0; i < batch.reqs.size(); ++i) {
    const Req& req = *batch.reqs[i];
    const bool is_decode_row = batch.forward_mode == ForwardMode::kDecode ||
                               std::find(batch.decoding_reqs.begin(), batch.decoding_reqs.end(), &req) != batch.decoding_reqs.end();
    std::int64_t n = 1, cached = 0;
    if (batch.forward_mode == ForwardMode::kDecode) {
      cached = req.kv_committed_len - 1;  // prepare_for_decode counted this step's token
    } else {
      n = batch.extend_lens.at(i);
      cached = batch.prefix_lens.at(i);
    }
    schema::StepShapeRequestStep rs;
    rs.new_tokens = units::Tokens{n};
    rs.cached_tokens = units::Tokens{cached};
    rs.query_tokens = units::Tokens{n};
    // A middle chunk samples nothing: the batch's chunked_req is the request still being chunked after it.
    rs.sampled_tokens = units::Tokens{is_decode_row || &req != batch.chunked_req ? 1 : 0};
    if (!started_.contains(req.rid)) {
      started_.insert(req.rid);
      rs.prompt_tokens = units::Tokens{static_cast<std::int64_t>(req.origin_input_ids.size())};
      first_scheduled.push_back(req.rid);
    }
    (is_decode_row ? decode : extend) = true;
    tokens += n;
    max_query_len = std::max(max_query_len, n);
    rank.requests->push_back(rs);
  }
  shape.mode = extend && decode ? "mixed" : extend ? "extend_only" : "decode_only";
  shape.ranks.emplace();
  shape.ranks->push_back(std::move(rank));
  shape.padded.emplace();
  schema::StepShapePaddedShape padded = model_executor::padded_launch(
      plan_, tokens, static_cast<std::int64_t>(batch.reqs.size()), max_query_len, mode_name(batch.forward_mode));
  padded.rank = 0;
  shape.padded->push_back(std::move(padded));
  return shape;
}

engine::StepOutcome EngineCore::complete(std::uint64_t step) {
  if (in_flight_.empty() || in_flight_.front() != step) {
    throw engine::ContractError("sglang engine: complete(" + std::to_string(step) + ") of a step not first in flight");
  }
  in_flight_.pop_front();
  const LaunchedBatch* batch = scheduler_->front_launched();
  if (batch == nullptr) throw engine::ContractError("sglang engine: no launched batch for step " + std::to_string(step));
  // The model worker stand-in: the token each request samples at its next output position.
  std::vector<std::int64_t> next_token_ids;
  for (const Req* req : batch->reqs) {
    auto contract = requests_.find(req->rid);
    next_token_ids.push_back(contract == requests_.end()
                                 ? kSimulatedTokenId
                                 : sample_token(contract->second, static_cast<std::int64_t>(req->output_ids.size()) + 1));
  }
  const auto num_running_at_report = static_cast<std::int64_t>(batch->reqs.size());
  const bool decode = batch->forward_mode == ForwardMode::kDecode;
  const BatchResultRecord record = scheduler_->process_batch_result(next_token_ids);
  engine::StepOutcome outcome;
  for (const auto& [rid, n] : record.emitted) {
    if (!client_aborted_.contains(rid)) outcome.emitted.push_back(engine::EmittedTokens{rid, n});
  }
  std::vector<std::pair<std::string, std::string>> ended = record.finished;
  for (auto& e : scheduler_->take_ended_outside_batches()) ended.push_back(std::move(e));
  for (const auto& [rid, why] : ended) {
    if (client_aborted_.erase(rid) == 0) outcome.finished.push_back(engine::Finished{rid, why});
    requests_.erase(rid);
    started_.erase(rid);
  }
  outcome.preempted = std::move(pending_preempted_);
  pending_preempted_.clear();
  // metrics_reporter.py@71de97b2: a prefill batch's report logs the gauges and publishes the KV events; a
  // decode batch's does both only every decode_log_interval decode steps.
  bool report = true;
  if (decode) {
    forward_ct_decode_ = (forward_ct_decode_ + 1) % (std::int64_t{1} << 30);
    report = forward_ct_decode_ % parsed_.decode_log_interval == 0;
  }
  if (report) {
    log_stats(num_running_at_report);
    publish_kv_events(outcome.kv_events);
  }
  return outcome;
}

// metrics_reporter.py@71de97b2 report_prefill_stats / report_decode_stats: the running requests the report
// counts (the batch's), the waiting queue and the pool's usage (pool_stats_observer.py@71de97b2 _get_token_info:
// used = total - available - evictable).
void EngineCore::log_stats(std::int64_t num_running_reqs) {
  const std::int64_t total = scheduler_->config().max_total_num_tokens;
  const std::int64_t used = total - (scheduler_->allocator().available_size() + scheduler_->tree_cache().evictable_size());
  stats_.num_running_reqs = num_running_reqs;
  stats_.num_queue_reqs = static_cast<std::int64_t>(scheduler_->waiting_queue().size());
  stats_.token_usage = total > 0 ? static_cast<double>(used) / static_cast<double>(total) : 0.0;
}

// metrics_collector.py@71de97b2 SchedulerMetricsCollector: the gauges llm-d reads, labelled as the collector labels
// them (model_name = served_model_name, engine_type, tp_rank, pp_rank, moe_ep_rank). Upstream serves them only with
// --enable-metrics; sglang:page_size and sglang:num_pages are its cache gauges (this release has no
// sglang:cache_config_info series).
engine::Published EngineCore::published() const {
  engine::Published p;
  if (!scheduler_) return p;
  p.running = stats_.num_running_reqs;
  p.waiting = stats_.num_queue_reqs;
  p.kv_usage = stats_.token_usage;
  if (!parsed_.enable_metrics) return p;
  std::vector<std::pair<std::string, std::string>> labels{
      {"model_name", parsed_.served_model_name.value_or(parsed_.lowering.model)},
      {"engine_type", "unified"},
      {"tp_rank", "0"},
      {"pp_rank", "0"},
      {"moe_ep_rank", "0"}};
  if (parsed_.scheduler.enable_priority_scheduling) labels.emplace_back("priority", "");
  const std::int64_t page = scheduler_->config().page_size;
  p.samples.push_back({"sglang:num_running_reqs", labels, static_cast<double>(p.running), false});
  p.samples.push_back({"sglang:num_queue_reqs", labels, static_cast<double>(p.waiting), false});
  p.samples.push_back({"sglang:token_usage", labels, p.kv_usage, false});
  p.samples.push_back({"sglang:page_size", labels, static_cast<double>(page), false});
  p.samples.push_back({"sglang:num_pages", labels, static_cast<double>(scheduler_->config().max_total_num_tokens / page), false});
  return p;
}

// kv_events_publisher.py@71de97b2 publish_kv_events: the tree cache's queued events as one batch, when the
// publisher is zmq (the null publisher drops them; the cache queues them either way).
void EngineCore::publish_kv_events(std::vector<engine::KvEventMessage>& out) {
  std::vector<KVCacheEvent> events = scheduler_->tree_cache().take_events();
  // The configured topic: llm-d's SGLang adapter reads the pod and the model from it.
  if (parsed_.kv_events_publisher != "zmq" || events.empty()) return;
  KVEventBatch batch;
  batch.events = std::move(events);
  batch.attn_dp_rank = 0;
  out.push_back(to_contract(parsed_.kv_events_topic, kv_event_seq_++, batch));
}

engine::Residence EngineCore::residence(const std::string& id) const {
  if (!scheduler_) return engine::Residence::kUnknown;
  const Req* r = scheduler_->request(id);
  if (r == nullptr || r->finished()) return engine::Residence::kUnknown;
  const auto& q = scheduler_->waiting_queue();
  if (std::find(q.begin(), q.end(), r) != q.end()) return engine::Residence::kQueued;
  return engine::Residence::kRunning;
}

void register_sglang_engine(engine::EngineRegistry& registry) {
  registry.add(engine::EngineKey{"sglang", "0.5.18"}, [](const engine::Spec& spec, const engine::Environment& env) {
    return std::make_unique<EngineCore>(spec, env);
  });
}

}  // namespace blis::sglang
