// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/utils.py@6e448d0e; see utils.h.
#include "v1/core/sched/utils.h"

#include <algorithm>
#include <string>

namespace blis::vllm {

// utils.py@6e448d0e check_stop
bool check_stop(Request& request, std::int64_t max_model_len) {
  if (request.num_output_tokens() < request.min_tokens) return false;
  const std::int32_t last_token_id = request.output_token_ids().back();
  if (request.eos_token_id && last_token_id == *request.eos_token_id) {
    request.status = RequestStatus::kFinishedStopped;
    return true;
  }
  if (std::find(request.stop_token_ids.begin(), request.stop_token_ids.end(), last_token_id) !=
      request.stop_token_ids.end()) {
    request.status = RequestStatus::kFinishedStopped;
    request.stop_reason = std::to_string(last_token_id);
    return true;
  }
  if (request.num_tokens() >= max_model_len || request.num_output_tokens() >= request.max_tokens) {
    request.status = RequestStatus::kFinishedLengthCapped;
    return true;
  }
  return false;
}

// utils.py@6e448d0e remove_all
std::vector<Request*> remove_all(const std::vector<Request*>& lst, const std::set<Request*>& items_to_remove) {
  if (items_to_remove.empty()) return lst;
  std::vector<Request*> out;
  out.reserve(lst.size());
  for (Request* r : lst) {
    if (!items_to_remove.contains(r)) out.push_back(r);
  }
  return out;
}

}  // namespace blis::vllm
