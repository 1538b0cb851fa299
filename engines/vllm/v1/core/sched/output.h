// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/output.py@6e448d0e (SchedulerOutput, NewRequestData,
// CachedRequestData) keeping the fields a text-only, connector-free run fills; the multimodal, encoder,
// structured-output, connector and block-copy fields are not ported (their features are refused).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace blis::vllm {

// output.py@6e448d0e NewRequestData (the fields a text-only request fills).
struct NewRequestData {
  std::string req_id;
  std::vector<std::int32_t> prompt_token_ids;
  std::vector<std::vector<std::int64_t>> block_ids;  // per KV cache group
  std::int64_t num_computed_tokens = 0;
  std::optional<std::vector<std::int32_t>> prefill_token_ids;  // only for the V2 model runner
};

// output.py@6e448d0e CachedRequestData.
struct CachedRequestData {
  std::vector<std::string> req_ids;
  std::set<std::string> resumed_req_ids;
  // MRV1 only: the token ids of the requests not scheduled in the previous step.
  std::map<std::string, std::vector<std::int32_t>> all_token_ids;
  // Per request: the block ids per KV cache group, or nullopt when there are none (get_block_ids(allow_none)).
  std::vector<std::optional<std::vector<std::vector<std::int64_t>>>> new_block_ids;
  std::vector<std::int64_t> num_computed_tokens;
  std::vector<std::int64_t> num_output_tokens;

  // CachedRequestData.num_reqs (property).
  std::size_t num_reqs() const { return req_ids.size(); }
};

// output.py@6e448d0e SchedulerOutput. `num_scheduled_tokens` keeps the dict's insertion order: running
// requests first, then new and resumed ones, as schedule() scheduled them.
struct SchedulerOutput {
  std::vector<NewRequestData> scheduled_new_reqs;
  CachedRequestData scheduled_cached_reqs;
  std::vector<std::pair<std::string, std::int64_t>> num_scheduled_tokens;
  std::int64_t total_num_scheduled_tokens = 0;
  std::vector<std::pair<std::string, std::vector<std::int32_t>>> scheduled_spec_decode_tokens;
  std::vector<std::int64_t> num_common_prefix_blocks;
  std::set<std::string> finished_req_ids;
  std::set<std::string> preempted_req_ids;
  std::int64_t num_spec_tokens_to_schedule = 0;

  // The scheduled tokens of one request, or 0.
  std::int64_t scheduled_tokens_of(const std::string& req_id) const {
    for (const auto& [id, n] : num_scheduled_tokens) {
      if (id == req_id) return n;
    }
    return 0;
  }
};

}  // namespace blis::vllm
