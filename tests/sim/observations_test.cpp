// Fates (DEV-9): each request's fate is written once, at one site.
#include <gtest/gtest.h>

#include "sim/observe/observations.h"

namespace blis::sim {
namespace {

TEST(Fates, SecondWriteIsADefect) {
  Observations o;
  o.create("c/0", "c", SimTime{0}, 10, true);
  o.write_fate("c/0", Fate::kCompleted, SimTime{5}, "stop");
  try {
    o.write_fate("c/0", Fate::kTimedOut, SimTime{6});
    FAIL() << "a second fate was written";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("already has the fate completed"), std::string::npos) << e.what();
  }
  o.seal();
  ASSERT_NE(o.find("c/0"), nullptr);
  EXPECT_EQ(o.find("c/0")->fate, Fate::kCompleted);
  EXPECT_EQ(o.find("c/0")->ended, SimTime{5});
}

TEST(Fates, FirstWriteOfEachRequestIsTaken) {
  Observations o;
  o.create("c/0", "c", SimTime{0}, 10, true);
  o.create("c/1", "c", SimTime{0}, 10, true);
  o.write_fate("c/0", Fate::kCompleted, SimTime{5}, "stop");
  EXPECT_NO_THROW(o.write_fate("c/1", Fate::kTimedOut, SimTime{6}));
}

TEST(Fates, ADropNeedsItsReason) {
  Observations o;
  o.create("c/0", "c", SimTime{0}, 10, true);
  EXPECT_THROW(o.write_fate("c/0", Fate::kDropped, SimTime{1}), std::logic_error);
  EXPECT_NO_THROW(o.write_fate("c/0", Fate::kDropped, SimTime{1}, "prompt-too-long"));
}

TEST(Fates, ARequestIsCreatedOnce) {
  Observations o;
  o.create("c/0", "c", SimTime{0}, 10, true);
  EXPECT_THROW(o.create("c/0", "c", SimTime{1}, 10, true), std::logic_error);
  EXPECT_THROW(o.write_fate("c/9", Fate::kCompleted, SimTime{1}), std::logic_error);
}

// Memory bounded by requests in flight (issue 6's scaling must-show): a request's full record lives only
// until its fate; then it is folded into a compact finished record, so a run of requests served one after
// another never holds more than one full record, however long it runs.
TEST(Records, AFatedRequestLeavesTheLiveRecords) {
  Observations o;
  for (int k = 0; k < 1000; ++k) {
    const std::string id = "c/" + std::to_string(k);
    RequestRecord& r = o.create(id, "c", SimTime{k}, 10, true);
    r.sent = SimTime{k};
    o.write_fate(id, Fate::kTimedOut, SimTime{k + 1});
  }
  EXPECT_TRUE(o.live().empty());
  EXPECT_EQ(o.peak_live(), 1u);
  EXPECT_EQ(o.seal(), "");
  ASSERT_EQ(o.records().size(), 1000u);
  // In order of id, as the figures and the per-request CSV read them: "c/10" sorts before "c/2".
  EXPECT_EQ(o.records()[2].id, "c/10");
  EXPECT_EQ(o.records()[2].client, "c");
  EXPECT_EQ(o.records()[2].sent, SimTime{10});
  EXPECT_LE(sizeof(FinishedRecord), 176u);
}

TEST(Records, SealingRefusesARequestWithoutAFateOrAnIdUsedTwice) {
  Observations open;
  open.create("c/0", "c", SimTime{0}, 10, true);
  EXPECT_THROW(open.seal(), std::logic_error);
  Observations reused;
  reused.create("c/0", "c", SimTime{0}, 10, true);
  reused.write_fate("c/0", Fate::kNotStarted, SimTime{1});
  reused.create("c/0", "c", SimTime{2}, 10, true);  // the first is no longer live: caught when sealed
  reused.write_fate("c/0", Fate::kNotStarted, SimTime{3});
  try {
    reused.seal();
    FAIL() << "an id used twice was sealed";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("created twice"), std::string::npos) << e.what();
  }
  Observations fine;
  fine.create("c/0", "c", SimTime{0}, 10, true);
  fine.write_fate("c/0", Fate::kNotStarted, SimTime{1});
  fine.create("c/1", "c", SimTime{2}, 10, true);
  fine.write_fate("c/1", Fate::kNotStarted, SimTime{3});
  EXPECT_EQ(fine.seal(), "");
}

// SIM-8 is checked as each fate is written: the first broken record is what seal reports.
TEST(Records, TheStateMachineIsCheckedWhenTheFateIsWritten) {
  Observations o;
  RequestRecord& r = o.create("c/0", "c", SimTime{0}, 10, true);
  r.sent = SimTime{1};
  r.dispatched = SimTime{2};
  r.add_emission(SimTime{3}, 1);  // tokens, never scheduled
  o.write_fate("c/0", Fate::kCompleted, SimTime{3}, "stop");
  EXPECT_NE(o.seal().find("received tokens without being scheduled"), std::string::npos);
}

}  // namespace
}  // namespace blis::sim
