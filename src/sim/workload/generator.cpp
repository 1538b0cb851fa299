#include "sim/workload/generator.h"

#include <stdexcept>
#include <utility>

namespace blis::sim {
namespace {

std::string field_of(std::size_t i, const std::string& rest) {
  return "workload.clients[" + std::to_string(i) + "]." + rest;
}

}  // namespace

Generator::Generator(const std::vector<schema::ScenarioClient>& clients, std::optional<std::int64_t> stop_requests,
                     std::uint64_t seed, ComponentId router, Observations& observations, TraceWriter* trace)
    : budget_(stop_requests), streams_(seed), router_(router), observations_(observations), trace_(trace) {
  for (std::size_t i = 0; i < clients.size(); ++i) {
    const schema::ScenarioClient& s = clients[i];
    Client c;
    c.name = s.name;
    c.component = "client:" + s.name;
    c.process = s.arrival.process;
    c.prompt = token_sampler(s.prompt_tokens, field_of(i, "prompt_tokens"), s.shared_prefix ? 0 : 1);
    c.output = token_sampler(s.output_tokens, field_of(i, "output_tokens"), 1);
    if (s.length_dependence) {
      // A Gaussian copula (the schema's one method) joins the two lengths through their distribution
      // functions; a family whose function this build lacks is refused by name.
      for (const auto& [sampler, field] : {std::pair{&c.prompt, "prompt_tokens"}, std::pair{&c.output, "output_tokens"}}) {
        if (!sampler->integer_uniform && sampler->distribution.family() == rng::Distribution::Family::kGamma) {
          throw std::invalid_argument(field_of(i, "length_dependence") + ": a gaussian_copula joins the lengths through their "
                                      "distribution functions, and this build has none for " + field_of(i, field) +
                                      "'s gamma family (" + sampler->distribution.describe() + ")");
        }
      }
      c.copula_rho = s.length_dependence->rho;
    }
    if (c.process == "closed_loop") {
      if (!s.arrival.concurrency) throw std::invalid_argument(field_of(i, "arrival.concurrency") + ": required by closed_loop, and not stated");
      if (s.arrival.rate_per_s) throw std::invalid_argument(field_of(i, "arrival.rate_per_s") + ": a closed loop takes no rate");
      if (s.arrival.think_time) c.think = duration_sampler(*s.arrival.think_time, field_of(i, "arrival.think_time"));
    } else {
      if (!s.arrival.rate_per_s) throw std::invalid_argument(field_of(i, "arrival.rate_per_s") + ": required by " + c.process + ", and not stated");
      if (s.arrival.concurrency || s.arrival.think_time) {
        throw std::invalid_argument(field_of(i, s.arrival.concurrency ? "arrival.concurrency" : "arrival.think_time") +
                                    ": only closed_loop takes it, and the process is " + c.process);
      }
      c.rate_per_s = *s.arrival.rate_per_s;
      if (c.process == "gamma") {
        if (!s.arrival.cv) throw std::invalid_argument(field_of(i, "arrival.cv") + ": required by gamma, and not stated");
        c.cv = s.arrival.cv->value();
      } else if (s.arrival.cv) {
        throw std::invalid_argument(field_of(i, "arrival.cv") + ": only gamma takes it, and the process is " + c.process);
      }
    }
    if (s.shared_prefix) {
      c.prefix_groups = s.shared_prefix->groups.value();
      c.prefix_tokens = s.shared_prefix->tokens.value();
    }
    if (s.sessions) {
      c.rounds = count_sampler(s.sessions->rounds, field_of(i, "sessions.rounds"), 1);
      c.round_think = duration_sampler(s.sessions->think_time, field_of(i, "sessions.think_time"));
      c.accumulate = s.sessions->context == "accumulate";
    }
    if (s.max_tokens) c.max_tokens = s.max_tokens->value();
    if (s.timeout) c.timeout = duration_of(*s.timeout, field_of(i, "timeout"));
    if (s.requests) c.limit = s.requests->value();
    if (s.warmup_requests) c.warmup = s.warmup_requests->value();
    clients_.push_back(std::move(c));
  }
  // Time zero: an open client's first request, and each closed-loop user's first.
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    const schema::ScenarioClient& s = clients[i];
    const std::int64_t users = clients_[i].process == "closed_loop" ? s.arrival.concurrency->value() : 1;
    const bool closed = clients_[i].process == "closed_loop";
    for (std::int64_t u = 0; u < users && may_create(clients_[i]); ++u) {
      start(i, SimTime{0}, closed ? u : -1, closed ? Cause::kStart : Cause::kOpen, "", 0);
    }
  }
}

Generator::Generator(const Trace& trace, std::optional<std::int64_t> stop_requests, ComponentId router,
                     Observations& observations)
    : budget_(stop_requests), streams_(0), router_(router), observations_(observations), replay_(&trace) {
  for (std::size_t k = 0; k < trace.rows.size(); ++k) {
    const TraceRow& r = trace.rows[k];
    if (!client_index_.contains(r.client)) {
      client_index_[r.client] = clients_.size();
      Client c;
      c.name = r.client;
      c.component = "client:" + r.client;
      c.process = "replay";
      clients_.push_back(std::move(c));
    }
    if (r.cause == Cause::kAfter) {
      dependents_[r.after].push_back(k);
    } else if (r.cause == Cause::kStart) {
      prepare_row(k, SimTime{r.time_us});
    } else {
      open_rows_[r.client].push_back(k);
    }
  }
  // An open client's first request now; each later one when the one before it is sent, as it was created.
  for (auto& [client, rows] : open_rows_) prepare_next_open(client);
}

void Generator::prepare_next_open(const std::string& client) {
  auto it = open_rows_.find(client);
  if (it == open_rows_.end() || it->second.empty()) return;
  const std::size_t row = it->second.front();
  it->second.pop_front();
  prepare_row(row, SimTime{replay_->rows[row].time_us});
}

// With sessions, a client's `requests` counts sessions.
bool Generator::may_create(const Client& c) const { return !c.limit || (c.rounds ? c.sessions : c.created) < *c.limit; }

void Generator::start(std::size_t ci, SimTime at, std::int64_t user, Cause cause, const std::string& after,
                      std::int64_t delay_us) {
  Client& c = clients_[ci];
  if (!c.rounds) {
    prepare(ci, at, user, cause, after, delay_us);
    return;
  }
  auto rs = streams_.stream(c.component, "rounds", static_cast<std::uint64_t>(c.sessions));
  const std::int64_t id = next_session_++;
  sessions_[id] = Session{ci, user, static_cast<std::int64_t>(c.rounds->draw(rs)), 0, {}};
  ++c.sessions;
  prepare(ci, at, user, cause, after, delay_us, id, 0);
}

void Generator::prepare(std::size_t ci, SimTime at, std::int64_t user, Cause cause, const std::string& after,
                        std::int64_t delay_us, std::int64_t session, std::int64_t round,
                        const std::vector<std::int32_t>* base) {
  Client& c = clients_[ci];
  const auto n = static_cast<std::uint64_t>(c.created);
  engine::Request r;
  r.id = c.name + "/" + std::to_string(n);
  if (base) {
    r.prompt = *base;
  } else if (c.prefix_groups) {
    auto gs = streams_.stream(c.component, "prefix_group", n);
    const auto group = static_cast<std::int64_t>(gs.below(static_cast<std::uint64_t>(*c.prefix_groups)));
    auto [it, fresh] = c.prefixes.try_emplace(group);
    if (fresh) {
      auto ps = streams_.stream(c.component, "prefix_ids", static_cast<std::uint64_t>(group));
      for (std::int64_t k = 0; k < *c.prefix_tokens; ++k) it->second.push_back(static_cast<std::int32_t>(ps.below(kVocabulary)));
    }
    r.prompt = it->second;
  }
  std::uint64_t own = 0;
  if (c.copula_rho) {
    // Joint lengths (workload.clients[].length_dependence): one pair of uniforms joined by the Gaussian
    // copula, each inverted through its own marginal, so each length keeps its distribution.
    auto js = streams_.stream(c.component, "joint_lengths", n);
    const rng::CopulaPair u = rng::gaussian_copula_pair(js, *c.copula_rho);
    own = c.prompt.at(u.first);
    r.sampled_output_len = static_cast<std::int64_t>(c.output.at(u.second));
  } else {
    auto ls = streams_.stream(c.component, "prompt_tokens", n);
    own = c.prompt.draw(ls);
    auto os = streams_.stream(c.component, "output_tokens", n);
    r.sampled_output_len = static_cast<std::int64_t>(c.output.draw(os));
  }
  auto is = streams_.stream(c.component, "prompt_ids", n);
  for (std::uint64_t k = 0; k < own; ++k) r.prompt.push_back(static_cast<std::int32_t>(is.below(kVocabulary)));
  r.max_tokens = c.max_tokens;
  const bool measured = c.created >= c.warmup;
  if (trace_) {
    trace_->add(r, c.name, user, cause, after, cause == Cause::kAfter ? delay_us : at.us,
                c.timeout ? std::optional<std::int64_t>(c.timeout->us) : std::nullopt, measured);
  }
  if (session >= 0 && c.accumulate) sessions_.at(session).context = r.prompt;
  enqueue(ci, at, user, std::move(r), measured, c.timeout);
  c.prepared.back().session = session;
  c.prepared.back().round = round;
}

void Generator::enqueue(std::size_t ci, SimTime at, std::int64_t user, engine::Request r, bool measured,
                        std::optional<SimTime> timeout) {
  Client& c = clients_[ci];
  const auto n = static_cast<std::uint64_t>(c.created);
  observations_.create(r.id, c.name, at, static_cast<std::int64_t>(r.prompt.size()), measured);
  ++c.created;
  ++created_;
  c.prepared.push_back(Prepared{at, std::move(r), user, n, timeout});
}

// Replay: the trace rows that can be prepared now (their cause is a time), and the rest keyed by the
// request whose end they wait for.
void Generator::prepare_row(std::size_t row, SimTime at) {
  const TraceRow& r = replay_->rows[row];
  const std::size_t ci = client_index_.at(r.client);
  std::optional<SimTime> timeout;
  if (r.timeout_us) timeout = SimTime{*r.timeout_us};
  enqueue(ci, at, r.user, r.request, r.measured, timeout);
}

// The next open-loop request, one gap after `previous`.
void Generator::prepare_open_after(std::size_t ci, SimTime previous) {
  Client& c = clients_[ci];
  if (!may_create(c)) return;
  auto s = streams_.stream(c.component, "arrival", static_cast<std::uint64_t>(c.created));
  double gap = 0;
  if (c.process == "poisson") {
    gap = rng::exponential(s, 1.0 / c.rate_per_s);
  } else if (c.process == "gamma") {
    gap = rng::gamma_gaps(c.rate_per_s, c.cv).sample(s);
  } else if (c.process == "constant") {
    gap = 1.0 / c.rate_per_s;
  } else {
    throw std::invalid_argument("client " + c.name + ": arrival process '" + c.process + "' is not generated by this build");
  }
  start(ci, later(previous, duration_of(units::Seconds{gap}, c.component + " arrival gap")), -1, Cause::kOpen, "", 0);
}

std::vector<std::pair<std::size_t, std::size_t>> Generator::due(SimTime now) const {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    for (std::size_t k = 0; k < clients_[i].prepared.size(); ++k) {
      if (clients_[i].prepared[k].at == now) out.emplace_back(i, k);
    }
  }
  return out;
}

std::vector<std::string> Generator::expired(SimTime now) const {
  std::vector<std::string> out;
  for (auto it = deadlines_.begin(); it != deadlines_.end() && it->first == now; ++it) {
    if (open_.contains(it->second)) out.push_back(it->second);
  }
  return out;
}

SimTime Generator::time_advance() const {
  SimTime next = kNever;
  for (const auto& c : clients_) {
    for (const auto& p : c.prepared) next = std::min(next, p.at);
  }
  if (!deadlines_.empty()) next = std::min(next, deadlines_.begin()->first);
  return next == kNever ? kNever : SimTime{next.us - now_.us};
}

void Generator::output(SimTime now, Outbox& out) {
  std::int64_t left = budget_.value_or(-1);
  for (const auto& [ci, k] : due(now)) {
    if (budget_ && left-- <= 0) break;
    out.send(router_, MessageClass::kNewRequest, NewRequest{clients_[ci].prepared[k].request, 0});
  }
  for (const auto& id : expired(now)) out.send(router_, MessageClass::kAbort, Abort{id});
}

void Generator::act(SimTime now) {
  // Send what is due, in client then creation order, while the stop rule allows.
  std::vector<std::pair<std::size_t, Prepared>> sending, unsent;
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    auto& prepared = clients_[i].prepared;
    for (auto it = prepared.begin(); it != prepared.end();) {
      if (it->at != now) {
        ++it;
        continue;
      }
      if (!budget_ || *budget_ > 0) {
        if (budget_) --*budget_;
        sending.emplace_back(i, std::move(*it));
      } else {
        unsent.emplace_back(i, std::move(*it));
      }
      it = prepared.erase(it);
    }
  }
  for (auto& [ci, p] : sending) {
    ++sent_;
    RequestRecord& rec = observations_.at(p.request.id);
    rec.sent = now;
    open_[p.request.id] = Open{ci, p.user, p.index, p.session, 0};
    if (p.timeout) deadlines_.emplace(later(now, *p.timeout), p.request.id);
    if (replay_) {
      if (p.user < 0) prepare_next_open(clients_[ci].name);
    } else if (clients_[ci].process != "closed_loop" && p.round == 0) {
      prepare_open_after(ci, now);  // the next request, or with sessions the next session's first
    }
  }
  for (auto& [ci, p] : unsent) {
    observations_.write_fate(p.request.id, Fate::kNotStarted, now);
    sessions_.erase(p.session);
  }
  // Timeouts: the abort went out with this instant's output.
  for (const auto& id : expired(now)) {
    observations_.write_fate(id, Fate::kTimedOut, now);
    timed_out_.insert(id);
    ended(now, id);
  }
  while (!deadlines_.empty() && deadlines_.begin()->first <= now) deadlines_.erase(deadlines_.begin());
}

// A request ended (completed, dropped or timed out): a closed-loop user thinks, then sends its next; under
// replay, the requests recorded as waiting for this one are prepared after their recorded delays.
void Generator::ended(SimTime now, const std::string& id) {
  auto it = open_.find(id);
  if (it == open_.end()) return;
  const Open o = it->second;
  const std::size_t ci = o.client;
  open_.erase(it);
  if (replay_) {
    auto d = dependents_.find(id);
    if (d == dependents_.end()) return;
    for (std::size_t row : d->second) prepare_row(row, later(now, SimTime{replay_->rows[row].time_us}));
    dependents_.erase(d);
    return;
  }
  Client& c = clients_[ci];
  if (budget_ && *budget_ <= 0) return;
  if (o.session >= 0) {
    Session& ss = sessions_.at(o.session);
    if (++ss.done < ss.rounds) {
      // The session's next round, its think time after this response.
      auto ts = streams_.stream(c.component, "session_think", o.index);
      const SimTime at = later(now, duration_of(units::Seconds{c.round_think->draw(ts)}, c.component + " session think time"));
      std::vector<std::int32_t> context;
      if (c.accumulate) {
        context = std::move(ss.context);
        auto rs = streams_.stream(c.component, "response_ids", o.index);
        for (std::int64_t k = 0; k < o.tokens; ++k) context.push_back(static_cast<std::int32_t>(rs.below(kVocabulary)));
      }
      prepare(ci, at, ss.user, Cause::kAfter, id, at.us - now.us, o.session, ss.done, c.accumulate ? &context : nullptr);
      return;
    }
    sessions_.erase(o.session);
  }
  if (c.process != "closed_loop" || !may_create(c)) return;
  SimTime at = now;
  if (c.think) {
    auto s = streams_.stream(c.component, "think_time", o.index);
    at = later(now, duration_of(units::Seconds{c.think->draw(s)}, c.component + " think time"));
  }
  start(ci, at, o.user, Cause::kAfter, id, at.us - now.us);
}

void Generator::take(SimTime now, const Bag& bag) {
  for (const auto& m : bag) {
    if (const auto* rec = std::get_if<StepRecord>(&m.payload)) {
      for (const auto& id : rec->first_scheduled) {
        if (!open_.contains(id)) continue;
        RequestRecord& r = observations_.at(id);
        if (!r.first_scheduled) r.first_scheduled = rec->started;
      }
      for (const auto& e : rec->outcome.emitted) {
        auto it = open_.find(e.request);
        if (it == open_.end()) continue;
        it->second.tokens += e.tokens;
        observations_.at(e.request).add_emission(now, e.tokens);
      }
      for (const auto& id : rec->outcome.preempted) {
        if (open_.contains(id)) ++observations_.at(id).preemptions;
      }
      for (const auto& f : rec->outcome.finished) {
        // A request that timed out may still finish in a step that was in flight when its abort went out;
        // any other second ending is a defect, which write_fate reports (DEV-9).
        if (!open_.contains(f.request) && timed_out_.contains(f.request)) continue;
        observations_.write_fate(f.request, Fate::kCompleted, now, f.reason);
        ended(now, f.request);
      }
    } else if (const auto* r = std::get_if<Refusal>(&m.payload)) {
      if (!open_.contains(r->refused.request)) continue;
      observations_.write_fate(r->refused.request, Fate::kDropped, now, r->refused.reason);
      ended(now, r->refused.request);
    } else {
      throw SimulationError("generator: received a " + std::string(class_name(m.key.cls)) + " message");
    }
  }
}

void Generator::internal(SimTime now) {
  now_ = now;
  act(now);
}

void Generator::external(SimTime now, SimTime, const Bag& bag) {
  now_ = now;
  take(now, bag);
}

// What this instant's output sent is taken first (its sends and its aborts: a request whose deadline falls
// as its last tokens arrive has timed out, since the client's abort went out first), then the responses.
void Generator::confluent(SimTime now, const Bag& bag) {
  now_ = now;
  act(now);
  take(now, bag);
}

}  // namespace blis::sim
