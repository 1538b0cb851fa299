// The vLLM oracle's trace records as the port's objects give them (engines/vllm/oracle/runner.py writes
// upstream's): shared by the replay against the port's Scheduler (replay.cpp, X5) and the coupled replay through
// the simulator's driver (coupled_replay.cpp, FID-9).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "v1/core/sched/output.h"

namespace blis::vllm::testing {

// A block hash as the runner writes it: an int as is, bytes as hex.
nlohmann::json hash_json(const std::variant<std::string, std::uint64_t>& h);
// Block ids per KV-cache group.
nlohmann::json blocks_json(const std::vector<std::vector<std::int64_t>>& groups);
// A SchedulerOutput as runner.py schedule_record writes upstream's.
nlohmann::json schedule_record(const SchedulerOutput& out);

}  // namespace blis::vllm::testing
