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
  // Original to BLIS: no engine of the simulator publishes SGLang's events yet (the SGLang port is to come), so
  // a typed message has no SGLang encoding to read: throws std::runtime_error saying so (the host refuses a
  // precise-prefix producer of engine type "sglang" before the run).
  kvevents::ParsedMessage ParseTyped(const engine::KvEventMessage& msg) const override;
};

}  // namespace blis::router::engineadapter
