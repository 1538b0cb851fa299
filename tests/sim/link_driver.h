// A test component that puts transfers on a link at scripted times and records each TransferDone it gets
// back, with the time it arrived. Shared by the link's known-answer and property tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/devs/atomic.h"
#include "sim/devs/coordinator.h"

namespace blis::sim::testing {

struct ScriptedStart {
  SimTime at;
  std::string transfer;
  std::int64_t bytes = 0;
};

struct Finished {
  std::string transfer;
  std::int64_t bytes = 0;
  SimTime at;
};

class LinkDriver final : public Atomic {
 public:
  // `starts` in any order; those at one time are sent in the order given.
  explicit LinkDriver(std::vector<ScriptedStart> starts) : starts_(std::move(starts)) {
    std::stable_sort(starts_.begin(), starts_.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
  }
  // The ids the coordinator gave this driver and the link; set before start().
  void wire(ComponentId self, ComponentId link) {
    self_ = self;
    link_ = link;
  }

  std::string_view name() const override { return "link-driver"; }
  SimTime time_advance() const override {
    return next_ < starts_.size() ? SimTime{starts_[next_].at.us - now_.us} : kNever;
  }
  void output(SimTime now, Outbox& out) override {
    for (std::size_t i = next_; i < starts_.size() && starts_[i].at == now; ++i) {
      out.send(link_, MessageClass::kTransferStart, TransferStart{starts_[i].transfer, starts_[i].bytes, self_});
    }
  }
  void internal(SimTime now) override {
    now_ = now;
    while (next_ < starts_.size() && starts_[next_].at == now) ++next_;
  }
  void external(SimTime now, SimTime, const Bag& bag) override {
    now_ = now;
    for (const auto& m : bag) {
      const auto& done = std::get<TransferDone>(m.payload);
      finished.push_back(Finished{done.transfer, done.bytes, now});
    }
  }
  void confluent(SimTime now, const Bag& bag) override {
    external(now, {}, bag);
    internal(now);
  }

  std::vector<Finished> finished;  // in arrival order (within an instant, in bag order)

 private:
  std::vector<ScriptedStart> starts_;
  std::size_t next_ = 0;
  SimTime now_{};
  ComponentId self_ = 0, link_ = 0;
};

}  // namespace blis::sim::testing
