// DEV-4: a value an engine publishes reaches the router only at a scrape time plus the delivery delay, never
// before; a scrape takes the newest publication by (time, sequence), and a line with nothing new is passive.
#include <gtest/gtest.h>

#include <vector>

#include "sim/cluster/scrape_line.h"
#include "sim/devs/coordinator.h"

namespace blis::sim {
namespace {

// Publishes at scripted times (sequence 1, 2, ...) to the line.
class Publisher final : public Atomic {
 public:
  Publisher(std::vector<SimTime> at, ComponentId line) : at_(std::move(at)), line_(line) {}
  std::string_view name() const override { return "publisher"; }
  SimTime time_advance() const override { return next_ < at_.size() ? SimTime{at_[next_].us - now_.us} : kNever; }
  void output(SimTime now, Outbox& out) override {
    Publication p;
    p.published = now;
    p.sequence = next_ + 1;
    p.values.waiting = static_cast<std::int64_t>(next_ + 1);
    out.send(line_, MessageClass::kPublication, p);
  }
  void internal(SimTime now) override { now_ = now; ++next_; }
  void external(SimTime now, SimTime, const Bag&) override { now_ = now; }
  void confluent(SimTime now, const Bag&) override { internal(now); }

 private:
  std::vector<SimTime> at_;
  ComponentId line_;
  std::size_t next_ = 0;
  SimTime now_{};
};

// Records what reaches it and when.
class Reader final : public Atomic {
 public:
  std::string_view name() const override { return "reader"; }
  SimTime time_advance() const override { return kNever; }
  void output(SimTime, Outbox&) override {}
  void internal(SimTime) override {}
  void external(SimTime now, SimTime, const Bag& bag) override {
    for (const auto& m : bag) seen.emplace_back(now, std::get<Publication>(m.payload));
  }
  void confluent(SimTime now, const Bag& bag) override { external(now, {}, bag); }
  std::vector<std::pair<SimTime, Publication>> seen;
};

TEST(ScrapeLine, NothingIsSeenBeforeAScrapeTimePlusTheDelay) {
  Publisher pub({SimTime{3000}, SimTime{20000}, SimTime{30000}, SimTime{100000}}, 1);
  ScrapeLine line("line", SimTime{50000}, SimTime{7000}, 2);
  Reader reader;
  Coordinator co;
  co.add(pub);
  co.add(line);
  co.add(reader);
  co.start();
  co.run_until(kNever);
  // Scrapes at 50 ms (newest: the 30 ms publication, sequence 3) and 100 ms (sequence 4, published exactly
  // at the scrape), each seen 7 ms later; sequences 1 and 2 were superseded before any scrape.
  ASSERT_EQ(reader.seen.size(), 2u);
  EXPECT_EQ(reader.seen[0].first, SimTime{57000});
  EXPECT_EQ(reader.seen[0].second.sequence, 3u);
  EXPECT_EQ(reader.seen[1].first, SimTime{107000});
  EXPECT_EQ(reader.seen[1].second.sequence, 4u);
  for (const auto& [at, p] : reader.seen) EXPECT_GE(at.us, p.published.us + 7000);
  // With nothing new to scrape the line went passive, so the run ended.
  EXPECT_EQ(co.next_time(), kNever);
}

TEST(ScrapeLine, AnIntervalBelowOneMicrosecondIsRefused) {
  EXPECT_THROW(ScrapeLine("line", SimTime{0}, SimTime{0}, 1), std::invalid_argument);
  EXPECT_NO_THROW(ScrapeLine("line", SimTime{1}, SimTime{0}, 1));
  EXPECT_THROW(ScrapeLine("line", SimTime{1}, SimTime{-1}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace blis::sim
