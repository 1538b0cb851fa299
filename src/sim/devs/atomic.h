// An atomic DEVS component (design §8.1): it changes state only through its three transitions and sends
// only from its output function, which runs on the state just before an internal or confluent transition.
// An external transition sends nothing: a component that must answer at once schedules an internal event
// with a time advance of zero and answers then.
#pragma once

#include <string>
#include <string_view>

#include "sim/devs/message.h"
#include "sim/devs/time.h"

namespace blis::sim {

class Outbox;

class Atomic {
 public:
  virtual ~Atomic() = default;

  // The component's name, unique in the run (it names the component in errors and substreams).
  virtual std::string_view name() const = 0;
  // Time until the next internal event, from the last transition; kNever when passive.
  virtual SimTime time_advance() const = 0;
  // The output function: messages sent just before the internal or confluent transition at `now`.
  virtual void output(SimTime now, Outbox& out) = 0;
  virtual void internal(SimTime now) = 0;
  virtual void external(SimTime now, SimTime elapsed, const Bag& bag) = 0;
  // Both at one instant: each component states what it does (§8.2), no default.
  virtual void confluent(SimTime now, const Bag& bag) = 0;
};

}  // namespace blis::sim
