#include "faulty_engines.h"

#include <unistd.h>

#include <memory>

#include "reference_engine.h"

namespace blis::conformance {
namespace {

// Forwards everything to the reference engine; the known-bad classes below change one call.
class Forwarding : public engine::Engine, public engine::StepEngine {
 public:
  explicit Forwarding(ReferenceArgs a) : inner_(a) {}
  const engine::plan::PoolPlan& plan() const override { return inner_.plan(); }
  void fill_budget(const engine::MemoryBreakdown& m) override { inner_.fill_budget(m); }
  std::optional<engine::Refused> add_request(const engine::Request& r) override { return inner_.add_request(r); }
  void abort_request(const std::string& id) override { inner_.abort_request(id); }
  std::optional<engine::ScheduledStep> schedule() override { return inner_.schedule(); }
  engine::StepOutcome complete(std::uint64_t step) override { return inner_.complete(step); }
  std::int64_t in_flight_depth() const override { return 1; }
  engine::InputBoundary boundary() const override { return engine::InputBoundary::kNextSchedule; }
  engine::Published published() const override { return inner_.published(); }
  engine::Residence residence(const std::string& id) const override { return inner_.residence(id); }

 protected:
  ReferenceEngine inner_;
};

class Stalls final : public Forwarding {
 public:
  Stalls() : Forwarding(ReferenceArgs{}) {}
  std::optional<engine::ScheduledStep> schedule() override { return std::nullopt; }
};

class FinishesTwice final : public Forwarding {
 public:
  using Forwarding::Forwarding;
  engine::StepOutcome complete(std::uint64_t step) override {
    engine::StepOutcome o = inner_.complete(step);
    const auto finished = o.finished;
    o.finished.insert(o.finished.end(), finished.begin(), finished.end());
    return o;
  }
};

// Launches `extra` padding tokens beyond the step's scheduled tokens (priced by the conformance Environment).
void pad(engine::ScheduledStep& step, std::int64_t extra) {
  schema::StepShapePaddedShape p;
  p.rank = 0;
  std::int64_t tokens = 0;
  for (const auto& r : *step.shape.ranks->front().requests) tokens += r.new_tokens->value();
  p.tokens = units::Tokens{tokens + extra};
  step.shape.padded.emplace();
  step.shape.padded->push_back(p);
}

class LosesRequests final : public Forwarding {
 public:
  using Forwarding::Forwarding;
  std::optional<engine::Refused> add_request(const engine::Request& r) override {
    if (++given_ % 5 == 0) return std::nullopt;  // taken, and forgotten
    return inner_.add_request(r);
  }

 private:
  std::int64_t given_ = 0;
};

// One counter for every instance of the kind: the defect the permutation check exists to find.
std::int64_t shared_steps = 0;

class SharesState final : public Forwarding {
 public:
  using Forwarding::Forwarding;
  std::optional<engine::ScheduledStep> schedule() override {
    auto step = inner_.schedule();
    // Padding from the count of steps any instance scheduled so far: prices depend on visit order.
    if (step) pad(*step, ++shared_steps % 7);
    return step;
  }
};

// Prices follow the process's id: an input from outside the model, which a replay in another process does
// not see the same.
class HiddenInput final : public Forwarding {
 public:
  using Forwarding::Forwarding;
  std::optional<engine::ScheduledStep> schedule() override {
    auto step = inner_.schedule();
    if (step) pad(*step, 1 + static_cast<std::int64_t>(getpid()));
    return step;
  }
};

// Ends every request after as many tokens as it may run requests at once, whatever its sampled length:
// output lengths then follow the server's setting.
class SettingLength final : public Forwarding {
 public:
  explicit SettingLength(ReferenceArgs a) : Forwarding(a), seats_(a.max_num_seqs) {}
  std::optional<engine::Refused> add_request(const engine::Request& r) override {
    engine::Request capped = r;
    capped.max_tokens = seats_;
    capped.sampled_output_len = seats_;
    return inner_.add_request(capped);
  }

 private:
  std::int64_t seats_;
};

// Reports tokens for requests but never says which ran for the first time.
class HidesScheduling final : public Forwarding {
 public:
  using Forwarding::Forwarding;
  std::optional<engine::ScheduledStep> schedule() override {
    auto step = inner_.schedule();
    if (step) step->first_scheduled.clear();
    return step;
  }
};

}  // namespace

void register_faulty_engines(engine::EngineRegistry& registry) {
  registry.add(engine::EngineKey{"reference-stalls", "1"},
               [](const engine::Spec&, const engine::Environment&) { return std::make_unique<Stalls>(); });
  registry.add(engine::EngineKey{"reference-finishes-twice", "1"}, [](const engine::Spec& spec, const engine::Environment&) {
    return std::make_unique<FinishesTwice>(reference_args(spec));
  });
  registry.add(engine::EngineKey{"reference-loses-requests", "1"}, [](const engine::Spec& spec, const engine::Environment&) {
    return std::make_unique<LosesRequests>(reference_args(spec));
  });
  registry.add(engine::EngineKey{"reference-shares-state", "1"}, [](const engine::Spec& spec, const engine::Environment&) {
    shared_steps = 0;  // each run starts the shared counter afresh, so a run is repeatable on its own
    return std::make_unique<SharesState>(reference_args(spec));
  });
  registry.add(engine::EngineKey{"reference-setting-length", "1"}, [](const engine::Spec& spec, const engine::Environment&) {
    return std::make_unique<SettingLength>(reference_args(spec));
  });
  registry.add(engine::EngineKey{"reference-hides-scheduling", "1"}, [](const engine::Spec& spec, const engine::Environment&) {
    return std::make_unique<HidesScheduling>(reference_args(spec));
  });
  registry.add(engine::EngineKey{"reference-hidden-input", "1"}, [](const engine::Spec& spec, const engine::Environment&) {
    return std::make_unique<HiddenInput>(reference_args(spec));
  });
}

}  // namespace blis::conformance
