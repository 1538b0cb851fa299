#include "sim/observe/lifecycle.h"

#include <optional>
#include <utility>
#include <vector>

namespace blis::sim {

std::string lifecycle_violation(const RequestRecord& r) {
  const std::string who = "request '" + r.id + "' (" + std::string(fate_name(r.fate)) + ")";
  if (r.fate == Fate::kNone) return who + " has no fate";
  const std::vector<std::pair<const char*, std::optional<SimTime>>> path = {
      {"created", r.created}, {"sent", r.sent}, {"dispatched", r.dispatched}, {"scheduled", r.first_scheduled},
      {"first token", r.first_token()}, {"last token", r.last_token()},
      // A request never sent is created with its would-be send time, which may lie past the horizon that ended it.
      {"ended", r.fate == Fate::kNotStarted ? std::nullopt : r.ended}};
  std::optional<std::pair<const char*, SimTime>> before;
  for (const auto& [name, t] : path) {
    if (!t) continue;
    if (before && *t < before->second) {
      return who + ": " + name + " at " + to_string(*t) + " precedes " + before->first + " at " + to_string(before->second);
    }
    before = std::pair(name, *t);
  }
  auto need = [&](bool ok, const char* what) { return ok ? std::string() : who + " was never " + what; };
  if (r.output_tokens() > 0 && !r.first_scheduled) return who + " received tokens without being scheduled";
  std::string v;
  switch (r.fate) {
    case Fate::kNotStarted:
      if (r.sent) return who + " was sent";
      return "";
    case Fate::kCompleted:
      if (!(v = need(r.sent.has_value(), "sent")).empty()) return v;
      if (!(v = need(r.dispatched.has_value(), "dispatched")).empty()) return v;
      if (!(v = need(r.first_scheduled.has_value(), "scheduled")).empty()) return v;
      return need(r.output_tokens() > 0, "given a token");
    case Fate::kInFlightAtHorizon:
      // Running at its engine; the client may not have heard yet (its first step had not ended).
      if (!(v = need(r.sent.has_value(), "sent")).empty()) return v;
      return need(r.dispatched.has_value(), "dispatched");
    case Fate::kDropped:
    case Fate::kTimedOut:
    case Fate::kQueuedAtHorizon:
      return need(r.sent.has_value(), "sent");
    case Fate::kNone:
      break;
  }
  return "";
}

}  // namespace blis::sim
