// What a run observes of its requests (design §8.7): each request's record, filled from the messages its
// client receives (the engine's token record, read and never recomputed: SIM-12), and each request's fate,
// written once, at one site (DEV-9). Observations belongs to the experimental frame, not to a component:
// components write to it as they observe, and none reads it, so it couples nothing (DEV-1).
#pragma once

#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
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

// A time that may be absent, in eight bytes (std::optional<SimTime> takes sixteen): a finished request's
// record holds six of them.
class MaybeTime {
 public:
  MaybeTime() = default;
  MaybeTime(std::optional<SimTime> t) : us_(t ? t->us : kAbsent) {}  // NOLINT: converts as optional does
  bool has_value() const { return us_ != kAbsent; }
  explicit operator bool() const { return has_value(); }
  SimTime operator*() const { return SimTime{us_}; }
  SimTime value_or(SimTime other) const { return has_value() ? SimTime{us_} : other; }
  operator std::optional<SimTime>() const { return has_value() ? std::optional<SimTime>(SimTime{us_}) : std::nullopt; }  // NOLINT
  bool operator==(SimTime t) const { return has_value() && us_ == t.us; }
  bool operator==(const MaybeTime&) const = default;

 private:
  static constexpr std::int64_t kAbsent = INT64_MIN;
  std::int64_t us_ = kAbsent;
};

// A request's record once its fate is written: what every reader after the run takes (figures, the fates'
// sum, the per-request CSV, the steady-state judgement), in about 170 bytes. Client, pool and reason are
// views of the names Observations holds once each; the inter-token gaps are pooled by then.
struct FinishedRecord {
  std::string id;
  std::string_view client, pool, reason;
  SimTime created{};
  MaybeTime sent, dispatched, first_scheduled, ended;
  std::int64_t prompt_tokens = 0;
  std::int32_t instance = -1;
  std::int32_t preemptions = 0;
  Fate fate = Fate::kNone;
  bool measured = true;

  std::int64_t output_tokens() const { return output_tokens_; }
  std::int64_t emissions() const { return emissions_; }
  MaybeTime first_token() const { return first_token_; }
  MaybeTime last_token() const { return last_token_; }

 private:
  friend class Observations;
  std::int64_t output_tokens_ = 0;
  std::int64_t emissions_ = 0;
  MaybeTime first_token_, last_token_;
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

// Memory: a request's full record lives only while it is in flight (created and without a fate); writing
// its fate checks it against the request state machine (SIM-8), pools its gaps and folds it into a
// FinishedRecord. What grows with the run's length is the finished records alone, which the exact
// percentiles of DEV-8 (numpy's, as vLLM's bench serve computes them) need one sample per request of.
class Observations {
 public:
  Observations() = default;
  Observations(Observations&&) = default;
  Observations& operator=(Observations&&) = default;
  // Not copyable: finished records view the names this object holds.
  Observations(const Observations&) = delete;
  Observations& operator=(const Observations&) = delete;

  // The generator creates a request's record (its count of arrivals is its own, DEV-9).
  RequestRecord& create(const std::string& id, const std::string& client, SimTime at, std::int64_t prompt_tokens,
                        bool measured);
  // The record of a request in flight (a std::logic_error for one never created or already ended).
  RequestRecord& at(const std::string& id);
  // The requests in flight, by id.
  const std::map<std::string, RequestRecord>& live() const { return live_; }

  // Every request's finished record, in order of id, once the run is sealed (a std::logic_error before).
  const std::vector<FinishedRecord>& records() const;
  // One finished record by id, once sealed; nullptr when there is none.
  const FinishedRecord* find(std::string_view id) const;
  const std::map<ItlKey, CountedGaps>& itl() const { return itl_; }

  // Steady-state runs (warm-up mser-5) keep every request's inter-token gaps until the warm-up is cut, and
  // pool them then (pool_gaps); other runs pool each request's gaps when its fate is written.
  void keep_gaps() { keep_gaps_ = true; }
  // Marks the requests sent before `cut` as not measured (the warm-up), then pools every kept gap.
  void cut_warmup(SimTime cut);

  // The one site that writes a fate (DEV-9): a second write is a defect (std::logic_error naming the
  // request, both fates and the time). `reason` is required for kDropped.
  void write_fate(const std::string& id, Fate fate, SimTime at, std::string reason = {});

  // Ends the run's observing: every request must have its fate (a std::logic_error otherwise), each id must
  // have been created once, and the finished records are put in order of id. Returns the first record that
  // broke the request state machine (SIM-8), as lifecycle_violation words it; "" when none did.
  std::string seal();
  // The most records held in flight at once, and the finished records' bytes (the benchmark's figures).
  std::size_t peak_live() const { return peak_live_; }
  std::size_t finished_bytes() const;

 private:
  void pool(const std::string& pool, std::int64_t instance, Fate fate, bool measured, const std::vector<std::int64_t>& gaps);
  std::string_view name(const std::string& s);
  const FinishedRecord* ended(std::string_view id) const;  // a finished record by id, sealed or not

  std::map<std::string, RequestRecord> live_;
  std::size_t peak_live_ = 0;
  // Finished records in order of fate, in chunks (no reallocation doubles them mid-run); one vector once sealed.
  std::vector<std::vector<FinishedRecord>> chunks_;
  std::vector<FinishedRecord> sealed_;
  bool is_sealed_ = false;
  std::string violation_;
  std::set<std::string, std::less<>> names_;

  std::map<ItlKey, CountedGaps> itl_;
  bool keep_gaps_ = false;
  std::map<std::string, std::vector<std::int64_t>> kept_gaps_;  // steady-state runs: by request, until the cut
};

}  // namespace blis::sim
