// The DEVS core (design §8.2, §8.3): the three phases, bag order, superseded events, the zero-time watchdog
// (DEV-5) and the one rounding rule.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/devs/coordinator.h"

namespace blis::sim {
namespace {

// A scripted component: at each of its own times it sends one message to each target, of a given class;
// it records every transition it makes and every bag it receives (as key strings).
class Scripted final : public Atomic {
 public:
  Scripted(std::string name, std::vector<SimTime> times, std::vector<ComponentId> targets, MessageClass cls,
           std::vector<std::string>* log)
      : name_(std::move(name)), times_(std::move(times)), targets_(std::move(targets)), cls_(cls), log_(log) {}
  std::string_view name() const override { return name_; }
  SimTime time_advance() const override {
    return next_ < times_.size() ? SimTime{times_[next_].us - now_.us} : kNever;
  }
  void output(SimTime, Outbox& out) override {
    for (ComponentId t : targets_) out.send(t, cls_, Abort{name_});
  }
  void internal(SimTime now) override {
    now_ = now;
    ++next_;
    log_->push_back(name_ + " internal " + to_string(now));
  }
  void external(SimTime now, SimTime, const Bag& bag) override {
    now_ = now;
    log_->push_back(name_ + " external " + to_string(now) + " " + keys(bag));
  }
  void confluent(SimTime now, const Bag& bag) override {
    now_ = now;
    ++next_;
    log_->push_back(name_ + " confluent " + to_string(now) + " " + keys(bag));
  }

 private:
  static std::string keys(const Bag& bag) {
    std::string s;
    for (const auto& m : bag) {
      s += "(" + std::to_string(m.key.time.us) + "," + std::string(class_name(m.key.cls)) + "," +
           std::to_string(m.key.sender) + "," + std::to_string(m.key.count) + ")";
    }
    return s;
  }
  std::string name_;
  std::vector<SimTime> times_;
  std::vector<ComponentId> targets_;
  MessageClass cls_;
  std::vector<std::string>* log_;
  std::size_t next_ = 0;
  SimTime now_{};
};

std::vector<std::string> scripted_run(VisitOrder order) {
  std::vector<std::string> log;
  // Components 0..3; 0, 1 and 2 all fire at 10 and 20 us and send to 3 and to each other.
  Scripted a("a", {SimTime{10}, SimTime{20}}, {3, 1}, MessageClass::kNewRequest, &log);
  Scripted b("b", {SimTime{10}, SimTime{20}}, {3, 0}, MessageClass::kStepRecord, &log);
  Scripted c("c", {SimTime{10}, SimTime{30}}, {3, 3}, MessageClass::kPublication, &log);
  Scripted d("d", {SimTime{20}}, {}, MessageClass::kAbort, &log);
  Coordinator co(Limits{}, order);
  co.add(a);
  co.add(b);
  co.add(c);
  co.add(d);
  co.start();
  co.run_until(kNever);
  return log;
}

TEST(Permutation, AnyVisitOrderGivesTheSameBagsAndTransitions) {
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  const auto ascending = scripted_run(VisitOrder::kAscending);
  EXPECT_EQ(sorted(ascending), sorted(scripted_run(VisitOrder::kDescending)));
  EXPECT_EQ(sorted(ascending), sorted(scripted_run(VisitOrder::kStrided)));
  // The visit order itself differs (so the comparison above is not vacuous).
  EXPECT_NE(ascending, scripted_run(VisitOrder::kDescending));
}

TEST(Bags, SortedByTimeClassSenderAndCount) {
  const auto log = scripted_run(VisitOrder::kAscending);
  // d receives at 10 us: b's step record, c's two publications (counts 1 and 2), a's new request.
  const std::string want = "d external 0.000010s (10,step-record,1,1)(10,publication,2,1)(10,publication,2,2)(10,new-request,0,1)";
  EXPECT_NE(std::find(log.begin(), log.end(), want), log.end()) << want;
  // At 20 us d's own event and its bag coincide: one confluent transition, no internal one.
  const std::string conf = "d confluent 0.000020s (20,step-record,1,3)(20,new-request,0,3)";
  EXPECT_NE(std::find(log.begin(), log.end(), conf), log.end()) << conf;
  EXPECT_EQ(std::count_if(log.begin(), log.end(), [](const std::string& s) { return s.starts_with("d internal"); }), 0);
}

// Reschedules itself later on every message: its earlier event is superseded and must not fire.
class Postponer final : public Atomic {
 public:
  std::string_view name() const override { return "postponer"; }
  SimTime time_advance() const override { return due_ == kNever ? kNever : SimTime{due_.us - now_.us}; }
  void output(SimTime, Outbox&) override {}
  void internal(SimTime now) override {
    now_ = now;
    fired.push_back(now);
    due_ = kNever;
  }
  void external(SimTime now, SimTime, const Bag&) override {
    now_ = now;
    due_ = later(now, SimTime{100});
  }
  void confluent(SimTime now, const Bag& bag) override { external(now, {}, bag); }
  std::vector<SimTime> fired;

 private:
  SimTime due_{50};
  SimTime now_{};
};

TEST(Stale, ASupersededEventIsDroppedAndNeverFires) {
  std::vector<std::string> log;
  Postponer p;
  Scripted s("poker", {SimTime{20}}, {0}, MessageClass::kAbort, &log);
  Coordinator co;
  co.add(p);
  co.add(s);
  co.start();
  co.run_until(kNever);
  ASSERT_EQ(p.fired.size(), 1u);
  EXPECT_EQ(p.fired[0], SimTime{120});  // not 50: that event was superseded at 20
  EXPECT_EQ(co.stats().stale_dropped, 1);
}

// Two components that answer each other at once, `rounds` times (forever when negative).
class Echo final : public Atomic {
 public:
  Echo(std::string name, ComponentId peer, bool starts, int rounds) : name_(std::move(name)), peer_(peer), due_(starts), left_(rounds) {}
  std::string_view name() const override { return name_; }
  SimTime time_advance() const override { return due_ ? SimTime{0} : kNever; }
  void output(SimTime, Outbox& out) override { out.send(peer_, MessageClass::kAbort, Abort{name_}); }
  void internal(SimTime) override { due_ = false; }
  void external(SimTime, SimTime, const Bag&) override { due_ = left_ != 0; if (left_ > 0) --left_; }
  void confluent(SimTime, const Bag&) override { due_ = false; }

 private:
  std::string name_;
  ComponentId peer_;
  bool due_;
  int left_;
};

TEST(Watchdog, AnEndlessZeroTimeCycleStopsTheRun) {
  Echo a("ping", 1, true, -1), b("pong", 0, false, -1);
  Coordinator co(Limits{100});
  co.add(a);
  co.add(b);
  co.start();
  try {
    co.run_until(kNever);
    FAIL() << "the zero-time cycle ran on";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 100 rounds at one simulated time (DEV-5)"), std::string::npos) << e.what();
  }
}

TEST(Watchdog, ABoundedZeroTimeCycleEnds) {
  Echo a("ping", 1, true, 40), b("pong", 0, false, 40);
  Coordinator co(Limits{100});
  co.add(a);
  co.add(b);
  co.start();
  co.run_until(kNever);
  EXPECT_EQ(co.stats().instants, 1);
  EXPECT_EQ(co.stats().max_rounds_at_one_time, 81);  // the first send, then 40 answers each
}

TEST(Time, OneRoundingRuleTiesToEven) {
  EXPECT_EQ(duration_of(units::Seconds{0.0000005}, "t"), SimTime{0});
  EXPECT_EQ(duration_of(units::Seconds{0.0000015}, "t"), SimTime{2});
  EXPECT_EQ(duration_of(units::Seconds{0.0025}, "t"), SimTime{2500});
  EXPECT_EQ(duration_of(units::Seconds{0}, "t"), SimTime{0});
  EXPECT_THROW(duration_of(units::Seconds{-1e-9}, "t"), std::domain_error);
  EXPECT_THROW(duration_of(units::Seconds{std::numeric_limits<double>::quiet_NaN()}, "t"), std::domain_error);
  EXPECT_THROW(duration_of(units::Seconds{1e13}, "t"), std::domain_error);
  EXPECT_EQ(duration_of(units::Seconds{1e12}, "t"), SimTime{1000000000000000000});
}

TEST(Components, ANameUsedTwiceIsRefused) {
  std::vector<std::string> log;
  Scripted a("same", {}, {}, MessageClass::kAbort, &log), b("same", {}, {}, MessageClass::kAbort, &log);
  Coordinator co;
  co.add(a);
  EXPECT_THROW(co.add(b), SimulationError);
}

}  // namespace
}  // namespace blis::sim
