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
  EXPECT_EQ(o.at("c/0").fate, Fate::kCompleted);
  EXPECT_EQ(o.at("c/0").ended, SimTime{5});
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

}  // namespace
}  // namespace blis::sim
