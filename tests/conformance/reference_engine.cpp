#include "reference_engine.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "contracts/engine/errors.h"

namespace blis::conformance {

ReferenceArgs reference_args(const engine::Spec& spec) {
  ReferenceArgs a;
  if (!spec.engine.args || spec.engine.args->is_null()) return a;
  const doc::Node& args = *spec.engine.args;
  if (!args.is_map()) throw engine::ContractError("reference engine: args must be a mapping, not a " + std::string(doc::kind_name(args)));
  for (const auto& e : args.entries) {
    const std::string& key = e.first.scalar;
    std::int64_t* slot = key == "max-num-seqs"             ? &a.max_num_seqs
                         : key == "max-num-batched-tokens" ? &a.max_num_batched_tokens
                         : key == "block-size"             ? &a.block_size
                         : key == "num-gpu-blocks"         ? &a.num_gpu_blocks
                                                           : nullptr;
    if (!slot) throw engine::ContractError("reference engine: unknown argument '" + key + "'");
    const std::string& v = e.second.scalar;
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (!e.second.is_scalar() || ec != std::errc{} || end != v.data() + v.size() || n < 1) {
      throw engine::ContractError("reference engine: argument '" + key + "' = '" + v + "' is not a positive integer");
    }
    *slot = n;
  }
  return a;
}

ReferenceEngine::ReferenceEngine(ReferenceArgs args) : args_(args), free_blocks_(args.num_gpu_blocks) {
  plan_.layout.emplace();
  plan_.layout->pp = units::Count{1};
  plan_.profiling_step.emplace();
  plan_.profiling_step->mode = "extend_only";
}

void ReferenceEngine::fill_budget(const engine::MemoryBreakdown&) {
  // The cache size is the stated block count, not derived from memory: a test double's budget rule.
  plan_.kv_budget = schema::PoolPlanKVBudget{units::BytesPerRank{args_.num_gpu_blocks * args_.block_size}};
}

std::optional<engine::Refused> ReferenceEngine::add_request(const engine::Request& r) {
  const auto prompt = static_cast<std::int64_t>(r.prompt.size());
  if (prompt == 0) return engine::Refused{r.id, "empty-prompt"};
  if (blocks_for(prompt + 1) > args_.num_gpu_blocks) return engine::Refused{r.id, "prompt-too-long"};
  seqs_.emplace(r.id, Seq{r});
  waiting_.push_back(r.id);
  return std::nullopt;
}

void ReferenceEngine::abort_request(const std::string& id) {
  auto it = seqs_.find(id);
  if (it == seqs_.end()) return;
  free_blocks_ += it->second.blocks;
  std::erase(running_, id);
  std::erase(waiting_, id);
  seqs_.erase(it);
}

void ReferenceEngine::preempt(std::size_t i) {
  const std::string id = running_[i];
  Seq& s = seqs_.at(id);
  free_blocks_ += s.blocks;
  s.blocks = 0;
  s.computed = 0;
  running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
  waiting_.push_front(id);
  preempted_.push_back(id);
}

std::optional<engine::ScheduledStep> ReferenceEngine::schedule() {
  if (in_flight_) throw engine::ContractError("reference engine: schedule() with a step in flight (depth 1)");
  preempted_.clear();
  std::vector<Scheduled> batch;
  std::int64_t budget = args_.max_num_batched_tokens;
  // Running requests, in admission order.
  for (std::size_t i = 0; i < running_.size() && budget > 0;) {
    Seq& s = seqs_.at(running_[i]);
    const std::int64_t target = s.length() - (s.emitted > 0 ? 0 : 0);
    const std::int64_t want = std::min(budget, std::max<std::int64_t>(1, target - s.computed));
    const std::int64_t need = blocks_for(s.computed + want) - s.blocks;
    if (need > free_blocks_) {
      preempt(running_.size() - 1);  // the newest; possibly this one
      continue;
    }
    free_blocks_ -= need;
    s.blocks += need;
    batch.push_back(Scheduled{running_[i], want});
    budget -= want;
    ++i;
  }
  // Waiting requests, when nothing was preempted.
  while (preempted_.empty() && !waiting_.empty() && budget > 0 &&
         static_cast<std::int64_t>(running_.size()) < args_.max_num_seqs) {
    Seq& s = seqs_.at(waiting_.front());
    const std::int64_t want = std::min(budget, s.length() - s.computed);
    const std::int64_t need = blocks_for(s.computed + want) - s.blocks;
    if (need > free_blocks_) break;
    free_blocks_ -= need;
    s.blocks += need;
    batch.push_back(Scheduled{waiting_.front(), want});
    budget -= want;
    running_.push_back(waiting_.front());
    waiting_.pop_front();
  }
  if (batch.empty()) return std::nullopt;

  engine::ScheduledStep step;
  step.id = next_step_++;
  schema::StepShapeRankStep rank;
  rank.rank = 0;
  rank.requests.emplace();
  bool prompt = false, decode = false;
  for (const auto& b : batch) {
    Seq& s = seqs_.at(b.id);
    schema::StepShapeRequestStep r;
    r.new_tokens = units::Tokens{b.new_tokens};
    r.cached_tokens = units::Tokens{s.computed};
    r.query_tokens = units::Tokens{b.new_tokens};
    if (!s.started) {
      r.prompt_tokens = units::Tokens{static_cast<std::int64_t>(s.request.prompt.size())};
      step.first_scheduled.push_back(b.id);
      s.started = true;
    }
    (s.computed < static_cast<std::int64_t>(s.request.prompt.size()) ? prompt : decode) = true;
    rank.requests->push_back(r);
  }
  step.shape.mode = prompt && decode ? "mixed" : prompt ? "extend_only" : "decode_only";
  step.shape.ranks.emplace();
  step.shape.ranks->push_back(std::move(rank));
  in_flight_.emplace(step.id, std::move(batch));
  return step;
}

engine::StepOutcome ReferenceEngine::complete(std::uint64_t id) {
  if (!in_flight_ || in_flight_->first != id) {
    throw engine::ContractError("reference engine: complete(" + std::to_string(id) + ") of a step not in flight");
  }
  engine::StepOutcome out;
  out.preempted = preempted_;
  for (const auto& b : in_flight_->second) {
    auto it = seqs_.find(b.id);
    if (it == seqs_.end()) continue;  // aborted while in flight
    Seq& s = it->second;
    s.computed += b.new_tokens;
    if (s.computed < s.length()) continue;  // a prompt chunk that does not finish the prompt
    ++s.emitted;
    out.emitted.push_back(engine::EmittedTokens{b.id, 1});
    // The stop check (DEV-13): the sampled length acts as an end-of-sequence token at that position.
    std::string reason;
    if (s.emitted >= s.request.sampled_output_len) reason = "stop";
    else if (s.request.max_tokens && s.emitted >= *s.request.max_tokens) reason = "length";
    if (!reason.empty()) {
      out.finished.push_back(engine::Finished{b.id, reason});
      free_blocks_ += s.blocks;
      std::erase(running_, b.id);
      seqs_.erase(it);
    }
  }
  in_flight_.reset();
  return out;
}

engine::Published ReferenceEngine::published() const {
  engine::Published p;
  p.waiting = static_cast<std::int64_t>(waiting_.size());
  p.running = static_cast<std::int64_t>(running_.size());
  p.kv_usage = static_cast<double>(args_.num_gpu_blocks - free_blocks_) / static_cast<double>(args_.num_gpu_blocks);
  return p;
}

engine::Residence ReferenceEngine::residence(const std::string& id) const {
  if (std::find(running_.begin(), running_.end(), id) != running_.end()) return engine::Residence::kRunning;
  if (std::find(waiting_.begin(), waiting_.end(), id) != waiting_.end()) return engine::Residence::kQueued;
  return engine::Residence::kUnknown;
}

void register_reference_engine(engine::EngineRegistry& registry) {
  registry.add(engine::EngineKey{"reference", "1"}, [](const engine::Spec& spec, const engine::Environment&) {
    return std::make_unique<ReferenceEngine>(reference_args(spec));
  });
}

}  // namespace blis::conformance
