// DEV-4's trace check (src/sim/observe/observation_trace.h): each breach beside the closest trace that is
// not one (SIM-9), and the file format's refusals beside accepted twins.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sim/observe/observation_trace.h"

namespace blis::sim {
namespace {

// A trace with a 50 ms scrape interval and a 2 ms delivery delay: one publication of endpoint 0 at 10 ms (first
// scraped at 50 ms, delivered at 52 ms), and the observations given.
std::vector<std::string> breaches(const std::string& rows, std::int64_t delay_us = 2000) {
  const std::string text = "# blis observation trace (DEV-4), format 1\n# scrape_interval_us: 50000\n# delivery_delay_us: " +
                           std::to_string(delay_us) + "\nevent,time_us,endpoint,published_us,sequence\n" + rows;
  return check_observations(read_observation_trace(text, "t"));
}

TEST(ObservationTrace, AValueSeenBeforeItsScrapePlusTheDelayIsABreach) {
  const auto early = breaches("publish,10000,0,10000,1\nobserve,51999,0,10000,1\n");
  ASSERT_EQ(early.size(), 1u);
  EXPECT_NE(early[0].find("observed before its time plus the delays (first scraped at 50000 us, delivered no earlier than 52000 us)"),
            std::string::npos)
      << early[0];
  EXPECT_TRUE(breaches("publish,10000,0,10000,1\nobserve,52000,0,10000,1\n").empty());
}

TEST(ObservationTrace, APublicationAtAScrapeTimeIsTakenByThatScrape) {
  EXPECT_TRUE(breaches("publish,50000,0,50000,1\nobserve,52000,0,50000,1\n").empty());
  EXPECT_EQ(breaches("publish,50001,0,50001,1\nobserve,52000,0,50001,1\n").size(), 1u);
}

TEST(ObservationTrace, AValueOlderThanTheLastDeliveredOneIsStale) {
  const std::string pubs = "publish,10000,0,10000,1\npublish,60000,0,60000,2\n";
  // The scrape at 100 ms delivered sequence 2 at 102 ms: a decision after it must not see sequence 1.
  const auto stale = breaches(pubs + "observe,102001,0,10000,1\n");
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_NE(stale[0].find("stale: the scrape at 100000 us delivered the value published at 60000 us (sequence 2) by 102000 us"),
            std::string::npos)
      << stale[0];
  EXPECT_TRUE(breaches(pubs + "observe,102001,0,60000,2\n").empty());
  // At the delivery's own instant either is right: the instant's activities may order either way.
  EXPECT_TRUE(breaches(pubs + "observe,102000,0,10000,1\n").empty());
  EXPECT_TRUE(breaches(pubs + "observe,102000,0,60000,2\n").empty());
}

TEST(ObservationTrace, SeeingNothingAfterADeliveryIsStale) {
  EXPECT_EQ(breaches("publish,10000,0,10000,1\nobserve,52001,0,,\n").size(), 1u);
  EXPECT_TRUE(breaches("publish,10000,0,10000,1\nobserve,52000,0,,\n").empty());
}

TEST(ObservationTrace, AValueNeverPublishedIsABreach) {
  EXPECT_EQ(breaches("publish,10000,0,10000,1\nobserve,60000,0,10000,2\n").size(), 1u);
  EXPECT_EQ(breaches("publish,10000,0,10000,1\nobserve,60000,1,10000,1\n").size(), 1u);  // another endpoint's
  EXPECT_TRUE(breaches("publish,10000,0,10000,1\nobserve,60000,0,10000,1\n").empty());
}

TEST(ObservationTrace, ZeroDelayDeliversAtTheScrape) {
  EXPECT_TRUE(breaches("publish,10000,0,10000,1\nobserve,50000,0,10000,1\n", 0).empty());
  EXPECT_EQ(breaches("publish,10000,0,10000,1\nobserve,49999,0,10000,1\n", 0).size(), 1u);
  EXPECT_EQ(breaches("publish,10000,0,10000,1\nobserve,50001,0,,\n", 0).size(), 1u);
}

TEST(ObservationTrace, TheTraceMustNotGoBackInTimeNorRepublishOutOfOrder) {
  EXPECT_EQ(breaches("publish,10000,0,10000,1\npublish,9000,1,9000,1\n").size(), 1u);
  EXPECT_TRUE(breaches("publish,10000,0,10000,1\npublish,10000,1,10000,1\n").empty());
  EXPECT_EQ(breaches("publish,10000,0,10000,2\npublish,10000,0,10000,2\n").size(), 1u);
  EXPECT_TRUE(breaches("publish,10000,0,10000,2\npublish,10000,0,10000,3\n").empty());
}

TEST(ObservationTrace, WrittenTraceReadsBack) {
  ObservationTrace t;
  t.publish(0, SimTime{1200}, 1);
  t.observe(SimTime{1300}, 0, std::nullopt);
  t.observe(SimTime{50000}, 0, PublishedKey{SimTime{1200}, 1});
  const ParsedObservationTrace p = read_observation_trace(t.text(SimTime{50000}, SimTime{0}), "w");
  EXPECT_EQ(p.interval.us, 50000);
  EXPECT_EQ(p.delay.us, 0);
  ASSERT_EQ(p.events.size(), 3u);
  EXPECT_TRUE(p.events[0].publish);
  EXPECT_FALSE(p.events[1].value.has_value());
  EXPECT_EQ(*p.events[2].value, (PublishedKey{SimTime{1200}, 1}));
  EXPECT_TRUE(check_observations(p).empty());
}

void expect_refused(const std::string& text, const std::string& what) {
  try {
    read_observation_trace(text, "f");
    FAIL() << "accepted: " << text;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(ObservationTrace, MalformedFilesAreRefusedNamingTheLineAndField) {
  const std::string head = "# blis observation trace (DEV-4), format 1\n";
  const std::string cols = "event,time_us,endpoint,published_us,sequence\n";
  expect_refused("# blis observation trace (DEV-4), format 2\n", "f:1: expected '# blis observation trace (DEV-4), format 1'");
  expect_refused(head + "# scrape_interval_us: 0\n", "f:2: scrape_interval_us 0 is not positive");
  EXPECT_NO_THROW(read_observation_trace(head + "# scrape_interval_us: 1\n# delivery_delay_us: 0\n" + cols, "f"));
  expect_refused(head + "# scrape_interval_us: 1\n# delivery_delay_us: -1\n" + cols, "f:3: delivery_delay_us -1 is negative");
  expect_refused(head + "# scrape_interval_us: 1\n# delivery_delay_us: 0\n" + cols + "publish,5,0,6,1\n",
                 "f:5: a publish row's published_us 6 is not its time_us 5");
  EXPECT_NO_THROW(read_observation_trace(head + "# scrape_interval_us: 1\n# delivery_delay_us: 0\n" + cols + "publish,5,0,5,1\n", "f"));
  expect_refused(head + "# scrape_interval_us: 1\n# delivery_delay_us: 0\n" + cols + "observe,5,x,,\n", "f:5: endpoint 'x' is not an integer");
  expect_refused(head + "# scrape_interval_us: 1\n# delivery_delay_us: 0\n" + cols + "seen,5,0,,\n",
                 "f:5: event 'seen' is neither publish nor observe");
  expect_refused(head + "# scrape_interval_us: 1\n# delivery_delay_us: 0\n" + cols + "publish,5,0,,\n",
                 "f:5: a publish row without published_us and sequence");
}

}  // namespace
}  // namespace blis::sim
