// What an engine publishes about its KV cache (design §6.4; INTERFACES.md "Hashes and KV events"): batches of
// typed events -- blocks stored, blocks removed, all blocks cleared -- as the upstream's event publisher sends
// them, field for field, so the router's adapters read what they would decode from the upstream's bytes.
// Inside a run the typed messages pass without re-encoding; each engine's codec produces the exact bytes for
// the byte-for-byte tests. The simulator delivers them to the router (DEV-1) and never interprets them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace blis::engine {

// A block's hash as published: the digest's bytes, or an unsigned integer (an engine publishing integer
// hashes).
using KvBlockHash = std::variant<std::string, std::uint64_t>;

// The extra keys of one block (for instance an adapter name or a cache salt), or none.
using KvBlockExtraKeys = std::optional<std::vector<std::string>>;

struct KvBlockStored {
  std::vector<KvBlockHash> block_hashes;
  std::optional<KvBlockHash> parent_block_hash;
  std::vector<std::int32_t> token_ids;
  std::int64_t block_size = 0;
  std::optional<std::int64_t> lora_id;
  std::optional<std::string> medium;
  std::optional<std::string> lora_name;
  std::optional<std::vector<KvBlockExtraKeys>> extra_keys;
  std::optional<std::int64_t> group_idx;
  std::optional<std::string> kv_cache_spec_kind;
  std::optional<std::int64_t> kv_cache_spec_sliding_window;
  friend bool operator==(const KvBlockStored&, const KvBlockStored&) = default;
};

struct KvBlockRemoved {
  std::vector<KvBlockHash> block_hashes;
  std::optional<std::string> medium;
  std::optional<std::int64_t> group_idx;
  friend bool operator==(const KvBlockRemoved&, const KvBlockRemoved&) = default;
};

struct KvAllBlocksCleared {
  friend bool operator==(const KvAllBlocksCleared&, const KvAllBlocksCleared&) = default;
};

using KvEvent = std::variant<KvBlockStored, KvBlockRemoved, KvAllBlocksCleared>;

// One published message: the publisher's topic and sequence number, and the batch (its timestamp in seconds
// on the publisher's clock, which in a run is the simulated clock, stamped by the simulator at the step's end).
struct KvEventMessage {
  std::string topic;
  std::uint64_t sequence = 0;
  double ts = 0.0;
  std::vector<KvEvent> events;
  std::optional<std::int64_t> data_parallel_rank;
  friend bool operator==(const KvEventMessage&, const KvEventMessage&) = default;
};

}  // namespace blis::engine
