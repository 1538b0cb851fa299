// The Parallel DEVS coordinator (design §8.2, §8.3): it runs one instant in three phases. (1) Every
// component whose internal event falls at the instant runs its output function; (2) each receiver gets
// the bag of messages addressed to it, sorted by (time, class, sender, sender's count), and a repeated key
// stops the run; (3) each component then makes exactly one transition: confluent with an event and a bag,
// internal with only the event, external with only the bag. Then each one's time advance is recomputed,
// and the event it no longer wants is superseded by a generation number and dropped when it reaches the
// front of the queue. Zero-time rounds at one simulated time are bounded by a watchdog (DEV-5).
#pragma once

#include <cstdint>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/devs/atomic.h"
#include "sim/devs/message.h"
#include "sim/devs/time.h"

namespace blis::sim {

// A defect in the run's model (a repeated message key, a message to no component, the watchdog): it stops
// the run, naming the time, the components and the cause.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Limits {
  // Rounds processed at one simulated time before the run is stopped (DEV-5): every cycle of components
  // that answer in zero time must end within this many rounds.
  std::int64_t max_rounds_per_instant = 10000;
};

// The order in which the coordinator visits a phase's components. The three phases make it irrelevant,
// and the same-instant permutation test checks that: any order gives the same run. kAscending is the
// order runs use.
enum class VisitOrder : std::uint8_t { kAscending, kDescending, kStrided };

// Where a component's output function sends its messages; the coordinator stamps each key.
class Outbox {
 public:
  void send(ComponentId to, MessageClass cls, Payload payload);

 private:
  friend class Coordinator;
  Outbox(SimTime now, ComponentId sender, std::uint64_t& count, std::vector<Message>& sink)
      : now_(now), sender_(sender), count_(count), sink_(sink) {}
  SimTime now_;
  ComponentId sender_;
  std::uint64_t& count_;
  std::vector<Message>& sink_;
};

struct CoordinatorStats {
  std::int64_t instants = 0;       // distinct simulated times processed
  std::int64_t rounds = 0;         // rounds processed (several at one time when time advances are zero)
  std::int64_t internal = 0;
  std::int64_t external = 0;
  std::int64_t confluent = 0;
  std::int64_t messages = 0;
  std::int64_t stale_dropped = 0;  // superseded events dropped at the front of the queue
  std::int64_t max_rounds_at_one_time = 0;
};

class Coordinator {
 public:
  explicit Coordinator(Limits limits = {}, VisitOrder order = VisitOrder::kAscending)
      : limits_(limits), order_(order) {}

  // Adds a component (not owned; it must outlive the coordinator). Names must be unique.
  ComponentId add(Atomic& component);
  // Schedules every component's first event from time t0.
  void start(SimTime t0 = SimTime{});
  // The time of the next event (superseded events skipped), or kNever.
  SimTime next_time();
  // Processes one round at next_time(); false when no event remains.
  bool round();
  // Processes every round whose time is at most `end`.
  void run_until(SimTime end);

  SimTime now() const { return now_; }
  const CoordinatorStats& stats() const { return stats_; }
  const Atomic& component(ComponentId id) const { return *slots_.at(id).component; }
  std::size_t size() const { return slots_.size(); }

 private:
  struct Slot {
    Atomic* component = nullptr;
    SimTime last{};           // time of the last transition
    SimTime next = kNever;    // time of the scheduled internal event
    std::uint64_t generation = 0;
    std::uint64_t sent = 0;   // messages this component has sent
  };
  struct Event {
    SimTime time;
    ComponentId id;
    std::uint64_t generation;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : id > o.id; }
  };

  void schedule(ComponentId id, SimTime from);
  std::vector<ComponentId> visit(std::vector<ComponentId> ids) const;

  Limits limits_;
  VisitOrder order_;
  std::vector<Slot> slots_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
  SimTime now_{};
  SimTime rounds_time_ = kNever;
  std::int64_t rounds_here_ = 0;
  CoordinatorStats stats_;
};

}  // namespace blis::sim
