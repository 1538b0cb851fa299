// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/server_args.py@71de97b2; only the ServerArgs fields the
// schedule policy and PrefillAdder read, passed in explicitly instead of through get_global_server_args().
#pragma once

#include <string>

namespace blis::sglang {

// server_args.py@71de97b2 ServerArgs: the subset PrefillAdder.preempt_to_schedule and
// ScheduleBatch.release_req read (upstream's defaults). Everything else of ServerArgs is left out: the
// scheduler that owns the adder reads its own settings and hands the values in.
struct ServerArgs {
  // server_args.py@71de97b2 ServerArgs.schedule_low_priority_values_first (default False).
  bool schedule_low_priority_values_first = false;
  // server_args.py@71de97b2 ServerArgs.disaggregation_mode (default "null"; "decode" offloads retracted KV).
  std::string disaggregation_mode = "null";
  // server_args.py@71de97b2 ServerArgs.retraction_policy (default "length"; "priority" orders by priority).
  std::string retraction_policy = "length";
};

}  // namespace blis::sglang
