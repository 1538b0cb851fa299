// The SGLang oracle's trace records as the port's objects give them (engines/sglang/oracle/runner.py writes
// upstream's): shared by the replay against the port's Scheduler (replay.cpp, SGL-1) and the coupled replay
// through the simulator's driver (coupled_replay.cpp, FID-9).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "srt/managers/scheduler.h"

namespace blis::sglang::oracle {

// A forward mode by upstream's name.
const char* mode_name(ForwardMode m);
// Request ids in order.
nlohmann::json rids(const std::vector<Req*>& reqs);
// A launched batch as runner.py batch_record writes upstream's.
nlohmann::json batch_record(const LaunchedBatch& b);
// The scheduler's queues and pool sizes as runner.py state_record writes upstream's.
nlohmann::json state_record(const Scheduler& s);
// A KV-cache event as runner.py event_record writes upstream's: ["BlockStored", block_hashes, parent_block_hash,
// token_ids, block_size, lora_id, medium(, cache_salt)], ["BlockRemoved", block_hashes, medium],
// ["AllBlocksCleared"].
nlohmann::json event_record(const KVCacheEvent& e);

}  // namespace blis::sglang::oracle
