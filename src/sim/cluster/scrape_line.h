// The path an engine's published metrics take to the router (DEV-1, DEV-4): the router scrapes each
// engine every `interval` (at whole multiples of it from time zero) and sees a scrape `delay` later. A
// scrape takes the newest publication (by its time and publication sequence); a scrape that would find
// nothing new changes nothing, so the line is passive until a new publication is waiting, and a run whose
// engines are idle can end. No value reaches the router before its time plus the delays.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "sim/devs/atomic.h"
#include "sim/devs/coordinator.h"

namespace blis::sim {

class ScrapeLine final : public Atomic {
 public:
  ScrapeLine(std::string name, SimTime interval, SimTime delay, ComponentId router);

  std::string_view name() const override { return name_; }
  SimTime time_advance() const override;
  void output(SimTime now, Outbox& out) override;
  void internal(SimTime now) override;
  void external(SimTime now, SimTime elapsed, const Bag& bag) override;
  void confluent(SimTime now, const Bag& bag) override;

 private:
  SimTime next_scrape(SimTime now) const;  // the first scrape time at or after now
  void take(const Bag& bag);

  std::string name_;
  SimTime interval_, delay_;
  ComponentId router_;
  SimTime now_{};
  std::optional<Publication> newest_;        // the newest publication not yet scraped
  std::deque<std::pair<SimTime, Publication>> deliveries_;  // scraped, delivered at .first
};

}  // namespace blis::sim
