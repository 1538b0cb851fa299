// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/engine/core.py@6e448d0e EngineCore; see core.h.
#include "v1/engine/core.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "contracts/engine/errors.h"
#include "contracts/sha256.h"
#include "engine/arg_utils.h"
#include "stop_check.h"
#include "distributed/kv_events_bridge.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/core/kv_cache_utils_config.h"
#include "v1/core/kv_cache_utils_hashing.h"
#include "v1/core/sched/async_scheduler.h"

namespace blis::vllm {

namespace {

ModelFacts model_facts(const schema::Graph& graph) {
  ModelFacts f;
  f.name = graph.model;
  f.max_position_embeddings = graph.dims.max_position_embeddings ? graph.dims.max_position_embeddings->value() : 0;
  for (const std::string& kind : graph.layers) {
    const schema::GraphLayerKind& k = graph.layer_kinds.at(kind);
    if (k.mixer.attention && f.num_attention_heads == 0) f.num_attention_heads = k.mixer.attention->q_heads.value();
    if (k.ffn.moe) f.is_moe = true;
  }
  return f;
}

// The catalog chip as the platform reports it (get_device_total_memory, get_device_name).
DeviceFacts device_facts(const schema::Chip& chip) {
  return DeviceFacts{chip.memory.bytes.value.value(), chip.name};
}

}  // namespace

EngineCore::EngineCore(const engine::Spec& spec, const engine::Environment& env) : env_(env), chip_name_(spec.chip) {
  const EngineArgs args = parse_engine_args(spec.engine.args ? &*spec.engine.args : nullptr,
                                            spec.engine.env ? &*spec.engine.env : nullptr);
  if (!args.model) throw std::invalid_argument("vllm: the engine args name no model (vllm serve MODEL)");
  const schema::Graph& graph = env.graph(*args.model);
  const schema::Chip& chip = env.chip(spec.chip);
  config_ = create_engine_config(args, model_facts(graph), device_facts(chip));
  const std::int64_t world = config_.parallel_config.world_size();
  const std::int64_t gpus = spec.nodes.value() * spec.gpus_per_node.value();
  if (world > gpus) {
    throw std::invalid_argument("vllm: tensor-parallel-size x pipeline-parallel-size = " + std::to_string(world) +
                                " needs more GPUs than the pool gives one instance (" + std::to_string(gpus) + ")");
  }
  lowering_ = lowering_config_of(config_, spec);
  plan_ = lower(graph, chip, lowering_);
  compilation_ = resolve_compilation(lowering_, graph, chip);
  layer_specs_ = layer_kv_specs(graph, lowering_);
  attention_layers_ = attention_layers(layer_specs_);
  // kv_cache_utils.py@6e448d0e init_none_hash: PYTHONHASHSEED when set; otherwise upstream draws 32
  // random bytes, and BLIS uses the SHA-256 of the pool's name (a fixed draw, the same in every run).
  contracts::Sha256 h;
  h.update("blis vllm NONE_HASH " + spec.pool);
  const contracts::Sha256::Digest d = h.digest();
  none_hash_seed_.assign(d.begin(), d.end());
}

void EngineCore::fill_budget(const engine::MemoryBreakdown& memory) {
  const schema::Chip& chip = env_.chip(chip_name_);
  const std::vector<std::int64_t> budget = kv_budget(memory, chip, config_.cache_config.gpu_memory_utilization);
  plan_.kv_budget = schema::PoolPlanKVBudget{};
  for (std::int64_t b : budget) plan_.kv_budget->push_back(units::BytesPerRank{b});
  // kv_cache_utils.py@6e448d0e get_kv_cache_configs for this worker (stage 0: pipeline parallelism is refused).
  const KVCacheSpecDict specs = kv_cache_spec_dict(layer_specs_);
  kv_cache_config_ = get_kv_cache_config(specs, budget.front(), config_.cache_config.num_gpu_blocks_override,
                                         config_.model_config.max_model_len);
  config_.cache_config.num_gpu_blocks = kv_cache_config_.num_blocks;
  // core.py@6e448d0e EngineCore.__init__: the request block hasher, made once (caching_hash_fn, NONE_HASH).
  if (config_.cache_config.enable_prefix_caching) {  // or a KV connector: not ported
    const HashFn hash_fn = get_hash_fn_by_name(config_.cache_config.prefix_caching_hash_algo);
    const BlockHash none_hash = compute_none_hash(hash_fn, config_.python_hash_seed, none_hash_seed_);
    block_hasher_ = get_request_block_hasher(config_.cache_config.block_size, hash_fn, none_hash);
  }
  if (config_.scheduler_config.async_scheduling.value_or(false)) {
    scheduler_ = std::make_unique<AsyncScheduler>(config_, kv_cache_config_, config_.cache_config.block_size, std::nullopt, true);
  } else {
    scheduler_ = std::make_unique<Scheduler>(config_, kv_cache_config_, config_.cache_config.block_size, std::nullopt, true);
  }
}

std::optional<engine::Refused> EngineCore::add_request(const engine::Request& r) {
  if (!scheduler_) throw engine::ContractError("vllm engine: add_request before the KV budget was filled");
  const auto prompt_len = static_cast<std::int64_t>(r.prompt.size());
  const std::int64_t max_model_len = config_.model_config.max_model_len;
  // input_processor.py@6e448d0e _validate_prompt_len
  if (prompt_len == 0) return engine::Refused{r.id, "The decoder prompt cannot be empty"};
  if (prompt_len > max_model_len) {
    return engine::Refused{r.id, "The decoder prompt (length " + std::to_string(prompt_len) +
                                     ") is longer than the maximum model length of " + std::to_string(max_model_len) +
                                     ". Make sure that `max_model_len` is no smaller than the number of text tokens."};
  }
  if (prompt_len == max_model_len) {
    return engine::Refused{r.id, "The decoder prompt (length " + std::to_string(prompt_len) +
                                     ") plus the number of requested output tokens (at least 1) is longer than the "
                                     "maximum model length of " + std::to_string(max_model_len) +
                                     ". Make sure that `max_model_len` is no smaller than the number of text tokens "
                                     "(prompt + requested output tokens)."};
  }
  // renderers/params.py@6e448d0e _token_len_check: a stated max_tokens leaves max_model_len - max_tokens
  // input tokens; an unstated one becomes max_model_len - prompt_len (get_max_tokens).
  std::int64_t max_tokens = max_model_len - prompt_len;
  if (r.max_tokens) {
    if (prompt_len > max_model_len - *r.max_tokens) {
      return engine::Refused{r.id, "This model's maximum context length is " + std::to_string(max_model_len) +
                                       " tokens. However, you requested " + std::to_string(*r.max_tokens) +
                                       " output tokens and your prompt contains " + std::to_string(prompt_len) +
                                       " input tokens, for a total of " + std::to_string(prompt_len + *r.max_tokens) +
                                       " tokens. Please reduce the length of the input prompt or the number of "
                                       "requested output tokens."};
    }
    max_tokens = *r.max_tokens;
  }
  // core.py@6e448d0e add_request via input_processor.py@6e448d0e process_inputs: the request's priority (0 when
  // the client states none) and its arrival time, which the priority policy orders equal priorities by.
  auto request = std::make_unique<Request>(r.id, r.prompt, max_tokens, r.received_at, r.priority.value_or(0),
                                           std::nullopt, std::nullopt, block_hasher_);
  request->eos_token_id = kSimulatedEosTokenId;
  requests_.insert_or_assign(r.id, r);
  scheduler_->add_request(std::move(request));
  return std::nullopt;
}

void EngineCore::abort_request(const std::string& id) {
  if (!scheduler_) return;
  // core.py@6e448d0e EngineCore.abort_requests -> Scheduler.finish_requests(FINISHED_ABORTED)
  scheduler_->finish_requests({id}, RequestStatus::kFinishedAborted);
  // finish_requests frees the request at once: its contract copy goes with it (not in every step's scan).
  requests_.erase(id);
  started_.erase(id);
}

std::optional<engine::ScheduledStep> EngineCore::schedule() {
  if (!scheduler_) throw engine::ContractError("vllm engine: schedule before the KV budget was filled");
  if (static_cast<std::int64_t>(batch_queue_.size()) >= in_flight_depth()) {
    throw engine::ContractError("vllm engine: schedule() with the batch queue full");
  }
  // core.py@6e448d0e step_with_batch_queue: schedule when the scheduler has requests -- finished ones
  // included: the step of no tokens that follows a request's end reports it in finished_req_ids.
  awaiting_oldest_ = !batch_queue_.empty();  // until a step is scheduled below
  if (!scheduler_->has_requests()) return std::nullopt;
  SchedulerOutput out = scheduler_->schedule();
  if (out.total_num_scheduled_tokens == 0) return std::nullopt;
  awaiting_oldest_ = false;
  std::vector<bool> samples;
  for (const auto& [id, n] : out.num_scheduled_tokens) {
    const Request* req = scheduler_->request(id);
    samples.push_back(req && !req->is_prefill_chunk);
  }
  engine::ScheduledStep step;
  step.id = next_step_++;
  step.shape = shape_of(out, samples, step.first_scheduled);
  batch_queue_.push_back(InFlight{step.id, std::move(out), std::move(samples)});
  return step;
}

engine::plan::StepShape EngineCore::shape_of(const SchedulerOutput& out, const std::vector<bool>& samples,
                                             std::vector<std::string>& first_scheduled) {
  engine::plan::StepShape shape;
  schema::StepShapeRankStep rank;
  rank.rank = 0;
  rank.requests.emplace();
  bool prompt = false, decode = false;
  std::int64_t tokens = 0;
  std::int64_t max_query_len = 0;
  for (std::size_t i = 0; i < out.num_scheduled_tokens.size(); ++i) {
    const auto& [id, n] = out.num_scheduled_tokens[i];
    const Request* req = scheduler_->request(id);
    if (!req) throw engine::ContractError("vllm engine: a scheduled request " + id + " is unknown");
    const std::int64_t cached = req->num_computed_tokens - n;  // _update_after_schedule already advanced it
    schema::StepShapeRequestStep r;
    r.new_tokens = units::Tokens{n};
    r.cached_tokens = units::Tokens{cached};
    r.query_tokens = units::Tokens{n};
    const std::int64_t pending = std::max<std::int64_t>(0, req->num_computed_tokens - req->num_tokens());
    if (pending > 0) r.pending_tokens = units::Tokens{std::min(pending, n)};
    r.sampled_tokens = units::Tokens{samples[i] ? 1 : 0};
    if (!started_[id]) {
      started_[id] = true;
      r.prompt_tokens = units::Tokens{req->num_prompt_tokens};
      first_scheduled.push_back(id);
    }
    const bool is_decode = cached >= req->num_prompt_tokens && n == 1;
    (is_decode ? decode : prompt) = true;
    tokens += n;
    max_query_len = std::max(max_query_len, n);
    rank.requests->push_back(r);
  }
  shape.mode = prompt && decode ? "mixed" : prompt ? "extend_only" : "decode_only";
  shape.ranks.emplace();
  shape.ranks->push_back(std::move(rank));
  shape.padded.emplace();
  schema::StepShapePaddedShape padded = padded_launch(compilation_, lowering_, tokens,
                                                      static_cast<std::int64_t>(out.num_scheduled_tokens.size()),
                                                      max_query_len, attention_layers_);
  padded.rank = 0;
  shape.padded->push_back(std::move(padded));
  return shape;
}

const SchedulerOutput* EngineCore::in_flight_output(std::uint64_t step) const {
  for (const InFlight& f : batch_queue_) {
    if (f.id == step) return &f.output;
  }
  return nullptr;
}

engine::StepOutcome EngineCore::complete(std::uint64_t step) {
  if (batch_queue_.empty() || batch_queue_.front().id != step) {
    throw engine::ContractError("vllm engine: complete(" + std::to_string(step) + ") of a step not first in the batch queue");
  }
  InFlight done = std::move(batch_queue_.front());
  batch_queue_.pop_front();
  awaiting_oldest_ = false;
  // The model runner stand-in: one sampled token per request whose step ends its known tokens.
  ModelRunnerOutput mro;
  for (std::size_t i = 0; i < done.output.num_scheduled_tokens.size(); ++i) {
    const std::string& id = done.output.num_scheduled_tokens[i].first;
    mro.req_id_to_index.emplace(id, mro.req_ids.size());
    mro.req_ids.push_back(id);
    std::vector<std::int32_t> sampled;
    const Request* req = scheduler_->request(id);
    auto contract = requests_.find(id);
    if (done.samples[i] && req && contract != requests_.end()) {
      sampled.push_back(sample_token(contract->second, req->num_output_tokens() + 1));
    }
    mro.sampled_token_ids.push_back(std::move(sampled));
  }
  const std::vector<EngineCoreOutput> outputs = scheduler_->update_from_output(done.output, mro);
  engine::StepOutcome outcome;
  for (const EngineCoreOutput& o : outputs) {
    if (!o.new_token_ids.empty()) {
      outcome.emitted.push_back(engine::EmittedTokens{o.request_id, static_cast<std::int64_t>(o.new_token_ids.size())});
    }
    if (o.finish_reason) {
      outcome.finished.push_back(engine::Finished{o.request_id, *o.finish_reason});
      requests_.erase(o.request_id);
      started_.erase(o.request_id);
    }
  }
  outcome.preempted.assign(done.output.preempted_req_ids.begin(), done.output.preempted_req_ids.end());
  // The metrics llm-d scrapes (vllm/v1/metrics/loggers.py@6e448d0e PrometheusStatLogger.record): the
  // prefix-cache counters grow by each step's stats.
  const SchedulerStats stats = scheduler_->make_stats();
  prefix_cache_queries_ += stats.prefix_cache_queries;
  prefix_cache_hits_ += stats.prefix_cache_hits;
  // The KV-event batches update_from_output published (ZmqEventPublisher's socket is the simulator).
  for (const auto& [seq, batch] : scheduler_->take_sent_kv_events()) {
    outcome.kv_events.push_back(to_contract(scheduler_->kv_events_topic(), seq, batch));
  }
  return outcome;
}

engine::Published EngineCore::published() const {
  engine::Published p;
  if (!scheduler_) return p;
  const auto [running, waiting] = scheduler_->get_request_counts();
  p.running = running;
  p.waiting = waiting;
  p.kv_usage = scheduler_->get_kv_cache_usage();
  p.prefix_cache_queries = prefix_cache_queries_;
  p.prefix_cache_hits = prefix_cache_hits_;
  // vllm/v1/metrics/loggers.py@6e448d0e PrometheusStatLogger.log_metrics_info: vllm:cache_config_info carries
  // the cache config's block_size and num_gpu_blocks as labels.
  p.cache_block_size = config_.cache_config.block_size;
  p.cache_num_blocks = config_.cache_config.num_gpu_blocks.value_or(0);
  // vllm/v1/metrics/loggers.py@6e448d0e PrometheusStatLogger.__init__: every series carries the labels
  // model_name (the served model name) and engine (the engine index, "0": one engine core per instance).
  const std::vector<std::pair<std::string, std::string>> labels{{"model_name", config_.model_config.model},
                                                                {"engine", "0"}};
  p.samples.push_back({"vllm:num_requests_running", labels, static_cast<double>(running), false});
  p.samples.push_back({"vllm:num_requests_waiting", labels, static_cast<double>(waiting), false});
  p.samples.push_back({"vllm:kv_cache_usage_perc", labels, p.kv_usage, false});
  p.samples.push_back({"vllm:prefix_cache_queries", labels, static_cast<double>(prefix_cache_queries_), true});
  p.samples.push_back({"vllm:prefix_cache_hits", labels, static_cast<double>(prefix_cache_hits_), true});
  // vllm/v1/metrics/loggers.py@6e448d0e PrometheusStatLogger.log_metrics_info: an info gauge set to 1 whose
  // labels are CacheConfig.metrics_info() (vllm/config/cache.py@6e448d0e: str() of each field) and engine.
  // Only block_size and num_gpu_blocks are published here (the fields a reader of this series uses).
  p.samples.push_back({"vllm:cache_config_info",
                       {{"block_size", std::to_string(config_.cache_config.block_size)},
                        {"num_gpu_blocks", config_.cache_config.num_gpu_blocks
                                               ? std::to_string(*config_.cache_config.num_gpu_blocks)
                                               : std::string("None")},
                        {"engine", "0"}},
                       1.0, false});
  return p;
}

engine::Residence EngineCore::residence(const std::string& id) const {
  const Request* r = scheduler_ ? scheduler_->request(id) : nullptr;
  if (!r) return engine::Residence::kUnknown;
  if (r->status == RequestStatus::kRunning) return engine::Residence::kRunning;
  if (r->status == RequestStatus::kWaiting || r->status == RequestStatus::kPreempted) return engine::Residence::kQueued;
  return engine::Residence::kUnknown;
}

void register_vllm_engine(engine::EngineRegistry& registry) {
  registry.add(engine::EngineKey{"vllm", "0.27.1"}, [](const engine::Spec& spec, const engine::Environment& env) {
    return std::make_unique<EngineCore>(spec, env);
  });
}

}  // namespace blis::vllm
