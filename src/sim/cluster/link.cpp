#include "sim/cluster/link.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace blis::sim {
namespace {

constexpr MicroBytes kMicroPerByte = 1000000;

std::string show(double v) {  // the shortest text that reads back as v
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// A rate in bytes per second, checked and rounded down to whole bytes per second.
std::int64_t whole_rate(double v, const std::string& link, const char* what) {
  if (!std::isfinite(v) || v < 1 || v > kMaxLinkBytesPerSecond) {
    throw std::invalid_argument(link + ": " + what + " " + show(v) +
                                " bytes/s is not a finite rate between 1 and " + show(kMaxLinkBytesPerSecond) +
                                " bytes/s");
  }
  return static_cast<std::int64_t>(std::floor(v));
}

MicroBytes ceil_div(MicroBytes a, MicroBytes b) { return (a + b - 1) / b; }  // a >= 0, b > 0

}  // namespace

Link::Link(std::string name, double bytes_per_second, std::optional<double> per_transfer_cap)
    : name_(std::move(name)), capacity_(whole_rate(bytes_per_second, name_, "capacity")) {
  if (per_transfer_cap) cap_ = whole_rate(*per_transfer_cap, name_, "per-transfer cap");
}

// Each of the n transfers moves min(cap, C / n) micro-bytes per microsecond; the floor drops the fraction.
MicroBytes Link::share(std::int64_t dt_us) const {
  const MicroBytes dt = dt_us;
  MicroBytes s = MicroBytes{capacity_} * dt / static_cast<MicroBytes>(transfers_.size());
  if (cap_) s = std::min(s, MicroBytes{*cap_} * dt);
  return s;
}

// All transfers move alike, so the one with the fewest micro-bytes left finishes first, after the least
// dt with share(dt) >= left: floor(C dt / n) >= left iff C dt >= left n (left is whole), and cap dt >= left.
SimTime Link::time_advance() const {
  if (transfers_.empty()) return kNever;
  auto least = transfers_.begin();
  for (auto it = transfers_.begin(); it != transfers_.end(); ++it) {
    if (it->second.left < least->second.left) least = it;
  }
  const MicroBytes left = least->second.left;
  MicroBytes dt = ceil_div(left * static_cast<MicroBytes>(transfers_.size()), capacity_);
  if (cap_) dt = std::max(dt, ceil_div(left, *cap_));
  if (dt >= kNever.us) {
    throw SimulationError(name_ + ": transfer '" + least->first + "' (" + std::to_string(least->second.bytes) +
                          " bytes) would finish past the end of simulated time");
  }
  return SimTime{static_cast<std::int64_t>(dt)};
}

// Runs on the state of the last transition: a transfer finishes now when this interval's share covers it.
void Link::output(SimTime now, Outbox& out) {
  if (transfers_.empty()) return;
  const MicroBytes s = share(now.us - now_.us);
  for (const auto& [id, t] : transfers_) {
    if (t.left <= s) out.send(t.reply_to, MessageClass::kTransferDone, TransferDone{id, t.bytes});
  }
}

void Link::advance(SimTime now) {
  if (!transfers_.empty() && now.us > now_.us) {
    const MicroBytes s = share(now.us - now_.us);
    for (auto& [id, t] : transfers_) t.left -= std::min(t.left, s);
  }
  now_ = now;
}

void Link::internal(SimTime now) {
  advance(now);
  std::erase_if(transfers_, [](const auto& kv) { return kv.second.left == 0; });
}

void Link::join(SimTime now, const Bag& bag) {
  for (const auto& m : bag) {
    const auto* start = std::get_if<TransferStart>(&m.payload);
    if (!start) {
      throw SimulationError(name_ + " at " + to_string(now) + ": received a " + std::string(class_name(m.key.cls)) +
                            " message, not a transfer start");
    }
    if (start->bytes < 0) {
      throw SimulationError(name_ + " at " + to_string(now) + ": transfer '" + start->transfer + "' has " +
                            std::to_string(start->bytes) + " bytes, fewer than zero");
    }
    const MicroBytes left = MicroBytes{start->bytes} * kMicroPerByte;
    if (!transfers_.emplace(start->transfer, Transfer{start->bytes, left, start->reply_to}).second) {
      throw SimulationError(name_ + " at " + to_string(now) + ": transfer '" + start->transfer +
                            "' started while a transfer with that id is in progress");
    }
  }
}

// `elapsed` is now - now_: the time since the last transition, over which the old rates held.
void Link::external(SimTime now, SimTime, const Bag& bag) {
  advance(now);
  join(now, bag);
}

void Link::confluent(SimTime now, const Bag& bag) {
  internal(now);  // the finishing transfers leave first (see link.h)
  join(now, bag);
}

std::vector<std::string> Link::transfers() const {
  std::vector<std::string> ids;
  for (const auto& [id, t] : transfers_) ids.push_back(id);
  return ids;
}

std::map<std::string, double> Link::rates() const {
  std::map<std::string, double> out;
  if (transfers_.empty()) return out;
  double r = static_cast<double>(capacity_) / static_cast<double>(transfers_.size());
  if (cap_) r = std::min(r, static_cast<double>(*cap_));
  for (const auto& [id, t] : transfers_) out.emplace(id, r);
  return out;
}

const Link::Transfer& Link::find(std::string_view transfer) const {
  const auto it = transfers_.find(transfer);
  if (it == transfers_.end()) {
    throw std::out_of_range(name_ + ": no transfer '" + std::string(transfer) + "' is in progress");
  }
  return it->second;
}

MicroBytes Link::moved(std::string_view transfer) const {
  const Transfer& t = find(transfer);
  return MicroBytes{t.bytes} * kMicroPerByte - t.left;
}

}  // namespace blis::sim
