// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/server_args.py@71de97b2 prepare_server_args (the
// argparse front end: each argument by its upstream name or alias, its type and choices) and of the
// environ.py@71de97b2 reads the scheduler makes, for the arguments and variables this port models. Every
// other ServerArgs field and environment variable the pinned release reads (engines/sglang/fields.json) is
// refused by name with its recorded reason, and with the tree cache, allocator or memory pool it selects when it
// selects one (SGL-6); a name the release does not know is refused as argparse refuses it ("unrecognized
// arguments").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "contracts/doc/node.h"
#include "srt/managers/scheduler.h"
#include "srt/model_executor/lowering.h"

namespace blis::sglang {

// What `python -m sglang.launch_server` takes, as this port reads it.
struct ParsedServerArgs {
  model_executor::LoweringConfig lowering;  // model_path, tp/pp/dp, memory and CUDA-graph settings
  SchedulerConfig scheduler;                // the schedule settings and environ.py's values
  std::optional<std::string> served_model_name;
  bool enable_metrics = false;
  std::int64_t decode_log_interval = 40;  // --decode-log-interval
  // --kv-events-config (disaggregation/kv_events.py@71de97b2 KVEventsConfig): the publisher ("null" or "zmq")
  // and its topic; the cache records events whenever the config is given.
  std::string kv_events_publisher = "null";
  std::string kv_events_topic;
};

// server_args.py@71de97b2 prepare_server_args over a deployment's `args:` mapping (argument name without
// dashes -> value; a store_true flag takes true/false) and `env:` mapping. Throws std::invalid_argument
// ("sglang: ...") naming the argument or variable, the value and the cause.
ParsedServerArgs parse_server_args(const doc::Node* args, const std::map<std::string, doc::Node>* env);

}  // namespace blis::sglang
