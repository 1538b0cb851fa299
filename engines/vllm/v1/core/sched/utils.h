// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/utils.py@6e448d0e check_stop and remove_all
// (repetition detection is not ported: it is refused with its sampling parameter).
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "v1/request.h"

namespace blis::vllm {

// utils.py@6e448d0e check_stop: min tokens, end of sequence, stop token ids, then max model length or
// max tokens. Sets the request's status (and stop_reason) when it stops.
bool check_stop(Request& request, std::int64_t max_model_len);

// utils.py@6e448d0e remove_all: the list without the given requests, order kept.
std::vector<Request*> remove_all(const std::vector<Request*>& lst, const std::set<Request*>& items_to_remove);

}  // namespace blis::vllm
