// Original to BLIS: the coupled replay's driver (FID-9). An engine port is run as the simulator runs it --
// inside src/sim's EngineComponent, on src/sim's Parallel DEVS coordinator, through the StepEngine contract --
// with the timed inputs (arrivals and aborts) of a trace the oracle recorded from the pinned upstream's own
// loop. Engine-neutral: each engine's replay (tests/<engine>/oracle/coupled_replay.cpp) builds its port, turns
// its trace into ticks, and compares what the port decided with what the trace recorded.
//
// Timing. Every step lasts one fixed duration (the oracle's tick; FixedStepEnvironment prices it), so the
// order of the simulator's reads, schedules and completions depends on the engine's decisions alone. The
// oracle's loop reads its input at every tick, before it schedules; the engine component reads its input once
// per transition: after the steps that end at that instant complete and before it schedules, while fewer than
// the in-flight depth are in flight (DEV-3's declared boundary). time_inputs() places each tick's input at the
// instant where the component reads it in the same place of the sequence of schedules and completions; where
// no such instant exists (upstream read an input between two schedules the component makes at one instant, as
// vLLM's batch queue does when it refills), it says so, naming the tick.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "contracts/engine/environment.h"
#include "contracts/engine/request.h"
#include "contracts/engine/scheduling.h"
#include "sim/devs/coordinator.h"
#include "sim/devs/time.h"

namespace blis::sim::coupled {

// What one tick of the oracle's loop did, as the timing needs it (the trace's order within a tick: its
// input, then its schedule, then its update).
struct Tick {
  std::int64_t tick = 0;
  std::vector<engine::Request> arrivals;
  std::vector<std::string> aborts;
  bool scheduled = false;  // scheduled a step with work
  bool found_nothing = false;  // asked the scheduler for a step and got one of no tokens (no step to the simulator)
  bool updated = false;    // completed a step with work (the oldest in flight)
  // Found nothing and waits for the oldest step in flight before it reads input or schedules again (SGLang's
  // overlap loop, in pop_and_process): the engine's in_flight_depth() drops until that step completes.
  bool waits_for_oldest = false;
};

// One tick's input, at the simulated time the source delivers it to the engine component.
struct TimedInput {
  std::int64_t tick = 0;
  SimTime at;
  std::vector<engine::Request> arrivals;
  std::vector<std::string> aborts;
};

struct Timing {
  std::vector<TimedInput> inputs;           // ticks with input, in time order
  std::optional<std::string> inexpressible; // why the trace's input order has no simulated counterpart
};

// The times of the ticks' inputs for an engine with `depth` steps in flight whose steps each last `step`. An
// input is delivered at the instant of the completion it follows (the component reads it after completing and
// before scheduling); after the engine found nothing to schedule, at tick x step when nothing is in flight (or at
// once when the clock is already past it), else at once, in a later round of the same instant. Refuses (std::invalid_argument) an update with nothing in flight and a schedule with the
// queue full: the trace contradicts the depth.
Timing time_inputs(const std::vector<Tick>& ticks, std::int64_t depth, SimTime step);

// Prices every step at one duration (one stage) and forwards everything else to `base`.
class FixedStepEnvironment final : public engine::Environment {
 public:
  FixedStepEnvironment(const engine::Environment& base, SimTime step) : base_(base), step_(step) {}
  const schema::Graph& graph(std::string_view model) const override { return base_.graph(model); }
  const schema::Chip& chip(std::string_view name) const override { return base_.chip(name); }
  engine::MemoryBreakdown memory(const engine::plan::PoolPlan& partial) const override { return base_.memory(partial); }
  engine::StepEstimate price(const engine::plan::PoolPlan& plan, const engine::plan::StepShape& step) const override;
  engine::TransferDemand transfer_demand(const engine::plan::PoolPlan& plan,
                                         const engine::plan::Transfer& move) const override {
    return base_.transfer_demand(plan, move);
  }
  schema::AcceptanceProfileProfile acceptance(std::string_view model, std::string_view drafter,
                                              std::string_view workload) const override {
    return base_.acceptance(model, drafter, workload);
  }

 private:
  const engine::Environment& base_;
  SimTime step_;
};

// One step as its record reached the sink: when it started, when its record arrived (the step's end: the
// component sends it on completion, with no delay to the sink), and the requests it ran for the first time.
struct StepSeen {
  SimTime started;
  SimTime ended;
  std::vector<std::string> first_scheduled;
};

// What the run's engine component sent: refusals by request id, and the step records.
struct RunResult {
  std::vector<engine::Refused> refused;
  std::int64_t step_records = 0;
  std::vector<StepSeen> steps;  // in the order their records arrived
  std::vector<std::pair<SimTime, engine::KvEventMessage>> kv_events;  // as they reached the router, with when
  CoordinatorStats stats;
};

// Runs `engine` (already built) in an EngineComponent until no event remains, with a source delivering
// `inputs` at their times (arrivals as the router's dispatches, aborts as a client's) and a sink standing in
// for the router and the scrape line.
RunResult run(engine::StepEngine& engine, const engine::Environment& env, const engine::plan::PoolPlan& plan,
              const std::vector<TimedInput>& inputs);

}  // namespace blis::sim::coupled
