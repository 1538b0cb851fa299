#include "sim/cluster/scrape_line.h"

#include <stdexcept>
#include <utility>

namespace blis::sim {

ScrapeLine::ScrapeLine(std::string name, SimTime interval, SimTime delay, ComponentId router)
    : name_(std::move(name)), interval_(interval), delay_(delay), router_(router) {
  if (interval_.us < 1) throw std::invalid_argument(name_ + ": scrape interval " + to_string(interval_) + " is not positive");
  if (delay_.us < 0) throw std::invalid_argument(name_ + ": delivery delay " + to_string(delay_) + " is negative");
}

SimTime ScrapeLine::next_scrape(SimTime now) const {
  const std::int64_t k = (now.us + interval_.us - 1) / interval_.us;
  return SimTime{k * interval_.us};
}

SimTime ScrapeLine::time_advance() const {
  SimTime next = kNever;
  if (newest_) next = next_scrape(now_);
  if (!deliveries_.empty() && deliveries_.front().first < next) next = deliveries_.front().first;
  return next == kNever ? kNever : SimTime{next.us - now_.us};
}

void ScrapeLine::output(SimTime now, Outbox& out) {
  for (const auto& [at, pub] : deliveries_) {
    if (at == now) out.send(router_, MessageClass::kPublication, pub);
  }
}

void ScrapeLine::internal(SimTime now) {
  now_ = now;
  while (!deliveries_.empty() && deliveries_.front().first == now) deliveries_.pop_front();
  if (newest_ && next_scrape(now) == now) {
    deliveries_.emplace_back(later(now, delay_), *newest_);
    newest_.reset();
  }
}

void ScrapeLine::take(const Bag& bag) {
  for (const auto& m : bag) {
    const auto* p = std::get_if<Publication>(&m.payload);
    if (!p) throw SimulationError(name_ + ": received a " + std::string(class_name(m.key.cls)) + " message");
    if (!newest_ || std::pair(newest_->published, newest_->sequence) < std::pair(p->published, p->sequence)) {
      newest_ = *p;
    }
  }
}

void ScrapeLine::external(SimTime now, SimTime, const Bag& bag) {
  now_ = now;
  take(bag);
}

// A publication arriving exactly at a scrape time is taken by that scrape (it is published before the
// scrape reads the endpoint): the bag first, then the scrape.
void ScrapeLine::confluent(SimTime now, const Bag& bag) {
  now_ = now;
  take(bag);
  internal(now);
}

}  // namespace blis::sim
