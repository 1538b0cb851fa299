// The step interface of an engine (design §6.3, §8.2): what the simulator's engine component asks a built
// engine while it runs. It is separate from Engine so that Engine never gains a required function
// (SUB-1); a port implements both. The engine decides everything a real engine decides (admission, the
// batch, preemption, when a request finishes); the simulator only supplies requests and time, and prices
// each scheduled step through the Environment.
//
// One cycle: the simulator hands arrived requests and aborts over with add_request/abort_request at the
// step boundary the engine declares (DEV-3), asks schedule() for the next step while fewer than
// in_flight_depth() steps are in flight, prices the step's shape, and calls complete() with the step's id
// when its priced time has passed. complete() returns the engine's token record for that step, which every
// consumer reads and none recomputes (SIM-12).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "contracts/engine/kv_events.h"

#include "contracts/engine/plan.h"
#include "contracts/engine/request.h"

namespace blis::engine {

// The step boundary at which an external input takes effect (DEV-3).
enum class InputBoundary : std::uint8_t {
  kNextSchedule,  // read when the engine next schedules a step (a step scheduled before arrival never holds it)
};

// A step the engine has scheduled: the shape the environment prices, and the id complete() takes.
struct ScheduledStep {
  std::uint64_t id = 0;
  plan::StepShape shape;
  std::vector<std::string> first_scheduled;  // requests that run for the first time in this step, in batch order
};

// Tokens one request emitted in one step (the engine's token record, SIM-12).
struct EmittedTokens {
  std::string request;
  std::int64_t tokens = 0;  // output tokens sampled in this step (1 per decode; more under speculation)
};

// A request the engine ended in this step.
struct Finished {
  std::string request;
  std::string reason;  // the upstream's finish reason: "stop", "length", "abort"
};

// A request the engine refused at admission (SIM-7), with the upstream's reason.
struct Refused {
  std::string request;
  std::string reason;
};

struct StepOutcome {
  std::vector<EmittedTokens> emitted;    // in batch order
  std::vector<Finished> finished;        // in batch order
  std::vector<std::string> preempted;    // requests the step's scheduling preempted, in order
  // KV-event messages the engine published as it processed the step's output, in publication order (empty
  // unless the engine's configuration turns its event publisher on).
  std::vector<KvEventMessage> kv_events;
};

// One sample of an engine's metrics endpoint as it serves it: the metric family's name, the sample's labels
// (in the order the engine declares them) and its value. The router maps names to what it reads as its
// own configuration says, per engine kind (DEV-4); the simulator never interprets them.
struct MetricSample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  double value = 0;
  bool counter = false;  // a counter (else a gauge)
};

// What an engine publishes for the router (its metrics endpoint's gauges), as of the last step boundary.
struct Published {
  std::int64_t waiting = 0;          // requests queued, not yet running
  std::int64_t running = 0;          // requests running
  double kv_usage = 0;               // fraction of KV blocks in use, 0..1
  std::int64_t prefix_cache_queries = 0;  // tokens looked up in the prefix cache since start (a counter)
  std::int64_t prefix_cache_hits = 0;     // of those, tokens found (a counter)
  // The KV cache's configuration as the engine publishes it (vLLM's cache_config_info labels), which the
  // router's prefix index sizes itself by; 0: not published.
  std::int64_t cache_block_size = 0;  // tokens per KV block
  std::int64_t cache_num_blocks = 0;  // KV blocks on the device
  // The same state as the engine's metrics endpoint serves it (the upstream's own metric names and labels),
  // which is what the router reads.
  std::vector<MetricSample> samples;
};

// Where a request is, for the fates written at the horizon (DEV-9).
enum class Residence : std::uint8_t { kUnknown, kQueued, kRunning };

class StepEngine {
 public:
  virtual ~StepEngine() = default;

  // Takes a request at the engine's input boundary; a request that can never be served (its prompt can
  // never fit) is refused here with the upstream's reason (SIM-7), and never scheduled.
  virtual std::optional<Refused> add_request(const Request& request) = 0;
  // Ends a request the client gave up on; it finishes with reason "abort" in no step's record. Unknown
  // and already finished ids are ignored, as upstream's abort is.
  virtual void abort_request(const std::string& id) = 0;
  // The next step, or nothing when the engine has no work it can schedule now.
  virtual std::optional<ScheduledStep> schedule() = 0;
  // The record of a step schedule() returned, once its time has passed; steps complete in schedule order.
  virtual StepOutcome complete(std::uint64_t step) = 0;
  // KV-event messages the engine published while it found nothing to schedule (an upstream whose idle loop
  // publishes, as SGLang's on_idle does), in publication order; the simulator takes them after schedule()
  // and sends them at that instant. An engine that publishes only with a step's output keeps the default.
  virtual std::vector<KvEventMessage> take_idle_publications() { return {}; }
  // Steps the engine keeps in flight at once (PoolPlan's in-flight depth; SIM-7). Read before every schedule():
  // an engine whose loop waits for its oldest step before it schedules again (SGLang's overlap loop after it
  // found nothing to launch) answers fewer until that step completes.
  virtual std::int64_t in_flight_depth() const = 0;
  virtual InputBoundary boundary() const = 0;
  virtual Published published() const = 0;
  virtual Residence residence(const std::string& id) const = 0;
};

}  // namespace blis::engine
