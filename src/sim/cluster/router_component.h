// The router as a DEVS component (design §8.1, DEV-1): it receives each client's requests and answers at
// once (a zero time advance) by dispatching each to the endpoint its picker chooses. Responses (each
// engine's step records and refusals) stream back through it to the clients, as through llm-d's gateway. It learns about the
// engines only from the publications its scrape lines deliver, keyed on (time, publication sequence)
// (DEV-4), and from the KV-event messages the engines send it; it never reads an engine's state. Aborts are forwarded to the engine the request went to.
// The picker is the router's decision code: the llm-d port (router/) plugs in here; tests plug in the
// conformance pickers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "contracts/engine/scheduling.h"
#include "sim/devs/atomic.h"
#include "sim/devs/coordinator.h"
#include "sim/observe/observation_trace.h"
#include "sim/observe/observations.h"

namespace blis::sim {

// One endpoint as the router sees it.
struct EndpointView {
  std::string pool;
  std::int64_t instance = 0;
  std::optional<engine::Published> metrics;  // the newest delivered publication, if any
  SimTime published{};                       // its publication time
  std::uint64_t sequence = 0;                // and sequence
  std::string engine_kind;                   // the endpoint's engine kind
};

class Picker {
 public:
  virtual ~Picker() = default;
  virtual std::string_view name() const = 0;
  // The index of the endpoint that serves `request`; called in the router's transitions, in bag order, at
  // simulated time `now`.
  virtual std::size_t pick(SimTime now, const engine::Request& request, const std::vector<EndpointView>& endpoints) = 0;
  // The response of a routed request passing back through the router at `now`: its first output
  // (start_of_stream) and its end (end_of_stream: finished, refused or aborted; both when it ends before any
  // output). A picker that keeps no per-request state ignores it.
  virtual void response(SimTime now, const std::string& id, bool start_of_stream, bool end_of_stream) {
    (void)now, (void)id, (void)start_of_stream, (void)end_of_stream;
  }
  // An engine's KV-event message, delivered at `now` (the end of the step whose output published it) from
  // `endpoint`; in each engine's publication order. A picker that reads no KV events ignores it.
  virtual void kv_events(SimTime now, const EndpointView& endpoint, const engine::KvEventMessage& message) {
    (void)now, (void)endpoint, (void)message;
  }
  // How often the router reads each engine's metrics, when the router's own configuration says (llm-d's
  // --refresh-metrics-interval); nothing: the run's default.
  virtual std::optional<SimTime> scrape_interval() const { return std::nullopt; }
  // What the router's configuration accepted without effect or deprecates (e.g. a serving-only flag), each
  // naming what it is about.
  virtual std::vector<std::string> warnings() const { return {}; }
};

struct Endpoint {
  std::string pool;
  std::int64_t instance = 0;
  ComponentId engine = 0;
  std::string engine_kind;  // the pool's engine kind (e.g. "vllm"), which a router may read as a pod label
};

class RouterComponent final : public Atomic {
 public:
  RouterComponent(std::vector<Endpoint> endpoints, Picker& picker, Observations& observations);

  // Records, at each decision, what the router holds of every endpoint in DEV-4's trace (a checking aid).
  void trace_observations(ObservationTrace* trace) { observation_trace_ = trace; }

  std::string_view name() const override { return "router"; }
  SimTime time_advance() const override;
  void output(SimTime now, Outbox& out) override;
  void internal(SimTime now) override;
  void external(SimTime now, SimTime elapsed, const Bag& bag) override;
  void confluent(SimTime now, const Bag& bag) override;

 private:
  struct Route {
    std::size_t endpoint = 0;
    ComponentId client = 0;
  };
  void take(SimTime now, const Bag& bag);
  void forward(SimTime now, const StepRecord& record);
  void end_response(SimTime now, const std::string& id);

  std::vector<Endpoint> endpoints_;
  std::vector<EndpointView> view_;
  Picker& picker_;
  Observations& observations_;
  std::map<std::string, Route> routed_;  // each request the router sent and has not seen end
  std::set<std::string> aborted_;        // aborts forwarded whose engine has not yet applied them
  std::set<std::string> streaming_;      // routed requests whose first output has passed
  std::vector<Outgoing> pending_;
  ObservationTrace* observation_trace_ = nullptr;
};

}  // namespace blis::sim
