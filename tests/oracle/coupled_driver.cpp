// Original to BLIS: the coupled replay's driver (FID-9); see coupled_driver.h.
#include "tests/oracle/coupled_driver.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <utility>

#include "sim/cluster/engine_component.h"
#include "sim/devs/atomic.h"

namespace blis::sim::coupled {

Timing time_inputs(const std::vector<Tick>& ticks, std::int64_t depth, SimTime step) {
  Timing timing;
  SimTime now{};
  std::deque<SimTime> flight;  // the end of each step in flight, oldest first
  // The component reads input at `now` before it next schedules: a step completed at this instant (or nothing
  // has happened yet) and it has not scheduled since.
  bool read_open = true;
  // The component's last schedule() found nothing: it waits for input or a completion, and reads an input that
  // arrives meanwhile (in a later round at the same instant, or later) before it schedules again.
  bool idle = false;
  for (const Tick& t : ticks) {
    if (!t.arrivals.empty() || !t.aborts.empty()) {
      SimTime at = now;
      if (!read_open && idle) {
        if (flight.empty()) at = std::max(now, SimTime{t.tick * step.us});
      } else if (!read_open) {
        // The component scheduled a step after its last read and, while fewer than `depth` are in flight, asks
        // for another at once. Upstream read this input first: the same order only when that request found
        // nothing (upstream scheduled nothing at this tick either) and the queue has room.
        // An engine that waits for its oldest step after finding nothing took that decision at once too, without
        // this input, and reads it only after the completion.
        if (static_cast<std::int64_t>(flight.size()) >= depth || t.scheduled || (t.found_nothing && t.waits_for_oldest)) {
          timing.inexpressible = "tick " + std::to_string(t.tick) +
                                 ": upstream read this input between two schedules that the engine component makes at "
                                 "one instant (it reads input once per transition, before it schedules; DEV-3)";
          return timing;
        }
      }
      now = at;
      read_open = true;
      idle = false;
      timing.inputs.push_back(TimedInput{t.tick, at, t.arrivals, t.aborts});
    }
    if (t.scheduled) {
      if (static_cast<std::int64_t>(flight.size()) >= depth) {
        throw std::invalid_argument("tick " + std::to_string(t.tick) + " schedules with " + std::to_string(depth) +
                                    " steps in flight already");
      }
      const SimTime start = flight.empty() ? now : flight.back();
      flight.push_back(later(start, step));
      read_open = false;
      idle = false;
    } else if (t.found_nothing) {
      read_open = false;
      idle = true;
    }
    if (t.updated) {
      if (flight.empty()) {
        throw std::invalid_argument("tick " + std::to_string(t.tick) + " updates with no step in flight");
      }
      const SimTime end = flight.front();
      flight.pop_front();
      if (end > now) now = end;
      read_open = true;
      idle = false;
    }
  }
  return timing;
}

engine::StepEstimate FixedStepEnvironment::price(const engine::plan::PoolPlan&, const engine::plan::StepShape&) const {
  engine::StepEstimate e;
  e.stages.push_back(engine::StageSeconds{0, units::Seconds{static_cast<double>(step_.us) / 1e6}});
  return e;
}

namespace {

// Delivers the timed inputs: each at its time, arrivals as the router's dispatches, aborts as a client's.
class Source final : public Atomic {
 public:
  Source(const std::vector<TimedInput>& inputs, ComponentId engine) : inputs_(inputs), engine_(engine) {}
  std::string_view name() const override { return "coupled-source"; }
  SimTime time_advance() const override {
    if (next_ >= inputs_.size()) return kNever;
    return SimTime{inputs_[next_].at.us - now_.us};
  }
  void output(SimTime, Outbox& out) override {
    const TimedInput& in = inputs_[next_];
    for (const auto& r : in.arrivals) out.send(engine_, MessageClass::kDispatch, Dispatch{r, 0});
    for (const auto& id : in.aborts) out.send(engine_, MessageClass::kAbort, Abort{id});
  }
  void internal(SimTime now) override {
    now_ = now;
    ++next_;
  }
  void external(SimTime, SimTime, const Bag&) override { throw SimulationError("coupled-source: takes no message"); }
  void confluent(SimTime, const Bag&) override { throw SimulationError("coupled-source: takes no message"); }

 private:
  const std::vector<TimedInput>& inputs_;
  ComponentId engine_;
  std::size_t next_ = 0;
  SimTime now_{};
};

// Stands in for the router and the scrape line: keeps the refusals, KV-event messages and step records.
class Sink final : public Atomic {
 public:
  std::string_view name() const override { return "coupled-sink"; }
  SimTime time_advance() const override { return kNever; }
  void output(SimTime, Outbox&) override {}
  void internal(SimTime) override {}
  void external(SimTime now, SimTime, const Bag& bag) override {
    for (const auto& m : bag) {
      if (const auto* r = std::get_if<Refusal>(&m.payload)) result.refused.push_back(r->refused);
      if (const auto* st = std::get_if<StepRecord>(&m.payload)) {
        ++result.step_records;
        result.steps.push_back(StepSeen{st->started, now, st->first_scheduled});
      }
      if (const auto* k = std::get_if<KvEvents>(&m.payload)) result.kv_events.emplace_back(now, k->message);
    }
  }
  void confluent(SimTime now, const Bag& bag) override { external(now, SimTime{}, bag); }
  RunResult result;
};

}  // namespace

RunResult run(engine::StepEngine& engine, const engine::Environment& env, const engine::plan::PoolPlan& plan,
              const std::vector<TimedInput>& inputs) {
  Coordinator coordinator;
  Sink sink;
  const ComponentId sink_id = coordinator.add(sink);
  EngineComponent component("coupled-engine", "pool", 0, engine, env, plan, 0, sink_id, sink_id);
  const ComponentId engine_id = coordinator.add(component);
  Source source(inputs, engine_id);
  coordinator.add(source);
  coordinator.start();
  while (coordinator.round()) {
  }
  sink.result.stats = coordinator.stats();
  return sink.result;
}

}  // namespace blis::sim::coupled
