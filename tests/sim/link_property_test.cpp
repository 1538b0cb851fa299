// SIM-13's property check (check link-capacity-property): random transfers on one link (1 to 20 of them,
// 1 to 1e9 bytes, starting at 0 to 1e6 us; capacity 1e3 to 1e12 bytes/s; a per-transfer cap half the
// time, binding or not), each run recorded through the real coordinator and judged against the definitions
// (tests/sim/link_trace.h states them).
//
//   link-capacity-property-test [gtest flags] CONFIG.json   the property, {"cases": N} runs (RC_PARAMS max_success)
//   link-capacity-property-test [gtest flags] RUN.json      judges one recorded run ({"capacity", "cap",
//                                                           "starts", "events"}): a known-bad input
// Exit 0 when every judged run keeps the definitions, 1 otherwise.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "link_trace.h"

namespace blis::sim {
namespace {

using testing::judge_link_run;
using testing::LinkRun;
using testing::ScriptedStart;

std::int64_t pick(std::int64_t lo, std::int64_t hi) { return *rc::gen::inRange(lo, hi + 1); }  // [lo, hi]

nlohmann::json g_input;  // the program's input, read in main()

RC_GTEST_PROP(LinkProperty, TrafficNeverExceedsCapacityAndWorkIsConserved, ()) {
  if (g_input.contains("events")) return;  // a recorded run is judged by the test below
  const std::int64_t capacity = pick(1, 1000) * *rc::gen::element<std::int64_t>(1000, 1000000, 1000000000);
  const bool has_cap = *rc::gen::arbitrary<bool>();
  const std::optional<std::int64_t> cap =
      has_cap ? std::optional<std::int64_t>(std::max<std::int64_t>(1, capacity / 100 * pick(1, 150))) : std::nullopt;
  const auto n = static_cast<int>(pick(1, 20));
  std::vector<ScriptedStart> starts;
  for (int i = 0; i < n; ++i) {
    // Small values half the time, so that starts and finishes coincide.
    const std::int64_t bytes = *rc::gen::arbitrary<bool>() ? pick(1, 1000) : pick(1, 1000000000);
    const std::int64_t at = *rc::gen::arbitrary<bool>() ? pick(0, 10) : pick(0, 1000000);
    starts.push_back({SimTime{at}, "t" + std::string(i < 10 ? "0" : "") + std::to_string(i), bytes});
  }
  const LinkRun run = testing::record_link_run(capacity, cap, starts);
  if (auto bad = judge_link_run(run)) RC_FAIL(*bad);
  RC_TAG(has_cap && *cap < capacity ? "cap binds" : "no binding cap");
}

TEST(LinkProperty, ARecordedRunKeepsTheDefinitions) {
  if (!g_input.contains("events")) GTEST_SKIP() << "the input is the property's configuration";
  const auto bad = judge_link_run(testing::link_run_from_json(g_input));
  EXPECT_FALSE(bad.has_value()) << *bad;
}

}  // namespace
}  // namespace blis::sim

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::cerr << "usage: link-capacity-property-test [gtest flags] (CONFIG.json | RUN.json)\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  try {
    blis::sim::g_input = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 2;
  }
  if (blis::sim::g_input.contains("cases")) {
    const std::string params = "max_success=" + std::to_string(blis::sim::g_input.at("cases").get<int>());
    setenv("RC_PARAMS", params.c_str(), 1);  // read by RapidCheck when the first property runs
  }
  return RUN_ALL_TESTS();
}
