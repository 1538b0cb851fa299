// The link (SIM-13, design §8.1) through the real coordinator: finish times against hand-computed values
// for one transfer, equal sharing, a transfer joining halfway, the per-transfer cap, zero bytes and the
// confluent order; each refusal beside its closest accepted input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "link_driver.h"
#include "sim/cluster/link.h"

namespace blis::sim {
namespace {

using testing::LinkDriver;
using testing::ScriptedStart;

constexpr double kMBps = 1e6;  // 1e6 bytes/s moves exactly one byte per microsecond

struct Rig {
  LinkDriver driver;
  Link link;
  Coordinator co;
  Rig(std::vector<ScriptedStart> starts, double capacity, std::optional<double> cap = std::nullopt)
      : driver(std::move(starts)), link("link", capacity, cap) {
    const ComponentId d = co.add(driver), l = co.add(link);
    driver.wire(d, l);
    co.start();
  }
  // Every transfer's finish time, by id (a second finish of one id is appended to the id with a '#').
  std::map<std::string, std::int64_t> finishes() {
    co.run_until(kNever);
    std::map<std::string, std::int64_t> out;
    for (const auto& f : driver.finished) {
      std::string key = f.transfer;
      while (out.contains(key)) key += "#";
      out[key] = f.at.us;
    }
    return out;
  }
};

using Times = std::map<std::string, std::int64_t>;

TEST(Link, OneTransferFinishesAtItsBytesOverTheCapacityRoundedUp) {
  EXPECT_EQ(Rig({{SimTime{0}, "a", 1000}}, kMBps).finishes(), (Times{{"a", 1000}}));
  // 1000 bytes at 3 bytes/us take 333.33 us: rounded up to 334, never down.
  EXPECT_EQ(Rig({{SimTime{0}, "a", 1000}}, 3 * kMBps).finishes(), (Times{{"a", 334}}));
  EXPECT_EQ(Rig({{SimTime{40}, "a", 1000}}, 3 * kMBps).finishes(), (Times{{"a", 374}}));
  // The TransferDone carries the bytes.
  Rig r({{SimTime{0}, "a", 1000}}, kMBps);
  r.finishes();
  ASSERT_EQ(r.driver.finished.size(), 1u);
  EXPECT_EQ(r.driver.finished[0].bytes, 1000);
}

TEST(Link, TwoEqualTransfersStartedTogetherFinishTogetherAtTwiceTheTime) {
  Rig r({{SimTime{0}, "a", 1000}, {SimTime{0}, "b", 1000}}, kMBps);
  r.co.round();  // at 0 us: the driver sends both starts and the link takes them
  EXPECT_EQ(r.link.rates(), (std::map<std::string, double>{{"a", kMBps / 2}, {"b", kMBps / 2}}));
  EXPECT_EQ(r.finishes(), (Times{{"a", 2000}, {"b", 2000}}));
  EXPECT_TRUE(r.link.transfers().empty());
}

TEST(Link, ATransferJoiningHalfwaySlowsTheFirstAsMaxMinFairnessSays) {
  // a alone moves 500 bytes by 500 us; then each moves 0.5 byte/us: a's last 500 take 1000 us (done at
  // 1500), when b has 500 left, which it moves alone by 2000.
  Rig r({{SimTime{0}, "a", 1000}, {SimTime{500}, "b", 1000}}, kMBps);
  r.co.run_until(SimTime{500});
  EXPECT_EQ(r.link.bytes_moved("a"), 500.0);
  EXPECT_EQ(r.link.bytes_moved("b"), 0.0);
  EXPECT_EQ(r.link.rates(), (std::map<std::string, double>{{"a", kMBps / 2}, {"b", kMBps / 2}}));
  EXPECT_EQ(r.finishes(), (Times{{"a", 1500}, {"b", 2000}}));

  // With rounding, at 3 bytes/us: a moves 300 bytes by 100 us, then 1.5 bytes/us each: its 700 left take
  // 466.67 us, rounded up to 467 (done at 567), by when b has moved floor(1.5 x 467 x 1e6) micro-bytes =
  // 700.5 bytes; b's last 299.5 bytes alone take 99.83 us, rounded up to 100: done at 667, which is also
  // 2000 bytes / 3 bytes/us = 666.67 us rounded up (no work lost).
  EXPECT_EQ(Rig({{SimTime{0}, "a", 1000}, {SimTime{100}, "b", 1000}}, 3 * kMBps).finishes(),
            (Times{{"a", 567}, {"b", 667}}));
}

TEST(Link, APerTransferCapHoldsEachFlowBelowItsShare) {
  // Two flows capped at 0.3 byte/us on a 1 byte/us link each run at the cap: 3000 bytes take 10000 us,
  // and the 0.4 byte/us left over has no flow that could take it.
  Rig capped({{SimTime{0}, "a", 3000}, {SimTime{0}, "b", 3000}}, kMBps, 0.3 * kMBps);
  capped.co.round();
  EXPECT_EQ(capped.link.rates(), (std::map<std::string, double>{{"a", 0.3 * kMBps}, {"b", 0.3 * kMBps}}));
  EXPECT_EQ(capped.finishes(), (Times{{"a", 10000}, {"b", 10000}}));
  // The closest caps that do not bind: exactly the fair share, and above it.
  EXPECT_EQ(Rig({{SimTime{0}, "a", 3000}, {SimTime{0}, "b", 3000}}, kMBps, 0.5 * kMBps).finishes(),
            (Times{{"a", 6000}, {"b", 6000}}));
  EXPECT_EQ(Rig({{SimTime{0}, "a", 3000}, {SimTime{0}, "b", 3000}}, kMBps, 0.8 * kMBps).finishes(),
            (Times{{"a", 6000}, {"b", 6000}}));
  // When a ends the survivor takes more, up to the cap: both at 0.5 byte/us until a's 1000 bytes are done
  // at 2000 us; b's last 2000 bytes at 0.6 byte/us take 3333.33 us, rounded up: done at 5334.
  EXPECT_EQ(Rig({{SimTime{0}, "a", 1000}, {SimTime{0}, "b", 3000}}, kMBps, 0.6 * kMBps).finishes(),
            (Times{{"a", 2000}, {"b", 5334}}));
}

TEST(Link, ZeroBytesFinishAtOnceAndDelayNoOne) {
  EXPECT_EQ(Rig({{SimTime{100}, "z", 0}}, kMBps).finishes(), (Times{{"z", 100}}));
  EXPECT_EQ(Rig({{SimTime{0}, "a", 1000}, {SimTime{300}, "z", 0}}, kMBps).finishes(), (Times{{"a", 1000}, {"z", 300}}));
}

TEST(Link, AtOneInstantFinishingTransfersLeaveBeforeNewOnesJoin) {
  // a ends at 1000 as b and a second "a" start: they share the link only with each other (0.5 byte/us
  // each), and the finished transfer's id is free again.
  Rig r({{SimTime{0}, "a", 1000}, {SimTime{1000}, "a", 500}, {SimTime{1000}, "b", 1000}}, kMBps);
  EXPECT_EQ(r.finishes(), (Times{{"a", 1000}, {"a#", 2000}, {"b", 2500}}));
}

TEST(Link, TransferDonesAtOneInstantGoOutInIdOrder) {
  Rig r({{SimTime{0}, "b", 100}, {SimTime{0}, "c", 100}, {SimTime{0}, "a", 100}}, kMBps);
  r.co.run_until(kNever);
  std::vector<std::string> ids;
  for (const auto& f : r.driver.finished) ids.push_back(f.transfer);
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c"}));
}

// ---- Refusals, each beside its closest accepted input ------------------------------------------------

std::string failure(Rig& r) {
  try {
    r.co.run_until(kNever);
  } catch (const SimulationError& e) {
    return e.what();
  }
  return "";
}

TEST(LinkRefusal, NegativeBytes) {
  Rig refused({{SimTime{5}, "neg", -1}}, kMBps);
  EXPECT_EQ(failure(refused), "link at 0.000005s: transfer 'neg' has -1 bytes, fewer than zero");
  Rig accepted({{SimTime{5}, "zero", 0}}, kMBps);  // zero bytes: ZeroBytesFinishAtOnceAndDelayNoOne
  EXPECT_EQ(failure(accepted), "");
}

TEST(LinkRefusal, AnIdRepeatedWhileInProgress) {
  Rig refused({{SimTime{0}, "a", 1000}, {SimTime{999}, "a", 1}}, kMBps);
  EXPECT_EQ(failure(refused), "link at 0.000999s: transfer 'a' started while a transfer with that id is in progress");
  Rig same_bag({{SimTime{0}, "a", 1}, {SimTime{0}, "a", 1}}, kMBps);
  EXPECT_NE(failure(same_bag).find("transfer 'a' started while"), std::string::npos);
  // At the instant the first one finishes, its id is free (AtOneInstantFinishingTransfersLeaveBeforeNewOnesJoin).
  Rig accepted({{SimTime{0}, "a", 1000}, {SimTime{1000}, "a", 1}}, kMBps);
  EXPECT_EQ(failure(accepted), "");
}

TEST(LinkRefusal, ATransferThatWouldFinishPastTheEndOfSimulatedTime) {
  // At 1 byte/s, 9223372036855 bytes take 9223372036855 s, past the largest time (2^63 - 1 us); one byte
  // fewer ends within it.
  Rig refused({{SimTime{0}, "big", 9223372036855}}, 1);
  EXPECT_EQ(failure(refused), "link: transfer 'big' (9223372036855 bytes) would finish past the end of simulated time");
  Rig accepted({{SimTime{0}, "big", 9223372036854}}, 1);
  EXPECT_EQ(accepted.finishes(), (Times{{"big", 9223372036854000000}}));
}

// Sends the link a message of another class.
class Stranger final : public Atomic {
 public:
  std::string_view name() const override { return "stranger"; }
  SimTime time_advance() const override { return sent_ ? kNever : SimTime{0}; }
  void output(SimTime, Outbox& out) override { out.send(1, MessageClass::kAbort, Abort{"r"}); }
  void internal(SimTime) override { sent_ = true; }
  void external(SimTime, SimTime, const Bag&) override {}
  void confluent(SimTime, const Bag&) override {}

 private:
  bool sent_ = false;
};

TEST(LinkRefusal, AMessageOfAnotherClass) {
  Stranger s;
  Link link("link", kMBps);
  Coordinator co;
  co.add(s);
  co.add(link);
  co.start();
  EXPECT_THROW(
      {
        try {
          co.run_until(kNever);
        } catch (const SimulationError& e) {
          EXPECT_STREQ(e.what(), "link at 0.000000s: received a abort message, not a transfer start");
          throw;
        }
      },
      SimulationError);
}

std::string refusal(double capacity, std::optional<double> cap = std::nullopt) {
  try {
    Link link("l", capacity, cap);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(LinkRefusal, ACapacityThatIsNotAFiniteRateOfAtLeastOneBytePerSecond) {
  EXPECT_EQ(refusal(0), "l: capacity 0 bytes/s is not a finite rate between 1 and 1e+15 bytes/s");
  EXPECT_EQ(refusal(-5e9), "l: capacity -5e+09 bytes/s is not a finite rate between 1 and 1e+15 bytes/s");
  EXPECT_EQ(refusal(0.999), "l: capacity 0.999 bytes/s is not a finite rate between 1 and 1e+15 bytes/s");
  EXPECT_NE(refusal(std::numeric_limits<double>::quiet_NaN()).find("capacity nan bytes/s"), std::string::npos);
  EXPECT_NE(refusal(std::numeric_limits<double>::infinity()).find("capacity inf bytes/s"), std::string::npos);
  EXPECT_NE(refusal(std::nextafter(1e15, 2e15)).find("capacity 1000000000000000.1 bytes/s"), std::string::npos);
  EXPECT_EQ(refusal(1), "");  // the closest accepted: one byte per second, and the largest
  EXPECT_EQ(refusal(1e15), "");
  EXPECT_EQ(Link("l", 1.9).capacity(), 1);  // rounded down: the link never carries more than it was given
  EXPECT_EQ(Link("l", 5e10 + 0.5).capacity(), 50000000000);
}

TEST(LinkRefusal, APerTransferCapThatIsNotAFiniteRateOfAtLeastOneBytePerSecond) {
  EXPECT_EQ(refusal(kMBps, 0.0), "l: per-transfer cap 0 bytes/s is not a finite rate between 1 and 1e+15 bytes/s");
  EXPECT_NE(refusal(kMBps, std::numeric_limits<double>::quiet_NaN()).find("per-transfer cap nan"), std::string::npos);
  EXPECT_EQ(refusal(kMBps, 1.0), "");
  EXPECT_EQ(Link("l", kMBps, 2.5).per_transfer_cap(), std::optional<std::int64_t>{2});
  EXPECT_EQ(Link("l", kMBps).per_transfer_cap(), std::nullopt);
}

}  // namespace
}  // namespace blis::sim
