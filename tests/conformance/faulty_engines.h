// Known-bad engines for the simulator's own checks (X18): each breaks one rule a correct engine keeps, so
// the check that guards the rule must stop the run.
//   reference-stalls          kind "reference-stalls" v1: takes every request and never schedules one (an
//                             engine holding work it never runs): the progress watchdog (SIM-7) must fire
//   reference-finishes-twice  kind "reference-finishes-twice" v1: the reference engine, but every finish
//                             is reported twice: the run must stop on the request's second ending (DEV-9)
//   reference-loses-requests  kind "reference-loses-requests" v1: the reference engine, but every fifth
//                             request it is given (by arrival) is silently forgotten: at the horizon the
//                             run must find a dispatched request no one holds (DEV-9)
//   reference-shares-state    kind "reference-shares-state" v1: the reference engine, but every instance
//                             prices its steps from one counter shared by all instances (state shared across
//                             components, which DEV-1 forbids): the order in which one instant's transitions
//                             are visited then changes the run (DEV-2's permutation check)
//   reference-hidden-input    kind "reference-hidden-input" v1: the reference engine, but its step prices
//                             follow the process's id, an input from outside the model: a replay in another
//                             process differs from the run it replays (DEV-7's round trip)
//   reference-setting-length  kind "reference-setting-length" v1: the reference engine, but every request
//                             ends after max-num-seqs tokens: output lengths follow a server setting, which
//                             common random numbers forbid (DEV-6's check)
//   reference-hides-scheduling kind "reference-hides-scheduling" v1: the reference engine, but no step says
//                             which requests ran for the first time: requests then get tokens without
//                             being scheduled, which the request state machine refuses (SIM-8)
#pragma once

#include "contracts/engine/engine.h"

namespace blis::conformance {

void register_faulty_engines(engine::EngineRegistry& registry);

}  // namespace blis::conformance
