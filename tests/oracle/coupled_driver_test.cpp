// The engine component's idle publications (src/sim/cluster/engine_component.cpp): KV-event messages an engine
// publishes while it finds nothing to schedule (StepEngine::take_idle_publications, SGLang's on_idle) reach the
// router at that instant, after the messages of the step whose completion left it idle, stamped with that
// instant. Run on the coupled replay's driver (the DEVS coordinator, a source and a sink for the router) with a
// scripted engine: one step per request, priced at 10 us, and one idle message after each completion.
#include "tests/oracle/coupled_driver.h"

#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/sim/embedded_environment.h"

namespace blis::sim::coupled {
namespace {

class ScriptedEngine final : public engine::StepEngine {
 public:
  explicit ScriptedEngine(bool publishes_when_idle) : publishes_when_idle_(publishes_when_idle) {}
  std::optional<engine::Refused> add_request(const engine::Request& r) override {
    queued_.push_back(r.id);
    return std::nullopt;
  }
  void abort_request(const std::string&) override {}
  std::optional<engine::ScheduledStep> schedule() override {
    if (queued_.empty()) {
      if (owed_ && publishes_when_idle_) idle_.push_back(message("idle"));
      owed_ = false;
      return std::nullopt;
    }
    queued_.pop_front();
    engine::ScheduledStep s;
    s.id = next_++;
    return s;
  }
  engine::StepOutcome complete(std::uint64_t) override {
    engine::StepOutcome o;
    o.kv_events.push_back(message("step"));
    owed_ = true;
    return o;
  }
  std::vector<engine::KvEventMessage> take_idle_publications() override { return std::exchange(idle_, {}); }
  std::int64_t in_flight_depth() const override { return 1; }
  engine::InputBoundary boundary() const override { return engine::InputBoundary::kNextSchedule; }
  engine::Published published() const override { return {}; }
  engine::Residence residence(const std::string&) const override { return engine::Residence::kUnknown; }

 private:
  engine::KvEventMessage message(const std::string& topic) {
    engine::KvEventMessage m;
    m.topic = topic;
    m.sequence = seq_++;
    return m;
  }
  bool publishes_when_idle_;
  std::deque<std::string> queued_;
  std::vector<engine::KvEventMessage> idle_;
  bool owed_ = false;
  std::uint64_t next_ = 1, seq_ = 0;
};

std::vector<std::pair<std::int64_t, std::string>> run_with(bool publishes_when_idle, std::vector<double>* stamps) {
  ScriptedEngine engine(publishes_when_idle);
  const FixedStepEnvironment env(test_support::environment(), SimTime{10});
  engine::Request r;
  r.id = "a";
  TimedInput in;
  in.at = SimTime{5};
  in.arrivals.push_back(r);
  const RunResult result = run(engine, env, engine::plan::PoolPlan{}, {in});
  std::vector<std::pair<std::int64_t, std::string>> out;
  for (const auto& [at, m] : result.kv_events) {
    out.emplace_back(at.us, m.topic);
    if (stamps != nullptr) stamps->push_back(m.ts);
  }
  return out;
}

TEST(EngineComponentIdlePublications, LeaveAtTheInstantTheEngineFindsNothingToSchedule) {
  std::vector<double> stamps;
  const std::vector<std::pair<std::int64_t, std::string>> want = {{15, "step"}, {15, "idle"}};
  EXPECT_EQ(run_with(true, &stamps), want);
  EXPECT_EQ(stamps, (std::vector<double>{15e-6, 15e-6}));
}

TEST(EngineComponentIdlePublications, AnEngineThatPublishesOnlyWithStepsSendsNothingMore) {
  const std::vector<std::pair<std::int64_t, std::string>> want = {{15, "step"}};
  EXPECT_EQ(run_with(false, nullptr), want);
}

}  // namespace
}  // namespace blis::sim::coupled
