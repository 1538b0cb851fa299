// DEV-3's property check (check declared-boundary-property): the engine component applies an engine's external
// inputs at the boundary the engine declares. Every engine today declares InputBoundary::kNextSchedule
// (src/contracts/engine/scheduling.h), which src/sim's EngineComponent implements as: at an instant, the steps
// that end then complete first; then the inputs delivered so far are read (arrivals, then aborts); then steps
// are scheduled while fewer than the engine's in-flight depth are in flight, each starting when the last one in
// flight ends (at once when none is). An input that arrives while the depth is full waits for the next
// completion: it never joins a step already in flight, and one that arrives at the instant a step ends joins
// the step scheduled at that instant.
//
// The check runs a scripted engine that admits every request it holds into its next step (so every delay comes
// from the boundary, none from the engine's own admission) through the real coordinator and component (the
// coupled replay's driver), records each step's start, end and first-scheduled requests, and compares them with
// a reference model written here from the rule above. Random runs: in-flight depth 1 to 3, steps of 1 to 50 us,
// 1 to 30 requests arriving at random times, half of them on a step boundary, a quarter aborted later.
//
//   input-boundary-property-test [gtest flags] CONFIG.json   the property, {"cases": N} runs (RC_PARAMS max_success)
//   input-boundary-property-test [gtest flags] RUN.json      judges one recorded run ({"depth", "step_us",
//                                                            "inputs", "steps"}): a known-bad input
// Exit 0 when every judged run keeps the rule, 1 otherwise.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/oracle/coupled_driver.h"

namespace blis::sim::coupled {
namespace {

// Holds every request it is given until its next step, which runs all of them; an abort drops a held request.
class AdmitAllEngine final : public engine::StepEngine {
 public:
  explicit AdmitAllEngine(std::int64_t depth) : depth_(depth) {}
  std::optional<engine::Refused> add_request(const engine::Request& r) override {
    held_.push_back(r.id);
    return std::nullopt;
  }
  void abort_request(const std::string& id) override { std::erase(held_, id); }
  std::optional<engine::ScheduledStep> schedule() override {
    if (held_.empty()) return std::nullopt;
    engine::ScheduledStep s;
    s.id = next_++;
    s.first_scheduled.assign(held_.begin(), held_.end());
    held_.clear();
    return s;
  }
  engine::StepOutcome complete(std::uint64_t) override { return {}; }
  std::int64_t in_flight_depth() const override { return depth_; }
  engine::InputBoundary boundary() const override { return engine::InputBoundary::kNextSchedule; }
  engine::Published published() const override { return {}; }
  engine::Residence residence(const std::string&) const override { return engine::Residence::kRunning; }

 private:
  std::int64_t depth_;
  std::deque<std::string> held_;
  std::uint64_t next_ = 1;
};

// The environment beneath FixedStepEnvironment, which prices every step itself: nothing else is asked of it.
class NoEnvironment final : public engine::Environment {
 public:
  const schema::Graph& graph(std::string_view) const override { throw std::logic_error("graph: not used"); }
  const schema::Chip& chip(std::string_view) const override { throw std::logic_error("chip: not used"); }
  engine::MemoryBreakdown memory(const engine::plan::PoolPlan&) const override { throw std::logic_error("memory: not used"); }
  engine::StepEstimate price(const engine::plan::PoolPlan&, const engine::plan::StepShape&) const override {
    throw std::logic_error("price: not used");
  }
  engine::TransferDemand transfer_demand(const engine::plan::PoolPlan&, const engine::plan::Transfer&) const override {
    throw std::logic_error("transfer_demand: not used");
  }
  schema::AcceptanceProfileProfile acceptance(std::string_view, std::string_view, std::string_view) const override {
    throw std::logic_error("acceptance: not used");
  }
};

struct Step {
  std::int64_t started = 0, ended = 0;
  std::vector<std::string> first;
  bool operator==(const Step&) const = default;
};

struct RecordedRun {
  std::int64_t depth = 1, step_us = 1;
  std::vector<TimedInput> inputs;  // distinct times, increasing
  std::vector<Step> steps;         // as recorded, sorted by start
};

// The rule, written out: the steps kNextSchedule gives an engine that runs everything it holds.
std::vector<Step> reference(const RecordedRun& run) {
  std::vector<Step> steps;
  std::deque<std::int64_t> flight;  // ends of the steps in flight, in order
  std::vector<std::string> held;
  std::size_t next = 0;  // the first input not yet read
  std::vector<std::int64_t> instants;
  for (const auto& in : run.inputs) instants.push_back(in.at.us);
  std::size_t delivered = 0;  // inputs delivered so far (read or waiting)
  while (true) {
    // The next instant: an input's delivery or a step's end, whichever is first.
    std::optional<std::int64_t> now;
    if (delivered < instants.size()) now = instants[delivered];
    if (!flight.empty() && (!now || flight.front() <= *now)) now = flight.front();
    if (!now) break;
    bool woken = false;
    while (!flight.empty() && flight.front() == *now) {
      flight.pop_front();
      woken = true;
    }
    while (delivered < instants.size() && instants[delivered] == *now) ++delivered;
    if (static_cast<std::int64_t>(flight.size()) < run.depth) woken = true;  // an input wakes a free engine
    if (!woken) continue;
    for (; next < delivered; ++next) {
      for (const auto& r : run.inputs[next].arrivals) held.push_back(r.id);
      for (const auto& a : run.inputs[next].aborts) std::erase(held, a);
    }
    while (static_cast<std::int64_t>(flight.size()) < run.depth && !held.empty()) {
      const std::int64_t start = flight.empty() ? *now : flight.back();
      steps.push_back({start, start + run.step_us, held});
      flight.push_back(start + run.step_us);
      held.clear();
    }
  }
  std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.started < b.started; });
  return steps;
}

std::string show(const Step& s) {
  std::string out = "[" + std::to_string(s.started) + ", " + std::to_string(s.ended) + ") {";
  for (std::size_t i = 0; i < s.first.size(); ++i) out += (i ? " " : "") + s.first[i];
  return out + "}";
}

// The first difference between the recorded steps and the rule's, as a sentence; nothing when they agree.
std::optional<std::string> judge(const RecordedRun& run) {
  const std::vector<Step> want = reference(run);
  std::map<std::string, std::int64_t> arrived;
  for (const auto& in : run.inputs) {
    for (const auto& r : in.arrivals) arrived[r.id] = in.at.us;
  }
  for (std::size_t i = 0; i < std::max(want.size(), run.steps.size()); ++i) {
    if (i < want.size() && i < run.steps.size() && want[i] == run.steps[i]) continue;
    std::string why = "step " + std::to_string(i) + ": recorded " +
                      (i < run.steps.size() ? show(run.steps[i]) : std::string("nothing")) + ", the declared boundary (" +
                      "next schedule, depth " + std::to_string(run.depth) + ") gives " +
                      (i < want.size() ? show(want[i]) : std::string("nothing"));
    if (i < run.steps.size()) {
      for (const auto& id : run.steps[i].first) {
        if (arrived.contains(id) && arrived[id] > run.steps[i].started) {
          why += "; request " + id + " delivered at " + std::to_string(arrived[id]) + " runs in a step started before it";
        }
      }
    }
    return why;
  }
  return std::nullopt;
}

RecordedRun record(std::int64_t depth, std::int64_t step_us, std::vector<TimedInput> inputs) {
  AdmitAllEngine engine(depth);
  const NoEnvironment none;
  const FixedStepEnvironment env(none, SimTime{step_us});
  const RunResult result = run(engine, env, engine::plan::PoolPlan{}, inputs);
  RecordedRun out{depth, step_us, std::move(inputs), {}};
  for (const auto& s : result.steps) {
    // The record of aborts applied at a boundary runs nothing (a step always runs what the engine held).
    if (!s.first_scheduled.empty()) out.steps.push_back({s.started.us, s.ended.us, s.first_scheduled});
  }
  std::sort(out.steps.begin(), out.steps.end(), [](const Step& a, const Step& b) { return a.started < b.started; });
  return out;
}

RecordedRun run_from_json(const nlohmann::json& j) {
  RecordedRun r;
  r.depth = j.at("depth").get<std::int64_t>();
  r.step_us = j.at("step_us").get<std::int64_t>();
  for (const auto& in : j.at("inputs")) {
    TimedInput t;
    t.at = SimTime{in.at("at").get<std::int64_t>()};
    for (const auto& id : in.value("arrive", std::vector<std::string>{})) {
      engine::Request q;
      q.id = id;
      t.arrivals.push_back(q);
    }
    t.aborts = in.value("abort", std::vector<std::string>{});
    r.inputs.push_back(std::move(t));
  }
  for (const auto& s : j.at("steps")) {
    r.steps.push_back({s.at("started").get<std::int64_t>(), s.at("ended").get<std::int64_t>(),
                       s.at("first").get<std::vector<std::string>>()});
  }
  return r;
}

std::int64_t pick(std::int64_t lo, std::int64_t hi) { return *rc::gen::inRange(lo, hi + 1); }  // [lo, hi]

nlohmann::json g_input;  // the program's input, read in main()

RC_GTEST_PROP(InputBoundary, InputsTakeEffectAtTheNextSchedule, ()) {
  if (g_input.contains("steps")) return;  // a recorded run is judged by the test below
  const std::int64_t depth = pick(1, 3);
  const std::int64_t step = pick(1, 50);
  const auto n = static_cast<int>(pick(1, 30));
  std::map<std::int64_t, TimedInput> by_time;
  for (int i = 0; i < n; ++i) {
    // Half the arrivals on a step boundary of an engine busy from 0 (the instant a step ends), half anywhere.
    const std::int64_t at = *rc::gen::arbitrary<bool>() ? pick(0, 10) * step : pick(0, 10 * step);
    engine::Request r;
    r.id = "r" + std::string(i < 10 ? "0" : "") + std::to_string(i);
    by_time[at].at = SimTime{at};
    by_time[at].arrivals.push_back(r);
    if (pick(0, 3) == 0) {
      const std::int64_t later = at + pick(1, 3 * step);
      by_time[later].at = SimTime{later};
      by_time[later].aborts.push_back(r.id);
    }
  }
  std::vector<TimedInput> inputs;
  for (auto& [at, in] : by_time) inputs.push_back(std::move(in));
  const RecordedRun run = record(depth, step, std::move(inputs));
  if (auto bad = judge(run)) RC_FAIL(*bad);
  RC_TAG("depth " + std::to_string(depth));
}

// A request that arrives at the instant a step ends joins the step scheduled then; one that arrives during a
// step waits for its end (depth 1), or for the end of the step in flight (depth 2: scheduled at once, started
// when the step ahead of it ends). Worked by hand.
TEST(InputBoundary, WorkedCases) {
  if (g_input.contains("steps")) GTEST_SKIP() << "the input is a recorded run";
  auto in = [](std::int64_t at, std::vector<std::string> ids) {
    TimedInput t;
    t.at = SimTime{at};
    for (auto& id : ids) {
      engine::Request r;
      r.id = id;
      t.arrivals.push_back(r);
    }
    return t;
  };
  const RecordedRun one = record(1, 10, {in(0, {"a"}), in(5, {"b"}), in(10, {"c"}), in(25, {"d"})});
  EXPECT_EQ(one.steps, (std::vector<Step>{{0, 10, {"a"}}, {10, 20, {"b", "c"}}, {25, 35, {"d"}}}));
  const RecordedRun two = record(2, 10, {in(0, {"a"}), in(5, {"b"}), in(7, {"c"})});
  EXPECT_EQ(two.steps, (std::vector<Step>{{0, 10, {"a"}}, {10, 20, {"b"}}, {20, 30, {"c"}}}));
  EXPECT_FALSE(judge(one).has_value());
  EXPECT_FALSE(judge(two).has_value());
}

TEST(InputBoundary, ARecordedRunKeepsTheDeclaredBoundary) {
  if (!g_input.contains("steps")) GTEST_SKIP() << "the input is the property's configuration";
  const auto bad = judge(run_from_json(g_input));
  EXPECT_FALSE(bad.has_value()) << *bad;
}

}  // namespace
}  // namespace blis::sim::coupled

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::cerr << "usage: input-boundary-property-test [gtest flags] (CONFIG.json | RUN.json)\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  try {
    blis::sim::coupled::g_input = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 2;
  }
  if (blis::sim::coupled::g_input.contains("cases")) {
    const std::string params = "max_success=" + std::to_string(blis::sim::coupled::g_input.at("cases").get<int>());
    setenv("RC_PARAMS", params.c_str(), 1);  // read by RapidCheck when the first property runs
  }
  return RUN_ALL_TESTS();
}
