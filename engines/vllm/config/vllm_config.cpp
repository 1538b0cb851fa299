// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of SchedulerConfig.verify_max_model_len (vllm/config/scheduler.py@6e448d0e)
// and VllmConfig.max_concurrent_batches (vllm/config/vllm.py@6e448d0e); see vllm_config.h.
#include "config/vllm_config.h"

#include <stdexcept>
#include <string>

namespace blis::vllm {

// scheduler.py@6e448d0e SchedulerConfig.verify_max_model_len (the warning for a budget above
// max_num_seqs x max_model_len is a log line and changes nothing).
void SchedulerConfig::verify_max_model_len(std::int64_t max_model_len) const {
  if (max_num_batched_tokens < max_model_len && !enable_chunked_prefill) {
    throw std::invalid_argument("max_num_batched_tokens (" + std::to_string(max_num_batched_tokens) +
                                ") is smaller than max_model_len (" + std::to_string(max_model_len) +
                                "). This effectively limits the maximum sequence length to "
                                "max_num_batched_tokens and makes vLLM reject longer sequences. Please "
                                "increase max_num_batched_tokens or decrease max_model_len.");
  }
  if (max_num_batched_tokens < max_num_seqs) {
    throw std::invalid_argument("max_num_batched_tokens (" + std::to_string(max_num_batched_tokens) +
                                ") must be greater than or equal to max_num_seqs (" +
                                std::to_string(max_num_seqs) + ").");
  }
  if (long_prefill_token_threshold > max_model_len) {
    throw std::invalid_argument("long_prefill_token_threshold (" + std::to_string(long_prefill_token_threshold) +
                                ") cannot be greater than the max_model_len (" + std::to_string(max_model_len) +
                                ").");
  }
}

// vllm.py@6e448d0e VllmConfig.max_concurrent_batches
std::int64_t VllmConfig::max_concurrent_batches() const {
  const std::int64_t pp_size = parallel_config.pipeline_parallel_size;
  if (scheduler_config.async_scheduling.value_or(false)) {
    if (use_v2_model_runner()) return pp_size + 1;
    if (pp_size <= 1) return 2;
  }
  return pp_size;
}

}  // namespace blis::vllm
