// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/disaggregation/kv_events.py@71de97b2; the event types only (StorageMedium, BlockStoredMetadata, BlockStored with BlockStoredWithMetadata folded in as an optional metadata field, BlockRemoved, AllBlocksCleared). Not ported: the msgspec wire encoding, EventBatch/KVEventBatch, the ZMQ publishers, OffloadedState and select_kv_publisher_dp_rank.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace blis::sglang {

// kv_events.py@71de97b2 StorageMedium (a str enum; the strings are its values).
namespace StorageMedium {
inline constexpr const char* GPU = "GPU";
inline constexpr const char* CPU = "CPU_PINNED";
inline constexpr const char* DISK = "DISK";
inline constexpr const char* EXTERNAL = "EXTERNAL";
}  // namespace StorageMedium

// kv_events.py@71de97b2 BlockStoredMetadata.
struct BlockStoredMetadata {
  std::string cache_salt;
  bool operator==(const BlockStoredMetadata&) const = default;
};

// One entry of BlockStored.token_ids: a token, or (bigram mode) a (t_i, t_i+1) pair, as upstream's events
// carry tuples for bigram pages.
using EventToken = std::variant<std::int64_t, std::pair<std::int64_t, std::int64_t>>;

// kv_events.py@71de97b2 BlockStored and BlockStoredWithMetadata. Upstream's BlockStoredWithMetadata is a
// subclass (so isinstance(e, BlockStored) holds for both) that adds `metadata`; here it is a BlockStored
// whose metadata is set.
struct BlockStored {
  std::vector<std::int64_t> block_hashes;
  std::optional<std::int64_t> parent_block_hash{};
  std::vector<EventToken> token_ids;
  std::int64_t block_size = 0;
  std::optional<std::int64_t> lora_id{};
  std::optional<std::string> medium{};
  std::optional<BlockStoredMetadata> metadata{};  // set: a BlockStoredWithMetadata
};

// kv_events.py@71de97b2 BlockRemoved.
struct BlockRemoved {
  std::vector<std::int64_t> block_hashes;
  std::optional<std::string> medium{};
};

// kv_events.py@71de97b2 AllBlocksCleared.
struct AllBlocksCleared {};

// kv_events.py@71de97b2 KVCacheEvent: the tagged union of the event types above.
using KVCacheEvent = std::variant<BlockStored, BlockRemoved, AllBlocksCleared>;

}  // namespace blis::sglang
