#include "sim/devs/coordinator.h"

#include <algorithm>
#include <map>
#include <utility>

namespace blis::sim {

void Outbox::send(ComponentId to, MessageClass cls, Payload payload) {
  ++count_;
  sink_.push_back(Message{MessageKey{now_, cls, sender_, count_}, to, std::move(payload)});
}

ComponentId Coordinator::add(Atomic& component) {
  for (const auto& s : slots_) {
    if (s.component->name() == component.name()) {
      throw SimulationError("component name '" + std::string(component.name()) + "' is used twice");
    }
  }
  slots_.push_back(Slot{&component});
  return static_cast<ComponentId>(slots_.size() - 1);
}

void Coordinator::start(SimTime t0) {
  now_ = t0;
  for (ComponentId id = 0; id < slots_.size(); ++id) {
    slots_[id].last = t0;
    schedule(id, t0);
  }
}

void Coordinator::schedule(ComponentId id, SimTime from) {
  Slot& s = slots_[id];
  ++s.generation;  // any earlier event of this component is superseded
  const SimTime ta = s.component->time_advance();
  if (ta.us < 0) {
    throw SimulationError(to_string(from) + ": component '" + std::string(s.component->name()) +
                          "' has a negative time advance " + std::to_string(ta.us) + " us");
  }
  s.next = later(from, ta);
  if (s.next != kNever) queue_.push(Event{s.next, id, s.generation});
}

SimTime Coordinator::next_time() {
  while (!queue_.empty()) {
    const Event& e = queue_.top();
    if (e.generation == slots_[e.id].generation) return e.time;
    queue_.pop();
    ++stats_.stale_dropped;
  }
  return kNever;
}

std::vector<ComponentId> Coordinator::visit(std::vector<ComponentId> ids) const {
  std::sort(ids.begin(), ids.end());
  if (order_ == VisitOrder::kDescending) {
    std::reverse(ids.begin(), ids.end());
  } else if (order_ == VisitOrder::kStrided && ids.size() > 2) {
    // Every third, wrapping: a permutation unlike both ascending and descending.
    std::vector<ComponentId> out;
    for (std::size_t start = 0; start < 3; ++start) {
      for (std::size_t i = start; i < ids.size(); i += 3) out.push_back(ids[i]);
    }
    ids = std::move(out);
  }
  return ids;
}

bool Coordinator::round() {
  const SimTime t = next_time();
  if (t == kNever) return false;
  if (t == rounds_time_) {
    if (++rounds_here_ > limits_.max_rounds_per_instant) {
      std::string names;
      for (const auto& s : slots_) {
        if (s.next == t) names += (names.empty() ? "" : ", ") + std::string(s.component->name());
      }
      throw SimulationError(to_string(t) + ": more than " + std::to_string(limits_.max_rounds_per_instant) +
                            " rounds at one simulated time (DEV-5); components due again: " + names);
    }
  } else {
    rounds_time_ = t;
    rounds_here_ = 1;
    ++stats_.instants;
  }
  stats_.max_rounds_at_one_time = std::max(stats_.max_rounds_at_one_time, rounds_here_);
  ++stats_.rounds;
  now_ = t;

  // Phase 1: the imminent components' output functions.
  std::vector<ComponentId> imminent;
  while (!queue_.empty() && queue_.top().time == t) {
    const Event e = queue_.top();
    queue_.pop();
    if (e.generation != slots_[e.id].generation) {
      ++stats_.stale_dropped;
      continue;
    }
    imminent.push_back(e.id);
  }
  std::vector<Message> sent;
  for (ComponentId id : visit(imminent)) {
    Outbox out(t, id, slots_[id].sent, sent);
    slots_[id].component->output(t, out);
  }
  stats_.messages += static_cast<std::int64_t>(sent.size());

  // Phase 2: bags, sorted by key; a repeated key is a defect.
  std::map<ComponentId, Bag> bags;
  for (auto& m : sent) {
    if (m.to >= slots_.size()) {
      throw SimulationError(to_string(t) + ": component '" + std::string(slots_[m.key.sender].component->name()) +
                            "' sent a " + std::string(class_name(m.key.cls)) + " message to no component (id " +
                            std::to_string(m.to) + ")");
    }
    bags[m.to].push_back(std::move(m));
  }
  for (auto& [to, bag] : bags) {
    std::sort(bag.begin(), bag.end(), [](const Message& a, const Message& b) { return a.key < b.key; });
    for (std::size_t i = 1; i < bag.size(); ++i) {
      if (!(bag[i - 1].key < bag[i].key)) {
        throw SimulationError(to_string(t) + ": two messages to '" + std::string(slots_[to].component->name()) +
                              "' share the key (" + std::string(class_name(bag[i].key.cls)) + ", sender '" +
                              std::string(slots_[bag[i].key.sender].component->name()) + "', count " +
                              std::to_string(bag[i].key.count) + "), a defect (§8.2)");
      }
    }
  }

  // Phase 3: one transition each, then the new time advance.
  std::vector<ComponentId> active = imminent;
  for (const auto& [to, bag] : bags) {
    if (std::find(imminent.begin(), imminent.end(), to) == imminent.end()) active.push_back(to);
  }
  for (ComponentId id : visit(active)) {
    Slot& s = slots_[id];
    const bool due = std::find(imminent.begin(), imminent.end(), id) != imminent.end();
    const auto it = bags.find(id);
    if (due && it != bags.end()) {
      s.component->confluent(t, it->second);
      ++stats_.confluent;
    } else if (due) {
      s.component->internal(t);
      ++stats_.internal;
    } else {
      s.component->external(t, SimTime{t.us - s.last.us}, it->second);
      ++stats_.external;
    }
    s.last = t;
    schedule(id, t);
  }
  return true;
}

void Coordinator::run_until(SimTime end) {
  while (next_time() <= end && next_time() != kNever) round();
}

}  // namespace blis::sim
