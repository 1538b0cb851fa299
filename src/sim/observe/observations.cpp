#include "sim/observe/observations.h"

#include <stdexcept>

namespace blis::sim {

std::string_view fate_name(Fate f) {
  switch (f) {
    case Fate::kNone: return "none";
    case Fate::kCompleted: return "completed";
    case Fate::kDropped: return "dropped";
    case Fate::kTimedOut: return "timed_out";
    case Fate::kInFlightAtHorizon: return "in_flight_at_horizon";
    case Fate::kQueuedAtHorizon: return "queued_at_horizon";
    case Fate::kNotStarted: return "not_started";
  }
  return "unknown";
}

void RequestRecord::add_emission(SimTime at, std::int64_t tokens) {
  if (tokens <= 0) return;
  if (last_token_) gaps_us_.push_back(at.us - last_token_->us);
  if (!first_token_) first_token_ = at;
  last_token_ = at;
  output_tokens_ += tokens;
  ++emissions_;
}

RequestRecord& Observations::create(const std::string& id, const std::string& client, SimTime at,
                                    std::int64_t prompt_tokens, bool measured) {
  auto [it, fresh] = records_.try_emplace(id);
  if (!fresh) throw std::logic_error("request '" + id + "' was created twice");
  RequestRecord& r = it->second;
  r.id = id;
  r.client = client;
  r.created = at;
  r.prompt_tokens = prompt_tokens;
  r.measured = measured;
  return r;
}

RequestRecord& Observations::at(const std::string& id) {
  auto it = records_.find(id);
  if (it == records_.end()) throw std::logic_error("request '" + id + "' has no record");
  return it->second;
}

void Observations::write_fate(const std::string& id, Fate fate, SimTime at, std::string reason) {
  RequestRecord& r = this->at(id);
  if (fate == Fate::kNone) throw std::logic_error("request '" + id + "': 'none' is not a fate");
  if (r.fate != Fate::kNone) {
    throw std::logic_error("request '" + id + "' already has the fate " + std::string(fate_name(r.fate)) +
                           "; a second write (" + std::string(fate_name(fate)) + " at " + to_string(at) +
                           ") is a defect (DEV-9)");
  }
  if (fate == Fate::kDropped && reason.empty()) {
    throw std::logic_error("request '" + id + "': a drop needs its reason (DEV-9)");
  }
  r.fate = fate;
  r.reason = std::move(reason);
  r.ended = at;
  if (!keep_gaps_) pool(r);
}

void Observations::pool(RequestRecord& r) {
  if (r.gaps_us_.empty()) return;
  CountedGaps& pooled = itl_[ItlKey{r.pool, r.instance, r.fate, r.measured}];
  for (std::int64_t g : r.gaps_us_) ++pooled[g];
  std::vector<std::int64_t>().swap(r.gaps_us_);
}

void Observations::cut_warmup(SimTime cut) {
  for (auto& [id, r] : records_) {
    if (!r.sent || *r.sent < cut) r.measured = false;
    pool(r);
  }
  keep_gaps_ = false;
}

}  // namespace blis::sim
