// The request state machine (SIM-8), written once: the states a request passes through and the order of
// their times, checked on every request's record at the end of every replication.
//
//   created --send--> sent --route--> dispatched --first step--> scheduled --emission--> emitting
//      |                |                  |                         |  (preempted: back to queued,
//      |                |                  |                         |   still scheduled once)
//      v                v                  v                         v
//   not_started      timed_out / dropped (at any state after sent)  completed (after >= 1 token)
//                    queued_at_horizon (sent, not running)          in_flight_at_horizon (running at the engine)
//
// Times never go backwards along a path: created <= sent <= dispatched <= first scheduled <= first token
// <= last token <= ended (a request never sent is created at its would-be send time, which may lie past the
// horizon that ended it, so its end is not ordered). Each fate requires the states it follows from:
//   completed             sent, dispatched, scheduled and at least one token
//   dropped               sent (an engine's refusal also dispatched)
//   timed_out             sent
//   in_flight_at_horizon  sent and dispatched (running at its engine, whose first step may not have ended)
//   queued_at_horizon     sent
//   not_started           never sent
// and a request that received tokens was scheduled first.
#pragma once

#include <string>

#include "sim/observe/observations.h"

namespace blis::sim {

// The first transition `r` breaks, as a sentence naming the request, the states and their times; "" when
// its record follows the machine.
std::string lifecycle_violation(const RequestRecord& r);

}  // namespace blis::sim
