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
// A KV-cache event as runner.py event_record writes upstream's, from the port's event (distributed/kv_events.h:
// BlockStored, BlockRemoved) or the engine contract's (contracts/engine/kv_events.h: KvBlockStored,
// KvBlockRemoved), which have the same alternatives and fields.
template <class Stored, class Removed, class Event>
nlohmann::json event_record(const Event& e) {
  auto hashes = [](const auto& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& h : list) out.push_back(hash_json(h));
    return out;
  };
  if (const auto* s = std::get_if<Stored>(&e)) {
    return {"BlockStored", hashes(s->block_hashes),
            s->parent_block_hash ? hash_json(*s->parent_block_hash) : nlohmann::json(nullptr), s->token_ids,
            s->block_size};
  }
  if (const auto* r = std::get_if<Removed>(&e)) return {"BlockRemoved", hashes(r->block_hashes)};
  return {"AllBlocksCleared"};
}
// A SchedulerOutput as runner.py schedule_record writes upstream's.
nlohmann::json schedule_record(const SchedulerOutput& out);

}  // namespace blis::vllm::testing
