// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/request.py@6e448d0e; see request.h.
#include "v1/request.h"

#include <utility>

namespace blis::vllm {

const char* finished_reason(RequestStatus s) {
  switch (s) {
    case RequestStatus::kFinishedStopped: return "stop";
    case RequestStatus::kFinishedLengthCapped: return "length";
    case RequestStatus::kFinishedAborted: return "abort";
    case RequestStatus::kFinishedIgnored: return "length";
    case RequestStatus::kFinishedError: return "error";
    case RequestStatus::kWaitingForStreamingReq: return "stop";
    case RequestStatus::kFinishedRepetition: return "repetition";
    default: return "";
  }
}

Request::Request(std::string id, std::vector<std::int32_t> prompt, std::int64_t max_tokens_, double arrival,
                 std::int64_t priority_, std::optional<LoRARequest> lora, std::optional<std::string> salt,
                 BlockHasher hasher)
    : request_id(std::move(id)),
      priority(priority_),
      arrival_time(arrival),
      lora_request(std::move(lora)),
      max_tokens(max_tokens_),
      prompt_token_ids(std::move(prompt)),
      cache_salt(std::move(salt)),
      block_hasher_(std::move(hasher)) {
  num_prompt_tokens = static_cast<std::int64_t>(prompt_token_ids.size());
  all_token_ids_ = prompt_token_ids;
  update_block_hashes();
}

void Request::append_output_token_ids(const std::vector<std::int32_t>& ids) {
  output_token_ids_.insert(output_token_ids_.end(), ids.begin(), ids.end());
  all_token_ids_.insert(all_token_ids_.end(), ids.begin(), ids.end());
  update_block_hashes();
}

void Request::update_block_hashes() {
  if (!block_hasher_) return;
  auto fresh = block_hasher_(*this);
  block_hashes.insert(block_hashes.end(), std::make_move_iterator(fresh.begin()), std::make_move_iterator(fresh.end()));
}

bool operator<(const Request& a, const Request& b) {
  if (a.priority != b.priority) return a.priority < b.priority;
  if (a.arrival_time != b.arrival_time) return a.arrival_time < b.arrival_time;
  return a.request_id < b.request_id;
}

}  // namespace blis::vllm
