#include "sim/observe/observations.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "sim/observe/lifecycle.h"

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
  if (is_sealed_) throw std::logic_error("request '" + id + "' was created after the run was sealed");
  auto [it, fresh] = live_.try_emplace(id);
  if (!fresh) throw std::logic_error("request '" + id + "' was created twice");
  peak_live_ = std::max(peak_live_, live_.size());
  RequestRecord& r = it->second;
  r.id = id;
  r.client = client;
  r.created = at;
  r.prompt_tokens = prompt_tokens;
  r.measured = measured;
  return r;
}

RequestRecord& Observations::at(const std::string& id) {
  auto it = live_.find(id);
  if (it != live_.end()) return it->second;
  if (const FinishedRecord* f = ended(id)) {
    throw std::logic_error("request '" + id + "' has ended (" + std::string(fate_name(f->fate)) + "); its record is no longer open");
  }
  throw std::logic_error("request '" + id + "' has no record");
}

const FinishedRecord* Observations::ended(std::string_view id) const {
  if (is_sealed_) return find(id);
  // Only on a defect's path: a linear search.
  for (const auto& chunk : chunks_) {
    for (const auto& f : chunk) {
      if (f.id == id) return &f;
    }
  }
  return nullptr;
}

std::string_view Observations::name(const std::string& s) {
  return *names_.insert(s).first;
}

void Observations::write_fate(const std::string& id, Fate fate, SimTime at, std::string reason) {
  if (fate == Fate::kNone) throw std::logic_error("request '" + id + "': 'none' is not a fate");
  auto it = live_.find(id);
  if (it == live_.end()) {
    if (const FinishedRecord* f = ended(id)) {
      throw std::logic_error("request '" + id + "' already has the fate " + std::string(fate_name(f->fate)) +
                             "; a second write (" + std::string(fate_name(fate)) + " at " + to_string(at) +
                             ") is a defect (DEV-9)");
    }
    throw std::logic_error("request '" + id + "' has no record");
  }
  if (fate == Fate::kDropped && reason.empty()) {
    throw std::logic_error("request '" + id + "': a drop needs its reason (DEV-9)");
  }
  RequestRecord& r = it->second;
  r.fate = fate;
  r.reason = std::move(reason);
  r.ended = at;
  if (violation_.empty()) violation_ = lifecycle_violation(r);
  if (keep_gaps_) {
    if (!r.gaps_us_.empty()) kept_gaps_.emplace(r.id, std::move(r.gaps_us_));
  } else {
    pool(r.pool, r.instance, r.fate, r.measured, r.gaps_us_);
  }

  constexpr std::size_t kChunk = 4096;
  if (chunks_.empty() || chunks_.back().size() == kChunk) {
    chunks_.emplace_back();
    chunks_.back().reserve(kChunk);
  }
  FinishedRecord& f = chunks_.back().emplace_back();
  f.id = r.id;
  f.client = name(r.client);
  f.pool = name(r.pool);
  f.reason = name(r.reason);
  f.created = r.created;
  f.sent = r.sent;
  f.dispatched = r.dispatched;
  f.first_scheduled = r.first_scheduled;
  f.ended = r.ended;
  f.prompt_tokens = r.prompt_tokens;
  f.instance = static_cast<std::int32_t>(r.instance);
  f.preemptions = static_cast<std::int32_t>(r.preemptions);
  f.fate = r.fate;
  f.measured = r.measured;
  f.output_tokens_ = r.output_tokens_;
  f.emissions_ = r.emissions_;
  f.first_token_ = r.first_token_;
  f.last_token_ = r.last_token_;
  live_.erase(it);
}

void Observations::pool(const std::string& pool_name, std::int64_t instance, Fate fate, bool measured,
                        const std::vector<std::int64_t>& gaps) {
  if (gaps.empty()) return;
  CountedGaps& pooled = itl_[ItlKey{pool_name, instance, fate, measured}];
  for (std::int64_t g : gaps) ++pooled[g];
}

std::string Observations::seal() {
  if (is_sealed_) throw std::logic_error("the observations were sealed twice");
  if (!live_.empty()) {
    throw std::logic_error("request '" + live_.begin()->first + "' has no fate at the end of the run (DEV-9)");
  }
  std::size_t n = 0;
  for (const auto& c : chunks_) n += c.size();
  sealed_.reserve(n);
  for (auto& c : chunks_) {
    std::move(c.begin(), c.end(), std::back_inserter(sealed_));
    std::vector<FinishedRecord>().swap(c);
  }
  chunks_.clear();
  std::sort(sealed_.begin(), sealed_.end(), [](const FinishedRecord& a, const FinishedRecord& b) { return a.id < b.id; });
  for (std::size_t k = 1; k < sealed_.size(); ++k) {
    if (sealed_[k].id == sealed_[k - 1].id) throw std::logic_error("request '" + sealed_[k].id + "' was created twice");
  }
  is_sealed_ = true;
  return violation_;
}

const std::vector<FinishedRecord>& Observations::records() const {
  if (!is_sealed_) throw std::logic_error("the finished records are read before the run is sealed");
  return sealed_;
}

const FinishedRecord* Observations::find(std::string_view id) const {
  const auto& all = records();
  auto it = std::lower_bound(all.begin(), all.end(), id, [](const FinishedRecord& f, std::string_view k) { return f.id < k; });
  return it != all.end() && it->id == id ? &*it : nullptr;
}

std::size_t Observations::finished_bytes() const {
  std::size_t bytes = sealed_.capacity() * sizeof(FinishedRecord);
  for (const auto& c : chunks_) bytes += c.capacity() * sizeof(FinishedRecord);
  for (const auto& f : sealed_) {
    if (f.id.capacity() > 15) bytes += f.id.capacity() + 1;  // beyond the string's own buffer
  }
  return bytes;
}

void Observations::cut_warmup(SimTime cut) {
  (void)records();  // sealed first
  for (auto& f : sealed_) {
    if (!f.sent || *f.sent < cut) f.measured = false;
    auto k = kept_gaps_.find(f.id);
    if (k != kept_gaps_.end()) pool(std::string(f.pool), f.instance, f.fate, f.measured, k->second);
  }
  kept_gaps_.clear();
  keep_gaps_ = false;
}

}  // namespace blis::sim
