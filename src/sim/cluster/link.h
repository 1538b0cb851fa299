// A link that transfers share (design §8.1, SIM-13): the one component whose state changes at a constant
// rate between events. Its state is the set of transfers in progress and the bytes each has left; its time
// advance is the earliest time one of them finishes under the current sharing.
//
//   sharing    max-min fair. Every transfer has the same demand (all it can get) and the same per-transfer
//              cap, so max-min fairness gives each of the n transfers min(cap, capacity / n); when the cap
//              binds, the capacity left over has no transfer that could take it and stays unused. Rates are
//              constant between events and recomputed at every start and end.
//   arithmetic exact, in integers. The capacity and the cap are whole bytes per second (rounded down once,
//              in the constructor, so the link never carries more than it was given). A rate of C bytes per
//              second moves exactly C micro-bytes (1e-6 byte) per microsecond, so every quantity is an
//              integer: over an interval of dt us each transfer moves min(cap * dt, floor(C * dt / n))
//              micro-bytes (the floor drops under one micro-byte per transfer per event, never adds any).
//              No floating-point residue can leave a transfer "almost done" after its finish time.
//   time       a transfer finishes at the first whole microsecond by which its bytes have moved: its finish
//              is rounded UP, so it never finishes before its bytes could have moved at its rate.
//   external   each TransferStart in the bag joins; bytes == 0 finishes at the same instant (time advance 0).
//              A repeated id among the transfers in progress, negative bytes, or a message of another class
//              is a defect (SimulationError naming it).
//   internal   every transfer whose bytes have all moved at this instant finishes; output() sends each one's
//              TransferDone{transfer, bytes} to its reply_to, class kTransferDone, in transfer-id order
//              (std::string's order).
//   confluent  the finishing transfers leave first, then the bag's transfers join: the finishing ones sent
//              their TransferDone at this instant and move no more bytes, so a new transfer must not share the
//              link with them (and may reuse a finished one's id). This is the class order's rule too
//              (transfer-done before transfer-start).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/devs/atomic.h"
#include "sim/devs/coordinator.h"

namespace blis::sim {

// Bytes x 10^6. 128 bits hold every int64 byte count times 10^6 times any feasible number of transfers
// (under 10^13), and every rate (at most kMaxLinkBytesPerSecond) times any simulated duration.
using MicroBytes = __int128;

// The largest capacity or cap a link takes, in bytes per second (8 Pb/s, far above any real link).
inline constexpr double kMaxLinkBytesPerSecond = 1e15;

class Link final : public Atomic {
 public:
  // `bytes_per_second` and `per_transfer_cap` (bytes per second, absent = no cap) must be finite and within
  // [1, kMaxLinkBytesPerSecond]; otherwise std::invalid_argument naming the value. Each is rounded down to
  // whole bytes per second.
  Link(std::string name, double bytes_per_second, std::optional<double> per_transfer_cap = std::nullopt);

  std::string_view name() const override { return name_; }
  SimTime time_advance() const override;
  void output(SimTime now, Outbox& out) override;
  void internal(SimTime now) override;
  void external(SimTime now, SimTime elapsed, const Bag& bag) override;
  void confluent(SimTime now, const Bag& bag) override;

  // Read-only views, as of the last transition.
  std::int64_t capacity() const { return capacity_; }                    // whole bytes per second
  std::optional<std::int64_t> per_transfer_cap() const { return cap_; }  // whole bytes per second
  std::vector<std::string> transfers() const;                          // in progress, in id order
  std::map<std::string, double> rates() const;                         // each one's rate, bytes per second
  MicroBytes moved(std::string_view transfer) const;                   // micro-bytes moved so far
  double bytes_moved(std::string_view transfer) const { return static_cast<double>(moved(transfer)) / 1e6; }

 private:
  struct Transfer {
    std::int64_t bytes = 0;
    MicroBytes left = 0;  // micro-bytes still to move
    ComponentId reply_to = 0;
  };

  MicroBytes share(std::int64_t dt_us) const;  // micro-bytes each transfer moves in dt_us at the current n
  void advance(SimTime now);                   // moves every transfer's bytes from now_ to now
  void join(SimTime now, const Bag& bag);
  const Transfer& find(std::string_view transfer) const;

  std::string name_;
  std::int64_t capacity_;
  std::optional<std::int64_t> cap_;
  SimTime now_{};  // time of the last transition
  std::map<std::string, Transfer, std::less<>> transfers_;
};

}  // namespace blis::sim
