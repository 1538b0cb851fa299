// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 (SGLangAdapter:
// ShardingKey, ParseMessage, the BlockStored/BlockRemoved/AllBlocksCleared converters with padFields). The
// re-marshal of padded fields is replaced by decoding the typed struct fields from the already decoded
// values with the same coercions (nil -> zero; any int code for ints; str/bin for strings).
#pragma once

#include <string>
#include <string_view>

#include "router/kvevents/events.h"

namespace blis::router::engineadapter {

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 field-count constants
inline constexpr int sglangBlockStoredFieldCount = 9;
inline constexpr int sglangBlockRemovedFieldCount = 3;
inline constexpr int sglangBlockStoredMinFields = 5;
inline constexpr int sglangBlockRemovedMinFields = 2;

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter
class SGLangAdapter final : public kvevents::EngineAdapter {
 public:
  // pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.ShardingKey
  std::string ShardingKey(const kvevents::RawMessage& msg) const override;
  // pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.ParseMessage
  kvevents::ParsedMessage ParseMessage(const kvevents::RawMessage& msg) const override;
  // pkg/kvevents/engineadapter/common.go@71f4f099 decodeEvent with the SGLang converters
  kvevents::GenericEvent decodeEvent(std::string_view rawEventBytes) const;
  // Original to BLIS: a typed message as ParseMessage reads the bytes SGLang's publisher sends for it: each
  // event's array items as SGLang's msgspec encoder writes them ([tag, block_hashes, parent_block_hash,
  // token_ids, block_size, lora_id, medium] for BlockStored, [tag, block_hashes, medium] for BlockRemoved)
  // through the same converters. A typed event holding a field SGLang's events lack (lora_name,
  // extra_keys, group_idx, the kv_cache_spec fields) throws std::runtime_error naming it.
  kvevents::ParsedMessage ParseTyped(const engine::KvEventMessage& msg) const override;
};

}  // namespace blis::router::engineadapter
