// What a run observes of its requests (design §8.7): each request's record, filled from the messages its
// client receives (the engine's token record, read and never recomputed: SIM-12), and each request's fate,
// written once, at one site (DEV-9). Observations belongs to the experimental frame, not to a component:
// components write to it as they observe, and none reads it, so it couples nothing (DEV-1).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/devs/time.h"

namespace blis::sim {

enum class Fate : std::uint8_t {
  kNone,              // no fate yet
  kCompleted,
  kDropped,           // with a reason
  kTimedOut,
  kInFlightAtHorizon,
  kQueuedAtHorizon,
  kNotStarted,        // created by the generator, never sent
};

std::string_view fate_name(Fate f);

struct RequestRecord {
  std::string id;
  std::string client;
  bool measured = true;                   // false for a client's warm-up requests (COV-12)
  std::int64_t prompt_tokens = 0;
  SimTime created{};                      // when the generator drew it
  std::optional<SimTime> sent;            // when the client sent it
  std::optional<SimTime> dispatched;      // when the router sent it to an engine
  std::optional<SimTime> first_scheduled; // when it first ran in a step
  std::string pool;                       // where it ran (empty until dispatched)
  std::int64_t instance = -1;
  std::optional<SimTime> ended;           // when its fate was written
  Fate fate = Fate::kNone;
  std::string reason;                     // the drop reason, or the engine's finish reason
  std::int64_t preemptions = 0;

  // The engine's token record as the client received it (SIM-12): a step that emitted tokens for the
  // request is one emission, at the step's end.
  void add_emission(SimTime at, std::int64_t tokens);
  std::int64_t output_tokens() const { return output_tokens_; }
  std::int64_t emissions() const { return emissions_; }
  std::optional<SimTime> first_token() const { return first_token_; }
  std::optional<SimTime> last_token() const { return last_token_; }
  // The gaps between consecutive emissions, in microseconds, held only until the fate is written; then they
  // move to the pooled inter-token histograms (Observations::itl).
  const std::vector<std::int64_t>& gaps_us() const { return gaps_us_; }

 private:
  friend class Observations;
  std::int64_t output_tokens_ = 0;
  std::int64_t emissions_ = 0;
  std::optional<SimTime> first_token_, last_token_;
  std::vector<std::int64_t> gaps_us_;
};

// The pooled inter-token gaps of the requests that ended with one fate at one instance, as counts of each
// gap in microseconds: exact order statistics in memory bounded by the distinct gaps, not the tokens.
struct ItlKey {
  std::string pool;
  std::int64_t instance = -1;
  Fate fate = Fate::kNone;
  bool measured = true;
  auto operator<=>(const ItlKey&) const = default;
};
using CountedGaps = std::map<std::int64_t, std::int64_t>;  // gap (us) -> how many

class Observations {
 public:
  // The generator creates a request's record (its count of arrivals is its own, DEV-9).
  RequestRecord& create(const std::string& id, const std::string& client, SimTime at, std::int64_t prompt_tokens,
                        bool measured);
  RequestRecord& at(const std::string& id);
  const std::map<std::string, RequestRecord>& records() const { return records_; }
  const std::map<ItlKey, CountedGaps>& itl() const { return itl_; }

  // Steady-state runs (warm-up mser-5) keep every request's inter-token gaps until the warm-up is cut, and
  // pool them then (pool_gaps); other runs pool each request's gaps when its fate is written.
  void keep_gaps() { keep_gaps_ = true; }
  // Marks the requests sent before `cut` as not measured (the warm-up), then pools every kept gap.
  void cut_warmup(SimTime cut);

  // The one site that writes a fate (DEV-9): a second write is a defect (std::logic_error naming the
  // request, both fates and the time). `reason` is required for kDropped.
  void write_fate(const std::string& id, Fate fate, SimTime at, std::string reason = {});

 private:
  std::map<std::string, RequestRecord> records_;
  void pool(RequestRecord& r);

  std::map<ItlKey, CountedGaps> itl_;
  bool keep_gaps_ = false;
};

}  // namespace blis::sim
