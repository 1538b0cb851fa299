#include "sim/cluster/engine_component.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

namespace blis::sim {

void PricingTally::add(const engine::StepEstimate& e) {
  ++steps;
  entries.insert(e.entries_used.begin(), e.entries_used.end());
  for (const auto& p : e.primitives) {
    if (p.trust.extrapolated) ++extrapolated;
    if (p.trust.unidentified) ++unidentified;
  }
  if (e.least_trusted.effective_rank > least_trusted_rank) {
    least_trusted_rank = e.least_trusted.effective_rank;
    least_trusted_method = e.least_trusted.method;
  }
}

void PricingTally::merge(const PricingTally& o) {
  steps += o.steps;
  entries.insert(o.entries.begin(), o.entries.end());
  extrapolated += o.extrapolated;
  unidentified += o.unidentified;
  if (o.least_trusted_rank > least_trusted_rank) {
    least_trusted_rank = o.least_trusted_rank;
    least_trusted_method = o.least_trusted_method;
  }
}

EngineComponent::EngineComponent(std::string name, std::string pool, std::int64_t instance,
                                 engine::StepEngine& engine, const engine::Environment& env,
                                 const engine::plan::PoolPlan& plan, std::int64_t endpoint,
                                 ComponentId router, ComponentId publish_to)
    : name_(std::move(name)), pool_(std::move(pool)), instance_(instance), engine_(engine), env_(env),
      plan_(plan), endpoint_(endpoint), router_(router), publish_to_(publish_to) {
  // The engine's loop starts with the run: its first pass (at time 0) finds nothing to schedule, and what an
  // upstream publishes then (SGLang's on_idle: the radix cache's AllBlocksCleared) leaves at once.
  wake_ = true;
  if (engine_.in_flight_depth() < 1) {
    throw std::invalid_argument(name_ + ": in-flight depth " + std::to_string(engine_.in_flight_depth()) +
                                " is below 1");
  }
}

SimTime EngineComponent::time_advance() const {
  if (!pending_.empty() || wake_) return SimTime{0};
  if (!flight_.empty()) return SimTime{flight_.front().end.us - now_.us};
  return kNever;
}

engine::Residence EngineComponent::residence(const std::string& id) const {
  for (const auto& d : inbox_) {
    if (d.request.id == id) return engine::Residence::kQueued;
  }
  const engine::Residence r = engine_.residence(id);
  if (r == engine::Residence::kUnknown) {
    throw SimulationError(name_ + ": request '" + id + "' was dispatched here and has not ended, but the engine holds "
                          "no record of it (a lost request, DEV-9)");
  }
  return r;
}

void EngineComponent::output(SimTime, Outbox& out) {
  for (const auto& p : pending_) out.send(p.to, p.cls, p.payload);
}

void EngineComponent::take(const Bag& bag) {
  for (const auto& m : bag) {
    if (const auto* d = std::get_if<Dispatch>(&m.payload)) {
      inbox_.push_back(*d);
    } else if (const auto* a = std::get_if<Abort>(&m.payload)) {
      aborts_.push_back(a->request);
    } else {
      throw SimulationError(name_ + ": received a " + std::string(class_name(m.key.cls)) +
                            " message, which an engine does not take");
    }
  }
  if (static_cast<std::int64_t>(flight_.size()) < engine_.in_flight_depth()) wake_ = true;
}

void EngineComponent::external(SimTime now, SimTime, const Bag& bag) {
  now_ = now;
  take(bag);
}

void EngineComponent::confluent(SimTime now, const Bag& bag) {
  now_ = now;
  take(bag);
  internal(now);
}

void EngineComponent::internal(SimTime now) {
  now_ = now;
  pending_.clear();
  wake_ = false;
  bool completed = false;
  while (!flight_.empty() && flight_.front().end == now) {
    complete_front(now);
    completed = true;
  }
  read_input_and_schedule(now);
  if (completed) {
    ++publications_;
    pending_.push_back(Outgoing{publish_to_, MessageClass::kPublication,
                               Publication{endpoint_, now, publications_, engine_.published()}});
    if (observation_trace_) observation_trace_->publish(endpoint_, now, publications_);
  }
}

void EngineComponent::complete_front(SimTime) {
  const InFlight step = flight_.front();
  flight_.pop_front();
  StepRecord record;
  record.pool = pool_;
  record.instance = instance_;
  record.started = step.start;
  record.first_scheduled = step.first_scheduled;
  record.outcome = engine_.complete(step.id);
  // The KV-event messages the step's output published go to the router on their own channel, stamped with
  // the publisher's clock (the simulated time at the step's end, in seconds).
  for (auto& m : record.outcome.kv_events) {
    m.ts = static_cast<double>(step.end.us) / 1e6;
    pending_.push_back(Outgoing{router_, MessageClass::kKvEvents, KvEvents{endpoint_, std::move(m)}});
  }
  record.outcome.kv_events.clear();
  ++steps_completed_;
  for (const auto& f : record.outcome.finished) admitted_.erase(f.request);
  pending_.push_back(Outgoing{router_, MessageClass::kStepRecord, std::move(record)});
}

void EngineComponent::read_input_and_schedule(SimTime now) {
  while (!inbox_.empty()) {
    Dispatch d = std::move(inbox_.front());
    inbox_.pop_front();
    d.request.received_at = static_cast<double>(now.us) / 1e6;
    if (auto refused = engine_.add_request(d.request)) {
      pending_.push_back(Outgoing{router_, MessageClass::kRefusal, Refusal{*refused}});
    } else {
      admitted_.insert(d.request.id);
    }
  }
  // Aborts after adds: the input queue holds them in arrival order, and an abort never precedes its add.
  // The router learns which aborts took effect, after which the engine never names those requests again.
  if (!aborts_.empty()) {
    StepRecord applied;
    applied.pool = pool_;
    applied.instance = instance_;
    applied.started = now;
    for (const auto& id : aborts_) {
      if (admitted_.erase(id) > 0) engine_.abort_request(id);
      applied.aborted.push_back(id);
    }
    aborts_.clear();
    pending_.push_back(Outgoing{router_, MessageClass::kStepRecord, std::move(applied)});
  }
  while (static_cast<std::int64_t>(flight_.size()) < engine_.in_flight_depth()) {
    auto step = engine_.schedule();
    if (!step) break;
    const engine::StepEstimate estimate = env_.price(plan_, step->shape);
    pricing_.add(estimate);
    if (estimate.stages.size() != 1) {
      throw SimulationError(name_ + ": a step priced on " + std::to_string(estimate.stages.size()) +
                            " pipeline stages; pipeline parallelism is not simulated yet");
    }
    const SimTime start = flight_.empty() ? now : flight_.back().end;
    const SimTime duration = duration_of(estimate.stages.front().seconds, name_ + " step " + std::to_string(step->id));
    if (duration.us == 0) {
      throw SimulationError(name_ + ": step " + std::to_string(step->id) +
                            " priced below half a microsecond; simulated time would not advance (§8.3)");
    }
    flight_.push_back(InFlight{step->id, start, later(start, duration), std::move(step->first_scheduled)});
  }
  // What the engine published while it found nothing to schedule leaves now, stamped with this instant.
  for (auto& m : engine_.take_idle_publications()) {
    m.ts = static_cast<double>(now.us) / 1e6;
    pending_.push_back(Outgoing{router_, MessageClass::kKvEvents, KvEvents{endpoint_, std::move(m)}});
  }
}

}  // namespace blis::sim
