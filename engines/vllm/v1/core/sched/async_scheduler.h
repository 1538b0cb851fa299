// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/async_scheduler.py@6e448d0e (AsyncScheduler): output
// placeholders for the tokens a step in flight will sample, and caching the sampled tokens' blocks.
#pragma once

#include "v1/core/sched/scheduler.h"

namespace blis::vllm {

// async_scheduler.py@6e448d0e AsyncScheduler.
class AsyncScheduler final : public Scheduler {
 public:
  using Scheduler::Scheduler;

 protected:
  // async_scheduler.py@6e448d0e AsyncScheduler._update_after_schedule
  void update_after_schedule(SchedulerOutput& scheduler_output) override;
  // async_scheduler.py@6e448d0e AsyncScheduler._update_request_with_output
  std::pair<std::vector<std::int32_t>, bool> update_request_with_output(Request& request,
                                                                        std::vector<std::int32_t> new_token_ids,
                                                                        bool is_stale) override;
};

}  // namespace blis::vllm
