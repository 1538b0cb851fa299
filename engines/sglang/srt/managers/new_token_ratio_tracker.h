// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/scheduler_components/new_token_ratio_tracker.py@71de97b2;
// the environment variables and schedule_conservativeness are passed in (environ.py@71de97b2 defaults:
// SGLANG_INIT_NEW_TOKEN_RATIO 0.7, SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR 0.14,
// SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS 600, SGLANG_RETRACT_DECODE_STEPS 20).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "srt/managers/schedule_batch.h"

namespace blis::sglang {

// new_token_ratio_tracker.py@71de97b2 NewTokenRatioTracker.
struct NewTokenRatioTracker {
  double init = 0;
  double min = 0;
  double decay = 0;
  double current = 0;

  // NewTokenRatioTracker.from_config.
  static NewTokenRatioTracker from_config(double init_new_token_ratio = 0.7, double schedule_conservativeness = 1.0,
                                          double min_new_token_ratio_factor = 0.14,
                                          std::int64_t new_token_ratio_decay_steps = 600) {
    NewTokenRatioTracker t;
    t.init = std::min(init_new_token_ratio * schedule_conservativeness, 1.0);
    t.min = std::min(t.init * min_new_token_ratio_factor, 1.0);
    t.decay = (t.init - t.min) / static_cast<double>(new_token_ratio_decay_steps);
    t.current = t.init;
    return t;
  }
  // NewTokenRatioTracker.decay_step.
  void decay_step() { current = std::max(current - decay, min); }
  // NewTokenRatioTracker.reset.
  void reset() { current = init; }
  // NewTokenRatioTracker.estimate_new_token_ratio_after_retract.
  static double estimate_new_token_ratio_after_retract(const std::vector<Req*>& reqs, std::int64_t retract_decode_steps) {
    std::int64_t total_decoded_tokens = 0;
    std::int64_t total_max_new_tokens = 0;
    for (const Req* r : reqs) {
      total_decoded_tokens += static_cast<std::int64_t>(r->output_ids.size());
      total_max_new_tokens += r->sampling_params.max_new_tokens;
    }
    const double ratio = static_cast<double>(total_decoded_tokens + retract_decode_steps * static_cast<std::int64_t>(reqs.size())) /
                         static_cast<double>(total_max_new_tokens + 1);
    return std::min(1.0, ratio);
  }
};

}  // namespace blis::sglang
