// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 (VLLMAdapter:
// ShardingKey, ParseMessage, decodeVLLMEvent, mapEventToFields, the converters, toUint32Slice, toInt) over
// the msgpack reader of msgpack.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "router/kvcache/kvblock/any.h"
#include "router/kvevents/events.h"

namespace blis::router::engineadapter {

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter
class VLLMAdapter final : public kvevents::EngineAdapter {
 public:
  // pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.ShardingKey
  std::string ShardingKey(const kvevents::RawMessage& msg) const override;
  // pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.ParseMessage
  kvevents::ParsedMessage ParseMessage(const kvevents::RawMessage& msg) const override;
  // pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.decodeVLLMEvent
  kvevents::GenericEvent decodeVLLMEvent(std::string_view rawEventBytes) const;
  // Original to BLIS: ParseMessage's pod, model and events from a typed message, each event decoded from the
  // values its array-like msgpack encoding holds (wireFields) by decodeVLLMEvent's own conversion.
  kvevents::ParsedMessage ParseTyped(const engine::KvEventMessage& msg) const override;
};

// Original to BLIS: the values vLLM's array-like, tagged msgpack encoding of `event` decodes to (tag first, then
// upstream's field order), each integer in the kind its minimal msgpack encoding decodes to, as
// vmihailenco/msgpack decodes the engine's bytes.
std::vector<kvblock::Any> wireFields(const engine::KvEvent& event);

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 mapEventToFields
std::vector<kvblock::Any> mapEventToFields(const kvblock::Any& ev);
// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 toInt (Go int: 64-bit)
std::int64_t toInt(const kvblock::Any& raw);
// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 toUint32Slice
std::vector<std::uint32_t> toUint32Slice(const kvblock::Any& raw);

}  // namespace blis::router::engineadapter
