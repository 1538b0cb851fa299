// The workload generator (design §8.5): every client of the scenario, as one DEVS component, so that the
// stop rule's request count is one count over all clients and the generator keeps its own count of the
// requests it created (DEV-9). Every draw comes from a named substream: component "client:<name>",
// purpose (below) and entity (the client's request index, or the prefix group), so request 17 of a client
// gets the same draws whatever happened before it, in every configuration (DEV-6).
//
//   purpose        entity    draws
//   arrival        n         the gap before open-loop request n (n >= 1; request 0 is sent at time 0)
//   think_time     n         a closed-loop user's wait after the response to request n
//   prefix_group   n         request n's shared-prefix group
//   prefix_ids     group     the group's prefix token IDs
//   prompt_ids     n         request n's own prompt token IDs
//   prompt_tokens  n         request n's own prompt length (after the shared prefix)
//   output_tokens  n         request n's sampled output length (DEV-13)
//   joint_lengths  n         both lengths at once, for a client with length_dependence (a Gaussian copula's
//                            two uniforms, each inverted through its marginal); prompt_tokens and
//                            output_tokens are then not drawn
//   rounds         s         the client's session s's number of rounds
//   session_think  n         the wait after request n's response before its session's next round
//   response_ids   n         the token IDs standing for request n's response in an accumulated context
//
// A request is created when its send time is drawn, and sent at that time unless the stop rule's count
// is used up first; one created and never sent ends not_started. Open processes: poisson (exponential
// gaps), gamma (gaps with the stated cv), constant (even gaps); closed_loop: `concurrency` users send at
// time 0 and each sends its next request its think time after the previous one ended (completed, dropped
// or timed out). With sessions, the arrival process starts sessions (a closed-loop user runs them back to
// back, its think time between them), and each round after the first is sent its session think time after
// the previous round ended; with context accumulate its prompt is the previous prompt, then as many response
// IDs as the previous round received tokens, then its own new tokens. A client's `requests` then counts
// sessions. A client's timeout aborts a request that has not ended and writes its fate timed_out.
// Token IDs are drawn uniformly from [0, kVocabulary): engines and the router only compare them.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "schema/scenario.h"
#include "sim/devs/atomic.h"
#include "sim/devs/coordinator.h"
#include "sim/observe/observations.h"
#include "sim/rng/substreams.h"
#include "sim/trace/trace.h"
#include "sim/workload/distribution_of.h"

namespace blis::sim {

inline constexpr std::uint64_t kVocabulary = 32000;

class Generator final : public Atomic {
 public:
  // Refuses (std::invalid_argument naming the field) a client this build cannot generate: length
  // dependence is not generated yet, and says so.
  // `trace`, when given, receives every request created, with the cause of its arrival (DEV-7).
  Generator(const std::vector<schema::ScenarioClient>& clients, std::optional<std::int64_t> stop_requests,
            std::uint64_t seed, ComponentId router, Observations& observations, TraceWriter* trace = nullptr);
  // Replay (§8.5): the trace's requests, each sent at its recorded time, or its recorded delay after the
  // request it waited for ended in this run; no random input. The trace must outlive the generator.
  Generator(const Trace& trace, std::optional<std::int64_t> stop_requests, ComponentId router,
            Observations& observations);

  std::string_view name() const override { return "generator"; }
  SimTime time_advance() const override;
  void output(SimTime now, Outbox& out) override;
  void internal(SimTime now) override;
  void external(SimTime now, SimTime elapsed, const Bag& bag) override;
  void confluent(SimTime now, const Bag& bag) override;

  std::int64_t created() const { return created_; }  // the generator's own count (DEV-9)
  std::int64_t sent() const { return sent_; }

 private:
  struct Prepared {
    SimTime at;
    engine::Request request;
    std::int64_t user = -1;  // closed loop: the user sending it
    std::uint64_t index = 0; // the client's request index (the substreams' entity)
    std::optional<SimTime> timeout;
    std::int64_t session = -1;  // the session it belongs to, or -1
    std::int64_t round = 0;     // its round in the session
  };
  struct Open {
    std::size_t client = 0;
    std::int64_t user = -1;
    std::uint64_t index = 0;
    std::int64_t session = -1;
    std::int64_t tokens = 0;    // output tokens received so far
  };
  // A session in progress (§8.5): its rounds, and its context so far when prompts accumulate.
  struct Session {
    std::size_t client = 0;
    std::int64_t user = -1;
    std::int64_t rounds = 0;
    std::int64_t done = 0;      // rounds ended
    std::vector<std::int32_t> context;
  };
  struct Client {
    std::string name;
    std::string component;  // "client:<name>", the substreams' component
    std::string process;
    double rate_per_s = 0;
    double cv = 1;
    TokenSampler prompt, output;
    std::optional<double> copula_rho;       // length_dependence: the Gaussian copula's correlation
    std::optional<DurationSampler> think;   // closed loop
    std::optional<std::int64_t> prefix_groups, prefix_tokens;
    std::optional<std::int64_t> max_tokens;
    std::optional<SimTime> timeout;
    std::optional<std::int64_t> limit;      // the client's own request (or session) count
    std::optional<TokenSampler> rounds;     // sessions: rounds per session
    std::optional<DurationSampler> round_think;  // sessions: the wait between a response and the next round
    bool accumulate = false;                // sessions: each round's prompt holds the session so far
    std::int64_t sessions = 0;              // sessions started
    std::int64_t warmup = 0;
    std::int64_t created = 0;
    std::vector<Prepared> prepared;         // created, not yet sent, in send-time order
    std::map<std::int64_t, std::vector<std::int32_t>> prefixes;  // by group
  };

  bool may_create(const Client& c) const;
  void prepare(std::size_t client, SimTime at, std::int64_t user, Cause cause, const std::string& after,
               std::int64_t delay_us, std::int64_t session = -1, std::int64_t round = 0,
               const std::vector<std::int32_t>* base = nullptr);
  // Starts a session (or, for a client without sessions, a single request) whose first request is sent at `at`.
  void start(std::size_t client, SimTime at, std::int64_t user, Cause cause, const std::string& after, std::int64_t delay_us);
  void enqueue(std::size_t client, SimTime at, std::int64_t user, engine::Request request, bool measured,
               std::optional<SimTime> timeout);
  void prepare_row(std::size_t row, SimTime at);
  void prepare_next_open(const std::string& client);
  void prepare_open_after(std::size_t client, SimTime previous);
  void ended(SimTime now, const std::string& id);
  std::vector<std::pair<std::size_t, std::size_t>> due(SimTime now) const;  // (client, prepared index)
  std::vector<std::string> expired(SimTime now) const;
  void take(SimTime now, const Bag& bag);
  void act(SimTime now);

  std::vector<Client> clients_;
  std::optional<std::int64_t> budget_;  // requests the stop rule still lets the clients send
  rng::Substreams streams_;
  ComponentId router_;
  Observations& observations_;
  SimTime now_{};
  std::int64_t created_ = 0, sent_ = 0;
  std::map<std::string, Open> open_;  // sent and not ended
  // Requests that timed out: a step in flight at the abort may still report one finished (held for the run,
  // one entry per timeout; every other finished request's record is folded away at its fate).
  std::set<std::string> timed_out_;
  std::map<std::int64_t, Session> sessions_;  // in progress, by the order they started
  std::int64_t next_session_ = 0;
  std::set<std::pair<SimTime, std::string>> deadlines_;
  TraceWriter* trace_ = nullptr;                     // export, when asked
  const Trace* replay_ = nullptr;                    // replay, when replaying
  std::map<std::string, std::size_t> client_index_;  // replay: clients by name
  std::map<std::string, std::vector<std::size_t>> dependents_;  // replay: rows waiting for a request's end
  std::map<std::string, std::deque<std::size_t>> open_rows_;    // replay: each client's open rows, in order
};

}  // namespace blis::sim
