// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/outputs.py@6e448d0e ModelRunnerOutput and
// vllm/v1/engine/__init__.py@6e448d0e EngineCoreOutput, keeping the fields a text-only run fills (no
// logprobs, pooling, connector or routed-expert outputs).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blis::vllm {

// outputs.py@6e448d0e ModelRunnerOutput.
struct ModelRunnerOutput {
  std::vector<std::string> req_ids;
  std::map<std::string, std::size_t> req_id_to_index;
  std::vector<std::vector<std::int32_t>> sampled_token_ids;  // per request, in req_ids order
};

// engine/__init__.py@6e448d0e EngineCoreOutput.
struct EngineCoreOutput {
  std::string request_id;
  std::vector<std::int32_t> new_token_ids;
  std::optional<std::string> finish_reason;  // "stop", "length", "abort", ...
  std::optional<std::string> stop_reason;
};

}  // namespace blis::vllm
