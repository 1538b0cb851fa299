// Original to BLIS: what each engine's coupled replay (FID-9; tests/vllm/oracle/coupled_replay.cpp,
// tests/sglang/oracle/coupled_replay.cpp) shares besides the driver (coupled_driver.h): the recorder that sits
// between the engine component and the port and notes each decision with the inputs taken before it, the
// in-order comparison with upstream's decisions, and the program's loop over traces with its report.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "contracts/engine/environment.h"
#include "contracts/engine/scheduling.h"
#include "tests/oracle/coupled_driver.h"

namespace blis::sim::coupled {

// Every step of a coupled replay lasts one tick (1 ms).
inline constexpr SimTime kTick{1000};

// One decision (a step with work scheduled, or one completed) with the inputs the engine took before it.
struct Decision {
  std::int64_t tick = -1;           // the trace's tick (upstream's side; -1 on the port's)
  std::vector<std::string> inputs;  // "add ID" / "abort ID", sorted
  nlohmann::json record;
};

// The inputs gathered since the last decision, sorted (the order the component delivers one instant's input in
// is not a decision); leaves `inputs` empty for the next.
std::vector<std::string> take_inputs(std::vector<std::string>& inputs);

struct Outcome {
  enum Kind { kMatch, kDiverges, kNotStated } kind = kMatch;
  std::string category;  // why not replayed, briefly (the report counts by it)
  std::string why;
};

// The port as the simulator drives it: forwards every call to `inner` and records each decision the component
// asked of it, in the trace's shape, which each engine's subclass writes.
class Recorder : public engine::StepEngine {
 public:
  explicit Recorder(engine::StepEngine& inner) : inner_(inner) {}

  std::optional<engine::Refused> add_request(const engine::Request& r) override;
  void abort_request(const std::string& id) override;
  std::optional<engine::ScheduledStep> schedule() override;
  engine::StepOutcome complete(std::uint64_t step) override;
  std::vector<engine::KvEventMessage> take_idle_publications() override;
  std::int64_t in_flight_depth() const override { return inner_.in_flight_depth(); }
  engine::InputBoundary boundary() const override { return inner_.boundary(); }
  engine::Published published() const override { return inner_.published(); }
  engine::Residence residence(const std::string& id) const override { return inner_.residence(id); }

  std::vector<Decision> decisions;

 protected:
  // The record of a step schedule() returned, and of a completed step.
  virtual nlohmann::json scheduled(const engine::ScheduledStep& step) = 0;
  virtual nlohmann::json completed(const engine::StepOutcome& outcome) = 0;
  // The record of what the engine published while it found nothing to schedule (only asked when it published):
  // by default the count of messages, which no upstream decision of an engine that never publishes so matches.
  virtual nlohmann::json idle_published(const std::vector<engine::KvEventMessage>& messages);

 private:
  void push(nlohmann::json record);
  engine::StepEngine& inner_;
  std::vector<std::string> inputs_;
};

// Reads a trace step's arrivals and aborts into `tick` (each arrival made a contract request by `request`) and
// notes them in `inputs` as the engine sees them: the engine component passes an abort on only while its request
// is live (arrived, not ended, not aborted; `live` is kept so), and the abort ends it. Returns the aborts passed on.
std::vector<std::string> read_inputs(const nlohmann::json& step,
                                     const std::function<engine::Request(const std::string& id)>& request,
                                     std::set<std::string>& live, Tick& tick, std::vector<std::string>& inputs);

// KV events (records [type, block hashes, parent hash, token ids, fields...]) compared up to the tokens the two
// samplers chose. The oracles' model-runner stand-ins sample 1000 + k, the ports' samplers fixed tokens
// (`port_sampled`): a stored block holding output tokens therefore has other token ids and another hash (and so
// has every block chained after it). A port token in `port_sampled` matches whatever upstream sampled there, and
// block hashes match up to a one-to-one renaming kept for the whole trace, so which blocks are the same block is
// still compared; every other field must be equal.
class KvEventMatcher {
 public:
  explicit KvEventMatcher(std::set<std::int64_t> port_sampled) : port_sampled_(std::move(port_sampled)) {}
  bool match(const nlohmann::json& want, const nlohmann::json& got);

 private:
  bool same_block(const nlohmann::json& want, const nlohmann::json& got);
  std::set<std::int64_t> port_sampled_;
  std::map<std::string, std::string> upstream_to_port_, port_to_upstream_;
};

// Rewrites a part of the port's record to upstream's where the two differ only as the engine's replay declares
// (the tokens two samplers chose, say); anything else is left for the comparison to report.
using Align = std::function<void(const nlohmann::json& want, nlohmann::json& got)>;

// Times the ticks' inputs for the recorder's depth, runs the recorder's engine in the simulator's driver with
// every step priced at kTick (the rest of the environment is `base`), and compares its decisions in order with
// `want`: a trace whose inputs have no simulated counterpart, or that holds a request the engine refuses at
// admission, is not replayed; the first decision that differs (inputs included) is reported with both sides.
Outcome drive_and_compare(Recorder& recorder, const engine::Environment& base, const engine::plan::PoolPlan& plan,
                          const std::vector<Tick>& ticks, const std::vector<Decision>& want, const Align& align = {});

// The program: `[--min-replayed N] [(TRACE.json | DIR)...]` (no trace argument: `default_traces`). Replays each
// trace, prints each one not replayed with its reason and each divergence, then the counts. Exit 0 when nothing
// diverged and at least N were replayed, 1 otherwise, 2 on a usage error.
int replay_main(int argc, char** argv, const std::string& default_traces,
                const std::function<Outcome(const nlohmann::json& trace)>& replay);

}  // namespace blis::sim::coupled
