// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/distributed/kv_events.py@6e448d0e; the event structs only
// (BlockStored, BlockRemoved, AllBlocksCleared, KVEventBatch, the MEDIUM_* constants) and ExternalBlockHash of
// vllm/v1/core/kv_cache_utils.py@6e448d0e. The msgpack codec lives in kv_events_codec; the ZMQ publisher
// and KVEventAggregator are not ported here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace blis::vllm {

// kv_cache_utils.py@6e448d0e `ExternalBlockHash: TypeAlias = bytes | int`: the digest bytes (held in a
// std::string), or, with VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES (upstream's default), the low 64 bits of the
// big-endian digest as an unsigned integer.
using ExternalBlockHash = std::variant<std::string, std::uint64_t>;

// kv_events.py@6e448d0e MEDIUM_GPU, MEDIUM_CPU, MEDIUM_STORAGE.
inline constexpr const char* MEDIUM_GPU = "GPU";
inline constexpr const char* MEDIUM_CPU = "CPU";
inline constexpr const char* MEDIUM_STORAGE = "STORAGE";

// One entry of BlockStored.extra_keys: the extra keys of one block (kv_cache_utils.py@6e448d0e
// generate_block_hash_extra_keys), or nullopt for a block with none. Every key this port generates is a
// str (a LoRA name or a cache salt); multimodal and prompt-embedding keys are refused upstream of here.
using BlockExtraKeys = std::optional<std::vector<std::string>>;

// kv_events.py@6e448d0e BlockStored (msgspec tag "BlockStored"; fields in upstream order).
struct BlockStored {
  std::vector<ExternalBlockHash> block_hashes;
  std::optional<ExternalBlockHash> parent_block_hash;
  std::vector<std::int32_t> token_ids;
  std::int64_t block_size = 0;
  std::optional<std::int64_t> lora_id;  // deprecated upstream; kept
  std::optional<std::string> medium;
  std::optional<std::string> lora_name;
  std::optional<std::vector<BlockExtraKeys>> extra_keys;  // default None (omitted by omit_defaults)
  std::optional<std::int64_t> group_idx;                  // default None
  std::optional<std::string> kv_cache_spec_kind;          // default None
  std::optional<std::int64_t> kv_cache_spec_sliding_window;  // default None
  std::optional<std::string> locality;                    // default None
  friend bool operator==(const BlockStored&, const BlockStored&) = default;
};

// kv_events.py@6e448d0e BlockRemoved (msgspec tag "BlockRemoved").
struct BlockRemoved {
  std::vector<ExternalBlockHash> block_hashes;
  std::optional<std::string> medium;
  std::optional<std::int64_t> group_idx;  // default None
  std::optional<std::string> locality;    // default None
  friend bool operator==(const BlockRemoved&, const BlockRemoved&) = default;
};

// kv_events.py@6e448d0e AllBlocksCleared (msgspec tag "AllBlocksCleared"; no fields).
struct AllBlocksCleared {
  friend bool operator==(const AllBlocksCleared&, const AllBlocksCleared&) = default;
};

// kv_events.py@6e448d0e KVCacheEvent: the union KVEventBatch.events holds.
using KVCacheEvent = std::variant<BlockStored, BlockRemoved, AllBlocksCleared>;

// kv_events.py@6e448d0e EventBatch / KVEventBatch (msgspec array_like=True: encoded as the array
// [ts, events, data_parallel_rank], every field always present). ZmqEventPublisher.publish fills a None
// data_parallel_rank with the publisher's rank before encoding.
struct KVEventBatch {
  double ts = 0.0;
  std::vector<KVCacheEvent> events;
  std::optional<int> data_parallel_rank;  // default None
  friend bool operator==(const KVEventBatch&, const KVEventBatch&) = default;
};

}  // namespace blis::vllm
