// One engine instance as a DEVS component (design §8.1, §8.2). It holds the built engine (its step
// interface) and asks the Environment for each step's price; everything else the engine decides.
//
//   external   a dispatched request or an abort joins the input the engine reads at its declared boundary
//              (DEV-3: when it next schedules); an engine with fewer steps in flight than its depth wakes
//              at once (time advance 0) to read it.
//   internal   at a step's end: complete() gives the step's token record, which goes back through the
//              router (responses stream through the gateway) to each client, and the engine's published metrics go to its scrape line; then the engine
//              reads its input and schedules while fewer than in_flight_depth() steps are in flight
//              (SIM-7). Steps run one after another: a step starts when the previous one ends.
//   confluent  the input first, then the internal transition: the upstream loop reads its input queue
//              before it schedules, so a request arriving as a step ends can join the next step.
//   output     the records, refusals and publication computed by the last transition.
// A step's priced seconds become simulated time through duration_of(), the one rounding rule.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "contracts/engine/environment.h"
#include "contracts/engine/results.h"
#include "contracts/engine/scheduling.h"
#include "sim/devs/atomic.h"
#include "sim/devs/coordinator.h"
#include "sim/observe/observation_trace.h"

namespace blis::sim {

// What the run learns about pricing from every step an engine priced (VAL-3).
struct PricingTally {
  int least_trusted_rank = 0;          // 0 until a priced entry is used
  engine::Method least_trusted_method = engine::Method::kMeasured;
  std::int64_t extrapolated = 0;
  std::int64_t unidentified = 0;
  std::int64_t steps = 0;
  std::set<std::string> entries;       // every coefficient entry a price used, by identity (VAL-6)
  void add(const engine::StepEstimate& estimate);
  void merge(const PricingTally& other);
};

class EngineComponent final : public Atomic {
 public:
  EngineComponent(std::string name, std::string pool, std::int64_t instance, engine::StepEngine& engine,
                  const engine::Environment& env, const engine::plan::PoolPlan& plan, std::int64_t endpoint, ComponentId router,
                  ComponentId publish_to);

  std::string_view name() const override { return name_; }
  SimTime time_advance() const override;
  void output(SimTime now, Outbox& out) override;
  void internal(SimTime now) override;
  void external(SimTime now, SimTime elapsed, const Bag& bag) override;
  void confluent(SimTime now, const Bag& bag) override;

  // Records each value the engine publishes in DEV-4's trace (a checking aid; changes nothing).
  void trace_publications(ObservationTrace* trace) { observation_trace_ = trace; }
  const PricingTally& pricing() const { return pricing_; }
  std::int64_t steps_completed() const { return steps_completed_; }
  // What the engine publishes now (its metrics endpoint's gauges and counters).
  engine::Published published() const { return engine_.published(); }
  // Where a request dispatched here is at the end of a run: queued when it waits in the component's input
  // or the engine's queue, running when the engine runs it. A dispatched request the engine does not hold
  // and that has not ended was lost: a defect (SimulationError naming it, DEV-9).
  engine::Residence residence(const std::string& id) const;

 private:
  struct InFlight {
    std::uint64_t id = 0;
    SimTime start, end;
    std::vector<std::string> first_scheduled;
  };

  void take(const Bag& bag);
  void complete_front(SimTime now);
  void read_input_and_schedule(SimTime now);

  std::string name_, pool_;
  std::int64_t instance_;
  engine::StepEngine& engine_;
  const engine::Environment& env_;
  const engine::plan::PoolPlan& plan_;
  std::int64_t endpoint_;  // the router's index of this instance
  ComponentId router_;      // records and refusals go back through the router, as responses do
  ComponentId publish_to_;  // the scrape line

  SimTime now_{};
  std::deque<Dispatch> inbox_;
  std::vector<std::string> aborts_;
  std::set<std::string> admitted_;  // requests the engine holds, for aborts
  std::deque<InFlight> flight_;
  std::vector<Outgoing> pending_;
  bool wake_ = false;
  std::uint64_t publications_ = 0;
  ObservationTrace* observation_trace_ = nullptr;
  std::int64_t steps_completed_ = 0;
  PricingTally pricing_;
};

}  // namespace blis::sim
